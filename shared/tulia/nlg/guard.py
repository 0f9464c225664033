"""The fact guard: model-written text may only contain facts that a tool returned this turn.

Every number (prices, amounts, quantities, percentages, dates, times), in digits or in English or
Swahili words ("ten percent", "asilimia kumi", "elfu mbili"), every order or ticket reference, every
code-like token, every "free"/"bure" claim, and every promise of when ("tomorrow", "by Friday",
"kesho", "within a week", "same day"), of price ("half price", "nusu bei") and of stock ("in stock",
"plenty available", "zipo nyingi") in the text must be backed by the tool output (the shop's settings
included, as tenant_get_context returns them); otherwise the template wording is used instead.
"""

from __future__ import annotations

import re
from typing import Any

from tulia.nlu.lexicon import NUMBER_WORDS, SCALES_AFTER, SCALES_BEFORE

_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_TOKEN = re.compile(r"\b(?:[A-Z]{2,}[-_]?[A-Z0-9]*\d[A-Z0-9]*|[A-Z0-9]{2,}-[A-Z0-9]{3,}|ws_CO_\w+)\b")


def _numbers(text: str) -> set[str]:
    out = set()
    for m in _NUMBER.findall(text):
        plain = m.replace(",", "")
        if plain.endswith(".0"):
            plain = plain[:-2]
        out.add(plain)
    return out


_ISO_DATETIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")
_IDENTIFIER = re.compile(r"^[A-Za-z]*[_-]?[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*$")


def _walk(value: Any, numbers: set[str], tokens: set[str]) -> None:
    """Collect the facts a tool output states. Timestamps give their date (day, month, year), not
    their clock digits; identifiers are facts as a whole, not the digits inside them."""
    if isinstance(value, dict):
        for v in value.values():
            _walk(v, numbers, tokens)
    elif isinstance(value, list | tuple | set):
        for v in value:
            _walk(v, numbers, tokens)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        numbers |= _numbers(str(value))
    else:
        text = str(value)
        date = _ISO_DATETIME.match(text)
        if date:
            year, month, day = date.groups()
            numbers |= {year, month, day, str(int(month)), str(int(day)), f"{year}-{month}-{day}"}
            return
        if " " not in text and _IDENTIFIER.match(text) and not text.replace(",", "").replace(".", "").isdigit():
            tokens.add(text.upper())
            tokens.update(p.upper() for p in text.split("-"))
            return
        numbers |= _numbers(text)
        words = _WORD.findall(text)
        tokens |= {w.upper() for w in words} | {p.upper() for w in words for p in w.split("-")}


def _backing_text(value: Any, out: list[str]) -> None:
    """The words of a tool output, for promises: its strings and keys, the weekday of each date, and
    "in stock" where an item has stock."""
    from datetime import date as _date

    if isinstance(value, dict):
        for key, v in value.items():
            out.append(str(key).replace("_", " "))
            if key in ("in_stock", "available") and v is True:
                out.extend(_STOCK_WORDS)
            if key in ("stock", "stock_available") and isinstance(v, int) and not isinstance(v, bool) and v > 0:
                out.extend(_STOCK_WORDS)
            _backing_text(v, out)
    elif isinstance(value, list | tuple | set):
        for v in value:
            _backing_text(v, out)
    elif isinstance(value, str):
        out.append(value)
        if m := _ISO_DATETIME.match(value):
            day = _date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            out.extend(_WEEKDAYS[day.weekday()])


def unbacked_claims(text: str, *tool_outputs: Any) -> list[str]:
    """The promises of when, price or stock in ``text`` whose words no tool output contains."""
    said: list[str] = []
    _backing_text(tool_outputs, said)
    backing = " ".join(" ".join(said).casefold().split())
    out = []
    for m in _CLAIM.finditer(text):
        claim = " ".join(m.group(0).casefold().split())
        core = re.sub(rf"^(?:by|on|before|until|this|next) (?={_DAY_NAMES})", "", claim)
        names = next((pair for pair in _WEEKDAYS if core in pair), (core,))  # "Jumatatu" is backed by "Monday"
        if not any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", backing) for name in names):
            out.append(m.group(0))
    return out


def facts_of(*tool_outputs: Any) -> tuple[set[str], set[str]]:
    numbers: set[str] = set()
    tokens: set[str] = set()
    _walk(tool_outputs, numbers, tokens)
    return numbers, tokens


_LIST_MARKER = re.compile(r"^(\s*)\d{1,2}[.)](?=\s)", re.M)


_WORD = re.compile(r"[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*")


def _is_identifier(word: str) -> bool:
    return any(c.isalpha() for c in word) and any(c.isdigit() for c in word)


