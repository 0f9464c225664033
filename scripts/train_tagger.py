"""Train the token tagger (``shared/tulia/nlu/tagger.weights``) from the tagged corpus.

    .venv/bin/python scripts/train_tagger.py              # measure on held-out templates, train on all, write
    .venv/bin/python scripts/train_tagger.py --check      # exit 1 if the shipped weights were not trained on
                                                          # today's corpus
    .venv/bin/python scripts/train_tagger.py --reproduce  # retrain (nothing written) and compare its tags with the
                                                          # shipped weights' over the corpus: exit 1 past the tolerance

Method: ``tulia.nlu.tagger_corpus.tagged_examples`` (the reader's templates and the edit templates, filled with
their slots kept as spans, typing's noise added word by word, each with a shop's gazetteer partly left out) and the
hand-labelled messages (``eval/tagger/gold/``: real development messages and messages helpers wrote, each read with
its shop's gazetteer as the product reads it, each ``GOLD_REPEAT`` times); a linear-chain CRF trained by
python-crfsuite (L-BFGS, L1 penalty ``C1`` so that only the features that carry a weight are kept, L2 penalty
``C2``, at most ``MAX_ITERATIONS``): a convex objective, so one corpus has one answer and a retrain gives the same
tags. Transitions the BIO scheme forbids are never taken by the decoder. First it is measured on a fifth of the
templates it did not see (whole templates held out, so a wording it never met) and on the labelled messages of
``HELD_OUT_SETS`` (development shops whose messages it never read); then trained on all of them. The weights' header
records the libraries' versions, the hyperparameters, the corpus digest and the held-out figures. python-crfsuite is
a build-time tool: the shipped tagger decodes its weights in plain Python.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import tempfile
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pycrfsuite

from tulia.nlu.tagger import (
    TAGS,
    WEIGHTS_FILE,
    Gazetteer,
    TokenTagger,
    dump_weights,
    load_weights,
    read_header,
    spans,
    token_features,
)
from tulia.nlu.tagger_corpus import (
    GAZETTEER_DROPOUT,
    GOLD_REPEAT,
    OWN_NAME_DROPOUT,
    VARIANTS,
    TaggedExample,
    labelled_examples,
    labelled_messages,
    tagged_examples,
)

ROOT = Path(__file__).resolve().parents[1]
C1 = 0.05  # L1: features whose weight does not pay for itself are dropped (about 11,000 are kept)
C2 = 0.01  # L2
MAX_ITERATIONS = 200
HELD_OUT_EVERY = 5  # one template in five is held out for the measurement
HELD_OUT_SETS = ("dev10", "dev11")  # the labelled messages of these development sets too: shops it never saw
REPRODUCE_TOLERANCE = 0.995  # share of the corpus's tags a retrain must give alike
DECIMALS = 4  # the weights are written rounded to this many places

_INDEX = {tag: n for n, tag in enumerate(TAGS)}


def training_packs() -> list[Path]:
    """The demo and evaluation packs whose catalogs the tagger may learn names from: never a blind set's shop."""
    from tulia.evaluation import NOT_TRAINED_ON

    dirs = [*sorted((ROOT / "packs").iterdir()), *sorted((ROOT / "eval" / "packs").iterdir())]
    return [d for d in dirs if d.is_dir() and d.name not in NOT_TRAINED_ON]


@cache
def shop_gazetteer(pack: str) -> Gazetteer:
    """The gazetteer the product reads a message of this shop with (its catalog's names, zones and places)."""
    from tulia.graph.nodes import gazetteer_for
    from tulia.packs.loader import load_pack
    from tulia.search.catalog_index import CatalogIndex

    loaded = load_pack(next(d / pack for d in (ROOT / "eval" / "packs", ROOT / "packs") if (d / pack).is_dir()))
    return gazetteer_for(CatalogIndex(loaded.catalog), loaded.tenant.delivery_places())


def labelled(held_out: bool | None = None) -> list[TaggedExample]:
    """The hand-labelled messages as examples (``held_out``: only those of ``HELD_OUT_SETS``, or only the rest)."""
    from tulia.nlu.corpus import NearCopies, blind_messages

    messages = labelled_messages(ROOT / "eval")
    if held_out is not None:
        messages = [m for m in messages if (m.key.split("/")[0] in HELD_OUT_SETS) == held_out]
    return labelled_examples(messages, shop_gazetteer, NearCopies(blind_messages(ROOT / "eval")))


