"""Train the token tagger (``shared/tulia/nlu/tagger.weights``) from the tagged corpus.

    .venv/bin/python scripts/train_tagger.py              # measure on held-out templates, train on all, write
    .venv/bin/python scripts/train_tagger.py --check      # exit 1 if the shipped weights were not trained on
                                                          # today's corpus
    .venv/bin/python scripts/train_tagger.py --reproduce  # retrain (nothing written) and compare its tags with the
                                                          # shipped weights' over the corpus: exit 1 past the tolerance

Method: ``tulia.nlu.tagger_corpus.tagged_examples`` (the reader's templates and the edit templates, filled with
their slots kept as spans, typing's noise added word by word, each with a shop's gazetteer partly left out); a
greedy left-to-right averaged perceptron (the tags decided before a word are features of it, the transitions BIO
forbids are never taken), trained with numpy for ``EPOCHS`` passes in a seeded order, averaged, quantised to int16
(only the buckets that carry a weight are written). First it is measured on a fifth of the templates it did not
see (whole templates held out, so a wording it never met); then trained on all of them. The weights' header records
the libraries' versions, the hyperparameters, the corpus digest and the held-out figures. numpy is a build-time
tool: the shipped tagger reads its weights in plain Python.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import random
import sys
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from tulia.nlu.corpus import SEED
from tulia.nlu.tagger import (
    TAGS,
    WEIGHTS_FILE,
    TokenTagger,
    _may_follow,
    dump_weights,
    hashed,
    load_weights,
    read_header,
    spans,
    tag_features,
    token_features,
)
from tulia.nlu.tagger_corpus import GAZETTEER_DROPOUT, OWN_NAME_DROPOUT, VARIANTS, TaggedExample, tagged_examples

ROOT = Path(__file__).resolve().parents[1]
BITS = 18
EPOCHS = 10
HELD_OUT_EVERY = 5  # one template in five is held out for the measurement
REPRODUCE_TOLERANCE = 0.995  # share of the corpus's tags a retrain must give alike

_INDEX = {tag: n for n, tag in enumerate(TAGS)}
_ALLOWED = {prev: np.array([_may_follow(prev, tag) for tag in TAGS]) for prev in ("<s>", *TAGS)}


def training_packs() -> list[Path]:
    """The demo and evaluation packs whose catalogs the tagger may learn names from: never a blind set's shop."""
    from tulia.evaluation import BLIND_ONLY_PACKS

    dirs = [*sorted((ROOT / "packs").iterdir()), *sorted((ROOT / "eval" / "packs").iterdir())]
    return [d for d in dirs if d.is_dir() and d.name not in BLIND_ONLY_PACKS]


def corpus_digest(examples: list[TaggedExample]) -> str:
    digest = hashlib.sha256()
    for ex in examples:
        words = " ".join(t.form for t in ex.tokens)
        marks = ";".join(",".join(m) for m in ex.gazetteer.marks([t.form for t in ex.tokens]))
        digest.update(f"{words}\t{' '.join(ex.tags)}\t{marks}\n".encode())
    return digest.hexdigest()


def _static(ex: TaggedExample) -> list[list[int]]:
    marks = ex.gazetteer.marks([t.form for t in ex.tokens])
    return [hashed(f, BITS) for f in token_features(ex.tokens, marks)]


def _decode(weights: np.ndarray, ex: TaggedExample, static: list[list[int]]) -> list[str]:
    out: list[str] = []
    prev, prev2 = "<s>", "<s2>"
    for i, indexes in enumerate(static):
        idx = indexes + hashed(tag_features(prev, prev2, ex.tokens[i].form), BITS)
        scores = weights[idx].sum(axis=0)
        scores = np.where(_ALLOWED.get(prev, _ALLOWED["<s>"]), scores, -np.inf)
        tag = TAGS[int(np.argmax(scores))]
        out.append(tag)
        prev2, prev = prev, tag
    return out


