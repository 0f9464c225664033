"""The token tagger: what each word of a message is (an item, a count, a place, a day, a time, a person, a
service, an option, a payment method, a price, a code or a reference) and, for the things of a basket and the
place of delivery, what the customer does with them (its edit act).

A linear-chain conditional random field (a CRF: what Rasa's and Snips NLU's entity extractors are) over the
features of each word and its neighbours (the classic part-of-speech feature set, plus a bag of the words around
it, so that "iwe" or "badala ya" a few words away decides the act); its transitions weigh which tag follows which,
and a message's tags are the best path through both. The shop's own words are gazetteer features: a word inside
one of its catalog names, zones and their areas, staff, services or options says so, so a shop the tagger never
saw is read by construction. The gazetteer is evidence, never a verdict: the model weighs it with the words
around it.

Trained at build time by ``scripts/train_tagger.py`` (python-crfsuite: L-BFGS with L1 and L2 penalties, so one
corpus gives one optimum and a small change of the corpus a small change of the weights) on the corpus templates
with their slots as spans (``tulia.nlu.tagger_corpus``); at run time its weights (``tagger.weights`` beside this
file: the features the L1 penalty kept, JSON, zlib) are read and decoded (Viterbi) in plain Python: no numpy, no
scikit-learn, no crfsuite.

Tags are BIO: ``B-ITEM.set`` starts an item whose count is set ("make the power banks 3", "sukari iwe
mbili"); the acts of an item are ``add``, ``set``, ``remove``, ``old`` (the one replaced: "X badala ya Y"'s
Y) and ``hers`` (a thing of her story, not of her wish: "my tank is leaking, I need a valve"); a place is
``LOC.new`` or ``LOC.old`` ("niletee Juja badala ya Mwiki").
"""

from __future__ import annotations

import json
import re
import struct
import unicodedata
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import add
from pathlib import Path
from typing import Any

from tulia.nlu.frame_extract import NUMBER_WORDS

WEIGHTS_FILE = Path(__file__).with_name("tagger.weights")
MAGIC = b"TULIA-TAGGER-2\n"  # 2: a CRF (1 was a greedy perceptron over hashed features)
MAX_TOKENS = 80  # longer messages are tagged up to here
CONTEXT = 4  # the bag of words around a word reaches this far each side

ITEM_ACTS = ("add", "set", "remove", "old", "hers")
LOC_ACTS = ("new", "old")
KINDS = ("QTY", "OPTION", "DAY", "TIME", "STAFF", "SERVICE", "PAY", "PRICE", "CODE", "REF", "MPESA")


def _tags() -> tuple[str, ...]:
    kinds = [f"ITEM.{a}" for a in ITEM_ACTS] + [f"LOC.{a}" for a in LOC_ACTS] + list(KINDS)
    return ("O", *(f"{bio}-{k}" for k in kinds for bio in "BI"))


TAGS = _tags()
GAZETTEER_KINDS = ("item", "zone_area", "staff", "service", "option")  # zone_area: a zone or one of its areas

_TOKEN = re.compile(r"[^\W_]+(?:[.'’-][^\W_]+)*|[^\w\s]", re.UNICODE)
_REPEATS = re.compile(r"(\w)\1{2,}")  # "pleeease": "please"


@dataclass(frozen=True)
class Token:
    text: str  # as written
    form: str  # folded: lower case, no accents, emphasis squeezed
    start: int
    end: int


def fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).replace("’", "'")
    return _REPEATS.sub(r"\1\1", plain)


def tokens(text: str) -> list[Token]:
    """The words of a message with where each stands (punctuation is its own token)."""
    return [Token(m.group(), fold(m.group()), m.start(), m.end()) for m in _TOKEN.finditer(text)][:MAX_TOKENS]


def _key(form: str) -> str:
    """A word as the shop's names are matched: an English plural as its singular ("banks": "bank")."""
    return form[:-1] if len(form) > 3 and form.endswith("s") and not form.endswith(("ss", "us", "is")) else form


