"""Train the language head (``shared/tulia/nlu/language.weights``): which language a message is written in, English,
Swahili or Sheng, from the same features as the message reader, learned from the corpus lines' own language labels.

    .venv/bin/python scripts/train_language.py          # 5-fold figures, then train on all and write the weights
    .venv/bin/python scripts/train_language.py --check  # exit 1 if the weights were not trained on today's corpus

Method: the corpus of the reader (``tulia.nlu.corpus.load_corpus``, without the strings of letters that are no word:
their language is no label) as the reader's hashed features (``tulia.nlu.reader.feature_indexes``), each row scaled to
unit length; multinomial logistic regression (scikit-learn, L2); the temperature fitted on 5-fold out-of-fold
predictions; int8 weights in the reader's file format, read by :class:`tulia.nlu.reader.MessageReader` in plain
Python. ``tulia.nlu.rules.detect_language`` asks it when its word lists know no word of a message (they used to answer
"English" then, at 0.3).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_reader import matrix, temperature, trained_with
from tulia.nlu.corpus import CORPUS_LANGUAGES, Example, corpus_digest, load_corpus
from tulia.nlu.reader import dump_weights
from tulia.nlu.rules import LANGUAGE_WEIGHTS, word_list_language

ROOT = Path(__file__).resolve().parents[1]
BITS = 16
C = 10.0


def examples() -> list[Example]:
    # the corpus's messages read anywhere: not the strings of letters, nor those read in a context (``in_context``:
    # the same messages again, and what is said at the checkout, written for the reader's intents)
    return [ex for ex in load_corpus(ROOT / "eval") if ex.source != "noise" and ex.context is None]


def fit(x: object, y: np.ndarray) -> LogisticRegression:
    model = LogisticRegression(C=C, max_iter=3000, tol=1e-5, class_weight="balanced")
    model.fit(x, y)
    return model


def main() -> int:
    corpus = examples()
    as_language = [Example(ex.lang, ex.lang, ex.text, ex.source) for ex in corpus]  # the digest of what is learned
    if "--check" in sys.argv:
        from tulia.nlu.reader import load_weights

        shipped = load_weights(LANGUAGE_WEIGHTS)
        if shipped.corpus_sha256 != corpus_digest(as_language):
            print("language.weights was not trained on today's corpus: run scripts/train_language.py", file=sys.stderr)
            return 1
        print("language.weights matches the corpus")
        return 0
    labels = list(CORPUS_LANGUAGES)
    y = np.array([labels.index(ex.lang) for ex in corpus])
    x = matrix(corpus, BITS)
    out_of_fold = np.zeros((len(corpus), len(labels)))
    for train_rows, test_rows in StratifiedKFold(n_splits=5, shuffle=True, random_state=7).split(x, y):
        out_of_fold[test_rows] = fit(x[train_rows], y[train_rows]).decision_function(x[test_rows])
    t = temperature(out_of_fold, y)
    learned = (out_of_fold.argmax(axis=1) == y).mean()
    reply = np.array(["en" if lang == "en" else "sw" for lang in (labels[i] for i in out_of_fold.argmax(axis=1))])
    truth = np.array(["en" if ex.lang == "en" else "sw" for ex in corpus])
    lists = [word_list_language(ex.text) or ("en", 0.3) for ex in corpus]  # they said English when they knew no word
    words = np.array([("en" if lang in ("en", "mixed") else "sw") for lang, _ in lists])
    right = (reply == truth).mean()
    print(f"{len(corpus)} examples; 5-fold: language {learned:.1%}, reply language (en / sw) {right:.1%}")
    print(f"the word lists alone, reply language: {(words == truth).mean():.1%}")
    z = out_of_fold / t
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    known = np.array([word_list_language(ex.text) is not None for ex in corpus])
    mixed = np.array([lang == "mixed" for lang, _ in lists])
    sure = p.max(axis=1) >= 0.6
    swahili_sure = (p.max(axis=1) >= 0.8) & (reply == "sw")
    # the head where the lists know no word, and where they call a message mixed and the head is sure it is Swahili
    # and where the lists' reading is weak and the head is sure of the other family (English against Swahili or Sheng)
    weak = np.array([conf < 0.8 for _, conf in lists])
    overrules = known & ~mixed & weak & (p.max(axis=1) >= 0.8) & (reply != words)
    as_shipped = np.where((~known & sure) | (mixed & swahili_sure) | overrules, reply, words)
    print(f"the lists, the head where they know no word (as shipped): {(as_shipped == truth).mean():.1%}")
    written = np.array([ex.source != "template" for ex in corpus])  # written by hand: messages, phrase and tuning sets
    head_first = np.where(sure, reply, words)
    for name, guess in (("lists", words), ("as shipped", as_shipped), ("head first", head_first), ("head", reply)):
        print(f"  hand-written messages ({written.sum()}), {name}: {(guess[written] == truth[written]).mean():.1%}")
    model = fit(x, y)
    weights = model.coef_
    scale = float(np.abs(weights).max()) / 127.0
    quantised = np.round(weights.T / scale).astype(np.int8)
    used = np.flatnonzero(np.abs(quantised).sum(axis=1))
    header: dict[str, object] = {
        "labels": labels,
        "bits": BITS,
        "scale": scale,
        "bias": [round(float(b), 6) for b in model.intercept_],
        "temperature": t,
        "rows": len(used),
        "examples": len(corpus),
        "corpus_sha256": corpus_digest(as_language),
        "trained_with": trained_with(),
        "hyperparameters": {
            "bits": BITS,
            "model": "multinomial logistic regression, L2, lbfgs",
            "C": C,
            "class_weight": "balanced",
            "folds": {"n_splits": 5, "shuffle": True, "random_state": 7},
            "quantisation": "int8, scale = max |weight| / 127",
        },
    }
    dump_weights(LANGUAGE_WEIGHTS, header, [int(i) for i in used], quantised[used].tobytes())
    print(f"wrote {LANGUAGE_WEIGHTS.relative_to(ROOT)}: {LANGUAGE_WEIGHTS.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
