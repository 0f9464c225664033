"""The fast path: decisions that never wait for a model and never change with one.

Opt-out and opt-in keywords, explicit requests for a human, an M-Pesa confirmation code, language
requests, answers to a pending question (a number, a list or button id, yes or no), prompt
injection, and abuse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

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
from tulia.nlu.reader import SURE, message_reader

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
_YES_SEND = re.compile(
    r"^(?:" + "|".join(re.escape(w) for w in sorted(YES, key=len, reverse=True)) + r")"
    r"(?: (?:send it|send the prompt|send|tuma|ituma|go ahead|proceed|endelea|please|pls|tafadhali|i confirm))+$"
)


def detect_choice(text: str) -> int | None:
    for emoji, digit in _EMOJI_DIGITS.items():
        text = text.replace(emoji, digit)
    m = _CHOICE.match(normalize(text))
    return int(m.group(1)) if m else None


def language_asked(text: str, plain: str) -> str | None:
    """A request to be answered in a language, in any words ("tafadhali niandikie kwa kiingereza"): the
    message names exactly one language and the reader is sure it is about preferences."""
    named = {code for code, words in LANGUAGE_NAMES.items() if any_phrase(plain, words)}
    if len(named) != 1 or len(plain.split()) > 14:
        return None
    reading = message_reader().read(text)
    if reading.label == "preferences_consent" and reading.confidence >= SURE:
        return named.pop()
    return None


def fast_path(text: str, *, awaiting_answer: bool) -> FastPathHit | None:
    """Return what the message is, if the fast path can tell; ``None`` sends it to the engines.

    Numbers and yes/no count only when the bot is waiting for an answer.
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
    if any_phrase(plain, HUMAN) and len(plain.split()) <= 12:
        return FastPathHit("human")
    code = extract_mpesa_code(text)
    if code is not None:
        return FastPathHit("payment_code", code=code)
    m = LANGUAGE_REQUEST_FRAME.match(plain)
    if m:
        word = m.group(3)
        lang = next(code for code, words in LANGUAGE_REQUESTS.items() if word in words)
        return FastPathHit("language", language=lang)
    if (asked := language_asked(text, plain)) is not None:
        return FastPathHit("language", language=asked)
    if awaiting_answer:
        choice = detect_choice(text)
        if choice is not None:
            return FastPathHit("choice", choice=choice)
        if plain in YES or _YES_SEND.match(plain):
            return FastPathHit("yes")
        if plain in NO:
            return FastPathHit("no")
    return None