_JOINERS = {"and", "na", "a"}
_NUMBER_WORD = re.compile(r"[A-Za-z]+")
_FREE = re.compile(r"\b(free|for free|free of charge|no charge|bure|bila malipo)\b", re.I)
_WEEKDAYS = (
    ("monday", "jumatatu"), ("tuesday", "jumanne"), ("wednesday", "jumatano"), ("thursday", "alhamisi"),
    ("friday", "ijumaa"), ("saturday", "jumamosi"), ("sunday", "jumapili"),
)  # fmt: skip
_DAY_NAMES = "|".join(name for pair in _WEEKDAYS for name in pair)
# promises of when, of price and of stock: each needs the same words in this turn's tool output
_CLAIM = re.compile(
    r"\b(?:"
    r"today|tonight|tomorrow|day after tomorrow|this (?:morning|afternoon|evening|week|weekend)|"
    r"next (?:day|week|morning)|same day|right away|immediately|"
    rf"(?:by|on|before|until|this|next) (?:{_DAY_NAMES})|{_DAY_NAMES}|"
    r"within (?:an? |one |two |three |a few |\d+ )?(?:minutes?|hours?|days?|weeks?)|"
    r"in (?:an? |one |two |a few |\d+ )?(?:minutes?|hours?|days?|weeks?)|"
    r"leo|kesho|keshokutwa|kesho kutwa|kesho yake|siku hiyo hiyo|mara moja|sasa hivi|"
    r"ndani ya (?:saa|siku|wiki|dakika)(?: \w+)?|wiki (?:hii|ijayo)|"
    r"half price|half off|half the price|nusu bei|bei nusu|buy one get one|"
    r"in stock|plenty|lots (?:of stock|in stock|available)|many (?:available|in stock|left)|"
    r"available now|zipo nyingi|ziko nyingi|tunazo nyingi|nyingi sana|zipo stoo|ziko stoo"
    r")\b",
    re.I,
)
_STOCK_WORDS = ("in stock", "available now", "zipo stoo", "ziko stoo")


def spelled_numbers(text: str) -> list[int]:
    """The numbers written in words in ``text``: "ten percent" 10, "two thousand five hundred" 2500,
    "asilimia kumi" 10, "kumi na tano" 15, "elfu mbili mia tano" 2500. A lone "one"/"moja" (an
    article as often as a number) is left out."""
    words = [w.lower() for w in _NUMBER_WORD.findall(text)]
    found: list[int] = []
    i = 0
    while i < len(words):
        if words[i] not in NUMBER_WORDS and words[i] not in SCALES_BEFORE and words[i] not in SCALES_AFTER:
            i += 1
            continue
        total, current, j, parts = 0, 0, i, 0
        while j < len(words):
            w = words[j]
            if w in NUMBER_WORDS:
                current += NUMBER_WORDS[w]
            elif w in SCALES_AFTER:  # "two hundred", "a hundred"
                current = max(current, 1) * SCALES_AFTER[w]
                if SCALES_AFTER[w] >= 1000:
                    total, current = total + current, 0
            elif w in SCALES_BEFORE:  # Swahili: the scale, then how many of it
                k = j + 1
                count = 0
                while k < len(words) and words[k] in NUMBER_WORDS and NUMBER_WORDS[words[k]] < 10:
                    count += NUMBER_WORDS[words[k]]
                    k += 1
                total += SCALES_BEFORE[w] * max(count, 1)
                parts += 1
                j = k
                continue
            elif not (w in _JOINERS and parts and j + 1 < len(words) and words[j + 1] in NUMBER_WORDS):
                break
            parts += 1
            j += 1
        value = total + current
        if parts and not (value == 1 and parts == 1):
            found.append(value)
        i = max(j, i + 1)
    return found


def unsupported_facts(text: str, *tool_outputs: Any, allowed_numbers: set[str] | None = None) -> list[str]:
    """The numbers and reference-like tokens in ``text`` that no tool output contains.

    Words that mix letters and digits (ORD-7F3K2, 128GB, TK4XYZ12AB) are checked whole; other
    numbers are checked as numbers. The numbering of a list ("1. Go to M-Pesa") is layout, not a fact."""
    text = _LIST_MARKER.sub(r"\1", text)
    numbers, tokens = facts_of(*tool_outputs)
    numbers |= allowed_numbers or set()
    missing: list[str] = []
    identifiers = [w for w in _WORD.findall(text) if _is_identifier(w)]
    for word in identifiers:
        if word.upper() not in tokens and not all(part.upper() in tokens for part in word.split("-")):
            missing.append(word)
    plain = _WORD.sub(lambda m: " " if _is_identifier(m.group(0)) else m.group(0), text)
    missing += [n for n in _numbers(plain) if n not in numbers]
    missing += [t for t in _TOKEN.findall(plain) if t.upper() not in tokens]
    missing += [str(n) for n in spelled_numbers(plain) if str(n) not in numbers]
    if _FREE.search(plain) and not ({"FREE", "BURE"} & tokens or "0" in numbers):
        missing.append(_FREE.search(plain).group(0))  # type: ignore[union-attr]
    missing += unbacked_claims(text, *tool_outputs)
    return missing


def passes(text: str, *tool_outputs: Any, allowed_numbers: set[str] | None = None) -> bool:
    return not unsupported_facts(text, *tool_outputs, allowed_numbers=allowed_numbers)
