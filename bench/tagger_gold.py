"""How well the token tagger reads real development messages, against hand-labelled spans (issue 53).

The tagger is trained on filled templates and measured on templates it did not see; this measures it on what
customers of the development goals actually wrote (``eval/goals/*.yaml``, never a blind goal), each read at its
shop with the shop's gazetteer, against spans labelled by helpers who read only the guide, the packs and the goals
(``eval/tagger/gold/*.tsv``: ``key <TAB> message <TAB> KIND.act:words | ...``). It is what decides between two
retrains (a corpus change, a seed, a hyperparameter): the one that reads real messages better ships.

    .venv/bin/python bench/tagger_gold.py                          # the shipped weights
    .venv/bin/python bench/tagger_gold.py A.weights B.weights      # several weights side by side

Figures: exact span F1 (same kind, act and words), overlap F1 (same kind and act, overlapping words), exact F1 by
kind and by development set.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "shared"))
sys.path.insert(0, str(ROOT / "scripts"))

from train_tagger import HELD_OUT_SETS, shop_gazetteer  # noqa: E402
from tulia.nlu.tagger import WEIGHTS_FILE, TokenTagger, load_weights  # noqa: E402
from tulia.nlu.tagger_corpus import LabelledMessage, labelled_messages  # noqa: E402


def development() -> list[LabelledMessage]:
    """The labelled messages of the development goals (the written ones are training data only)."""
    return [m for m in labelled_messages(ROOT / "eval") if not m.key.startswith("written/")]


def _overlap(a: tuple[str, int, int], b: tuple[str, int, int]) -> bool:
    """Two spans of the same kind and act that share a character."""
    return a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


def score(tagger: TokenTagger, data: list[LabelledMessage]) -> dict[str, object]:
    exact = found = gold = overlap_gold = overlap_found = 0
    by_kind: dict[str, Counter[str]] = {}
    by_set: dict[str, list[int]] = {}
    for message in data:
        key, text = message.key, message.text
        wanted = list(message.spans)
        read = [
            (f"{s.kind}.{s.act}" if s.act else s.kind, s.start, s.end)
            for s in tagger.read(text, shop_gazetteer(message.pack))
        ]
        same = set(read) & set(wanted)
        exact += len(same)
        found += len(read)
        gold += len(wanted)
        overlap_gold += sum(any(_overlap(r, w) for r in read) for w in wanted)
        overlap_found += sum(any(_overlap(r, w) for w in wanted) for r in read)
        for label, *_ in wanted:
            by_kind.setdefault(label.split(".")[0], Counter())["gold"] += 1
        for label, *_ in read:
            by_kind.setdefault(label.split(".")[0], Counter())["found"] += 1
        for label, *_ in same:
            by_kind[label.split(".")[0]]["right"] += 1
        dev = by_set.setdefault(key.split("/")[0], [0, 0])
        dev[0] += 2 * len(same)
        dev[1] += len(read) + len(wanted)

    def f1(right: int, a: int, b: int) -> float:
        return round(2 * right / max(a + b, 1), 3)

    return {
        "messages": len(data),
        "spans": gold,
        "exact_f1": f1(exact, found, gold),
        "overlap_f1": round(
            2
            * (overlap_gold / max(gold, 1))
            * (overlap_found / max(found, 1))
            / max(overlap_gold / max(gold, 1) + overlap_found / max(found, 1), 1e-9),
            3,
        ),
        "by_kind": {k: f1(c["right"], c["gold"], c["found"]) for k, c in sorted(by_kind.items())},
        "by_set": {k: round(a / max(b, 1), 3) for k, (a, b) in sorted(by_set.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("weights", nargs="*", type=Path, help="weights files (default: the shipped ones)")
    args = parser.parse_args()
    data = development()
    held = [m for m in data if m.key.split("/")[0] in HELD_OUT_SETS]
    for path in args.weights or [WEIGHTS_FILE]:
        tagger = load_weights(path)
        print(f"{path.name}, all development sets: {score(tagger, data)}")
        # held out only by train_tagger.py's measuring run: weights trained on all labelled messages read them too
        print(f"{path.name}, {', '.join(HELD_OUT_SETS)} (held out in its measuring run): {score(tagger, held)}")


if __name__ == "__main__":
    main()
