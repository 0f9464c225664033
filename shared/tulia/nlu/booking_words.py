"""An appointment already made ("I can't make it", "nataka kubadilisha saa", "cancel my booking", "my
appointment": read by the message reader, the same on every engine) and the staff member a customer asks
for; the words of any shop that takes bookings, not of one trade."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from tulia.nlu.lexicon import any_phrase, normalize
from tulia.nlu.reader import ReadingContext, message_reader

BookingChange = Literal["move", "cancel", "show", "coming"]

# fmt: off
# a whole message that says the customer is coming (a reminder's quick reply, or typed)
COMING = frozenset({
    "i'll be there", "ill be there", "i will be there", "i ll be there", "i'll come", "i will come", "see you then",
    "nitafika", "nitakuja", "nitakuwepo", "tutaonana", "nitafika sawa", "sawa nitafika", "nitakam",
})  # fmt: skip
ANYONE = ("anyone", "any one", "anybody", "whoever", "any stylist", "yeyote", "mtu yeyote", "yoyote", "any person")
# fmt: on


def change_said(text: str, context: ReadingContext | None = None) -> BookingChange | None:
    """Whether a message is about an appointment already made, and what the customer wants done: the
    reminder's "I'll be there" exactly, else the message reader's reading when it is sure (spec 4.1's
    0.70), in whatever words it was said, and where (``context``: at a booking's summary, "wacha hiyo appointment"
    lets the time held go)."""
    plain = normalize(text)  # "can t make it" as well as the raw "can't make it"
    raw = " ".join(text.casefold().replace("’", "'").split())
    if raw.strip(" .!") in COMING or plain in COMING:
        return "coming"
    reader = message_reader()
    reading = reader.read(text, context=context)
    if reading.label.startswith("booking_") and reader.sure_of(text, reading.label, context, whole=reading):
        return reading.label.removeprefix("booking_")  # type: ignore[return-value]  # said with her reason too
    return None


# titles people put before a name ("Dr Otieno", "Mama Njeri"): never the name itself
TITLES = frozenset(
    "dr doctor daktari dkt mama baba mr mrs ms miss madam madame mwalimu teacher aunty auntie uncle fundi mzee "
    "sister nurse bro brother sir mheshimiwa bi bwana".split()
)


def staff_named(text: str, people: Iterable[tuple[str, str]]) -> str | None:
    """The staff member a message names ("with Wanjiru", "kwa Dr Otieno", "Mama Njeri"), by id: by a word
    of their name that is not a title, the first name first; ``None`` when it could be two people."""
    plain = normalize(text)
    by_first: list[str] = []
    by_any: list[str] = []
    for staff_id, name in people:
        parts = [w for w in normalize(name).split() if w not in TITLES and len(w) >= 2]
        if parts and any_phrase(plain, (parts[0],)):
            by_first.append(staff_id)
        elif any(len(w) >= 3 and any_phrase(plain, (w,)) for w in parts[1:]):
            by_any.append(staff_id)
    for found in (by_first, by_any):
        if len(found) == 1:
            return found[0]
        if found:
            return None
    return None


def anyone_said(text: str) -> bool:
    return any_phrase(normalize(text), ANYONE)
