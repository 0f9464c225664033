"""The `tulia` command as a shop owner or developer runs it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import boto3
from moto.server import ThreadedMotoServer

from tests.conftest import PACKS, ROOT
from tulia.local.stack import free_port

TULIA = [sys.executable, "-m", "tulia.cli"]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TULIA, *args], capture_output=True, text=True, cwd=ROOT, timeout=120, env={**os.environ, **(env or {})}
    )


def test_dry_run_validates_both_demo_packs() -> None:
    out = run("seed", "--pack", "packs/demo-shop", "--pack", "packs/demo-salon", "--dry-run")
    assert out.returncode == 0, out.stderr
    assert "valid: demo-shop (311 items" in out.stdout
    assert "valid: demo-salon" in out.stdout


def test_a_broken_pack_exits_non_zero_and_names_the_problem(tmp_path: Path) -> None:
    broken = tmp_path / "shop"
    shutil.copytree(PACKS / "demo-shop", broken)
    lines = (broken / "catalog.csv").read_text().splitlines()
    lines[5] = lines[5].replace(",Smartphones,", ",,")
    (broken / "catalog.csv").write_text("\n".join(lines) + "\n")
    out = run("seed", "--pack", str(broken), "--dry-run")
    assert out.returncode == 1
    assert "nothing was written" in out.stderr
    assert "catalog.csv, row 6, column category" in out.stderr


def test_seed_loads_both_demo_packs_into_a_dynamodb_endpoint() -> None:
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        endpoint = f"http://127.0.0.1:{port}"
        out = run(
            "seed",
            "--pack",
            "packs/demo-shop",
            "--pack",
            "packs/demo-salon",
            "--create-tables",
            env={"TULIA_AWS_ENDPOINT_URL": endpoint, "TULIA_TABLE_PREFIX": "cli-"},
        )
        assert out.returncode == 0, out.stderr
        assert "seeded demo-shop (Duka Bora Electronics): 311 items in 16 categories" in out.stdout
        assert "seeded demo-salon" in out.stdout
        client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="eu-west-1")
        route = client.get_item(
            TableName="cli-tenants", Key={"pk": {"S": "WAPHONE#106540352242922"}, "sk": {"S": "ROUTE"}}
        )
        assert route["Item"]["tenant_id"]["S"] == "demo-shop"
        again = run(
            "seed", "--pack", "packs/demo-shop", env={"TULIA_AWS_ENDPOINT_URL": endpoint, "TULIA_TABLE_PREFIX": "cli-"}
        )
        assert again.returncode == 0, again.stderr  # re-seeding replaces, it does not fail
    finally:
        server.stop()


def test_seed_in_aws_puts_the_documents_in_the_kb_bucket_for_the_ingestion_function() -> None:
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        endpoint = f"http://127.0.0.1:{port}"
        s3 = boto3.client("s3", endpoint_url=endpoint, region_name="eu-west-1")
        s3.create_bucket(Bucket="kb-docs", CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
        env = {"TULIA_AWS_ENDPOINT_URL": endpoint, "TULIA_TABLE_PREFIX": "cli-aws-", "TULIA_KB_BUCKET": "kb-docs"}

        out = run("seed", "--pack", "packs/demo-shop", "--create-tables", env=env)

        assert out.returncode == 0, out.stderr
        kb = sorted(
            p.relative_to(PACKS / "demo-shop" / "kb").as_posix() for p in (PACKS / "demo-shop" / "kb").rglob("*.*")
        )
        assert f"{len(kb)} documents uploaded for ingestion" in out.stdout
        keys = sorted(o["Key"] for o in s3.list_objects_v2(Bucket="kb-docs")["Contents"])
        assert keys == [f"demo-shop/{k}" for k in kb]
        first = (PACKS / "demo-shop" / "kb" / kb[0]).read_bytes()
        assert s3.get_object(Bucket="kb-docs", Key=f"demo-shop/{kb[0]}")["Body"].read() == first
        # nothing was indexed by the command itself: the function does it on the upload events
        items = boto3.client("dynamodb", endpoint_url=endpoint, region_name="eu-west-1").scan(TableName="cli-aws-kb")
        assert items["Count"] == 0
    finally:
        server.stop()


def test_dev_seeds_the_demo_packs_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    stderr = (tmp_path / "stderr.txt").open("w")
    proc = subprocess.Popen(
        [*TULIA, "dev", "--port", str(free_port())], cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True
    )
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            if not line:
                break
            lines.append(line)
            if "Ctrl-C" in line:
                break
        assert any("seeded demo-shop" in line for line in lines), lines
        assert any("seeded demo-salon" in line for line in lines), lines
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)  # keep reading: a full pipe must not block the shutdown
        assert proc.returncode == 0
        assert "stopped." in rest
    finally:
        if proc.poll() is None:
            proc.kill()
        stderr.close()
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


def test_a_bad_setting_is_named_without_a_traceback() -> None:
    out = run("seed", "--pack", "packs/demo-salon", env={"TULIA_HTTP_TIMEOUT_SECONDS": "-1"})
    assert out.returncode == 2
    assert "TULIA_HTTP_TIMEOUT_SECONDS" in out.stderr
    assert "Traceback" not in out.stderr


def test_seed_without_a_reachable_store_explains_what_to_set() -> None:
    out = run(
        "seed",
        "--pack",
        "packs/demo-salon",
        env={"TULIA_AWS_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}", "AWS_MAX_ATTEMPTS": "1"},
    )
    assert out.returncode == 1
    assert "Could not write to DynamoDB" in out.stderr
    assert "Traceback" not in out.stderr


def test_chat_talks_to_the_demo_salon_in_the_terminal() -> None:
    out = subprocess.run(
        [*TULIA, "chat", "--pack", "packs/demo-salon", "--phone", "+254722000111"],
        input="STOP\nnataka kusukwa\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "TULIA_LLM": "rules"},
    )
    assert out.returncode == 0, out.stderr
    assert "customer> STOP" in out.stdout
    transcript = out.stdout.split("customer> nataka kusukwa", 1)[1]
    assert "KES" in transcript  # a shortlist of the salon's services with their prices
    assert '"level"' not in out.stdout  # a transcript, not log lines


def test_chat_refuses_an_unknown_tenant() -> None:
    out = run("chat", "--pack", "packs/demo-salon", "--tenant", "nobody")
    assert out.returncode == 1
    assert "No pack has tenant_id 'nobody'" in out.stderr


def test_register_urls_tells_daraja_and_pesapal_where_the_deployment_is() -> None:
    from tulia.local.simulators.daraja import DarajaSimulator
    from tulia.local.simulators.pesapal import PesapalSimulator

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        with DarajaSimulator() as daraja, PesapalSimulator() as pesapal:
            env = {
                "TULIA_AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
                "TULIA_TABLE_PREFIX": "reg-",
                "TULIA_MPESA_API_BASE": daraja.base_url,
                "TULIA_PESAPAL_API_BASE": pesapal.base_url,
                "TULIA_PUBLIC_BASE_URL": "https://api.tulia.example",
            }
            assert run("seed", "--pack", "packs/demo-shop", "--create-tables", env=env).returncode == 0
            out = run("register-urls", "--tenant-id", "demo-shop", env=env)
            assert out.returncode == 0, out.stderr
            assert "registered Daraja C2B URLs of shortcode 600984" in out.stdout
            assert "registered PesaPal IPN https://api.tulia.example/payments/pesapal/ipn/demo-shop" in out.stdout
            [c2b] = daraja.calls("/mpesa/c2b/v1/registerurl")
            assert c2b.body["ShortCode"] == "600984"
            assert c2b.body["ConfirmationURL"].startswith("https://api.tulia.example/payments/daraja/c2b/")
            assert c2b.body["ConfirmationURL"].endswith("/confirmation")
            unknown = run("register-urls", "--tenant-id", "no-such-shop", env=env)
            assert unknown.returncode == 1
            assert "Unknown tenant 'no-such-shop'" in unknown.stderr
    finally:
        server.stop()


def test_a_second_tulia_dev_on_a_used_port_says_so_in_one_line_and_leaves_the_running_stack_alone(
    tmp_path: Path,
) -> None:
    """Issue 32, part 9: it printed a raw OSError and deleted the running stack's state files."""
    import socket

    state = tmp_path / "state"
    state.mkdir()
    with socket.socket() as running:  # the port a stack already serves on
        running.bind(("127.0.0.1", 0))
        running.listen()
        port = running.getsockname()[1]
        mine = state / f"dev-{port}.json"
        mine.write_text('{"the running stack": "its pool"}')
        out = run("dev", "--port", str(port), env={**os.environ, "TULIA_STATE_DIR": str(state)})
    assert out.returncode == 1
    [line] = out.stderr.strip().splitlines()
    assert f"Port {port} is in use" in line
    assert "Traceback" not in out.stdout + out.stderr
    assert mine.read_text() == '{"the running stack": "its pool"}'  # untouched


def test_admin_token_names_the_stack_it_means_when_several_run(tmp_path: Path) -> None:
    """Issue 32, part 9: without --port it took the most recently started stack's pool (another test's)."""
    env = {**os.environ, "TULIA_STATE_DIR": str(tmp_path)}
    for port in (8091, 8092):
        (tmp_path / f"dev-{port}.json").write_text("{}")
    out = run("admin-token", "--tenant-id", "demo-shop", env=env)
    assert out.returncode == 1
    assert "Several local stacks are running (ports 8091, 8092): name one with --port." in out.stderr
    out = run("admin-token", "--tenant-id", "demo-shop", "--port", "8093", env=env)
    assert out.returncode == 1
    assert "No local stack runs on port 8093" in out.stderr
