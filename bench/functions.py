"""The Lambda functions: cold import time of each handler module, and the webhook's warm latency.

- Cold import: a fresh interpreter imports ``functions/<name>/handler.py`` (as Lambda's init does),
  fifteen times, interleaved with a bare ``import boto3``; median and max are reported, and the
  webhook's median over boto3's (target: within 1.5x; the webhook routes with Powertools' resolver).
  The agent is reported as shipped (LangGraph and the engine load on the first batch) and eagerly
  (the same modules imported up front), which is what its first invocation pays.
- Warm latency: ``handle(event)`` on a real API Gateway v2 event with a signed one-message Meta
  payload, 3,000 times, with the de-duplication store and the queue replaced by in-memory stand-ins
  so AWS calls are excluded (target p99 under 10 ms).

    .venv/bin/python bench/webhook.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import describe, percentile
from tulia.channel.whatsapp import sign
from tulia.pipeline.webhook import WebhookService
from tulia.pipeline.webhook_app import handle

ROOT = Path(__file__).resolve().parents[1]

IMPORTS = {
    "bare boto3 (the baseline)": "import boto3",
    "webhook": "import handler",
    "agent (lazy, as shipped)": "import handler",
    "agent (eager: + tulia.pipeline.agent and the engine)": "import handler, tulia.pipeline.agent, tulia.nlu.rules",
    "payments": "import handler",
}
FOLDER = {"webhook": "webhook", "payments": "payments", "bare boto3 (the baseline)": "webhook"}


class MemoryMarkers:
    def __init__(self) -> None:
        self.seen: set[tuple[str, str]] = set()

    def claim_inbound(self, tenant_id: str, message_id: str, **_: Any) -> bool:
        key = (tenant_id, message_id)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def release_inbound(self, tenant_id: str, message_id: str) -> None:
        self.seen.discard((tenant_id, message_id))

    def record_status(self, *args: Any, **kw: Any) -> None:
        return None

    def note_inbound(self, *args: Any, **kw: Any) -> None:  # the 24-hour window's start (a DynamoDB update in AWS)
        return None


class MemoryQueue:
    def __init__(self) -> None:
        self.sent = 0

    def send(self, **_: Any) -> None:
        self.sent += 1


def cold_imports(name: str, statement: str, runs: int = 7) -> list[float]:
    folder = FOLDER.get(name, "agent")
    code = (
        f"import time; t = time.perf_counter(); import sys; sys.path.insert(0, 'functions/{folder}'); "
        f"{statement}; print(time.perf_counter() - t)"
    )
    out = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
        out.append(float(done.stdout.strip().splitlines()[-1]))
    return out


def event(body: bytes) -> dict[str, Any]:
    return {
        "version": "2.0",
        "rawPath": "/webhooks/whatsapp",
        "headers": {"content-type": "application/json", "x-hub-signature-256": sign(body, "bench-secret")},
        "routeKey": "$default",
        "requestContext": {
            "http": {"method": "POST", "path": "/webhooks/whatsapp"},
            "requestId": "bench",
            "routeKey": "$default",
            "stage": "$default",
        },
        "body": body.decode(),
        "isBase64Encoded": False,
    }


def main() -> None:
    from tulia.observability import logger

    logger.setLevel("WARNING")
    print("## Lambda functions\n")
    runs: dict[str, list[float]] = {name: [] for name in IMPORTS}
    for _ in range(15):  # interleaved, so machine noise falls on every row alike
        for name, statement in IMPORTS.items():
            runs[name] += cold_imports(name, statement, runs=1)
    for name, cold in runs.items():
        print(f"- cold import, {name}: median {statistics.median(cold):.3f} s, max {max(cold):.3f} s")
    ratio = statistics.median(runs["webhook"]) / statistics.median(runs["bare boto3 (the baseline)"])
    print(f"- webhook cold import over bare boto3: {ratio:.2f}x (target at most 1.5x)")
    service = WebhookService(
        app_secret="bench-secret",
        verify_token="t",
        tenant_for_phone_number_id=lambda _pnid: "demo-shop",
        messages=MemoryMarkers(),  # type: ignore[arg-type]
        queue=MemoryQueue(),  # type: ignore[arg-type]
        clock=lambda: datetime(2026, 11, 23, tzinfo=UTC),
    )
    samples = []
    for n in range(3_000):
        body = json.dumps(
            {
                "object": "whatsapp_business_account",
                "entry": [{"id": "W", "changes": [{"field": "messages", "value": {
                    "messaging_product": "whatsapp",
                    "metadata": {"display_phone_number": "254700000001", "phone_number_id": "106540352242922"},
                    "contacts": [{"profile": {"name": "Wanjiku"}, "wa_id": "254712345678"}],
                    "messages": [{"from": "254712345678", "id": f"wamid.bench{n}", "timestamp": "1795428000",
                                  "type": "text", "text": {"body": "Nataka simu ya Samsung"}}],
                }}]}],
            }
        ).encode()  # fmt: skip
        started = time.perf_counter()
        response = handle(event(body), service)
        samples.append((time.perf_counter() - started) * 1000)
        assert response["statusCode"] == 200
    print(
        f"- warm handle() of a signed one-message POST, AWS calls excluded: {describe(samples)}, "
        f"p99 {percentile(samples, 99):.2f} ms"
    )


if __name__ == "__main__":
    main()
