"""Till (Buy Goods) payments: they carry no order number, so they land in the shop's unmatched money;
the customer's M-Pesa confirmation code, or the owner in the admin API, says which order they pay.
Real handlers (payments function, agent, admin function) over real event shapes, moto, simulators."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from tests.chat import Chat
from tests.conftest import BOTO, SALON, SHOP
from tests.integration.test_money_ledger import accounted
from tests.integration.test_observability import LogLines, logs  # noqa: F401
from tests.integration.test_reaching_customers import Admin
from tests.integration.test_webhook import api_event
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.pipeline import payments_app
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.queues import InboundQueue

SALON_PHONE = "+254722000111"
TILL = "5123456"


def till_confirmation(
    setup: dict[str, Any],
    seeded: Services,
    trans_id: str,
    amount: str,
    tenant: str = SALON,
    msisdn: str = "2547 ***** 111",
) -> None:
    """Daraja's C2B confirmation of a Buy Goods payment: no account number, the payer's number masked."""
    body = {
        "TransactionType": "Buy Goods",
        "TransID": trans_id,
        "TransTime": "20261123121325",
        "TransAmount": amount,
        "BusinessShortCode": TILL if tenant == SALON else "600984",
        "BillRefNumber": "",
        "MSISDN": msisdn,
        "FirstName": "AKINYI",
    }
    path = f"/payments/daraja/c2b/{seeded.tenants.c2b_token(tenant)}/confirmation"
    response = payments_app.handle(api_event("POST", path=path, body=json.dumps(body).encode()), setup["callbacks"])
    assert json.loads(response["body"])["ResultCode"] == 0


@pytest.fixture
def salon_chat(conversations: Any) -> Chat:
    return Chat(conversations, tenant_id=SALON, phone=SALON_PHONE)


def cornrows_by_till(chat: Chat) -> str:
    """Cornrows booked at the first free time; its 30% deposit (KES 360) paid by Till."""
    assert "Free times for Cornrows" in chat.send("I want cornrows")
    assert "Deposit to pay now: KES 360" in chat.send("1")
    steps = chat.send("pay by till")
    assert "Till number: 5123456" in steps
    assert "Amount: KES 360" in steps
    return str(chat.state["order_id"])


def test_a_code_in_a_sentence_pays_the_order_once_and_the_same_code_again_changes_nothing(
    salon_chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    ref = cornrows_by_till(salon_chat)
    till_confirmation(setup, seeded, "SKL4ABC123", "360.00")
    [kept] = seeded.payments.list_unmatched(SALON).items
    assert (kept.trans_id, kept.reason) == ("SKL4ABC123", "unknown_reference")
    reply = salon_chat.send("I have paid, the code is SKL4ABC123")
    assert f"We received KES 360 for order {ref} (M-Pesa receipt SKL4ABC123)" in reply
    order = seeded.orders.get(SALON, ref)
    assert (order.status, order.paid_amount) == ("paid", 360)
    assert seeded.payments.list_unmatched(SALON).items == []
    assert accounted(seeded, SALON) == {"paid_orders": 360, "overpayments": 0, "unmatched": 0}
    again = salon_chat.send("skl4abc123")
    assert "360" in again
    assert seeded.orders.get(SALON, ref).paid_amount == 360  # paid once
    assert accounted(seeded, SALON) == {"paid_orders": 360, "overpayments": 0, "unmatched": 0}
    till_confirmation(setup, seeded, "SKL4ABC123", "360.00")  # Daraja repeats the confirmation
    assert accounted(seeded, SALON) == {"paid_orders": 360, "overpayments": 0, "unmatched": 0}
    unknown = salon_chat.send("and SKL4NONE77?")  # a code nothing carries, for a paid order: never "waiting for KES 0"
    assert f"can't find an M-Pesa payment with the code SKL4NONE77, and order {ref} is already paid" in unknown
    assert "waiting for" not in unknown


def test_a_wrong_amount_is_said_honestly_and_changes_nothing(
    salon_chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    ref = cornrows_by_till(salon_chat)
    till_confirmation(setup, seeded, "SKL4WRONG1", "300.00")
    reply = salon_chat.send("Nimelipa, SKL4WRONG1")  # in Swahili: answered in Swahili
    assert f"Malipo ya M-Pesa SKL4WRONG1 ni KES 300, lakini oda {ref} ni KES 360" in reply
    assert seeded.orders.get(SALON, ref).status != "paid"
    assert accounted(seeded, SALON) == {"paid_orders": 0, "overpayments": 0, "unmatched": Decimal("300.00")}


def test_an_unknown_code_is_said_honestly_and_a_second_goes_to_a_person(
    salon_chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    ref = cornrows_by_till(salon_chat)
    first = salon_chat.send("code SKL4NONE99")
    assert "can't find an M-Pesa payment with the code SKL4NONE99" in first
    assert f"Order {ref} is waiting for KES 360" in first
    assert seeded.customers.get(SALON, salon_chat.state["customer_id"]).handoff_ticket_id is None
    salon_chat.send("I paid! SKL4NONE99")  # the customer insists
    ticket_id = seeded.customers.get(SALON, salon_chat.state["customer_id"]).handoff_ticket_id
    assert ticket_id is not None
    assert seeded.handoffs.get(SALON, ticket_id).priority == "high"
    assert seeded.orders.get(SALON, ref).status != "paid"


def test_a_code_of_another_shop_is_unknown_here(
    salon_chat: Chat, seeded: Services, setup: dict[str, Any], chat: Chat
) -> None:
    ref = cornrows_by_till(salon_chat)
    till_confirmation(setup, seeded, "SKLSHOP123", "360.00", tenant=SHOP)  # money at the electronics shop
    assert "can't find an M-Pesa payment" in salon_chat.send("SKLSHOP123")
    assert seeded.orders.get(SALON, ref).status != "paid"
    [kept] = seeded.payments.list_unmatched(SHOP).items
    assert kept.trans_id == "SKLSHOP123"  # still the shop's to match


def test_a_coupon_code_is_not_taken_for_an_mpesa_code(chat: Chat) -> None:
    chat.send("I want an oraimo 20000mAh power bank")
    reply = chat.send("use coupon KARIBU2026")
    assert "M-Pesa payment" not in reply


def test_the_owner_sees_suggested_orders_and_applies_unmatched_money_with_audit(
    salon_chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    pipe = setup["pipe"]
    deps = AdminDeps(services=seeded, audit=AuditRepo(seeded.db), notify=InboundQueue(BOTO.client("sqs"), pipe.url))
    admin = Admin(build_admin_api(deps), SALON)
    ref = cornrows_by_till(salon_chat)
    till_confirmation(setup, seeded, "SKLSTAFF01", "360.00")
    till_confirmation(setup, seeded, "SKLSTAFF02", "999.00")
    status, suggested = admin("GET", "/admin/payments/unmatched/SKLSTAFF01/suggestions")
    assert (status, [o["order_id"] for o in suggested["items"]]) == (200, [ref])
    assert admin("GET", "/admin/payments/unmatched/SKLSTAFF02/suggestions")[1]["items"] == []
    status, refused = admin("POST", "/admin/payments/unmatched/SKLSTAFF02/apply", {"order_id": ref})
    assert (status, refused["code"]) == (422, "amount_mismatch")
    assert admin("POST", "/admin/payments/unmatched/SKLSTAFF01/apply", {"order_id": ref}, role="agent")[0] == 403
    assert (
        Admin(build_admin_api(deps), SHOP)("POST", "/admin/payments/unmatched/SKLSTAFF01/apply", {"order_id": ref})[0]
        == 404
    )
    status, detail = admin("POST", "/admin/payments/unmatched/SKLSTAFF01/apply", {"order_id": ref})
    assert (status, detail["order"]["status"]) == (200, "paid")
    assert [(p["method"], p["amount"], p["receipt"]) for p in detail["payments"]] == [("mpesa_c2b", 360, "SKLSTAFF01")]
    assert admin("GET", "/admin/payments/unmatched/SKLSTAFF01/suggestions")[0] == 404  # matched now
    trail = AuditRepo(seeded.db).list(SALON).items
    assert any(e.action == "payment.apply_unmatched" and e.target == "SKLSTAFF01" for e in trail)
    assert accounted(seeded, SALON) == {"paid_orders": 360, "overpayments": 0, "unmatched": Decimal("999.00")}
    pipe.run_agent()  # the customer is told
    assert any(f"We received KES 360 for order {ref}" in m for m in pipe.replies_to(SALON_PHONE.lstrip("+")))


def test_a_code_paid_from_another_phone_asks_which_number_paid_and_pays_when_it_fits(
    salon_chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    """Issue 31, part 3: a Till code is bound to its payer (a relative may pay for the customer)."""
    ref = cornrows_by_till(salon_chat)
    till_confirmation(setup, seeded, "SKL4OTHER1", "360.00", msisdn="2547 ***** 999")
    asked = salon_chat.send("paid, SKL4OTHER1")
    assert "The M-Pesa payment SKL4OTHER1 was made from another phone number. Which number paid it?" in asked
    assert "360" not in asked  # nothing of that payment is told before the payer fits
    assert seeded.orders.get(SALON, ref).status != "paid"
    paid = salon_chat.send("it was my sister's, 0712 345 999")
    assert f"We received KES 360 for order {ref} (M-Pesa receipt SKL4OTHER1)" in paid
    assert seeded.orders.get(SALON, ref).status == "paid"


def test_anothers_till_code_does_not_pay_my_order_and_a_second_mismatch_goes_to_a_person(
    salon_chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    """Issue 31, part 3: another customer's unused code paid my order (shop, amount and single use checked,
    not who paid)."""
    ref = cornrows_by_till(salon_chat)
    till_confirmation(setup, seeded, "SKL4THEIRS", "360.00", msisdn="2547 ***** 555")
    salon_chat.send("I paid, the code is SKL4THEIRS")
    told = salon_chat.send("0722 000 111")  # the customer's own number: not the payer's
    assert "did not come from that number either" in told
    assert seeded.orders.get(SALON, ref).status != "paid"
    [kept] = seeded.payments.list_unmatched(SALON).items
    assert kept.trans_id == "SKL4THEIRS"  # still the shop's to match, for its real payer
    customer = seeded.customers.get(SALON, str(salon_chat.state["customer_id"]))
    assert customer.handoff_ticket_id is not None  # a person checks the shop's M-Pesa statement
    assert accounted(seeded, SALON) == {"paid_orders": 0, "overpayments": 0, "unmatched": Decimal("360.00")}


def test_a_till_payment_waiting_for_its_code_is_logged_as_expected_not_as_an_error(
    setup: dict[str, Any],
    seeded: Services,
    logs: LogLines,  # noqa: F811
) -> None:
    """Issue 32, part 8: Buy Goods money has no account number, so it waits for the customer's code:
    expected, logged at INFO; only money a person must match is an ERROR."""
    till_confirmation(setup, seeded, "SKLWAIT001", "450.00")
    [line] = [
        entry for entry in logs.take() if "Till payment" in entry["message"] or "pays no order" in entry["message"]
    ]
    assert (line["level"], line["message"]) == ("INFO", "Till payment kept until its customer sends the code")
    assert seeded.payments.get_unmatched(SALON, "SKLWAIT001") is not None  # kept all the same


def test_a_refund_asked_once_she_has_paid_goes_to_a_person(
    salon_chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    cornrows_by_till(salon_chat)
    till_confirmation(setup, seeded, "SKL4RFND01", "360.00")
    assert "We received KES 360" in salon_chat.send("I have paid, the code is SKL4RFND01")

    reply = salon_chat.send("Can I get a refund?")  # a question, as before paying; with money paid, a person's

    assert "HND-" in reply
    assert salon_chat.state["in_handoff"]
