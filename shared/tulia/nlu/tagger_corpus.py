"""The token tagger's labelled corpus (build time only; never imported by a handler).

Each template of ``eval/corpus/templates.yaml`` (what customers say, for the reader) and of
``eval/corpus/edits.yaml`` (what they do with their basket and their place) is filled as the reader's corpus
fills it (:func:`tulia.nlu.corpus.slot_values`), and every slot's value keeps where it stands: its words are
tagged with the slot's kind (``{item}`` an item, ``{n}`` a count, ``{area}`` a place...) and, for items and
places, the act the template gives it (``{item:set}``, ``{area:old}``). What real typing adds comes after, word
by word (a typo, a greeting before, a word after, capitals), so every word keeps its tag.

Each example carries the gazetteer a shop would give: the names of its trade's things, the places, people and
services, some of it left out at random (a customer's words are not always the catalog's: "suger", "unga ya
jogoo"), so the tagger learns to weigh the shop's words with the words around them.
"""

from __future__ import annotations

import csv
import hashlib
import random
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tulia.nlu.corpus import (
    CORPUS_LANGUAGES,
    SEED,
    CorpusInvalid,
    NearCopies,
    _typo,
    blind_messages,
    slot_values,
    writers,
)
from tulia.nlu.frame_extract import NUMBER_WORDS
from tulia.nlu.tagger import TAGS, Gazetteer, Token, tokens

VARIANTS = 24  # fillings of each template
WRITER_VARIANTS = 3  # fillings of each writer's template (eval/corpus/writers/: many wordings, fewer fillings)
GAZETTEER_DROPOUT = 0.25  # a kind of the shop's words left out of an example
OWN_NAME_DROPOUT = 0.15  # the filled thing's own name left out of the gazetteer

_SLOT = re.compile(r"\{(\w+)(?::(\w+))?\}")
KIND_OF_SLOT = {
    "item": "ITEM", "item2": "ITEM", "item3": "ITEM", "service": "SERVICE", "n": "QTY", "nw": "QTY", "n2": "QTY",
    "nw2": "QTY", "area": "LOC", "area2": "LOC", "ref": "REF", "code": "CODE", "mpesa": "MPESA", "day": "DAY",
    "time": "TIME", "person": "STAFF", "price": "PRICE", "option": "OPTION", "option2": "OPTION",
    "level": "OPTION", "pay": "PAY", "by_measure": "OPTION", "dims": "OPTION", "piece": "PIECE",
}  # fmt: skip
_DEFAULT_ACT = {"ITEM": "add", "LOC": "new"}


@dataclass(frozen=True)
class TaggedExample:
    tokens: tuple[Token, ...]
    tags: tuple[str, ...]
    gazetteer: Gazetteer
    lang: str
    source: str  # "templates:<label>", "edits", "writer:<name>:templates:<label>" or "writer:<name>:edits"
    template: str


def _extra_values(
    template: str, lang: str, rng: random.Random, fillers: dict[str, Any], trade: dict[str, Any]
) -> dict[str, str]:
    """The tagger's own slots, drawn only when a template has them (the reader's corpus is untouched)."""
    out: dict[str, str] = {}
    if "{area2" in template:
        out["area2"] = rng.choice(fillers["areas"])
    if "{nw2}" in template:
        out["nw2"] = rng.choice(fillers["number_words"][lang])
    if "{n2}" in template:
        out["n2"] = str(rng.choice((1, 2, 3, 4, 5, 6, 10)))
    if "{option}" in template:
        out["option"] = rng.choice(fillers["options"])
    if "{option2}" in template:  # another option ("iwe XL badala ya L")
        out["option2"] = rng.choice([o for o in fillers["options"] if o != out.get("option")])
    if "{level}" in template:  # a numbered option, often her story's too ("my son goes into form 4"): never a count
        out["level"] = rng.choice(fillers["levels"])
    if "{pay}" in template:
        out["pay"] = rng.choice(fillers["payments"])
    # a measure said of a thing ("futi 10", "3kg", "24 square feet"), a piece's two sides ("5ft by 4ft") and the
    # word of the pieces counted ("panels", "vipande"): the measures are what the thing is sold by or its option,
    # the piece word names no thing (the count beside it is the thing's)
    for slot, kind in (("by_measure", "measures"), ("dims", "dimensions"), ("piece", "pieces")):
        if f"{{{slot}}}" in template:
            out[slot] = rng.choice(fillers[kind])
    return out


ADDRESS_SHARE = 0.3  # a new place filled with the rest of an address ("Kasarani, Kangundo road, hse no 14")


