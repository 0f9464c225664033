"""Days and times in the customer's words, English, Swahili and Sheng, read in the shop's time (EAT).

"tomorrow at 10", "Saturday afternoon", "next Friday", "on the 14th", "kesho saa nne asubuhi" (10:00:
Swahili hours count from 6 am and 6 pm), "saa tisa alasiri" (15:00), "Jumamosi mchana", "sato saa
nne", "tomoro 10am". The reading is deterministic and the same on every engine; it keeps the spans it
used, so the rest of the message is read for other things (a service, a staff member, a zone) without
"10" becoming a quantity.

Choices where speakers differ: a weekday alone is the next one (today included, unless the time said with it
has passed: "Sunday at 9am" said on Sunday afternoon is next Sunday); "next Friday" is
the Friday of next week (Monday to Sunday), and every reply names the date, so a customer who meant
otherwise sees it; a clock hour without am/pm is read as a salon's day (1 to 6 are afternoon); "saa
N" without am/pm is Swahili time, even with digits ("saa 4" is 10:00).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from tulia.domain.booking import SlotWish
from tulia.domain.common import NAIROBI

_WEEKDAYS: dict[str, int] = {
    **dict.fromkeys(("monday", "mon", "jumatatu", "mondei", "monde"), 0),
    **dict.fromkeys(("tuesday", "tue", "tues", "jumanne", "tuesdei", "tusde"), 1),
    **dict.fromkeys(("wednesday", "wed", "jumatano", "wenzdei", "wensde"), 2),
    **dict.fromkeys(("thursday", "thu", "thur", "thurs", "alhamisi", "thursdei", "thasde"), 3),
    **dict.fromkeys(("friday", "fri", "ijumaa", "fraide", "fraidei", "frai"), 4),
    **dict.fromkeys(("saturday", "sat", "jumamosi", "sato", "satade", "satadei", "satoo"), 5),
    **dict.fromkeys(("sunday", "sun", "jumapili", "sunde", "sundei", "sandei", "sande"), 6),
}
_MONTHS: dict[str, int] = {
    **dict.fromkeys(("january", "jan", "januari"), 1),
    **dict.fromkeys(("february", "feb", "februari"), 2),
    **dict.fromkeys(("march", "mar", "machi"), 3),
    **dict.fromkeys(("april", "apr", "aprili"), 4),
    **dict.fromkeys(("may", "mei"), 5),
    **dict.fromkeys(("june", "jun", "juni"), 6),
    **dict.fromkeys(("july", "jul", "julai"), 7),
    **dict.fromkeys(("august", "aug", "agosti"), 8),
    **dict.fromkeys(("september", "sep", "sept", "septemba"), 9),
    **dict.fromkeys(("october", "oct", "oktoba"), 10),
    **dict.fromkeys(("november", "nov", "novemba"), 11),
    **dict.fromkeys(("december", "dec", "disemba", "desemba", "decemba"), 12),
}
_SW_HOURS = {
    "moja": 1, "mbili": 2, "tatu": 3, "nne": 4, "tano": 5, "sita": 6, "saba": 7, "nane": 8, "tisa": 9,
    "kumi": 10, "kumi na moja": 11, "kumi na mbili": 12,
}  # fmt: skip
_EN_HOURS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}  # fmt: skip
# the start times each part of the day allows (inclusive)
_PARTS: dict[str, tuple[time | None, time | None]] = {
    **dict.fromkeys(("morning", "asubuhi", "mornin", "moning", "asbh"), (None, time(11, 59))),
    **dict.fromkeys(("afternoon", "aftanoon"), (time(12), time(16, 59))),
    **dict.fromkeys(("evening", "jioni", "tonight", "evenin"), (time(16), None)),
    **dict.fromkeys(("mchana", "midday hours"), (time(12), time(15, 59))),
    "alasiri": (time(15), time(17, 59)),
    "usiku": (time(19), None),
    **dict.fromkeys(("lunchtime", "lunch time", "lunch"), (time(12), time(13, 59))),
}
_TODAY = ("today", "leo", "tonight", "tdy", "2day")
_TOMORROW = ("tomorrow", "tmrw", "tmr", "tomoro", "tommorow", "tomorow", "tommorrow", "kesho", "2moro", "tmorrow")
_AFTER_TOMORROW = ("day after tomorrow", "kesho kutwa", "keshokutwa", "kesho kuchwa")
_NEXT = ("next", "ijayo", "inayokuja", "ijao")
_THIS = ("this", "hii", "coming", "hiyo")
_WEEKEND = ("weekend", "wikendi", "wiikendi")
NEXT_WEEK_REACH = 1  # "friday of next week", "next week on friday"; not "my test is next week, i want a lesson friday"


def _beside(plain: str, one: tuple[int, int], other: tuple[int, int]) -> bool:
    """Whether two spans of the message are said together: at most ``NEXT_WEEK_REACH`` words between them."""
    return len(plain[min(one[1], other[1]) : max(one[0], other[0])].split()) <= NEXT_WEEK_REACH


_NEXT_WEEK = ("next week", "wiki ijayo", "wiki inayokuja", "wiki ijao")

_SW_HOUR_WORDS = "|".join(sorted(_SW_HOURS, key=len, reverse=True))
_EN_HOUR_WORDS = "|".join(sorted(_EN_HOURS, key=len, reverse=True))
_PART_WORDS = "|".join(sorted((re.escape(p) for p in _PARTS), key=len, reverse=True))
_SW_TIME = re.compile(
    rf"\bsaa\s+(?P<h>{_SW_HOUR_WORDS}|\d{{1,2}})(?![\d:.])"
    r"(?:\s*(?P<frac>na nusu|u nusu|unusu|na robo|kasorobo|kasoro robo|kasoro|:\d{2}))?"
    r"(?:\s+(?P<ampm>am|pm|a\.m\.|p\.m\.))?"
    r"(?:\s+(?:za\s+|ya\s+)?(?P<part>asubuhi|mchana|alasiri|jioni|usiku))?"
)
_CLOCK = re.compile(r"\b(?P<h>\d{1,2})[:.](?P<m>[0-5]\d)\s*(?P<ampm>am|pm|a\.m\.|p\.m\.|hrs|h)?(?!\d)")
_AMPM = re.compile(r"\b(?P<h>\d{1,2})\s*(?P<ampm>am|pm|a\.m\.|p\.m\.)(?!\w)")
_HALF_PAST = re.compile(
    rf"\b(?P<q>half|quarter)\s+(?P<dir>past|to)\s+(?P<h>{_EN_HOUR_WORDS}|\d{{1,2}})(?:\s*(?P<ampm>am|pm))?"
)
_AT_HOUR = re.compile(
    # "by 6" is an hour, "5 by 6" a size ("mattress covers for 5 by 6 beds")
    rf"\b(?P<lead>at around|at about|at|around|about|kama|(?<!\d\s)by|from|after|before|not before|not after)\s+"
    rf"(?P<h>{_EN_HOUR_WORDS}|\d{{1,2}})"
    r"(?:\s*o'?clock)?(?![\d:./\w])"
)
_OCLOCK = re.compile(rf"\b(?P<h>{_EN_HOUR_WORDS}|\d{{1,2}})\s*o'?clock\b")
_NOON = re.compile(r"\b(noon|midday|mid-day|12 noon|saa sita mchana)\b")
_BOUND = re.compile(r"\b(?P<kind>after|before|baada ya|kabla ya|not before|not after|from)\s*$")
_ORDINAL_DAY = re.compile(r"\b(?:on\s+the\s+|on\s+|the\s+)(?P<d>[0-3]?\d)(?:st|nd|rd|th)\b(?!\s+one)")
# a weekday and its day of the month ("saturday 19th", "sat the 19th", "jumamosi 19"): the day is a date when it has
# its ordinal or cannot be an hour (13 and above)
_WEEKDAY_THEN_DAY = re.compile(
    r"\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\b|\b(?:wednes|satur)day\b|"
    r"\b(?:jumatatu|jumanne|jumatano|alhamisi|ijumaa|jumamosi|jumapili)\b"
)
_DAY_AFTER_WEEKDAY = re.compile(r"\s*,?\s+(?:the\s+)?(?P<d>[0-3]?\d)(?P<th>st|nd|rd|th)?\b(?!\s*(?:am|pm|:|\.\d|h\b))")
_DAY_MONTH = re.compile(r"\b(?P<d>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>[a-z]{3,9})\b")
_MONTH_DAY = re.compile(r"\b(?P<mon>[a-z]{3,9})\s+(?P<d>[0-3]?\d)(?:st|nd|rd|th)?\b")
_SLASH_DATE = re.compile(r"\b(?P<d>[0-3]?\d)/(?P<m>[01]?\d)(?:/(?P<y>\d{2,4}))?\b")
# a fraction of a measure, never a day: with its unit ("1/2 inch", "3/4\"") or, in a fraction's shape, said as a
# thing's ("ile ya 3/4" after a hose's size; but "siku ya 5/12" is the 5th of December)
_WITH_A_UNIT = re.compile(r"\s*(?:inch|inches|in\b|inchi|\"|mm|cm|ft|feet|futi|kg|l\b|litre|lita|hp|gauge)")
_OF_A_THING = re.compile(r"(?:ya|za|of)\s$")


def _a_fraction(plain: str, m: re.Match[str]) -> bool:
    numerator, denominator = int(m.group("d")), int(m.group("m"))
    shaped = m.group("y") is None and numerator < denominator and denominator in (2, 4, 8, 16)
    return bool(_WITH_A_UNIT.match(plain, m.end())) or (shaped and bool(_OF_A_THING.search(plain, 0, m.start())))


_TAREHE = re.compile(r"\btarehe\s+(?P<d>[0-3]?\d)(?:\s+(?:mwezi\s+)?(?P<mon>[a-z]{3,9}))?\b")


@dataclass(frozen=True)
class WhenSaid:
    """The days and the time a message names (empty when it names none)."""

    days: tuple[date, ...] = ()
    at: time | None = None
    earliest: time | None = None
    latest: time | None = None
    spans: tuple[tuple[int, int], ...] = field(default=(), compare=False)

    @property
    def said(self) -> bool:
        return bool(self.days or self.at or self.earliest or self.latest)

    def wish(self, staff_id: str | None = None) -> SlotWish:
        return SlotWish(days=self.days, earliest=self.earliest, latest=self.latest, at=self.at, staff_id=staff_id)

    def merged_onto(self, before: WhenSaid) -> WhenSaid:
        """A reply that adds to what was said ("at 3" after "on Saturday"): what it names replaces, the
        rest of ``before`` stays (a new day keeps the time of day asked for, a new time keeps the day)."""
        days = self.days or before.days
        if self.at or self.earliest or self.latest:
            return WhenSaid(days, self.at, self.earliest, self.latest, self.spans)
        return WhenSaid(days, before.at, before.earliest, before.latest, self.spans)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").replace(",", " ").split())


def _past_days(text: str, plain: str) -> str:
    """``plain`` (``text`` as read) with each day said as gone blanked ("dripping since friday", "tangu ijumaa",
    "last monday", "jumatatu iliyopita"): her story's day, never the one she asks for (its length kept: the spans
    stand). Found in ``text`` with its commas: "friday, last week I was busy" asks for Friday."""
    names = "|".join(re.escape(w) for w in sorted(_WEEKDAYS, key=len, reverse=True) if len(w) > 3)
    gone = r"iliyopita|ilopita|last[ \t]+week"
    past = re.compile(rf"(?<![\w'])(?:(?:since|tangu|last)[ \t]+(?:{names})|(?:{names})[ \t]+(?:{gone}))(?![\w'])")
    for said in {_norm(m.group(0)) for m in past.finditer(text.lower().replace("’", "'"))}:
        plain = re.sub(rf"(?<![\w']){re.escape(said)}(?![\w'])", lambda m: " " * len(m.group(0)), plain)
    return plain


def read_when(text: str, now: datetime) -> WhenSaid:
    """The days and time ``text`` names, relative to ``now`` (any zone; read in EAT); a day said as gone is none."""
    plain = _past_days(text, _norm(text))
    today = now.astimezone(NAIROBI).date()
    spans: list[tuple[int, int]] = []
    days = _days(plain, today, spans)
    at, earliest, latest = _times(plain, spans)
    local_now = now.astimezone(NAIROBI).time()
    if days == [today] and _weekday(plain) is not None and (latest or at or time.max) <= local_now:
        days = [today + timedelta(days=7)]  # "Sunday at 9am" said on Sunday afternoon: the coming Sunday
    return WhenSaid(tuple(days), at, earliest, latest, tuple(spans))


def _word(plain: str, words: tuple[str, ...] | list[str]) -> re.Match[str] | None:
    for w in sorted(words, key=len, reverse=True):
        if m := re.search(rf"(?<![\w']){re.escape(w)}(?![\w'])", plain):
            return m
    return None


def _days(plain: str, today: date, spans: list[tuple[int, int]]) -> list[date]:
    week_start = today - timedelta(days=today.weekday())
    if m := _word(plain, _AFTER_TOMORROW):
        spans.append(m.span())
        return [today + timedelta(days=2)]
    next_week = _word(plain, _NEXT_WEEK)
    weekday = _weekday(plain)
    if weekday is not None:
        name, day_index = weekday
        spans.append(name.span())
        dated: list[tuple[int, int]] = []
        if (on := _date_of_the_weekday(plain, today, day_index, dated)) is not None:  # "jumamosi tarehe 19 desemba"
            spans.extend(dated)
            return [on]
        before = plain[: name.start()].split()[-1:]
        after = plain[name.end() :].split()[:1]
        if next_week is not None and _beside(plain, next_week.span(), name.span()):
            spans.append(next_week.span())
            return [week_start + timedelta(days=7 + day_index)]
        if (before and before[0] in _NEXT) or (after and after[0] in _NEXT):
            # the word for "next" is the day's too ("jumanne ijayo"), never a word of the service
            nearby = re.compile(
                rf"(?:(?:{'|'.join(_NEXT)})\s+)?{re.escape(name.group(0))}(?:\s+(?:{'|'.join(_NEXT)}))?"
            )
            if (whole := nearby.search(plain, max(0, name.start() - 12))) is not None:
                spans.append(whole.span())
            return [week_start + timedelta(days=7 + day_index)]
        return [today + timedelta(days=(day_index - today.weekday()) % 7)]
    if m := _word(plain, _WEEKEND):
        spans.append(m.span())
        saturday = week_start + timedelta(days=5 if today.weekday() <= 5 else 12)
        if next_week is not None or any(plain[max(0, m.start() - 6) : m.start()].strip().endswith(n) for n in _NEXT):
            saturday += timedelta(days=7)
        return [d for d in (saturday, saturday + timedelta(days=1)) if d >= today]
    if next_week is not None:
        spans.append(next_week.span())
        return [week_start + timedelta(days=7 + n) for n in range(7)]
    if m := _word(plain, _TOMORROW):
        spans.append(m.span())
        return [today + timedelta(days=1)]
    if m := _word(plain, _TODAY):
        spans.append(m.span())
        return [today]
    found = _date(plain, today, spans)
    return [found] if found else []


def _weekday(plain: str) -> tuple[re.Match[str], int] | None:
    for name in sorted(_WEEKDAYS, key=len, reverse=True):
        if len(name) <= 3 and name in ("sat", "sun", "mon", "wed", "thu", "fri", "tue"):
            pattern = rf"(?<![\w']){name}(?![\w'])"  # "sat" alone, not inside "satisfied"
        else:
            pattern = rf"(?<![\w']){re.escape(name)}(?![\w'])"
        if m := re.search(pattern, plain):
            return m, _WEEKDAYS[name]
    return None


def _date_of_the_weekday(plain: str, today: date, weekday: int, spans: list[tuple[int, int]]) -> date | None:
    """The date said with a weekday, the one that falls on it when she says several ("my wedding is on 19th December
    ... is next Tuesday the 8th possible?": the 8th); else the first date said."""
    first: tuple[date, list[tuple[int, int]]] | None = None
    for _ in range(3):
        found: list[tuple[int, int]] = []
        on = _date(plain, today, found)
        if on is None:
            break
        if on.weekday() == weekday:
            spans.extend(found)
            return on
        first = first or (on, found)
        for a, b in found:  # that date aside, the next one
            plain = plain[:a] + " " * (b - a) + plain[b:]
    if first is not None:
        spans.extend(first[1])
        return first[0]
    return None


def _date(plain: str, today: date, spans: list[tuple[int, int]]) -> date | None:
    def upcoming(day: int, month: int | None, year: int | None = None) -> date | None:
        try:
            if month is None:
                candidate = date(today.year, today.month, day)
                if candidate < today:
                    nxt = today.replace(day=1) + timedelta(days=32)
                    candidate = date(nxt.year, nxt.month, day)
                return candidate
            candidate = date(year or today.year, month, day)
            if year is None and candidate < today:
                candidate = date(today.year + 1, month, day)
            return candidate
        except ValueError:
            return None

    if m := _TAREHE.search(plain):
        month = _MONTHS.get(m.group("mon") or "")
        spans.append(m.span() if month or not m.group("mon") else (m.start(), m.start("mon") - 1))
        return upcoming(int(m.group("d")), month)
    if m := next((m for m in _SLASH_DATE.finditer(plain) if not _a_fraction(plain, m)), None):
        year = int(m.group("y")) if m.group("y") else None
        if year is not None and year < 100:
            year += 2000
        spans.append(m.span())
        return upcoming(int(m.group("d")), int(m.group("m")), year) if 1 <= int(m.group("m")) <= 12 else None
    for pattern in (_DAY_MONTH, _MONTH_DAY):
        for m in pattern.finditer(plain):
            month = _MONTHS.get(m.group("mon"))
            if month is not None:
                spans.append(m.span())
                return upcoming(int(m.group("d")), month)
    if m := _ORDINAL_DAY.search(plain):
        spans.append(m.span())
        return upcoming(int(m.group("d")), None)
    for weekday in _WEEKDAY_THEN_DAY.finditer(plain):
        if (m := _DAY_AFTER_WEEKDAY.match(plain, weekday.end())) and (m.group("th") or 13 <= int(m.group("d")) <= 31):
            spans.append((m.start("d"), m.end()))
            return upcoming(int(m.group("d")), None)
    return None


def _hour_of(raw: str) -> int:
    return _SW_HOURS.get(raw) or _EN_HOURS.get(raw) or int(raw)


def _western(hour: int, minute: int, ampm: str | None) -> time | None:
    if ampm:
        if not 1 <= hour <= 12:
            return None
        return time(hour % 12 + (12 if ampm.startswith("p") else 0), minute)
    if hour > 23:
        return None
    if 1 <= hour <= 6:
        hour += 12  # "at 4": a salon's afternoon, not 4 am
    return time(hour, minute)


def _swahili(hour: int, minute: int, part: str | None) -> time | None:
    """Swahili time: saa moja is the first hour after 6 (7:00 or 19:00)."""
    if not 1 <= hour <= 12:
        return None
    clock = hour + 6  # 7..18: the day's hours
    if part == "asubuhi" and clock >= 13:
        clock -= 12  # saa kumi na moja asubuhi: 5 am
    elif part in ("jioni", "usiku") and clock < 12:
        clock += 12  # saa moja jioni: 7 pm
    return time(clock % 24, minute)


def _times(plain: str, spans: list[tuple[int, int]]) -> tuple[time | None, time | None, time | None]:
    at: time | None = None
    where: tuple[int, int] | None = None
    part_said: str | None = None
    if m := _SW_TIME.search(plain):
        hour = _hour_of(m.group("h"))
        frac = m.group("frac") or ""
        minute = 30 if "nusu" in frac else 15 if frac == "na robo" else int(frac[1:]) if frac.startswith(":") else 0
        if frac.startswith("kasoro"):
            hour, minute = hour - 1 or 12, 45
        part_said = m.group("part")
        if m.group("ampm"):
            at = _western(hour, minute, m.group("ampm"))
        else:
            at = _swahili(hour, minute, part_said)
        where = m.span()
    elif m := _NOON.search(plain):
        at, where = time(12), m.span()
    elif m := _CLOCK.search(plain):
        ampm = m.group("ampm") if m.group("ampm") in ("am", "pm", "a.m.", "p.m.") else None
        hour = int(m.group("h"))
        at = time(hour, int(m.group("m"))) if m.group("ampm") in ("hrs", "h") and hour <= 23 else None
        at = at or _western(hour, int(m.group("m")), ampm)
        where = m.span()
    elif m := _AMPM.search(plain):
        at, where = _western(int(m.group("h")), 0, m.group("ampm")), m.span()
    elif m := _HALF_PAST.search(plain):
        hour = _hour_of(m.group("h"))
        minute = 30 if m.group("q") == "half" else 15
        if m.group("dir") == "to":
            hour, minute = hour - 1 or 12, 60 - minute
        at, where = _western(hour, minute, m.group("ampm")), m.span()
    elif (m := _AT_HOUR.search(plain)) or (m := _OCLOCK.search(plain)):
        at, where = _western(_hour_of(m.group("h")), 0, None), m.span()
        lead = m.groupdict().get("lead") or ""
        if lead in ("after", "from", "not before", "before", "not after"):
            where = (m.start("h"), m.end())  # the bound word is read below, as for any other time
    earliest = latest = None
    if at is not None and where is not None:
        spans.append(where)
        bound = _BOUND.search(plain[: where[0]])
        if bound is not None:
            spans.append((bound.start(), where[0]))
            kind, said = bound.group("kind"), at
            if kind in ("after", "baada ya", "not before", "from"):
                at, earliest = None, said
            else:
                at, latest = None, (datetime.combine(date.min, said) - timedelta(minutes=1)).time()
    if at is None and earliest is None and latest is None:
        for part in sorted(_PARTS, key=len, reverse=True):
            if part == part_said:
                continue
            if m := re.search(rf"(?<!\w){re.escape(part)}(?!\w)", plain):
                spans.append(m.span())
                earliest, latest = _PARTS[part]
                break
    elif part_said is None and at is not None:
        for part in ("morning", "afternoon", "evening", "tonight", "asubuhi", "jioni"):
            if m := re.search(rf"(?<!\w){part}(?!\w)", plain):
                spans.append(m.span())  # "3 in the afternoon": the part only confirms the time
                if part in ("afternoon", "evening", "tonight", "jioni") and at.hour < 12:
                    at = time(at.hour + 12, at.minute)
                break
    return at, earliest, latest


def without_when(text: str, said: WhenSaid) -> str:
    """The message (lower-cased, as read) with the day and time words blanked: what is left names the
    service, a count or a place ("pedicure 2 kesho saa nne" -> "pedicure 2")."""
    plain = list(_norm(text))
    for start, end in said.spans:
        plain[start:end] = " " * (end - start)
    return " ".join("".join(plain).split())


def when_words(text: str, said: WhenSaid) -> str:
    """The day and time words of the message, as read ("nataka Akinyi aje jumatano saa tatu asubuhi" -> "jumatano
    saa tatu asubuhi")."""
    plain = _norm(text)
    return " ".join(plain[start:end] for start, end in sorted(said.spans))
