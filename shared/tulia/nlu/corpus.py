"""The labelled corpus the message reader is trained on (build time only; never imported by a handler).

Five sources, all in the repository:
- ``eval/corpus/templates.yaml`` expanded with the things of many trades (``eval/corpus/trades.yaml``)
  and the words every customer uses (``eval/corpus/fillers.yaml``: places, days, times, counts, codes),
  with a seeded generator that adds what real typing adds: typos, casing, fillers, emoji, a word of the
  other language;
- ``eval/corpus/messages.txt``: whole messages written by hand, and every misread message found in a bug
  (the corpus grows with every bug: add the message with its right label, never a cue in code);
- the tuning phrase sets (``eval/phrases/*.txt``, the old held-out set included);
- strings of letters that are no word (:func:`noise`), so that what the reader cannot place is unknown;
- what is said in a context (:func:`in_context`: ``eval/corpus/at_<context>.yaml`` and a share of the rest, read
  there), so that the reader learns what the same words mean under an order's total ("never mind" drops it);
- the writers' templates (``eval/corpus/writers/*.yaml``, :func:`writers`): the same format, each file written by
  a helper session in one customer's voice from a few training packs' files only, so that the reader learns how
  many people write and not how one engineer does.

The blind held-out set (``eval/blind/heldout.txt``) is never a source. Expanded messages that come too
close to one of its messages are dropped, so that it keeps measuring messages the reader never saw.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tulia.nlu.labelled_sets import load_blind, load_phrases
from tulia.nlu.reader import LABELS, READING_CONTEXTS, ReadingContext, normalize_for_reader

Language = str  # en | sw | sheng
SEED = 2026_11
VARIANTS_PER_TEMPLATE = 9
# a writer's template is filled fewer times: nine writers wrote about 4,700 of them, each its own wording, and the
# corpus should hold many wordings more than many fillings of one
WRITER_VARIANTS_PER_TEMPLATE = 2
CORPUS_LANGUAGES = ("en", "sw", "sheng")


@dataclass(frozen=True)
class Example:
    label: str
    lang: Language
    text: str
    source: str  # "template", "noise", "messages", "phrases:<set>", "writer:<name>"
    trade: str | None = None
    pack: str | None = None  # the shop a phrase-set message was written for
    context: ReadingContext | None = None  # where it is said (the reader's context features), when that matters


class CorpusInvalid(ValueError):
    """A corpus file that cannot be read; the message names the file and the place."""


Fillers = dict[str, Any]  # eval/corpus/fillers.yaml: places, people, days, times, counts, prices, ...
_SLOT = re.compile(r"\{(\w+)(?::\w+)?\}")  # "{item:remove}": the act is the token tagger's (tagger_corpus)


def _ref(rng: random.Random) -> str:
    alphabet = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
    return "ORD-" + "".join(rng.choice(alphabet) for _ in range(5))


def _mpesa(rng: random.Random) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return rng.choice("QRST") + "".join(rng.choice(letters + "0123456789") for _ in range(8)) + rng.choice(letters)


def _typo(word: str, rng: random.Random) -> str:
    if len(word) < 4 or not word.isalpha():
        return word
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        return word[:i] + word[i + 1 :]  # a letter dropped
    if kind == 1:
        return word[:i] + word[i] + word[i:]  # a letter doubled
    return word[: i - 1] + word[i] + word[i - 1] + word[i + 1 :]  # two letters swapped


def _noisy(text: str, lang: Language, rng: random.Random, fillers: Fillers) -> str:
    words = text.split()
    if rng.random() < 0.3 and words:
        n = rng.randrange(len(words))
        words[n] = _typo(words[n], rng)
    text = " ".join(words)
    if rng.random() < 0.25:
        text = (
            f"{rng.choice(fillers['prefixes'][lang])} {text}"
            if rng.random() < 0.5
            else f"{rng.choice(fillers['prefixes'][lang])}, {text}"
        )
    if rng.random() < 0.2:
        text = f"{text.rstrip('?!.')} {rng.choice(fillers['suffixes'][lang])}"
    r = rng.random()
    if r < 0.25:
        text = text[:1].upper() + text[1:]
    elif r < 0.3:
        text = text.upper()
    if rng.random() < 0.3:
        text = text.rstrip("?")
    return text


def _fill(
    template: str, lang: Language, things: dict[str, dict[str, list[list[str]]]], rng: random.Random, fillers: Fillers
) -> tuple[str, str]:
    """A template with every slot filled; returns the text and the trade its things came from."""
    values, trade = slot_values(template, lang, things, rng, fillers)
    return _SLOT.sub(lambda m: values[m.group(1)], template), trade


def slot_values(
    template: str, lang: Language, things: dict[str, dict[str, list[list[str]]]], rng: random.Random, fillers: Fillers
) -> tuple[dict[str, str], str]:
    """A value for every slot a template may have, and the trade its things came from (the token tagger's
    corpus fills the same slots and keeps where each value stands: ``tulia.nlu.tagger_corpus``)."""
    wants_service = "{service}" in template
    trades = [t for t, v in things.items() if v.get("services" if wants_service else "items")]
    trade = rng.choice(trades)
    pool = things[trade]["services" if wants_service else "items"]
    picked = rng.sample(pool, k=min(3, len(pool)))
    other = 1 if lang == "sw" else 0  # Swahili items in Swahili, with English ones mixed in (code-switching)

    def name(pair: list[str]) -> str:
        if lang == "sheng":
            return rng.choice(pair)
        return pair[other] if rng.random() < 0.75 else pair[1 - other]

    values = {
        "item": name(picked[0]),
        "item2": name(picked[1 % len(picked)]),
        "item3": name(picked[2 % len(picked)]),
        "service": name(picked[0]),
        "n": str(rng.choice((1, 2, 2, 3, 3, 4, 5, 6, 10, 12, 20))),
        "nw": rng.choice(fillers["number_words"][lang]),
        "area": rng.choice(fillers["areas"]),
        "ref": _ref(rng),
        "code": rng.choice(fillers["coupon_stems"]) + str(rng.choice((5, 10, 15, 20, 25, 50, 100, 200, 500))),
        "mpesa": _mpesa(rng),
        "day": rng.choice(fillers["days"][lang]),
        "time": rng.choice(fillers["times"][lang]),
        "person": rng.choice(fillers["people"]),
        "price": rng.choice(fillers["prices"]),
    }
    return values, trade


def expand_templates(
    templates: dict[str, dict[str, list[str]]],
    trades: dict[str, dict[str, list[list[str]]]],
    fillers: Fillers,
    *,
    seed: int = SEED,
    variants: int = VARIANTS_PER_TEMPLATE,
    context: ReadingContext | None = None,
    source: str = "template",
) -> list[Example]:
    rng = random.Random(seed)
    out: list[Example] = []
    for label, by_lang in templates.items():
        for lang, lines in by_lang.items():
            for template in lines:
                if not isinstance(template, str):
                    raise CorpusInvalid(f"templates.yaml: {label}/{lang}: {template!r} is not text (quote it)")
                count = variants if _SLOT.search(template) else 3  # a fixed phrase: itself and noisy copies
                for n in range(count):
                    text, trade = _fill(template, lang, trades, rng, fillers)
                    noisy = text if n == 0 else _noisy(text, lang, rng, fillers)
                    out.append(Example(label, lang, noisy, source, trade, context=context))
    return out


# of the corpus's other messages, this share is also read in each context: what she says there still means what it
# means anywhere else (a question, a wish, an edit), and only what the context's own templates teach changes there
IN_CONTEXT_SHARE = 0.25


def in_context(
    examples: list[Example], eval_dir: Path, trades: dict[str, Any], fillers: Fillers, *, seed: int = SEED
) -> list[Example]:
    """The context examples: each context's own templates (``eval/corpus/at_<context>.yaml``, what is said there
    that means another thing elsewhere, and what keeps its meaning there) and a seeded share of the rest (their
    source marked ``<source>@<context>``: the same messages again, read there)."""
    rng = random.Random(seed + 2)
    out: list[Example] = []
    for context in READING_CONTEXTS:
        path = eval_dir / "corpus" / f"at_{context}.yaml"
        templates = yaml.safe_load(path.read_text(encoding="utf-8"))
        for label in templates:
            if label not in LABELS:
                raise CorpusInvalid(f"{path.name}: unknown label {label!r}")
        out += expand_templates(templates, trades, fillers, seed=seed + 3, context=context)
        out += [
            Example(ex.label, ex.lang, ex.text, f"{ex.source}@{context}", ex.trade, ex.pack, context)
            for ex in examples
            if ex.context is None and rng.random() < IN_CONTEXT_SHARE
        ]
    return out


def noise(count: int = 160, *, seed: int = SEED) -> list[Example]:
    """Strings of letters that are no word of any language here ("glorp", "xkcd qwe"): the reader learns
    that what it cannot place is unknown, not a purchase."""
    rng = random.Random(seed + 1)
    consonants, vowels = "bcdfghjklmnpqrstvwxyz", "aeiou"
    out = []
    for n in range(count):
        words = []
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
            if rng.random() < 0.5:
                length = rng.randrange(3, 8)
                word = "".join(rng.choice(consonants if i % 2 == 0 else vowels) for i in range(length))
            else:
                word = "".join(rng.choice(consonants + vowels) for _ in range(rng.randrange(1, 7)))
            words.append(word)
        out.append(Example("unknown", CORPUS_LANGUAGES[n % 3], " ".join(words), "noise"))
    return out


@dataclass(frozen=True)
class Writer:
    """One writer's file (``eval/corpus/writers/<name>.yaml``): templates by label and language, as in
    ``templates.yaml``, and edits by language, as in ``edits.yaml``."""

    name: str
    templates: dict[str, dict[str, list[str]]]
    edits: dict[str, list[str]]
    # what is said in a context (``at_checkout``: as ``eval/corpus/at_checkout.yaml``), by context
    in_context: dict[ReadingContext, dict[str, dict[str, list[str]]]]


def writers(corpus_dir: Path) -> list[Writer]:
    """Every writer's file, in name order; a file that is not a writer's shape is refused with its name."""
    out = []
    contexts = {f"at_{context}": context for context in READING_CONTEXTS}
    for path in sorted((corpus_dir / "writers").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if not isinstance(data, dict) or set(data) - {"templates", "edits", *contexts}:
            allowed = ", ".join(map(repr, contexts))
            raise CorpusInvalid(f"writers/{path.name}: only 'templates', 'edits' and {allowed} may stand at the top")
        templates, edits = data.get("templates") or {}, data.get("edits") or {}
        in_context = {context: data.get(key) or {} for key, context in contexts.items()}
        for where, labelled in [("", templates)] + [(f"{key}: ", data.get(key) or {}) for key in contexts]:
            for label, by_lang in labelled.items():
                if label not in LABELS:
                    raise CorpusInvalid(f"writers/{path.name}: {where}unknown label {label!r}")
                for lang in by_lang:
                    if lang not in CORPUS_LANGUAGES:
                        raise CorpusInvalid(f"writers/{path.name}: {where}{label}: unknown language {lang!r}")
        for lang in edits:
            if lang not in CORPUS_LANGUAGES:
                raise CorpusInvalid(f"writers/{path.name}: edits: unknown language {lang!r}")
        out.append(Writer(path.stem, templates, edits, in_context))
    return out


def load_messages(path: Path) -> list[Example]:
    """``label | lang | message`` a line (``#`` comments)."""
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in raw.split("|", 2)]
        if len(parts) != 3 or not parts[2]:
            raise CorpusInvalid(f"{path.name}:{number}: expected 'label | lang | message'")
        label, lang, text = parts
        if label not in LABELS:
            raise CorpusInvalid(f"{path.name}:{number}: unknown label {label!r}")
        if lang not in CORPUS_LANGUAGES:
            raise CorpusInvalid(f"{path.name}:{number}: unknown language {lang!r}")
        out.append(Example(label, lang, text, "messages"))
    return out