def _address(area: str, rng: random.Random, fillers: dict[str, Any]) -> str:
    """A place said with the rest of its address: a street, an estate, a building, a house: all of it the place."""
    parts = fillers["addresses"]
    unit = rng.choice(parts["units"]).format(k=rng.randint(1, 120), b=rng.choice("ABCDEFGH"))
    form: str = rng.choice(parts["forms"])
    return form.format(
        area=area,
        street=rng.choice(parts["streets"]),
        estate=rng.choice(parts["estates"]),
        building=rng.choice(parts["buildings"]),
        unit=unit,
    )


STORY = "story"  # a number of her story ("stung {n2:story} times", "tuko watu {n2:story}"): filled, but no count


def _tag_of(kind: str, act: str | None, first: bool) -> str:
    if (kind == "QTY" and act == STORY) or kind == "PIECE":
        return "O"
    label = f"{kind}.{act or _DEFAULT_ACT[kind]}" if kind in _DEFAULT_ACT else kind
    return f"{'B' if first else 'I'}-{label}"


def filled(template: str, values: dict[str, str]) -> tuple[list[Token], list[str]]:
    """The template's text with its slots filled, as tokens and their tags."""
    text, marks = "", []
    at = 0
    for m in _SLOT.finditer(template):
        text += template[at : m.start()]
        slot, act = m.group(1), m.group(2)
        if slot not in KIND_OF_SLOT:
            raise CorpusInvalid(f"unknown slot {{{slot}}} in {template!r}")
        value = values[slot]
        marks.append((len(text), len(text) + len(value), KIND_OF_SLOT[slot], act))
        text += value
        at = m.end()
    text += template[at:]
    toks = tokens(text)
    tags: list[str] = []
    for tok in toks:
        tag = "O"
        for start, end, kind, act in marks:
            if start <= tok.start and tok.end <= end:
                tag = _tag_of(kind, act, tok.start == start or not tags or tags[-1] == "O")
                break
        tags.append(tag)
    stories = {
        i
        for i, tok in enumerate(toks)
        if any(start <= tok.start and tok.end <= end and act == STORY for start, end, _kind, act in marks)
    }
    _literal_counts(toks, tags, stories)
    return toks, tags


def _literal_counts(toks: list[Token], tags: list[str], stories: Collection[int] = ()) -> None:
    """A count the template writes itself, next to an item ("{item2} moja", "{n} of {item} and one {item2}"),
    is a count too; a number of her story (``stories``: the tokens of its slots) never is."""
    for i, tok in enumerate(toks):
        if i in stories or tags[i] != "O" or not (tok.form.isdigit() or tok.form in NUMBER_WORDS):
            continue
        beside = [tags[j] for j in (i - 1, i + 1) if 0 <= j < len(toks)]
        if any("ITEM" in tag for tag in beside):
            tags[i] = "B-QTY"


def _noisy(
    toks: list[Token], tags: list[str], lang: str, rng: random.Random, fillers: dict[str, Any]
) -> tuple[list[Token], list[str]]:
    """What real typing adds, word by word: a typo, a greeting before, a word after, capitals."""
    toks, tags = list(toks), list(tags)

    def retext(tok: Token, text: str) -> Token:
        return Token(text, tokens(text)[0].form if tokens(text) else text.casefold(), tok.start, tok.end)

    if rng.random() < 0.3 and toks:
        n = rng.randrange(len(toks))
        toks[n] = retext(toks[n], _typo(toks[n].text, rng))
    if rng.random() < 0.25:
        before = tokens(rng.choice(fillers["prefixes"][lang]))
        toks, tags = before + toks, ["O"] * len(before) + tags
    if rng.random() < 0.2:
        after = tokens(rng.choice(fillers["suffixes"][lang]))
        toks, tags = toks + after, tags + ["O"] * len(after)
    r = rng.random()
    if r < 0.2:
        toks = [retext(t, t.text.upper()) for t in toks]
    elif r < 0.3:
        toks = [retext(t, t.text.lower()) for t in toks]
    if toks and toks[-1].text == "?" and rng.random() < 0.3:
        toks, tags = toks[:-1], tags[:-1]
    return toks, tags