def training_examples() -> list[TaggedExample]:
    """What the shipped tagger is trained on: the filled templates and each labelled message ``GOLD_REPEAT`` times."""
    return tagged_examples(ROOT / "eval", pack_dirs=training_packs()) + labelled() * GOLD_REPEAT


def corpus_digest(examples: list[TaggedExample]) -> str:
    digest = hashlib.sha256()
    for ex in examples:
        words = " ".join(t.form for t in ex.tokens)
        marks = ";".join(",".join(m) for m in ex.gazetteer.marks([t.form for t in ex.tokens]))
        digest.update(f"{words}\t{' '.join(ex.tags)}\t{marks}\n".encode())
    return digest.hexdigest()


def _features(ex: TaggedExample) -> list[dict[str, float]]:
    marks = ex.gazetteer.marks([t.form for t in ex.tokens])
    return [dict.fromkeys(feats, 1.0) for feats in token_features(ex.tokens, marks)]


@dataclass(frozen=True)
class Weights:
    """A trained CRF's weights as written: each feature's (tag, weight) pairs, and the tag-to-tag transitions."""

    features: dict[str, list[tuple[int, float]]]
    transitions: list[list[float]]

    def tagger(self) -> TokenTagger:
        return TokenTagger({"tags": list(TAGS)}, self.features, self.transitions)


def train(examples: list[TaggedExample]) -> Weights:
    """The CRF trained on the examples (its weights rounded as written)."""
    trainer = pycrfsuite.Trainer(verbose=False)
    for ex in examples:
        trainer.append(_features(ex), list(ex.tags))
    trainer.set_params({"c1": C1, "c2": C2, "max_iterations": MAX_ITERATIONS, "feature.possible_transitions": True})
    with tempfile.TemporaryDirectory() as folder:
        model = str(Path(folder) / "tagger.crfsuite")
        trainer.train(model)
        crf = pycrfsuite.Tagger()
        crf.open(model)
        info = crf.info()
        crf.close()
    features: dict[str, list[tuple[int, float]]] = {}
    for (feature, tag), weight in sorted(info.state_features.items()):
        if round(weight, DECIMALS):
            features.setdefault(feature, []).append((_INDEX[tag], round(weight, DECIMALS)))
    transitions = [[0.0] * len(TAGS) for _ in TAGS]
    for (before, after), weight in info.transitions.items():
        transitions[_INDEX[before]][_INDEX[after]] = round(weight, DECIMALS)
    return Weights(features, transitions)


def measure(tag: object, examples: list[TaggedExample]) -> dict[str, object]:
    """Token accuracy, span F1 by kind (exact words and kind), and the act of the items and places found."""
    tokens_right = tokens_all = 0
    found: Counter[str] = Counter()
    gold_count: Counter[str] = Counter()
    right: Counter[str] = Counter()
    acts_right = acts_all = 0
    by_lang: dict[str, list[int]] = {}
    for ex in examples:
        guess = tag(ex)  # type: ignore[operator]
        tokens_right += sum(g == t for g, t in zip(guess, ex.tags, strict=True))
        tokens_all += len(ex.tags)
        text = " ".join(t.text for t in ex.tokens)
        gold_spans = {(s.kind, s.start, s.end): s.act for s in spans(_respaced(ex), list(ex.tags), text)}
        guess_spans = {(s.kind, s.start, s.end): s.act for s in spans(_respaced(ex), guess, text)}
        for key, act in gold_spans.items():
            gold_count[key[0]] += 1
            if key in guess_spans:
                right[key[0]] += 1
                if act is not None:
                    acts_all += 1
                    acts_right += guess_spans[key] == act
        for key in guess_spans:
            found[key[0]] += 1
        lang = by_lang.setdefault(ex.lang, [0, 0])
        lang[0] += len(gold_spans.keys() & guess_spans.keys())
        lang[1] += len(gold_spans) + len(guess_spans)
    f1 = {
        kind: round(2 * right[kind] / (gold_count[kind] + found[kind]), 3)
        for kind in sorted(gold_count)
        if gold_count[kind] + found[kind]
    }
    return {
        "examples": len(examples),
        "token_accuracy": round(tokens_right / max(tokens_all, 1), 4),
        "span_f1": f1,
        "span_f1_by_language": {k: round(2 * a / max(b, 1), 3) for k, (a, b) in sorted(by_lang.items())},
        "act_accuracy": round(acts_right / max(acts_all, 1), 4),
    }


