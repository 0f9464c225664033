"""What the browser tests share: Debian's chromium driven by Playwright's client (`make test` installs it), and
one `tulia dev` with its built-in simulators for the modules that need nothing else of it (the chat page and
the console: each customer of theirs has a phone of its own range, so they meet nothing of each other's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, SANDBOX_PASSKEY
from tests.e2e.stack import SECRET, VERIFY, Admin, wait_for
from tulia.config import Settings
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.graph import GraphSimulator
from tulia.local.stack import free_port


@dataclass(frozen=True)
class DevStack:
    url: str
    log: Path


@pytest.fixture(scope="session")
def dev_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevStack]:
    """`tulia dev` as `make dev` runs it (its own simulators, no TULIA_* of the caller), but for a 2 s M-Pesa
    check, a 0.3 s batch window (each typed message would otherwise wait 2 s for quick follow-ups: merging them is
    tested in test_quick_messages.py and by the killed stack of test_dev_data_dir.py), and a local push service
    allowed for staff alerts."""
    port = free_port()
    log = tmp_path_factory.mktemp("dev") / "dev.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TULIA_")}
    env |= {
        "TULIA_STK_QUERY_DELAY_SECONDS": "2",
        "TULIA_AGENT_BATCH_WINDOW_SECONDS": "0.3",
        "TULIA_LOG_LEVEL": "WARNING",
    }
    # staff alerts may also go to a push service on this machine (the console test's stand-in for the browser's)
    env["TULIA_WEBPUSH_HOSTS"] = json.dumps(["127.0.0.1", *Settings.model_fields["webpush_hosts"].default])
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tulia.cli", "dev", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            deadline = time.monotonic() + 120
            while "Press Ctrl-C" not in log.read_text():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("tulia dev did not start: " + log.read_text()[-3000:])
                time.sleep(0.1)
            yield DevStack(f"http://127.0.0.1:{port}", log)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    text = log.read_text()
    assert "Traceback" not in text, text[text.find("Traceback") - 300 :][:3000]


@pytest.fixture(scope="session")
def recorded_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    """`tulia dev` with our own Graph API and Daraja recorders behind TULIA_*_API_BASE, a 0.3 s batch window and a
    2 s M-Pesa check: the admin API and local stack modules share it (one unit of the scheduler: SHARED_STACKS in
    tests/conftest.py)."""
    port = free_port()
    state = tmp_path_factory.mktemp("state")
    log = tmp_path_factory.mktemp("recorded-stack") / "stack.log"
    with (
        GraphSimulator() as graph,
        DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as daraja,
        log.open("w") as out,
    ):
        env = {
            **os.environ,
            "TULIA_STATE_DIR": str(state),
            "TULIA_META_APP_SECRET": SECRET,
            "TULIA_META_VERIFY_TOKEN": VERIFY,
            "TULIA_WHATSAPP_API_BASE": graph.base_url,
            "TULIA_MPESA_API_BASE": daraja.base_url,
            "TULIA_PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
            "TULIA_AGENT_BATCH_WINDOW_SECONDS": "0.3",
            "TULIA_STK_QUERY_DELAY_SECONDS": "2",
            "TULIA_LOG_LEVEL": "WARNING",
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "tulia.cli", "dev", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_for(lambda: "Press Ctrl-C" in log.read_text() or proc.poll() is not None, timeout=120)
            assert proc.poll() is None, "tulia dev did not start: " + log.read_text()[-3000:]
            yield Admin(f"http://127.0.0.1:{port}", graph, daraja, state)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def new_context(browser: Any, **options: Any) -> Any:
    """A browser context (one person's browser) without the console's service worker unless ``service_workers`` is
    "allow": the worker (pushed alerts, the app shell offline) is tested where it matters, the push test; elsewhere
    each context would start one that downloads the whole app again, and keep it running while the context closes."""
    return browser.new_context(**({"service_workers": "block"} | options))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = os.environ.get("TULIA_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        if "TULIA_CHROMIUM" in os.environ:  # `make test` installs it: missing there is a failure
            pytest.fail(f"no browser at {chromium}: `make browser` installs Debian's chromium")
        pytest.skip(f"no browser at {chromium} (run `make test`, which installs Debian's chromium)")
    from playwright.sync_api import expect, sync_playwright

    # an assertion on the page waits for what it expects (it never sleeps): 5 s, Playwright's default, is short
    # for a page that polls a stack on a machine whose cores a CPU hog keeps busy (make test-busy)
    expect.set_options(timeout=20_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()
