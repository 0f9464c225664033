"""A shop's reading layer (issue 53, part 5): how long it takes to learn from the owner's labels, and to read a
message with it, by the number of labels (the layer is built again on the first message after a label).

    .venv/bin/python bench/shop_layer.py

Method: labels are corpus messages (``eval/corpus/messages.txt``, their own labels), 10 / 100 / 500 of them; the
build is timed once each (plain Python, no numpy), the reads over 1,000 other corpus messages (p50 / p95).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    from tulia.nlu.corpus import load_messages
    from tulia.nlu.reader import message_reader
    from tulia.nlu.shop_layer import ShopLayer

    message_reader()  # loaded once, as in a warm process
    examples = load_messages(ROOT / "eval" / "corpus" / "messages.txt")
    others = [ex.text for ex in examples][-1000:]
    print("| labels | build | read p50 | read p95 |")
    print("|---:|---:|---:|---:|")
    for size in (10, 100, 500):
        labelled = [(ex.text, ex.label, None, None) for ex in examples[:size]]
        started = time.perf_counter()
        layer = ShopLayer(labelled)
        build_ms = 1000 * (time.perf_counter() - started)
        times = []
        for text in others:
            t0 = time.perf_counter()
            layer.read(text)
            times.append(1000 * (time.perf_counter() - t0))
        times.sort()
        p95 = times[int(0.95 * len(times))]
        print(f"| {size} | {build_ms:.0f} ms | {statistics.median(times):.3f} ms | {p95:.3f} ms |")


if __name__ == "__main__":
    sys.exit(main())
