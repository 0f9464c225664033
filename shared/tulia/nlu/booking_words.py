"""An appointment already made ("I can't make it", "nataka kubadilisha saa", "cancel my booking", "my
appointment": read by the message reader, the same on every engine) and the staff member a customer asks
for; the words of any shop that takes bookings, not of one trade."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from tulia.nlu.lexicon import any_phrase, normalize
from tulia.nlu.reader import message_reader

SURE = 0.70  # the spec's routing threshold (section 4.1)

BookingChange = Literal["move", "cancel", "show", "coming"]

# fmt: off
# a whole message that says the customer is coming (a reminder's quick reply, or typed)
COMING = frozenset({
    "i'll be there", "ill be there", "i will be there", "i ll be there", "i'll come", "i will come", "see you then",
    "nitafika", "nitakuja", "nitakuwepo", "tutaonana", "nitafika sawa", "sawa nitafika", "nitakam",
})  # fmt: skip
ANYONE = ("anyone", "any one", "anybody", "whoever", "any stylist", "yeyote", "mtu yeyote", "yoyote", "any person")
# fmt: on


def change_said(text: str) -> BookingChange | None:
    """Whether a message is about an appointment already made, and what the customer wants done: the
    reminder's "I'll be there" exactly, else the message reader's reading when it is sure (spec 4.1's
    0.70), in whatever words it was said."""
    plain = normalize(text)  # "can t make it" as well as the raw "can't make it"
    raw = " ".join(text.casefold().replace("’", "'").split())
    if raw.strip(" .!") in COMING or plain in COMING:
        return "coming"
    reading = message_reader().read(text)
    if reading.label.startswith("booking_") and reading.confidence >= SURE:
        return reading.label.removeprefix("booking_")  # type: ignore[return-value]
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
