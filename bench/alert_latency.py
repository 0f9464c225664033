"""Staff alert latency in the local stack: from a customer's message asking for a person (a signed webhook to
`tulia dev`) to the owner's device receiving the Web Push (the push service stand-in, which verifies and decrypts
it) and to the WhatsApp alert on her own number (our Graph API recorder behind TULIA_WHATSAPP_API_BASE). Each
customer is new, so every message opens a ticket. p50 and p95 of each.

    .venv/bin/python bench/alert_latency.py [customers]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from attack import ROOT, SANDBOX_PASSKEY, Dev, message, sign, wait_for
from tulia.config import Settings
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.graph import GraphSimulator
from tulia.local.simulators.push import PushService
from tulia.local.stack import free_port

OWNER_NUMBER = "254722000777"


def owner_token(dev: Dev) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "tulia.cli", "admin-token", "--tenant-id", "demo-shop", "--port", str(dev.port)],
        cwd=ROOT,
        env={**os.environ, "TULIA_STATE_DIR": str(dev.data.parent / "state")},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return out.stdout.strip()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


def main() -> None:
    customers = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    os.environ["TULIA_WEBPUSH_HOSTS"] = json.dumps(["127.0.0.1", *Settings.model_fields["webpush_hosts"].default])
    with (
        tempfile.TemporaryDirectory() as tmp,
        GraphSimulator() as graph,
        DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as daraja,
        PushService() as push,
    ):
        dev = Dev(Path(tmp) / "data", graph, daraja, free_port(), data_dir=False)
        dev.start()
        try:
            headers = {"Authorization": f"Bearer {owner_token(dev)}"}
            # the shop's approved templates from its WhatsApp account (our recorder's examples), as an owner syncs them
            synced = httpx.post(f"{dev.url}/admin/templates/sync", headers=headers, timeout=20)
            assert synced.status_code == 200, synced.text
            device = push.subscribe()
            added = httpx.post(f"{dev.url}/admin/alerts/devices", json=device, headers=headers, timeout=20)
            assert added.status_code == 200, added.text
            choices = {"push": ["handoff"], "whatsapp": ["handoff"], "whatsapp_number": f"+{OWNER_NUMBER}"}
            saved = httpx.put(
                f"{dev.url}/admin/alerts/settings", json={**choices, "quiet_hours": None}, headers=headers
            )
            assert saved.status_code == 200, saved.text
            to_push, to_whatsapp = [], []
            for n in range(customers):
                pushed, told = len(push.messages_to(device)), len(graph.messages_to(OWNER_NUMBER))
                body = message(
                    f"2547981{n:05d}", "I want to talk to a person", f"wamid.alert-{n}-{time.monotonic_ns()}"
                )
                started = time.perf_counter()
                assert dev.post(body, sign(body)).status_code == 200
                assert wait_for(lambda: len(push.messages_to(device)) > pushed, timeout=60)  # noqa: B023
                to_push.append(time.perf_counter() - started)
                assert wait_for(lambda: len(graph.messages_to(OWNER_NUMBER)) > told, timeout=60)  # noqa: B023
                to_whatsapp.append(time.perf_counter() - started)
            assert push.refused == []
        finally:
            dev.stop()
    for label, seconds in (("Web Push", to_push), ("WhatsApp alert", to_whatsapp)):
        print(
            f"{label}: n={customers} p50 {statistics.median(seconds) * 1000:.0f} ms, p95 {p95(seconds) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
