"""The basket state machine at a large size: random conversations of adds (one item or several in one
message), count changes, corrections, removals and side questions, in English and Swahili, against a
reference basket (``tests/integration/test_basket_machine.py``; `make test` runs a small size).

Method: the same Hypothesis state machine through the real graph (rules engine, moto), with
``BASKET_MACHINE_EXAMPLES`` examples of up to ``BASKET_MACHINE_STEPS`` messages; a divergence fails the run
and Hypothesis prints the shortest conversation that shows it.

    .venv/bin/python bench/basket_machine.py [examples] [steps]
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    examples = sys.argv[1] if len(sys.argv) > 1 else "150"
    steps = sys.argv[2] if len(sys.argv) > 2 else "10"
    env = {**os.environ, "BASKET_MACHINE_EXAMPLES": examples, "BASKET_MACHINE_STEPS": steps}
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "--timeout", "0",
         "tests/integration/test_basket_machine.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    verdict = "0 divergences" if result.returncode == 0 else "DIVERGED (see the shortest example above)"
    if result.returncode != 0:
        print(result.stdout[-6000:])
    run = next((line for line in result.stdout.splitlines() if line.startswith("basket machine run:")), "")
    print(run)
    print(f"basket state machine: {examples} examples of up to {steps} messages, {verdict}, {seconds:.0f} s")
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
