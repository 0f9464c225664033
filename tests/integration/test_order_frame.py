"""The order frame: a sale understands and remembers what the customer says, from any message."""

from __future__ import annotations

from tests.chat import Chat, kes
from tests.conftest import SHOP
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.services import Services


def test_a_first_message_with_everything_reaches_the_amount_confirmation(
    chat: Chat, seeded: Services, daraja: DarajaSimulator
) -> None:
    chat.send("Hi, I need 3 Oraimo FreePods Lite Earbuds delivered to Westlands. I'll pay with M-Pesa")
    second = chat.send("Black")
    ref = chat.state["order_id"]
    order = seeded.orders.get(SHOP, ref)
    assert order.lines[0].quantity == 3
    assert order.delivery.zone == "Nairobi West"
    assert "Please confirm" in second
    assert kes(order.amount_due) in second
