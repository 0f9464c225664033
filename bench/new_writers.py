"""How the reader and the tagger read a writer they never learned from (issue 53: the many-writers corpus).

Each file of ``eval/corpus/writers/`` was written by its own helper session, in one customer's voice, from a few
training packs only. For each writer this script trains twice and reads that writer's messages:

- *no writer*: trained on the corpus without any writer's file (what the project read before there were writers);
- *the others*: trained on the corpus with every writer but this one.

The first figure is how a new writer is read by one engineer's corpus; the second, by a corpus of many writers
less one. Their difference says whether more writers teach the reader what a writer it never met says. The
writers' messages are training data, not blind: they may be printed (``--show``) and read.

    .venv/bin/python bench/new_writers.py             # the reader (about a minute per training)
    .venv/bin/python bench/new_writers.py --tagger    # and the token tagger (a few minutes per training)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "shared"))

import train_reader  # noqa: E402
import train_tagger  # noqa: E402
from tulia.nlu.corpus import Example, load_corpus, writers  # noqa: E402
from tulia.nlu.reader import MessageReader, dump_weights, load_weights  # noqa: E402
from tulia.nlu.tagger_corpus import TaggedExample, tagged_examples  # noqa: E402


def _writer_of(source: str) -> str | None:
    """The writer of an example's source ("writer:<name>", "writer:<name>@checkout", "writer:<name>:edits")."""
    if not source.startswith("writer:"):
        return None
    return source.removeprefix("writer:").split("@")[0].split(":")[0]


def _reader(examples: list[Example]) -> MessageReader:
    header, indexes, rows, _stats = train_reader.train(examples)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "reader.weights"
        dump_weights(path, header, indexes, rows)
        return load_weights(path)


def _intent(reader: MessageReader, examples: list[Example]) -> tuple[float, dict[str, float]]:
    right = [reader.read(ex.text, context=ex.context).label == ex.label for ex in examples]
    by_lang: dict[str, list[bool]] = defaultdict(list)
    for ex, ok in zip(examples, right, strict=True):
        by_lang[ex.lang].append(ok)
    return sum(right) / len(right), {lang: sum(v) / len(v) for lang, v in sorted(by_lang.items())}


def _pct(x: float) -> str:
    return f"{x:.1%}"


def reader_figures(names: list[str], show: bool) -> None:
    corpus = load_corpus(ROOT / "eval")
    theirs = {name: [ex for ex in corpus if ex.source == f"writer:{name}"] for name in names}
    without_writers = _reader([ex for ex in corpus if _writer_of(ex.source) is None])
    print("| writer | messages | reader trained on no writer | reader trained on the other writers |")
    print("|---|---|---|---|")
    totals = {"none": [0, 0], "others": [0, 0]}
    for name in names:
        mine = theirs[name]
        none, none_lang = _intent(without_writers, mine)
        others_reader = _reader([ex for ex in corpus if _writer_of(ex.source) != name])
        others, others_lang = _intent(others_reader, mine)
        for key, value in (("none", none), ("others", others)):
            totals[key][0] += round(value * len(mine))
            totals[key][1] += len(mine)
        langs = " / ".join(f"{lang} {_pct(none_lang[lang])}" for lang in none_lang)
        langs2 = " / ".join(f"{lang} {_pct(others_lang[lang])}" for lang in others_lang)
        print(f"| {name} | {len(mine)} | {_pct(none)} ({langs}) | {_pct(others)} ({langs2}) |")
        if show:
            for ex in mine:
                got = others_reader.read(ex.text, context=ex.context).label
                if got != ex.label:
                    print(f"    {ex.lang}\t{ex.label}\t<- {got}\t{ex.text!r}")
    print(
        f"| all writers | {totals['none'][1]} | {_pct(totals['none'][0] / totals['none'][1])} | "
        f"{_pct(totals['others'][0] / totals['others'][1])} |"
    )


def tagger_figures(names: list[str]) -> None:
    examples = tagged_examples(ROOT / "eval", pack_dirs=train_tagger.training_packs())

    def figures(tagged: list[TaggedExample], trained_on: list[TaggedExample]) -> dict[str, object]:
        tagger = train_tagger.train(trained_on).tagger()
        return train_tagger.measure(train_tagger._tags_of(tagger), tagged)

    print(
        "| writer | tagged messages | no writer: item F1 / count F1 / act "
        "| the other writers: item F1 / count F1 / act |"
    )
    print("|---|---|---|---|")
    without_writers = [ex for ex in examples if _writer_of(ex.source) is None]
    none_tagger = train_tagger.train(without_writers).tagger()
    for name in names:
        mine = [ex for ex in examples if _writer_of(ex.source) == name]
        none = train_tagger.measure(train_tagger._tags_of(none_tagger), mine)
        others = figures(mine, [ex for ex in examples if _writer_of(ex.source) != name])

        def cell(m: dict[str, object]) -> str:
            f1 = m["span_f1"]
            assert isinstance(f1, dict)
            return f"{f1.get('ITEM', 0):.3f} / {f1.get('QTY', 0):.3f} / {float(str(m['act_accuracy'])):.1%}"

        print(f"| {name} | {len(mine)} | {cell(none)} | {cell(others)} |")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tagger", action="store_true", help="the token tagger's figures too")
    parser.add_argument("--only", help="comma-separated writers")
    parser.add_argument("--show", action="store_true", help="print the messages the others' reader misreads")
    ns = parser.parse_args()
    names = [w.name for w in writers(ROOT / "eval" / "corpus")]
    if ns.only:
        names = [n for n in names if n in ns.only.split(",")]
    if not names:
        print("no writer's file in eval/corpus/writers/")
        return 1
    reader_figures(names, ns.show)
    if ns.tagger:
        tagger_figures(names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
