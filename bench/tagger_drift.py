"""How a retrained token tagger reads the development conversations' messages differently (issue 53).

Each retrain of the tagger moves readings the corpus change never meant to touch ("4 of the large glue boards" read
"large glue" as an option after measures were added). This script reads every message the development goals say
(``eval/goals/*.yaml``: openings and her own steps; never the blind goals) at the goal's shop, as the product reads
them (the shop's gazetteer), and compares the spans with the ones saved at the last accepted retrain
(``eval/tagger/dev-spans.tsv``). The development sets are readable: the changed messages are printed, old and new.

    .venv/bin/python bench/tagger_drift.py            # what changed since the saved readings
    .venv/bin/python bench/tagger_drift.py --write    # save today's readings (after reviewing the changes)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "shared"))

sys.path.insert(0, str(ROOT / "scripts"))

from train_tagger import shop_gazetteer as gazetteer  # noqa: E402
from tulia.nlu.tagger import token_tagger  # noqa: E402
from tulia.nlu.tagger_corpus import goal_messages  # noqa: E402

SAVED = ROOT / "eval" / "tagger" / "dev-spans.tsv"


def messages() -> Iterator[tuple[str, str, str]]:
    """(goal id, shop, message) of every development goal's opening and her own steps."""
    for key, pack, _lang, text in goal_messages(ROOT / "eval"):
        yield key, pack, text


def readings() -> dict[str, tuple[str, str]]:
    """Each message's spans as one line of text: kind, act and words."""
    tagger = token_tagger()
    out = {}
    for key, pack, text in messages():
        spans = tagger.read(text, gazetteer(pack))
        out[key] = (text, " | ".join(f"{s.kind}{'.' + s.act if s.act else ''}:{s.text}" for s in spans))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="save today's readings as the accepted ones")
    args = parser.parse_args()
    now = readings()
    if args.write:
        SAVED.parent.mkdir(parents=True, exist_ok=True)
        lines = [f"{key}\t{text}\t{spans}" for key, (text, spans) in sorted(now.items())]
        SAVED.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"saved {len(now)} readings to {SAVED.relative_to(ROOT)}")
        return
    saved = {}
    for line in SAVED.read_text(encoding="utf-8").splitlines():
        key, text, spans = line.split("\t")
        saved[key] = (text, spans)
    changed = [key for key in sorted(now) if key in saved and saved[key] != now[key]]
    for key in changed:
        print(f"--- {key}: {now[key][0]}\n  was: {saved[key][1]}\n  now: {now[key][1]}")
    new = [key for key in now if key not in saved]
    print(f"{len(changed)} of {len(now)} development messages read differently; {len(new)} not saved before")


if __name__ == "__main__":
    main()
