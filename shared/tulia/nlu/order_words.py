"""An order the customer drops ("cancel my order", "nimebadilisha mawazo, futa oda", "wacha hiyo order"): read by
the message reader, the same on every engine, in whatever words it was said."""

from __future__ import annotations

from tulia.nlu.reader import SURE, message_reader


def order_cancel_said(text: str) -> bool:
    """Whether the reader is sure (spec 4.1's 0.70) the message cancels an order."""
    reading = message_reader().read(text)
    return reading.label == "order_cancel" and reading.confidence >= SURE
