"""Local pipeline throughput: signed webhooks in, WhatsApp replies out, with 20 concurrent customers.

The whole local stack runs in this process (moto server for DynamoDB and SQS, the HTTP routes, the
agent poller, the Graph API simulator) with the ``rules`` engine. Twenty customers each hold a short
conversation over HTTP (each waits for the bot's reply before sending the next message, as people
do). Reported: messages per second from webhook to the reply received by the Graph API simulator,
and the per-message latency.

    .venv/bin/python bench/pipeline_throughput.py
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench.common import PACKS, describe
from tulia.channel.whatsapp import sign
from tulia.config import Settings
from tulia.local.stack import LocalStack, free_port
from tulia.observability import logger
from tulia.packs.loader import load_pack

CUSTOMERS = 20
SCRIPT = ["hi", "I want a samsung phone", "1", "any offers?", "where is my order?"]


def payload(phone: str, mid: str, words: str) -> bytes:
    return json.dumps(
        {
            "object": "whatsapp_business_account",
            "entry": [{"id": "W", "changes": [{"field": "messages", "value": {
                "messaging_product": "whatsapp",
                "metadata": {"display_phone_number": "254700000001", "phone_number_id": "106540352242922"},
                "contacts": [{"profile": {"name": "Bench"}, "wa_id": phone}],
                "messages": [{"from": phone, "id": mid, "timestamp": "1795428000", "type": "text",
                              "text": {"body": words}}],
            }}]}],
        }
    ).encode()  # fmt: skip


def main() -> None:
    logger.setLevel("ERROR")
    settings = Settings(agent_batch_window_seconds=0.2)
    stack = LocalStack([load_pack(PACKS / "demo-shop")], port=free_port(), settings=settings).start()
    assert stack.graph is not None
    latencies: list[float] = []
    lock = threading.Lock()

    def customer(n: int) -> None:
        phone = f"2547220{n:05d}"
        with httpx.Client(timeout=30) as http:
            for i, words in enumerate(SCRIPT):
                before = len(stack.graph.messages_to(phone))
                body = payload(phone, f"wamid.tp{n}-{i}", words)
                started = time.perf_counter()
                http.post(
                    f"{stack.base_url}/webhooks/whatsapp",
                    content=body,
                    headers={"content-type": "application/json", "x-hub-signature-256": sign(body, "local-app-secret")},
                )
                while len(stack.graph.messages_to(phone)) <= before:
                    time.sleep(0.01)
                with lock:
                    latencies.append((time.perf_counter() - started) * 1000)

    try:
        started = time.perf_counter()
        threads = [threading.Thread(target=customer, args=(n,)) for n in range(CUSTOMERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
    finally:
        stack.stop()
    total = CUSTOMERS * len(SCRIPT)
    print("## Local pipeline throughput (rules engine)\n")
    print(f"- {CUSTOMERS} concurrent customers x {len(SCRIPT)} messages = {total} messages in {elapsed:.1f} s")
    print(f"- throughput: {total / elapsed:.1f} messages/s from webhook to the reply at the Graph API")
    print(f"- webhook-to-first-reply latency: {describe(latencies)}")
    print(f"- agent batches: {stack.poller.batches}, mean {total / max(1, stack.poller.batches):.1f} messages each")
    print(f"  (median latency {statistics.median(latencies):.0f} ms includes the 0.2 s batching window)")


if __name__ == "__main__":
    main()
