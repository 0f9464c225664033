"""The ids of the buttons and list rows the bot sends, as one codec: what each kind of tap carries, how its
id is written (:func:`tap_id`) and read back (:func:`parse_tap`). WhatsApp hands the id back as it was sent,
so the wire form never changes between releases (``kind:part:part``; a booking's kinds are ``bk:<action>``):
a button sent before a deploy still works after it. Only the last part may hold a ``:`` (a zone's or an
option's own name), so every id reads back to exactly the parts it was written from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

TapKind = Literal[
    # the sale
    "item",  # item_id: a shortlist row
    "cat",  # category: a category row
    "var",  # item_id, dimension, option
    "qty",  # item_id, count (or "other")
    "mode",  # delivery or pickup
    "zone",  # zone name
    "pay",  # order ref, payment method
    "confirm",  # order ref, yes | other | no
    "drop",  # the number of a basket's line: the one to take out, of several of one item
    # the conversation
    "order",  # order ref: one of the customer's orders
    "menu",  # buy | order | help | offers
    "esc",  # yes | no: hand over to a person?
    # a booking
    "bk:var",  # dimension, option
    "bk:zone",  # zone name
    "bk:slot",  # start (compact), staff id
    "bk:stk",  # booking ref: pay the deposit with the M-Pesa prompt
    "bk:pay",  # booking ref: pay the deposit another way
    "bk:yes",  # booking ref: confirm (no deposit)
    "bk:other",  # booking ref: another time
    "bk:no",  # booking ref: cancel the one being made
    "bk:move",  # booking ref
    "bk:cancel",  # booking ref: ask to cancel
    "bk:cancelyes",  # booking ref: cancel, confirmed
    "bk:keep",  # booking ref: keep it
    "bk:coming",  # booking ref: the reminder answered "I'm coming"
]
TAP_KINDS: tuple[TapKind, ...] = get_args(TapKind)
_PARTS: dict[str, int] = {"var": 3, "qty": 2, "pay": 2, "confirm": 2, "bk:var": 2, "bk:slot": 2}  # others: 1
_KINDS_LONGEST_FIRST = sorted(TAP_KINDS, key=len, reverse=True)  # "bk:cancelyes" before "bk:cancel"
SALE_TAPS = frozenset({"item", "cat", "var", "qty", "mode", "zone", "pay", "confirm", "drop"})
BOOKING_TAP = "bk:"


class BadTapId(ValueError):
    """Parts that would not read back as written (a ``:`` before the last part, or the wrong count)."""


@dataclass(frozen=True)
class Tap:
    kind: TapKind
    parts: tuple[str, ...]

    @property
    def booking(self) -> bool:
        return self.kind.startswith(BOOKING_TAP)

    @property
    def action(self) -> str:
        """A booking tap's action ("var", "slot", "move"...); the kind itself for the others."""
        return self.kind[len(BOOKING_TAP) :] if self.booking else self.kind

    @property
    def last(self) -> str:
        return self.parts[-1]


def tap_id(kind: TapKind, *parts: str) -> str:
    """The id of a button or row of ``kind`` carrying ``parts``."""
    if len(parts) != _PARTS.get(kind, 1):
        raise BadTapId(f"a '{kind}' tap carries {_PARTS.get(kind, 1)} parts, not {len(parts)}")
    if any(":" in part for part in parts[:-1]):
        raise BadTapId(f"only the last part of a '{kind}' tap may hold ':'")
    return ":".join((kind, *parts))


def parse_tap(reply_id: str | None) -> Tap | None:
    """The tap an id names, or ``None`` for an id this codec never wrote (a typed message, a stranger's id).
    A payment or confirmation button of an older release named no order: its order part reads as ""."""
    if not reply_id:
        return None
    for kind in _KINDS_LONGEST_FIRST:
        if not reply_id.startswith(kind + ":"):
            continue
        count = _PARTS.get(kind, 1)
        parts = reply_id[len(kind) + 1 :].split(":", count - 1)
        if len(parts) < count and kind in ("pay", "confirm"):
            parts = ["", *parts]
        return Tap(kind, tuple(parts)) if len(parts) == count else None
    return None
