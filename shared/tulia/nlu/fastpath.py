"""The fast path: decisions that never wait for a model and never change with one.

Opt-out and opt-in keywords, explicit requests for a human, an M-Pesa confirmation code, language
requests, answers to a pending question (a number, a list or button id, yes or no), prompt
injection, and abuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from tulia.nlu.frame_extract import extract_mpesa_code
from tulia.nlu.lexicon import (
    ABUSE,
    HUMAN,
    INJECTION,
    LANGUAGE_NAMES,
    LANGUAGE_REQUEST_FRAME,
    LANGUAGE_REQUESTS,
    NO,
    OPT_IN,
    OPT_OUT,
    YES,
    any_phrase,
    normalize,
)
from tulia.nlu.reader import BUYING, SURE, message_reader

if TYPE_CHECKING:
    from tulia.nlu.types import CatalogWords

FastKind = Literal[
    "opt_out", "opt_in", "human", "language", "choice", "yes", "no", "injection", "abuse", "payment_code"
]

_EMOJI_DIGITS = {f"{d}\ufe0f\u20e3": str(d) for d in range(10)}
_CHOICE = re.compile(r"^(?:#|no\.?\s*|number\s*|option\s*|namba\s*|nambari\s*|item\s*)?(\d{1,2})[.)]?$")


@dataclass(frozen=True)
class FastPathHit:
    kind: FastKind
    language: str | None = None  # for "language"
    choice: int | None = None  # for "choice" (1-based)
    code: str | None = None  # for "payment_code": an M-Pesa confirmation code


# "yes, send it", "ee tuma", "sawa endelea": a yes with the action it agrees to
# a short answer made only of yes words (or only of no words), with the words people put round them: "eeh sawa",
# "ndio boss", "ok ok", "hapana bana", "ndiyo hivyo"
_AROUND = frozenset(
    "please pls plz tafadhali boss bana msee sir madam basi sana tu then fine hivyo hiyo ivo kabisa iko ni".split()
)
_YES_WORDS = frozenset(w for w in YES if " " not in w)
_NO_WORDS = frozenset(w for w in NO if " " not in w) - {"cancel"}  # "cancel it": said of an order or a line
MAX_ANSWER_WORDS = 4


def _only(plain: str, words: frozenset[str]) -> bool:
    said = plain.split()
    return (
        0 < len(said) <= MAX_ANSWER_WORDS and all(w in words or w in _AROUND for w in said) and bool(set(said) & words)
    )


# a word that asks for another choice than the one offered ("yes, the other number") or puts a condition on the yes
# ("yes but blue"): no plain yes
_ANOTHER = frozenset("other another different nyingine ingine tofauti but lakini ila except though however".split())


def _opens_with_yes(text: str, plain: str) -> bool:
    """ "yes that one", "eeh hizo", "ndiyo ni sawa hiyo": a short answer that opens with a yes word, counts nothing,
    asks for no other choice and, as the reader reads it, asks for nothing else (no purchase, question or person)."""
    said = plain.split()
    if not (1 < len(said) <= MAX_ANSWER_WORDS) or said[0] not in _YES_WORDS:
        return False
    if set(said) & (_NO_WORDS | _ANOTHER) or any(ch.isdigit() for ch in plain):
        return False
    return message_reader().read(text).label in ("unknown", "spam_casual")


_YES_SEND = re.compile(
    r"^(?:" + "|".join(re.escape(w) for w in sorted(YES, key=len, reverse=True)) + r")"
    # the act offered said after the yes ("poa, book" to a booking's confirmation, "sawa thibitisha")
    r"(?: (?:send it|send the prompt|send|tuma|ituma|go ahead|proceed|endelea|please|pls|tafadhali|i confirm|"
    r"confirm|thibitisha|book it|book me|book|nibook|ibook|bookiwa))+$"
)


_PERSON_WORDS = re.compile("|".join(rf"(?<!\w){re.escape(p)}(?!\w)" for p in sorted(HUMAN, key=len, reverse=True)))
NO_OTHER_REQUEST = ("human_request", "unknown", "spam_casual")  # readings that leave the request for a person alone
PERSON_PLAUSIBLE = 0.20  # beside another request (not a purchase), a person this likely is asked for too
MIN_PURCHASE_WORDS = 3  # words left of a purchase, without the words of the lists, for it to name a thing
PURCHASE_READ = 0.50  # a purchase read this surely keeps the words of the lists inside it (unless the rest asks one)


def detect_choice(text: str) -> int | None:
    for emoji, digit in _EMOJI_DIGITS.items():
        text = text.replace(emoji, digit)
    m = _CHOICE.match(normalize(text))
    return int(m.group(1)) if m else None


def language_asked(text: str, plain: str, catalog: Callable[[], CatalogWords | None] | None = None) -> str | None:
    """A request to be answered in a language, in any words ("from now on write to me in english"): the
    message names exactly one language and the reader is sure it is about preferences, the shop's words weighed as
    evidence of buying ("KLB Kiswahili Shughuli", "Oxford English Activities": books of a bookshop)."""
    from tulia.nlu.rules import catalog_evidence  # here: the agent's cold start imports the fast path, not the rules

    named = {code for code, words in LANGUAGE_NAMES.items() if any_phrase(plain, words)}
    if len(named) != 1 or len(plain.split()) > 14:
        return None
    shop_words = catalog() if catalog is not None else None  # read only when a language is named
    reading = message_reader().read(text, product_terms=catalog_evidence(plain, shop_words) or None)
    if reading.label == "preferences_consent" and reading.confidence >= SURE:
        return named.pop()
    return None


def person_asked(text: str, catalog: CatalogWords | None = None) -> bool:
    """Words that ask for a person ("agent", "human", "call me", "the owner") are evidence, not a verdict: they mark
    where a request for a person would be, and the reader reads the message with and without them. It asks for a
    person when the reader reads that, or when the rest says nothing else ("the owner", "is the owner around?"), or
    when beside another request the reader finds a person plausible ("my mpesa was deducted, call me"); not when the
    words sat inside a purchase (with and without them a purchase: "I need a human hair wig") or inside another
    request the reader is sure of ("call me when my order arrives" asks about the order). The shop's words count as
    evidence of buying when the message names its things; a thing it does not sell is still a thing, not a person."""
    from tulia.nlu.rules import catalog_evidence  # here: the agent's cold start imports the fast path, not the rules

    reader = message_reader()
    whole = reader.read(text, product_terms=catalog_evidence(normalize(text), catalog) or None)
    if whole.label == "human_request" and whole.confidence >= SURE:
        return True
    rest = re.sub(_PERSON_WORDS, " ", normalize(text)).strip()
    if not rest:
        return True
    reading = reader.read(rest, product_terms=catalog_evidence(rest, catalog) or None)
    if whole.label == "human_request":  # unsure: without the words, a sure purchase that names something is one
        # ("I need a phone with good call quality"); anything else, a person ("nipe mhudumu": "nipe" alone is no thing)
        return not (reading.label in BUYING and reading.confidence >= SURE and len(rest.split()) >= MIN_PURCHASE_WORDS)
    if whole.label in BUYING and whole.confidence >= PURCHASE_READ and reading.label == "unknown":
        return False  # "a bottle of rooting agent iko?": a purchase whose rest, without the words, is only unclear
    if reading.label in NO_OTHER_REQUEST:
        return True
    if whole.label in BUYING and reading.label in BUYING:
        return False
    if whole.probabilities.get("human_request", 0.0) >= PERSON_PLAUSIBLE:
        return True
    return not (whole.confidence >= SURE and reading.label == whole.label)


def fast_path(
    text: str, *, awaiting_answer: bool, catalog: Callable[[], CatalogWords | None] | None = None
) -> FastPathHit | None:
    """Return what the message is, if the fast path can tell; ``None`` sends it to the engines.

    Numbers and yes/no count only when the bot is waiting for an answer. ``catalog`` gives the shop's words, read
    only when a message holds words that ask for a person or name a language.
    """
    plain = normalize(text)
    if not plain:
        return None
    if OPT_OUT.match(plain):
        return FastPathHit("opt_out")
    if OPT_IN.match(plain):
        return FastPathHit("opt_in")
    if INJECTION.search(plain):
        return FastPathHit("injection")
    if any_phrase(plain, ABUSE):
        return FastPathHit("abuse")
    if any_phrase(plain, HUMAN) and len(plain.split()) <= 12 and person_asked(text, catalog() if catalog else None):
        return FastPathHit("human")
    code = extract_mpesa_code(text)
    if code is not None:
        return FastPathHit("payment_code", code=code)
    m = LANGUAGE_REQUEST_FRAME.match(plain)
    if m:
        word = m.group(3)
        lang = next(code for code, words in LANGUAGE_REQUESTS.items() if word in words)
        return FastPathHit("language", language=lang)
    if (asked := language_asked(text, plain, catalog)) is not None:
        return FastPathHit("language", language=asked)
    if awaiting_answer:
        choice = detect_choice(text)
        if choice is not None:
            return FastPathHit("choice", choice=choice)
        if plain in YES or _YES_SEND.match(plain) or _only(plain, _YES_WORDS) or _opens_with_yes(text, plain):
            return FastPathHit("yes")
        if plain in NO or _only(plain, _NO_WORDS):
            return FastPathHit("no")
    return None