def load_phrase_sets(paths: Iterable[Path]) -> list[Example]:
    return [
        Example(p.intent, p.lang, p.text, f"phrases:{path.stem}", pack=p.pack)
        for path in paths
        for p in load_phrases(path)
    ]


BOOKING_ACTIONS = {"new": "sales_discovery", "move": "booking_move", "cancel": "booking_cancel", "list": "booking_show"}


def load_tuning_sets(paths: Iterable[Path]) -> list[Example]:
    """The tuning sets in the blind set's format (``eval/tuning/*.txt``); a new booking is the sales
    journey's, a change of one the reader's label of that change (moved, cancelled, listed)."""
    out = []
    for path in paths:
        for p in load_blind(path):
            label = p.intent
            if label == "booking":
                label = BOOKING_ACTIONS.get(p.labels.get("action", "new"), "")
                if not label:
                    raise CorpusInvalid(f"{path.name}: unknown booking action in {p.text!r}")
            out.append(Example(label, p.lang, p.text, f"tuning:{path.stem}", pack=p.pack))
    return out


def _shingles(text: str) -> frozenset[str]:
    plain = f" {normalize_for_reader(text)} "
    return frozenset(plain[i : i + 4] for i in range(len(plain) - 3))


class NearCopies:
    """Protected messages (the blind sets) indexed by their character 4-grams, to ask of any text whether
    it is a near copy of one of them: Jaccard of the 4-gram sets >= ``threshold``. The index looks only at
    protected messages that share a 4-gram and have a size that can reach the threshold, so thousands of
    texts are checked against a thousand messages in well under a second."""

    def __init__(self, protected: Iterable[str], threshold: float = 0.7) -> None:
        self.threshold = threshold
        self._sets = [_shingles(t) for t in protected]
        self._index: dict[str, list[int]] = {}
        for n, grams in enumerate(self._sets):
            for gram in grams:
                self._index.setdefault(gram, []).append(n)

    def match(self, text: str) -> int | None:
        """The index of a protected message that ``text`` nearly copies, or None."""
        mine = _shingles(text)
        if not mine:
            return None
        shared: dict[int, int] = {}
        for gram in mine:
            for n in self._index.get(gram, ()):
                shared[n] = shared.get(n, 0) + 1
        for n, common in shared.items():
            union = len(mine) + len(self._sets[n]) - common
            if union and common / union >= self.threshold:
                return n
        return None


