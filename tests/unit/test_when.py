"""Days and times in the customer's words: the labelled sets (tuning, and held-out never used to tune
the rules), Swahili time, and what the reading leaves for the rest of the message."""

from __future__ import annotations

from datetime import date, datetime, time
from pathlib import Path

import pytest

from tulia.domain.common import NAIROBI
from tulia.nlu.when import WhenSaid, read_when

SETS = Path(__file__).resolve().parents[2] / "eval" / "when"
SAID_AT = datetime(2026, 12, 2, 9, 0, tzinfo=NAIROBI)  # a Wednesday, as the sets say


def labelled(name: str) -> list[tuple[str, str, str]]:
    rows = []
    for line in (SETS / f"{name}.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            lang, message, expected = (part.strip() for part in line.split("|"))
            rows.append((lang, message, expected))
    return rows


def shown(said: WhenSaid) -> str:
    parts = []
    if said.days:
        parts.append("days=" + ",".join(d.isoformat() for d in said.days))
    for name, value in (("at", said.at), ("from", said.earliest), ("to", said.latest)):
        if value is not None:
            parts.append(f"{name}={value:%H:%M}")
    return " ".join(parts) or "none"


def accuracy(name: str) -> tuple[float, list[str]]:
    rows = labelled(name)
    wrong = [f"{m!r}: {shown(read_when(m, SAID_AT))} != {e}" for _, m, e in rows if shown(read_when(m, SAID_AT)) != e]
    return 1 - len(wrong) / len(rows), wrong


def test_the_sets_cover_three_languages_with_a_held_out_share() -> None:
    tuning, held = labelled("tuning"), labelled("heldout")
    assert {lang for lang, _, _ in held} == {lang for lang, _, _ in tuning} == {"en", "sw", "sheng"}
    assert len(held) / (len(held) + len(tuning)) >= 0.30
    assert not {m.casefold() for _, m, _ in held} & {m.casefold() for _, m, _ in tuning}


def test_every_tuning_phrase_is_read_right() -> None:
    _rate, wrong = accuracy("tuning")
    assert wrong == [], wrong


def test_held_out_phrases_are_read_right_nine_times_in_ten() -> None:
    """Measured, not tuned on: the figure is in BENCHMARKS.md (bench/bookings.py)."""
    rate, wrong = accuracy("heldout")
    assert rate >= 0.9, wrong


@pytest.mark.parametrize(
    ("said", "clock"),
    [
        ("saa moja asubuhi", time(7)),
        ("saa nne asubuhi", time(10)),
        ("saa sita mchana", time(12)),
        ("saa saba mchana", time(13)),
        ("saa tisa alasiri", time(15)),
        ("saa kumi na mbili jioni", time(18)),
        ("saa moja jioni", time(19)),
        ("saa tatu usiku", time(21)),
        ("saa 4 asubuhi", time(10)),  # digits, still Swahili time
        ("saa 4 pm", time(16)),  # am/pm: the clock
        ("saa nane na nusu", time(14, 30)),
        ("saa tano kasorobo", time(10, 45)),
    ],
)
def test_swahili_hours_count_from_six(said: str, clock: time) -> None:
    assert read_when(said, SAID_AT).at == clock


def test_what_was_read_is_marked_so_the_rest_is_read_for_other_things() -> None:
    message = "nataka pedicure 2 kesho saa nne asubuhi"
    said = read_when(message, SAID_AT)
    rest = "".join(ch for i, ch in enumerate(message) if not any(a <= i < b for a, b in said.spans))
    assert " ".join(rest.split()) == "nataka pedicure 2"


def test_a_later_reply_adds_to_what_was_said() -> None:
    saturday = read_when("Saturday afternoon", SAID_AT)
    three = read_when("at 3", SAID_AT).merged_onto(saturday)
    assert (three.days, three.at) == (saturday.days, time(15))
    sunday = read_when("Sunday then", SAID_AT).merged_onto(saturday)
    assert (sunday.days[0].isoformat(), sunday.earliest, sunday.latest) == ("2026-12-06", time(12), time(16, 59))


def test_words_that_are_not_times_are_not_read_as_times() -> None:
    for message in ("the second one", "2 packs please", "I want box braids", "sawa", "satisfied", "price ya nails"):
        assert not read_when(message, SAID_AT).said, message


def test_a_weekday_that_is_today_with_a_time_already_past_is_next_week() -> None:
    sunday_afternoon = datetime(2026, 11, 29, 14, 0, tzinfo=NAIROBI)  # a Sunday, 14:00 in Nairobi
    assert read_when("yoga jumapili saa tatu asubuhi", sunday_afternoon).days == (date(2026, 12, 6),)
    assert read_when("book me for sunday 1pm", sunday_afternoon).days == (date(2026, 12, 6),)
    assert read_when("sunday morning please", sunday_afternoon).days == (date(2026, 12, 6),)
    assert read_when("sunday at 6pm", sunday_afternoon).days == (date(2026, 11, 29),)  # still ahead today
    assert read_when("leo saa tatu", sunday_afternoon).days == (date(2026, 11, 29),)  # "today" is today


def test_a_weekday_said_with_its_date_is_that_date() -> None:
    sunday = datetime(2026, 11, 29, 14, 0, tzinfo=NAIROBI)
    assert read_when("ruracio jumamosi tarehe 19 desemba saa nne asubuhi", sunday).days == (date(2026, 12, 19),)
    assert read_when("saturday 19th december at 10am", sunday).days == (date(2026, 12, 19),)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("can Mutua come on saturday 19th at 9am", date(2026, 12, 19)),  # not the Saturday of this week
        ("sat the 19th", date(2026, 12, 19)),
        ("jumamosi 19 saa tatu", date(2026, 12, 19)),
        ("saturday 10am", date(2026, 12, 5)),  # 10 is the hour
    ],
)
def test_a_weekday_with_its_day_of_the_month_is_that_date(said: str, day: date) -> None:
    assert read_when(said, SAID_AT).days[0] == day


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("friday next week", date(2026, 12, 11)),
        ("next week on friday", date(2026, 12, 11)),
        ("ijumaa wiki ijayo", date(2026, 12, 11)),
        # "next week" said of something else, in another clause: the weekday alone is this week's
        ("my driving test is next week, i want a mock test with mwangi on friday", date(2026, 12, 4)),
        ("mtihani wangu ni wiki ijayo, nataka lesson ijumaa", date(2026, 12, 4)),
    ],
)
def test_next_week_is_the_days_only_when_said_with_it(said: str, day: date) -> None:
    assert read_when(said, SAID_AT).days == (day,)


@pytest.mark.parametrize(
    ("said", "days"),
    [
        ("nipe sprinkler mbili za 1/2 inch na hosepipe ile ya 3/4", ()),  # fractions of an inch, no days
        ('3/4" pipe', ()),
        ("siku ya 5/12 saa nne", (date(2026, 12, 5),)),  # "ya" before a day that is no fraction's shape
        ("come on 5/12 at 10am", (date(2026, 12, 5),)),
    ],
)
def test_a_fraction_of_a_measure_is_no_date_and_a_date_after_ya_is_one(said: str, days: tuple[date, ...]) -> None:
    assert read_when(said, SAID_AT).days == days
