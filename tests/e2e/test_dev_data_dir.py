"""`tulia dev --data-dir` (what `make dev` runs): the demo shop's orders, customers and conversations
survive a restart of the stack."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import ROOT, SANDBOX_PASSKEY
from tests.e2e.test_local_stack import SECRET, VERIFY, Stack, wait_for
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.graph import GraphSimulator
from tulia.local.stack import free_port


@contextmanager
def dev(data_dir: Path, graph: GraphSimulator, daraja: DarajaSimulator, log: Path) -> Iterator[Stack]:
    port = free_port()
    env = {
        **os.environ,
        "TULIA_META_APP_SECRET": SECRET,
        "TULIA_META_VERIFY_TOKEN": VERIFY,
        "TULIA_WHATSAPP_API_BASE": graph.base_url,
        "TULIA_MPESA_API_BASE": daraja.base_url,
        "TULIA_AGENT_BATCH_WINDOW_SECONDS": "0.3",
        "TULIA_LOG_LEVEL": "WARNING",
    }
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tulia.cli", "dev", "--port", str(port), "--data-dir", str(data_dir)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_for(lambda: "Press Ctrl-C" in log.read_text(), timeout=120)
            yield Stack(f"http://127.0.0.1:{port}", graph, daraja)
        finally:
            proc.terminate()  # SIGTERM, like Ctrl-C: the stack saves its data and stops
            proc.wait(timeout=60)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def test_the_demo_shop_keeps_its_orders_and_conversations_across_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    phone = "254711900001"
    with GraphSimulator() as graph, DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as daraja:
        with dev(data, graph, daraja, tmp_path / "first.log") as stack:
            stack.say(phone, "I want 1 JBL Flip 6, I'll pick it up")
            summary = stack.say(phone, "black")
            [ref] = re.findall(r"Order (ORD-\w{5})", summary)
        assert (data / "tables.json").exists()
        with dev(data, graph, daraja, tmp_path / "second.log") as stack:
            assert re.search(r"Data directory: .* \(\d+ records restored", (tmp_path / "second.log").read_text())
            status = stack.say(phone, "where is my order?")
    assert ref in status  # the order and the customer came back
    assert "waiting for you to choose how to pay" in status