def too_close(examples: list[Example], protected: Iterable[str], threshold: float = 0.7) -> set[int]:
    """Indexes of examples whose character 4-grams overlap a protected message's by ``threshold``
    (Jaccard) or more: near copies of the blind held-out set, dropped from training."""
    guard = NearCopies(protected, threshold)
    return {n for n, ex in enumerate(examples) if guard.match(ex.text) is not None}


def blind_texts(path: Path) -> list[str]:
    """The messages of the blind held-out set, for :func:`too_close` only (never printed)."""
    rows = [r for r in path.read_text(encoding="utf-8").splitlines() if r.strip() and not r.startswith("#")]
    return [r.split("|", 4)[4] for r in rows]


def goal_texts(path: Path, *, answers_of_at_least: int = 1) -> list[str]:
    """What the customers of the blind conversations (``eval/blind/goals*.yaml``) say: openings, steps and answers
    (those of ``answers_of_at_least`` words or more: a time or a place alone is everybody's words), for
    :class:`NearCopies` only (never printed)."""
    out: list[str] = []

    def answers(value: object) -> None:
        if isinstance(value, str):
            if len(value.split()) >= answers_of_at_least:
                out.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                answers(v)

    for goal in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
        out.append(str(goal.get("opening") or ""))
        out += [str(step.get("say") or "") for step in goal.get("steps") or []]
        answers(goal.get("answers"))
    return [text for text in out if text]


