"""Noisy neighbour in the local stack: does one shop's flood slow another shop's customers down?

The whole local stack runs in this process (moto server for DynamoDB and SQS, the HTTP routes, four
agent "invocations" polling the FIFO queue, the Graph API simulator), rules engine, the product's
default settings (2 s quiet time for quick messages, 20 messages a minute per customer).

- The quiet shop (the demo salon): two customers, each sending a message, waiting for the reply, then
  pausing a second; the webhook-to-first-reply latency of each of their messages is recorded.
- The flood (the demo electronics shop): ten times the quiet shop's rate, from customers who do not
  wait for answers (one message a second each), running the whole time.

Reported: the quiet shop's latency p50/p95 alone and during the flood, and what the flood cost
(turns run, messages held back by the per-customer limit).

    .venv/bin/python bench/noisy_neighbour.py [seconds]
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench.common import PACKS, percentile
from tulia.channel.whatsapp import sign
from tulia.local.stack import LocalStack, free_port
from tulia.observability import logger
from tulia.packs.loader import load_pack

SALON_NUMBER, SHOP_NUMBER = "209876543210987", "106540352242922"
QUIET_CUSTOMERS = 2
REPLY_TIMEOUT_SECONDS = 30
unanswered: list[str] = []
QUIET_MESSAGES = ["Habari", "nataka kusuka nywele", "bei gani?", "mko wapi?", "asante"]


def payload(number: str, phone: str, mid: str, words: str) -> bytes:
    return json.dumps(
        {
            "object": "whatsapp_business_account",
            "entry": [{"id": "W", "changes": [{"field": "messages", "value": {
                "messaging_product": "whatsapp",
                "metadata": {"display_phone_number": "254700000000", "phone_number_id": number},
                "contacts": [{"profile": {"name": "Bench"}, "wa_id": phone}],
                "messages": [{"from": phone, "id": mid, "timestamp": str(int(time.time())), "type": "text",
                              "text": {"body": words}}],
            }}]}],
        }
    ).encode()  # fmt: skip


def post(http: httpx.Client, url: str, body: bytes) -> None:
    headers = {"content-type": "application/json", "x-hub-signature-256": sign(body, "local-app-secret")}
    http.post(url, content=body, headers=headers)


def quiet_run(stack: LocalStack, label: str, seconds: float) -> list[float]:
    """The quiet shop's customers for ``seconds``: latency of each message (ms)."""
    assert stack.graph is not None
    graph = stack.graph
    latencies: list[float] = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def customer(n: int) -> None:
        phone = f"2547330{label}{n:03d}"
        with httpx.Client(timeout=30) as http:
            i = 0
            while time.monotonic() < deadline:
                before = len(graph.messages_to(phone))
                started = time.perf_counter()
                words = QUIET_MESSAGES[i % len(QUIET_MESSAGES)]
                post(
                    http,
                    f"{stack.base_url}/webhooks/whatsapp",
                    payload(SALON_NUMBER, phone, f"wamid.q{label}{n}-{i}", words),
                )
                waited = time.monotonic() + REPLY_TIMEOUT_SECONDS
                while len(graph.messages_to(phone)) <= before and time.monotonic() < waited:
                    time.sleep(0.01)
                with lock:
                    if len(graph.messages_to(phone)) > before:
                        latencies.append((time.perf_counter() - started) * 1000)
                    else:
                        unanswered.append(f"{phone}: {words}")
                i += 1
                time.sleep(1.0)

    threads = [threading.Thread(target=customer, args=(n,)) for n in range(QUIET_CUSTOMERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies


def main() -> None:
    logger.setLevel("ERROR")
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 40
    packs = [load_pack(PACKS / "demo-shop"), load_pack(PACKS / "demo-salon")]
    stack = LocalStack(packs, port=free_port()).start()
    try:
        alone = quiet_run(stack, "1", seconds)
        quiet_rate = len(alone) / seconds
        flood_rate = 10 * quiet_rate
        flooders = max(1, round(flood_rate))  # customers sending one message a second each
        stop = threading.Event()
        sent = [0]

        def flood(n: int) -> None:
            phone = f"2547440{n:05d}"
            with httpx.Client(timeout=30) as http:
                i = 0
                while not stop.is_set():
                    post(
                        http,
                        f"{stack.base_url}/webhooks/whatsapp",
                        payload(SHOP_NUMBER, phone, f"wamid.f{n}-{i}", f"hi {i}"),
                    )
                    sent[0] += 1
                    i += 1
                    stop.wait(1.0)

        flood_threads = [threading.Thread(target=flood, args=(n,)) for n in range(flooders)]
        for t in flood_threads:
            t.start()
        time.sleep(3)  # the flood is on before the quiet shop's customers write
        during = quiet_run(stack, "2", seconds)
        stop.set()
        for t in flood_threads:
            t.join()
    finally:
        stack.stop()
    p95_alone, p95_during = percentile(alone, 95), percentile(during, 95)
    print("## Noisy neighbour (local stack, rules engine, default limits)\n")
    print(f"- quiet shop: {QUIET_CUSTOMERS} customers, {quiet_rate:.2f} messages/s; flood shop: {flooders} customers, "
          f"{sent[0] / (seconds + 3):.1f} messages/s ({sent[0]} messages, about 10x)")  # fmt: skip
    print(f"- quiet shop alone: p50 {percentile(alone, 50):.0f} ms, p95 {p95_alone:.0f} ms (n={len(alone)})")
    print(
        f"- quiet shop during the flood: p50 {percentile(during, 50):.0f} ms, p95 {p95_during:.0f} ms (n={len(during)})"
    )
    print(f"- p95 during / alone: {p95_during / p95_alone:.2f}x (target: within 1.5x)")
    print("  (latency includes the 2 s quiet time the agent waits for a customer's next quick message)")
    print(
        f"- quiet shop's messages without a reply within {REPLY_TIMEOUT_SECONDS} s: {len(unanswered)} {unanswered[:5]}"
    )


if __name__ == "__main__":
    main()