def _respaced(ex: TaggedExample) -> list:  # type: ignore[type-arg]
    """The example's tokens placed in the text its words make joined by spaces (for :func:`spans`)."""
    from tulia.nlu.tagger import Token

    out, at = [], 0
    for t in ex.tokens:
        out.append(Token(t.text, t.form, at, at + len(t.text)))
        at += len(t.text) + 1
    return out


def versions() -> dict[str, str]:
    from importlib.metadata import version

    import yaml

    return {
        "python": platform.python_version(),
        "python-crfsuite": version("python-crfsuite"),
        "crfsuite": pycrfsuite.CRFSUITE_VERSION,
        "pyyaml": yaml.__version__,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--reproduce", action="store_true")
    args = parser.parse_args()
    examples = training_examples()
    digest = corpus_digest(examples)
    if args.check:
        shipped = str(read_header(WEIGHTS_FILE).get("corpus_sha256"))
        if shipped != digest:
            print("tagger.weights was not trained on today's corpus: run scripts/train_tagger.py", file=sys.stderr)
            return 1
        print("tagger.weights matches the corpus")
        return 0
    if args.reproduce:
        shipped_tagger = load_weights(WEIGHTS_FILE)
        again = train(examples).tagger()
        same = total = 0
        for ex in examples:
            a = shipped_tagger.tag_tokens(ex.tokens, ex.gazetteer)
            b = again.tag_tokens(ex.tokens, ex.gazetteer)
            same += sum(x == y for x, y in zip(a, b, strict=True))
            total += len(a)
        share = same / max(total, 1)
        print(
            f"a retrain gives the shipped tags for {share:.2%} of {total} words (tolerance {REPRODUCE_TOLERANCE:.1%})"
        )
        return 0 if share >= REPRODUCE_TOLERANCE else 1

    templates = [ex for ex in examples if not ex.source.startswith("gold:")]
    held = [ex for ex in templates if zlib.crc32(ex.template.encode()) % HELD_OUT_EVERY == 0]
    kept = [ex for ex in templates if zlib.crc32(ex.template.encode()) % HELD_OUT_EVERY != 0]
    measured = train(kept + labelled(held_out=False) * GOLD_REPEAT).tagger()
    held_out = measure(_tags_of(measured), held)
    print("held-out templates:", held_out)
    held_out_real = measure(_tags_of(measured), labelled(held_out=True))
    print(f"held-out labelled messages ({', '.join(HELD_OUT_SETS)}):", held_out_real)

    weights = train(examples)
    header = {
        "tags": list(TAGS),
        "corpus_sha256": digest,
        "examples": len(examples),
        "trained_with": versions(),
        "hyperparameters": {
            "model": "linear-chain CRF (python-crfsuite, L-BFGS)",
            "c1": C1,
            "c2": C2,
            "max_iterations": MAX_ITERATIONS,
            "decimals": DECIMALS,
            "variants": VARIANTS,
            "gazetteer_dropout": GAZETTEER_DROPOUT,
            "own_name_dropout": OWN_NAME_DROPOUT,
            "gold_repeat": GOLD_REPEAT,
        },
        "labelled_messages": sum(ex.source.startswith("gold:") for ex in examples) // GOLD_REPEAT,
        "held_out": held_out,
        "held_out_labelled": {"sets": list(HELD_OUT_SETS), **held_out_real},
    }
    dump_weights(WEIGHTS_FILE, header, weights.features, weights.transitions)
    shipped = load_weights(WEIGHTS_FILE)
    on_corpus = measure(_tags_of(shipped), examples)
    print("trained on all:", on_corpus)
    print(
        f"wrote {WEIGHTS_FILE.relative_to(ROOT)}: {WEIGHTS_FILE.stat().st_size / 1024:.0f} KB,",
        f"{len(weights.features)} features",
    )
    return 0


def _tags_of(tagger: TokenTagger) -> Callable[[TaggedExample], list[str]]:
    return lambda ex: tagger.tag_tokens(ex.tokens, ex.gazetteer)


if __name__ == "__main__":
    sys.exit(main())
