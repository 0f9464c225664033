"""What the write-ahead journal of `tulia dev --data-dir` costs a webhook: signed customer messages posted
one after another (each from its own customer, so the agent is busy answering while the next arrives) to
`tulia dev` with and without a data directory; the time until the 200, p50 and p95.

    .venv/bin/python bench/dev_webhook_latency.py [messages]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from attack import SANDBOX_PASSKEY, Dev, message, sign
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.graph import GraphSimulator
from tulia.local.stack import free_port


def measure(messages: int, *, journaled: bool) -> list[float]:
    with (
        tempfile.TemporaryDirectory() as tmp,
        GraphSimulator() as graph,
        DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as daraja,
    ):
        dev = Dev(Path(tmp) / "data", graph, daraja, free_port(), data_dir=journaled)
        dev.start()
        try:
            seconds = []
            for n in range(messages):
                body = message(f"2547980{n:05d}", "habari, mna power bank?", f"wamid.latency-{n}-{time.monotonic_ns()}")
                started = time.perf_counter()
                answer = dev.post(body, sign(body))
                seconds.append(time.perf_counter() - started)
                assert answer.status_code == 200, answer.text
            return seconds
        finally:
            dev.stop()


def main() -> None:
    messages = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    for journaled in (False, True):
        seconds = sorted(measure(messages, journaled=journaled))
        p95 = seconds[int(len(seconds) * 0.95) - 1]
        label = "with --data-dir (journaled)" if journaled else "in memory"
        print(f"{label}: n={messages} p50 {statistics.median(seconds) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms")


if __name__ == "__main__":
    main()