def train(examples: list[TaggedExample], *, seed: int = SEED) -> np.ndarray:
    """The averaged weights (float)."""
    width = len(TAGS)
    weights = np.zeros((1 << BITS, width), dtype=np.float64)
    totals = np.zeros_like(weights)  # the sum over steps of each update times its step (Daumé's averaging)
    statics = [_static(ex) for ex in examples]
    order = list(range(len(examples)))
    rng = random.Random(seed)
    step = 1
    for _ in range(EPOCHS):
        rng.shuffle(order)
        for n in order:
            ex, static = examples[n], statics[n]
            prev, prev2 = "<s>", "<s2>"
            for i, indexes in enumerate(static):
                idx = np.array(indexes + hashed(tag_features(prev, prev2, ex.tokens[i].form), BITS))
                scores = weights[idx].sum(axis=0)
                scores = np.where(_ALLOWED.get(prev, _ALLOWED["<s>"]), scores, -np.inf)
                guess = int(np.argmax(scores))
                gold = _INDEX[ex.tags[i]]
                if guess != gold:
                    np.add.at(weights, (idx, gold), 1.0)
                    np.add.at(weights, (idx, guess), -1.0)
                    np.add.at(totals, (idx, gold), step)
                    np.add.at(totals, (idx, guess), -step)
                step += 1
                prev2, prev = prev, TAGS[guess]
    return weights - totals / step


def quantised(weights: np.ndarray) -> tuple[np.ndarray, float]:
    """int16 weights (the largest magnitude mapped to 32767): a perceptron's weights run from fractions to
    hundreds, which int8 cannot hold (tried: a fifth of the training messages then tagged otherwise)."""
    top = float(np.abs(weights).max()) or 1.0
    scale = 32767.0 / top
    return np.rint(weights * scale).astype(np.int16), scale


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


def _as_tagger(weights: np.ndarray, header: dict[str, object]) -> TokenTagger:
    q, _ = quantised(weights)
    used = np.flatnonzero(np.any(q != 0, axis=1))
    return TokenTagger(header, {int(i): [int(v) for v in q[i]] for i in used})


def versions() -> dict[str, str]:
    import yaml

    return {"python": platform.python_version(), "numpy": np.__version__, "pyyaml": yaml.__version__}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--reproduce", action="store_true")
    args = parser.parse_args()
    examples = tagged_examples(ROOT / "eval", pack_dirs=training_packs())
    digest = corpus_digest(examples)
    if args.check:
        shipped = str(read_header(WEIGHTS_FILE).get("corpus_sha256"))
        if shipped != digest:
            print("tagger.weights was not trained on today's corpus: run scripts/train_tagger.py", file=sys.stderr)
            return 1
        print("tagger.weights matches the corpus")
        return 0
    base_header: dict[str, object] = {"tags": list(TAGS), "hash_bits": BITS}
    if args.reproduce:
        shipped_tagger = load_weights(WEIGHTS_FILE)
        again = _as_tagger(train(examples), base_header)
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

    held = [ex for ex in examples if zlib.crc32(ex.template.encode()) % HELD_OUT_EVERY == 0]
    kept = [ex for ex in examples if zlib.crc32(ex.template.encode()) % HELD_OUT_EVERY != 0]
    trial = _as_tagger(train(kept), base_header)
    held_out = measure(lambda ex: trial.tag_tokens(ex.tokens, ex.gazetteer), held)
    print("held-out templates:", held_out)

    weights = train(examples)
    q, scale = quantised(weights)
    used = np.flatnonzero(np.any(q != 0, axis=1))
    header = {
        **base_header,
        "rows": int(used.size),
        "corpus_sha256": digest,
        "examples": len(examples),
        "trained_with": versions(),
        "hyperparameters": {
            "epochs": EPOCHS,
            "hash_bits": BITS,
            "seed": SEED,
            "variants": VARIANTS,
            "gazetteer_dropout": GAZETTEER_DROPOUT,
            "own_name_dropout": OWN_NAME_DROPOUT,
            "scale": round(scale, 6),
        },
        "held_out": held_out,
    }
    dump_weights(WEIGHTS_FILE, header, [int(i) for i in used], q[used].tobytes())
    shipped = load_weights(WEIGHTS_FILE)
    on_corpus = measure(lambda ex: shipped.tag_tokens(ex.tokens, ex.gazetteer), examples)
    print("trained on all:", on_corpus)
    print(f"wrote {WEIGHTS_FILE.relative_to(ROOT)}: {WEIGHTS_FILE.stat().st_size / 1024:.0f} KB, {used.size} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
