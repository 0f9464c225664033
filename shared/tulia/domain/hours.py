"""A shop's opening hours, as an owner writes them in a pack ("Mon-Sat 08:00-19:00; Sun 10:00-14:00"),
read in the shop's time (EAT). Used to promise a person's reply only while the team is in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from tulia.domain.common import NAIROBI

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_NAMES = {
    **{d: i for i, d in enumerate(DAYS)},
    **{
        name: i for i, name in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))
    },
    "tues": 1,
    "thur": 3,
    "thurs": 3,
}
_EVERY_DAY = ("daily", "every day", "everyday", "mon-sun")
_TIME = r"(\d{1,2})(?::(\d{2}))?\s*(am|pm)?"
_RULE = re.compile(rf"^(?P<days>[a-z, -]+?)\s+{_TIME}\s*(?:-|to|–)\s*{_TIME}$")


@dataclass(frozen=True)
class Window:
    day: int  # 0 = Monday
    opens: time
    closes: time


@dataclass(frozen=True)
class OpeningHours:
    windows: tuple[Window, ...]

    @classmethod
    def parse(cls, text: str) -> OpeningHours:
        """Rules separated by ';' or new lines: days (``Mon``, ``Mon-Fri``, ``Sat,Sun``, ``daily``) then
        ``HH:MM-HH:MM`` (or ``8am-7pm``). A day not named is closed. Raises ValueError naming the rule."""
        windows: list[Window] = []
        for raw in re.split(r"[;\n]+", text):
            rule = " ".join(raw.strip().lower().split())
            if not rule:
                continue
            m = _RULE.match(rule)
            if m is None:
                raise ValueError(f"hours '{raw.strip()}': write days then times, e.g. 'Mon-Sat 08:00-19:00'")
            opens = _clock(m.group(2), m.group(3), m.group(4), raw)
            closes = _clock(m.group(5), m.group(6), m.group(7), raw)
            if closes <= opens:
                raise ValueError(f"hours '{raw.strip()}': closing time must be after opening time (same day)")
            for day in _days(m.group("days"), raw):
                windows.append(Window(day, opens, closes))
        if not windows:
            raise ValueError("hours: give at least one rule, e.g. 'Mon-Sat 08:00-19:00'")
        return cls(tuple(sorted(windows, key=lambda w: (w.day, w.opens))))

    def is_open(self, at: datetime) -> bool:
        local = at.astimezone(NAIROBI)
        now = local.time()
        return any(w.day == local.weekday() and w.opens <= now < w.closes for w in self.windows)

    def next_opening(self, at: datetime) -> datetime:
        """The next moment the team is in, after ``at`` (in EAT)."""
        local = at.astimezone(NAIROBI)
        for offset in range(8):
            day = (local + timedelta(days=offset)).date()
            for w in self.windows:
                if w.day != day.weekday():
                    continue
                opening = datetime.combine(day, w.opens, tzinfo=NAIROBI)
                if opening > local:
                    return opening
        raise AssertionError("parse() guarantees at least one window a week")


def _clock(hour: str, minute: str | None, half: str | None, rule: str) -> time:
    h, m = int(hour), int(minute or 0)
    if half:
        if not 1 <= h <= 12:
            raise ValueError(f"hours '{rule.strip()}': '{hour}{half}' is not a time")
        h = h % 12 + (12 if half == "pm" else 0)
    if h == 24 and m == 0:
        return time(23, 59, 59)
    if not (0 <= h <= 23 and 0 <= m <= 59):
        raise ValueError(f"hours '{rule.strip()}': {hour}:{minute or '00'} is not a time")
    return time(h, m)


def _days(text: str, rule: str) -> list[int]:
    text = text.strip()
    if text in _EVERY_DAY:
        return list(range(7))
    days: list[int] = []
    for part in re.split(r"\s*,\s*|\s+", text):
        ends = [e.strip() for e in part.split("-")]
        if not all(e in _DAY_NAMES for e in ends) or len(ends) > 2:
            raise ValueError(f"hours '{rule.strip()}': '{part}' is not a day or a range of days (Mon-Fri)")
        first, last = _DAY_NAMES[ends[0]], _DAY_NAMES[ends[-1]]
        span = (last - first) % 7
        days += [(first + i) % 7 for i in range(span + 1)]
    return days