def _gazetteer(
    trade: dict[str, Any], fillers: dict[str, Any], toks: list[Token], tags: list[str], rng: random.Random
) -> Gazetteer:
    """The words of a shop of this trade, some left out at random."""
    kinds = {
        "item": [n for pair in trade.get("items", []) for n in pair],
        "service": [n for pair in trade.get("services", []) for n in pair],
        "zone_area": list(fillers["areas"]),
        "staff": list(fillers["people"]),
        "option": list(fillers["options"]),
    }
    kinds = {k: v for k, v in kinds.items() if rng.random() >= GAZETTEER_DROPOUT}
    if "item" in kinds and rng.random() < OWN_NAME_DROPOUT:
        said = {" ".join(t.form for t, tag in zip(toks, tags, strict=True) if "ITEM" in tag)}
        kinds["item"] = [n for n in kinds["item"] if n.casefold() not in said]
    return Gazetteer.of(**kinds)


def shops_as_trades(pack_dirs: Iterable[Path]) -> dict[str, dict[str, list[list[str]]]]:
    """The catalogs of packs (read as written: ``name`` and ``type`` of ``catalog.csv``) as trades of their own,
    so the tagger also meets the names shops give ("Oraimo FreePods Lite Earbuds", "Maize Seed H614 2kg") with
    the shop's whole catalog as its gazetteer."""
    out: dict[str, dict[str, list[list[str]]]] = {}
    for directory in pack_dirs:
        path = directory / "catalog.csv"
        if not path.exists():
            continue
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        kinds: dict[str, list[list[str]]] = {"items": [], "services": []}
        for row in rows:
            name = (row.get("name") or "").strip()
            if name:
                kinds["services" if row.get("type") == "service" else "items"].append([name, name])
        out[f"pack:{directory.name}"] = {k: v for k, v in kinds.items() if v}
    return out


def tagged_examples(
    eval_dir: Path, *, pack_dirs: Iterable[Path] = (), seed: int = SEED, variants: int = VARIANTS
) -> list[TaggedExample]:
    """Every tagged example: the reader's templates and the edit templates, each filled ``variants`` times
    (the first as written, the rest with typing's noise), with things of the corpus's trades and of the shops of
    ``pack_dirs`` (never a blind set's shop: the caller leaves those out); near copies of the blind sets dropped."""
    corpus_dir = eval_dir / "corpus"
    templates = yaml.safe_load((corpus_dir / "templates.yaml").read_text(encoding="utf-8"))
    edits = yaml.safe_load((corpus_dir / "edits.yaml").read_text(encoding="utf-8"))
    trades = yaml.safe_load((corpus_dir / "trades.yaml").read_text(encoding="utf-8"))
    trades |= shops_as_trades(pack_dirs)
    fillers = yaml.safe_load((corpus_dir / "fillers.yaml").read_text(encoding="utf-8"))
    sources = [
        (f"templates:{label}", lang, lines) for label, by_lang in templates.items() for lang, lines in by_lang.items()
    ]
    sources += [("edits", lang, lines) for lang, lines in edits.items()]
    for writer in writers(corpus_dir):  # after the engineer's own, whose fillings stay as they were
        sources += [
            (f"writer:{writer.name}:templates:{label}", lang, lines)
            for label, by_lang in writer.templates.items()
            for lang, lines in by_lang.items()
        ]
        sources += [(f"writer:{writer.name}:edits", lang, lines) for lang, lines in writer.edits.items()]
    guard = NearCopies(blind_messages(eval_dir))
    out: list[TaggedExample] = []
    for source, lang, lines in sources:
        if lang not in CORPUS_LANGUAGES:
            raise CorpusInvalid(f"{source}: unknown language {lang!r}")
        for template in lines:
            if not isinstance(template, str):
                raise CorpusInvalid(f"{source}/{lang}: {template!r} is not text (quote it)")
            bare = _SLOT.sub(lambda m: "{" + m.group(1) + "}", template)
            count = (WRITER_VARIANTS if source.startswith("writer:") else variants) if _SLOT.search(template) else 2
            # each template draws from its own seeded stream, and each filling's shop is the one that hashes
            # highest for it: a template or a shop added changes the fillings of that template, or the few that
            # the new shop wins, never the whole corpus (so a retrain moves only what the change is about)
            key = f"{seed}|{source}|{lang}|{template}"
            rng, addresses = random.Random(key), random.Random(f"address|{key}")
            kind = "services" if "{service}" in bare else "items"
            eligible = [t for t, things in trades.items() if things.get(kind)]
            for n in range(count):
                trade = max(eligible, key=lambda t: hashlib.blake2b(f"{key}|{n}|{t}".encode()).digest())
                values, trade = slot_values(bare, lang, {trade: trades[trade]}, rng, fillers)
                values |= _extra_values(bare, lang, rng, fillers, trades[trade])
                if "{area}" in template and addresses.random() < ADDRESS_SHARE:  # a new place ({area:old} is not)
                    values["area"] = _address(values["area"], addresses, fillers)
                toks, tags = filled(template, values)
                if n:
                    toks, tags = _noisy(toks, tags, lang, rng, fillers)
                if not toks or guard.match(" ".join(t.text for t in toks)) is not None:
                    continue
                assert all(tag in TAGS for tag in tags), tags
                gazetteer = _gazetteer(trades[trade], fillers, toks, tags, rng)
                out.append(TaggedExample(tuple(toks), tuple(tags), gazetteer, lang, source, template))
    return out


