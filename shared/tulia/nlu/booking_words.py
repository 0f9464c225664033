"""Words about an appointment already made ("I can't make it", "nataka kubadilisha saa", "cancel my
booking", "my appointment") and the staff member a customer asks for. Deterministic, the same on every
engine; the words of any shop that takes bookings, not of one trade."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from tulia.nlu.lexicon import any_phrase, normalize

BookingChange = Literal["move", "cancel", "show", "coming"]

# fmt: off
_THING = ("appointment", "booking", "appt", "miadi", "session", "slot")
MOVE = (
    "can't make it", "cant make it", "cannot make it", "won't make it", "wont make it", "can not make it",
    "reschedule", "re-schedule", "re schedule", "postpone", "push it to", "move it to", "move it", "shift it",
    "change the time", "change the day", "change the date", "change time", "another day instead",
    "kubadilisha saa", "badilisha saa", "nibadilishie saa", "kubadilisha siku", "badilisha siku", "kubadilisha muda",
    "kubadili saa", "kuhamisha", "hamisha", "sitaweza kufika", "sitaweza kuja", "siwezi kufika", "siwezi kuja",
    "sitafika", "sitakuja", "sitaeza kuja", "siezi kuja", "sitaeza kufika", "siezi kam", "sitaeza kam",
    "nibadilishie time", "change the time yangu", "badilisha time", "kubadilisha time",
    *(f"{verb} my {thing}" for verb in ("move", "change", "shift", "reschedule", "postpone") for thing in _THING),
    *(f"{verb} {thing}" for verb in ("kubadilisha", "badilisha", "kuhamisha") for thing in _THING),
)
CANCEL = (
    *(f"cancel {det}{thing}" for det in ("my ", "the ", "", "this ", "that ") for thing in _THING),
    *(f"{verb} {thing}" for verb in ("ghairi", "kughairi", "futa", "kufuta", "cancel") for thing in _THING),
    *(f"{thing} {verb}" for verb in ("cancel", "ghairi") for thing in _THING),
    "nataka kughairi", "naomba kughairi", "ghairi miadi yangu", "cancel hiyo booking", "i won't come", "i wont come",
)
SHOW = (
    *(f"{det} {thing}" for det in ("my", "our") for thing in _THING),
    *(f"{thing} {det}" for det in ("yangu", "yetu") for thing in _THING),
    "when is my", "what time is my", "saa ngapi miadi", "ni lini miadi",
)
# a whole message that says the customer is coming (a reminder's quick reply, or typed)
COMING = frozenset({
    "i'll be there", "ill be there", "i will be there", "i ll be there", "i'll come", "i will come", "see you then",
    "nitafika", "nitakuja", "nitakuwepo", "tutaonana", "nitafika sawa", "sawa nitafika", "nitakam",
})  # fmt: skip
ANYONE = ("anyone", "any one", "anybody", "whoever", "any stylist", "yeyote", "mtu yeyote", "yoyote", "any person")
# fmt: on


def change_said(text: str) -> BookingChange | None:
    """Whether a message is about an appointment already made, and what the customer wants done."""
    plain = normalize(text)  # "can t make it" as well as the raw "can't make it"
    raw = " ".join(text.casefold().replace("’", "'").split())
    if raw.strip(" .!") in COMING or plain in COMING:
        return "coming"
    if any_phrase(plain, CANCEL) or any_phrase(raw, CANCEL):
        return "cancel"
    if any_phrase(plain, MOVE) or any_phrase(raw, MOVE):
        return "move"
    if any_phrase(plain, SHOW):
        return "show"
    return None


def staff_named(text: str, people: Iterable[tuple[str, str]]) -> str | None:
    """The staff member a message names by first name ("with Wanjiru", "kwa Akinyi"), by id."""
    plain = normalize(text)
    for staff_id, name in people:
        first = normalize(name).split()[0] if normalize(name) else ""
        if first and any_phrase(plain, (first,)):
            return staff_id
    return None


def anyone_said(text: str) -> bool:
    return any_phrase(normalize(text), ANYONE)