PROTECTED_MIN_WORDS = 4  # shorter messages ("ok", "asante sana", "habari za asubuhi") are everybody's words
PROTECTED_ANSWER_MIN_WORDS = 5  # a goal's shorter answers are a time, a place or a yes ("kesho saa nne asubuhi")


def blind_messages(eval_dir: Path) -> list[str]:
    """What no training message and no file the reading is made of may nearly copy: every message of the blind sets
    and every opening, step and longer answer of the blind conversations, of four words or more. Shorter ones are
    set phrases anybody writes: a file holding "habari za asubuhi" copies nobody, and dropping every "hello" of the
    corpus because a blind message says hello would unteach greetings."""
    blind = eval_dir / "blind"
    texts = [text for path in sorted(blind.glob("heldout*.txt")) for text in blind_texts(path)]
    texts += [
        text
        for path in sorted(blind.glob("goals*.yaml"))
        for text in goal_texts(path, answers_of_at_least=PROTECTED_ANSWER_MIN_WORDS)
    ]
    return [text for text in texts if len(text.split()) >= PROTECTED_MIN_WORDS]


def corpus_digest(examples: list[Example]) -> str:
    """What the reader's weights record of the corpus they were trained on."""
    digest = hashlib.sha256()
    for ex in examples:
        where = "" if ex.context is None else f"\t{ex.context}"  # the digest of a corpus without contexts is unchanged
        digest.update(f"{ex.label}\t{ex.text}{where}\n".encode())
    return digest.hexdigest()