@dataclass
class Gazetteer:
    """The shop's own words, by kind, each a phrase of folded words ("jogoo maize flour", "kasarani")."""

    phrases: dict[str, set[tuple[str, ...]]] = field(default_factory=dict)
    # per kind, computed once: the longest phrase and every word of any phrase
    _longest: dict[str, int] = field(default_factory=dict, init=False, repr=False)
    _words: dict[str, frozenset[str]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        for kind, phrases in self.phrases.items():
            self._longest[kind] = max((len(p) for p in phrases), default=0)
            self._words[kind] = frozenset(w for p in phrases for w in p)

    @classmethod
    def of(cls, **kinds: Iterable[str]) -> Gazetteer:
        out: dict[str, set[tuple[str, ...]]] = {}
        for kind, names in kinds.items():
            if kind not in GAZETTEER_KINDS:
                raise ValueError(f"unknown gazetteer kind {kind!r}")
            out[kind] = {p for p in (tuple(_key(t.form) for t in tokens(n) if t.form.isalnum()) for n in names) if p}
        return cls(out)

    def marks(self, forms: Sequence[str]) -> list[list[str]]:
        """For each word, the gazetteer features it carries: ``item:B`` (starts a name of the shop's things),
        ``item:I`` (inside one), and a name's single words (``item:w``: "jogoo" of "jogoo maize flour")."""
        out: list[list[str]] = [[] for _ in forms]
        forms = [_key(f) for f in forms]  # "power banks" is the shop's "Power Bank"
        for kind, phrases in self.phrases.items():
            if not phrases:
                continue
            longest, words = self._longest[kind], self._words[kind]
            for i, form in enumerate(forms):
                if form in words:
                    out[i].append(f"{kind}:w")
                for size in range(min(longest, len(forms) - i), 0, -1):
                    if tuple(forms[i : i + size]) in phrases:
                        out[i].append(f"{kind}:B")
                        for j in range(i + 1, i + size):
                            out[j].append(f"{kind}:I")
                        break
        return out


# a number said in words has the shape of one ("seven", "saba", "ishirini"): a count the corpus never filled is read
_NUMBER_WORDS = frozenset(w for w in NUMBER_WORDS if " " not in w and w != "both")


def _shape(word: str) -> str:
    if word.isdigit():
        return "d" if len(word) < 4 else "dddd"
    if fold(word) in _NUMBER_WORDS:
        return "n"
    if any(c.isdigit() for c in word):
        return "dx" if word[0].isdigit() else "xd"
    if word.isupper() and len(word) > 1:
        return "X"
    if word[:1].isupper():
        return "Xx"
    return "x" if word.isalpha() else "p"


def token_features(toks: Sequence[Token], marks: Sequence[Sequence[str]]) -> list[list[str]]:
    """The features of each word that do not depend on the tags before it."""
    forms = [t.form for t in toks]
    padded = ["<s2>", "<s>", *forms, "</s>", "</s2>"]
    out = []
    for i, tok in enumerate(toks):
        w = forms[i]
        p = i + 2
        feats = [
            "b",
            f"w={w}",
            f"p1={padded[p - 1]}",
            f"n1={padded[p + 1]}",
            f"p2={padded[p - 2]}",
            f"n2={padded[p + 2]}",
            f"pw={padded[p - 1]}|{w}",
            f"wn={w}|{padded[p + 1]}",
            f"s3={w[-3:]}",
            f"f3={w[:3]}",
            f"sh={_shape(tok.text)}",
            f"psh={_shape(toks[i - 1].text) if i else '<s>'}",
            f"nsh={_shape(toks[i + 1].text) if i + 1 < len(toks) else '</s>'}",
        ]
        for j in range(max(0, i - CONTEXT), min(len(toks), i + CONTEXT + 1)):
            if j != i:
                feats.append(f"{'l' if j < i else 'r'}c={forms[j]}")
        feats += [f"g={m}" for m in marks[i]]
        feats += [f"pg={m}" for m in (marks[i - 1] if i else ())]
        feats += [f"ng={m}" for m in (marks[i + 1] if i + 1 < len(toks) else ())]
        out.append(feats)
    return out


@dataclass(frozen=True)
class Span:
    """A run of words of one kind, with the act said for it (items and places) and where it stands."""

    kind: str  # ITEM, LOC (a place), QTY, ...
    act: str | None
    text: str
    start: int
    end: int


def spans(toks: Sequence[Token], tags: Sequence[str], text: str) -> list[Span]:
    """The BIO tags as spans (an I- that does not continue a span of its kind starts one)."""
    out: list[Span] = []
    current: list[int] = []
    label = ""

    def close() -> None:
        if current:
            kind, _, act = label.partition(".")
            start, end = toks[current[0]].start, toks[current[-1]].end
            out.append(Span(kind, act or None, text[start:end], start, end))

    for i, tag in enumerate(tags):
        bio, _, this = tag.partition("-")
        if tag == "O" or bio == "B" or this.partition(".")[0] != label.partition(".")[0]:
            close()
            current, label = ([i], this) if tag != "O" else ([], "")
        else:
            current.append(i)
    close()
    return out


_NEVER = float("-inf")  # the weight of a transition the BIO scheme forbids


class TokenTagger:
    """A linear-chain CRF's weights in memory: each feature's weight per tag, and each tag pair's transition weight;
    a message's tags are the best path through them (Viterbi), in plain Python."""

    def __init__(
        self,
        header: Mapping[str, Any],
        features: Mapping[str, Sequence[Sequence[float]]],
        transitions: Sequence[Sequence[float]],
    ) -> None:
        self.tags: tuple[str, ...] = tuple(header["tags"])
        if self.tags != TAGS:
            raise ValueError("tagger.weights was trained for other tags: retrain (scripts/train_tagger.py)")
        self.corpus_sha256 = str(header.get("corpus_sha256", ""))
        self.trained_with = dict(header.get("trained_with", {}))
        self._features = features  # feature -> [(tag index, weight), ...]: only the weights the training kept
        width = len(self.tags)
        # into[t]: the weight of each tag before t then t; a tag may follow only its own B or I, never O or another kind
        self._into: list[list[float]] = [
            [transitions[p][t] if _may_follow(self.tags[p], self.tags[t]) else _NEVER for p in range(width)]
            for t in range(width)
        ]
        self._first: list[float] = [0.0 if _may_follow("<s>", tag) else _NEVER for tag in self.tags]

    def tag_tokens(self, toks: Sequence[Token], gazetteer: Gazetteer | None = None) -> list[str]:
        if not toks:
            return []
        marks = (gazetteer or Gazetteer()).marks([t.form for t in toks])
        width, weights = len(self.tags), self._features
        emissions: list[list[float]] = []
        for feats in token_features(toks, marks):
            row = [0.0] * width
            for feature in feats:
                for tag, weight in weights.get(feature, ()):
                    row[int(tag)] += weight
            emissions.append(row)
        score = [a + b for a, b in zip(self._first, emissions[0], strict=True)]
        back: list[list[int]] = []
        for row in emissions[1:]:
            step, pointers = [], []
            for t in range(width):
                paths = list(map(add, score, self._into[t]))
                best = max(paths)
                pointers.append(paths.index(best))
                step.append(best + row[t])
            score = step
            back.append(pointers)
        best_tag = score.index(max(score))
        path = [best_tag]
        for pointers in reversed(back):
            best_tag = pointers[best_tag]
            path.append(best_tag)
        return [self.tags[t] for t in reversed(path)]

    def read(self, text: str, gazetteer: Gazetteer | None = None) -> list[Span]:
        toks = tokens(text)
        return spans(toks, self.tag_tokens(toks, gazetteer), text)


def _may_follow(prev: str, tag: str) -> bool:
    if not tag.startswith("I-"):
        return True
    return prev != "O" and prev.partition("-")[2] == tag.partition("-")[2]


def dump_weights(
    path: Path,
    header: Mapping[str, object],
    features: Mapping[str, Sequence[tuple[int, float]]],
    transitions: Sequence[Sequence[float]],
) -> None:
    body = {
        "features": {f: [[t, w] for t, w in rows] for f, rows in sorted(features.items())},
        "transitions": transitions,
    }
    payload = zlib.compress(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8"), 9)
    head = json.dumps(header, sort_keys=True).encode("utf-8")
    path.write_bytes(MAGIC + struct.pack("<I", len(head)) + head + payload)


def read_header(path: Path = WEIGHTS_FILE) -> dict[str, Any]:
    raw = path.read_bytes()
    if not raw.startswith(MAGIC):
        raise ValueError(f"{path.name} is not a Tulia tagger weights file (of this version): retrain")
    (size,) = struct.unpack_from("<I", raw, len(MAGIC))
    start = len(MAGIC) + 4
    header: dict[str, Any] = json.loads(raw[start : start + size])
    return header


def load_weights(path: Path = WEIGHTS_FILE) -> TokenTagger:
    raw = path.read_bytes()
    header = read_header(path)
    (size,) = struct.unpack_from("<I", raw, len(MAGIC))
    body = json.loads(zlib.decompress(raw[len(MAGIC) + 4 + size :]))
    return TokenTagger(header, body["features"], body["transitions"])


@cache
def token_tagger() -> TokenTagger:
    """The shipped tagger, read once per process (on the first message that needs it, not at import)."""
    return load_weights()
