"""What she says under an order's total, read there (issue 53, "context decides"): a shrug ("never mind", "achana
nayo", "sina pesa sasa, nitarudi") drops the unpaid order it stands under, and at a booking's summary lets the time
held for her go; where to leave the parcel, a question or "let me ask my wife first" drops nothing. The same words
idly ("never mind" with no order) are nothing to cancel."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tulia.nlu.reader import message_reader
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


def _at_checkout(furniture: Chat) -> str:
    furniture.send("bei ya sofa bed ni ngapi?")
    furniture.send("Click-Clack Sofa Bed", reply_id="item:SF-SO-05")
    furniture.send("Grey")
    furniture.send("1")
    furniture.send("nitakuja kuchukua dukani")
    assert furniture.state["pending"] == "payment_method"
    order = furniture.state["frame"].order
    assert order is not None
    return str(order.order_id)


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("never mind, I'll buy it another time", "is cancelled. Nothing was paid"),
        ("achana nayo tu", "imefutwa. Hakuna kilicholipwa"),
        ("wacha kwanza, sina doh saa hii", "imecancel. Hakuna doo ililipwa"),
        ("hapana, nimeamua kutonunua", "imefutwa. Hakuna kilicholipwa"),
    ],
)
def test_a_shrug_under_the_total_drops_the_unpaid_order(
    furniture: Chat, seeded: Services, said: str, told: str
) -> None:
    ref = _at_checkout(furniture)
    reply = furniture.send(said)
    assert told in reply
    assert ref in reply
    assert seeded.orders.get(furniture.tenant_id, ref).status == "cancelled"


@pytest.mark.parametrize(
    "said", ["let me ask my wife first", "ngoja niangalie kwanza", "how many days for delivery to Ruiru?"]
)
def test_a_wait_or_a_question_under_the_total_drops_nothing(furniture: Chat, seeded: Services, said: str) -> None:
    ref = _at_checkout(furniture)
    reply = furniture.send(said)
    assert "imefutwa" not in reply
    assert "is cancelled" not in reply
    assert seeded.orders.get(furniture.tenant_id, ref).status != "cancelled"


def test_the_same_shrug_with_no_order_cancels_nothing() -> None:
    reader = message_reader()
    assert reader.read("never mind").label != "order_cancel"
    assert reader.read("achana nayo").label != "order_cancel"
    assert reader.read("never mind", context="checkout").label == "order_cancel"


def test_a_shrug_at_a_bookings_summary_lets_the_held_time_go(party: Chat, seeded: Services) -> None:
    party.send("hey, can we hire a trampolin with kibet for sunday 11am in karen?")
    held = party.state["booking"].held
    assert held is not None
    assert party.state["pending"] == "booking_confirm"
    reply = party.send("aah never mind, we'll do it another time")
    assert "I've let that time go" in reply
    assert seeded.bookings.get(party.tenant_id, held.booking_ref).status == "cancelled"