# Messages as customers wrote them, labelled by hand (``eval/tagger/gold/*.tsv``: ``key <TAB> message <TAB>
# KIND.act:words | ...``): the development goals' openings and steps (key ``devN/<goal>.<step>``, read at the
# goal's shop) and messages helpers wrote at trained shops from their pack files (key ``written/<pack>/<n>``).
# The templates teach what a slot is; these teach how real messages say it: a model trained on templates alone
# read 46% of the spans of development shops it never saw exactly, one trained with the other shops' labelled
# messages 61% (eighteenth session).
GOLD_REPEAT = 5  # each labelled message weighs as much as five fillings of a template


@dataclass(frozen=True)
class LabelledMessage:
    key: str
    pack: str
    lang: str | None  # the goal's language; None for a written message (not labelled)
    text: str
    spans: tuple[tuple[str, int, int], ...]  # (kind with its act, start, end) in the text


def goal_messages(eval_dir: Path) -> list[tuple[str, str, str, str]]:
    """(key, shop, language, message) of every development goal's opening and her own steps (never a blind goal)."""
    out = []
    for path in sorted((eval_dir / "goals").glob("*.yaml")):
        for goal in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            said = [goal.get("opening") or ""] + [step.get("say") or "" for step in goal.get("steps") or []]
            for n, text in enumerate(t for t in said if t.strip()):
                out.append(
                    (f"{path.stem}/{goal['id']}.{n}", goal["pack"], goal.get("lang", ""), " ".join(text.split()))
                )
    return out


def placed_spans(text: str, field: str) -> tuple[tuple[str, int, int], ...]:
    """The labelled spans (``KIND.act:words | ...``) placed in the message, each after the one before."""
    out: list[tuple[str, int, int]] = []
    at = 0
    for part in (p.strip() for p in field.split(" | ")):
        if not part:
            continue
        label, _, words = part.partition(":")
        if f"B-{label}" not in TAGS:
            raise CorpusInvalid(f"{label!r} is no tag ({text!r})")
        start = text.find(words, at) if words else -1
        if start < 0:
            raise CorpusInvalid(f"{words!r} is not in {text!r} after the spans before it")
        out.append((label, start, start + len(words)))
        at = start + len(words)
    return tuple(out)


def labelled_messages(eval_dir: Path) -> list[LabelledMessage]:
    goals = {key: (pack, lang) for key, pack, lang, _text in goal_messages(eval_dir)}
    out = []
    for path in sorted((eval_dir / "tagger" / "gold").glob("*.tsv")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            key, text, field = [*line.split("\t"), ""][:3]
            if key in goals:
                pack, lang = goals[key][0], goals[key][1] or None
            elif key.startswith("written/") and key.count("/") == 2:
                pack, lang = key.split("/")[1], None
            else:
                raise CorpusInvalid(f"{path.name}:{n}: {key!r} is no development goal's message nor written/<pack>/<n>")
            out.append(LabelledMessage(key, pack, lang, text, placed_spans(text, field)))
    return out


def labelled_examples(
    messages: Iterable[LabelledMessage], gazetteer_of: Any, guard: NearCopies | None = None
) -> list[TaggedExample]:
    """Each labelled message as a tagged example read with its shop's gazetteer (``gazetteer_of(pack)``, as the
    product reads it); a near copy of a blind message is left out."""
    out = []
    for message in messages:
        if guard is not None and guard.match(message.text) is not None:
            continue
        toks = tokens(message.text)
        tags = ["O"] * len(toks)
        for label, start, end in message.spans:
            inside = [i for i, t in enumerate(toks) if start <= t.start and t.end <= end]
            for i in inside:
                tags[i] = f"{'B' if i == inside[0] else 'I'}-{label}"
        gazetteer = gazetteer_of(message.pack)
        out.append(
            TaggedExample(
                tuple(toks), tuple(tags), gazetteer, message.lang or "written", f"gold:{message.key}", message.key
            )
        )
    return out
