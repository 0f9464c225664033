"""An order the customer drops ("cancel my order", "nimebadilisha mawazo, futa oda", "wacha hiyo order"): read by
the message reader, the same on every engine, in whatever words it was said."""

from __future__ import annotations

from tulia.nlu.reader import ReadingContext, message_reader


def order_cancel_said(text: str, context: ReadingContext | None = None) -> bool:
    """Whether the reader is sure (spec 4.1's 0.70) the message cancels an order, read where it was said: at the
    checkout, "achana nayo" drops the order it stands under; said with her reason, the sentence that asks it."""
    return message_reader().sure_of(text, "order_cancel", context)