def load_corpus(eval_dir: Path, *, without_blind: bool = True) -> list[Example]:
    """Every training example: templates expanded, hand-written messages, tuning phrases and sets; near copies
    of the blind held-out sets removed (a held-out message the reader was trained on measures its memory), unless
    ``without_blind`` is false; exact duplicates (after normalising) kept once."""
    corpus_dir = eval_dir / "corpus"
    templates = yaml.safe_load((corpus_dir / "templates.yaml").read_text(encoding="utf-8"))
    trades = yaml.safe_load((corpus_dir / "trades.yaml").read_text(encoding="utf-8"))
    for label in templates:
        if label not in LABELS:
            raise CorpusInvalid(f"templates.yaml: unknown label {label!r}")
    fillers = yaml.safe_load((corpus_dir / "fillers.yaml").read_text(encoding="utf-8"))
    examples = expand_templates(templates, trades, fillers)
    voices = writers(corpus_dir)
    for n, writer in enumerate(voices):
        examples += expand_templates(
            writer.templates,
            trades,
            fillers,
            seed=SEED + 100 + n,
            variants=WRITER_VARIANTS_PER_TEMPLATE,
            source=f"writer:{writer.name}",
        )
    examples += noise()
    examples += load_messages(corpus_dir / "messages.txt")
    examples += load_phrase_sets(sorted((eval_dir / "phrases").glob("*.txt")))
    examples += load_tuning_sets(sorted((eval_dir / "tuning").glob("*.txt")))
    examples += in_context(examples, eval_dir, trades, fillers)
    for n, writer in enumerate(voices):
        for context, labelled in writer.in_context.items():
            examples += expand_templates(
                labelled,
                trades,
                fillers,
                seed=SEED + 200 + n,
                variants=WRITER_VARIANTS_PER_TEMPLATE,
                context=context,
                source=f"writer:{writer.name}@{context}",
            )
    dropped = too_close(examples, blind_messages(eval_dir)) if without_blind else set()
    seen: set[tuple[str, str, str | None]] = set()
    out = []
    for n, ex in enumerate(examples):
        key = (ex.label, normalize_for_reader(ex.text), ex.context)
        if n in dropped or key in seen:
            continue
        seen.add(key)
        out.append(ex)
    return out
