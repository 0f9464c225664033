"""The payments function: Daraja STK callbacks (real event shapes, the Daraja simulator over HTTP,
moto), confirmed with the STK query before anything changes, and the customer told the outcome."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.chat import Chat
from tests.conftest import SHOP
from tests.integration.test_agent import Pipeline
from tests.integration.test_launch_checklist import start_stk
from tests.integration.test_webhook import api_event
from tulia.graph.state import with_open_question
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.pipeline import payments_app
from tulia.pipeline.payments import PaymentCallbacks
from tulia.services import Services

PHONE = "254712345678"


def callback(daraja: DarajaSimulator, checkout: str, code: int) -> tuple[str, bytes]:
    body = daraja.complete(checkout, code, send_callback=False)
    return urlsplit(str(daraja.stk[checkout].body["CallBackURL"])).path, json.dumps(body).encode()


def post(setup: dict[str, Any], path: str, body: bytes) -> dict[str, Any]:
    return payments_app.handle(api_event("POST", path=path, body=body), setup["callbacks"])


def test_stk_success_is_confirmed_and_the_customer_gets_the_receipt(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    ref = start_stk(chat)
    payment = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    path, body = callback(daraja, payment.checkout_request_id, 0)
    assert path.startswith("/payments/daraja/stk/")
    response = post(setup, path, body)
    assert (response["statusCode"], json.loads(response["body"])["ResultCode"]) == (200, 0)
    paid = seeded.payments.get(SHOP, ref, payment.payment_id)
    receipt = daraja.stk[payment.checkout_request_id].receipt
    assert (paid.status, paid.receipt) == ("paid", receipt)
    assert seeded.orders.get(SHOP, ref).status == "paid"
    assert len(daraja.calls("/mpesa/stkpushquery/v1/query")) >= 1  # confirmed, not taken on the callback's word
    pipe: Pipeline = setup["pipe"]
    assert pipe.run_agent() == {"batchItemFailures": []}
    [told] = pipe.replies_to(PHONE)
    assert f"We received KES {payment.amount:,} for order {ref}" in told
    assert receipt in told
    # the same callback again: nothing changes, nobody is told twice
    post(setup, path, body)
    pipe.run_agent()
    assert len(pipe.replies_to(PHONE)) == 1


@pytest.mark.parametrize(
    ("code", "status", "words"),
    [(1032, "cancelled", "was cancelled"), (2001, "failed", "didn't go through"), (1037, "timeout", "expired")],
)
def test_an_unsuccessful_prompt_is_explained_with_the_paybill_way_to_pay(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any], code: int, status: str, words: str
) -> None:
    ref = start_stk(chat)
    payment = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    post(setup, *callback(daraja, payment.checkout_request_id, code))
    assert seeded.payments.get(SHOP, ref, payment.payment_id).status == status
    assert seeded.orders.get(SHOP, ref).status != "paid"
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    outcome, steps = pipe.replies_to(PHONE)
    assert words in outcome
    assert f"Account number: {ref}" in steps
    assert "Business number: 600984" in steps


def test_yes_after_a_cancelled_prompt_sends_a_new_prompt_for_the_same_order(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    ref = start_stk(chat)
    first = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    post(setup, *callback(daraja, first.checkout_request_id, 1032))
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    [offer] = [m.payload for m in pipe.graph.messages_to(PHONE) if m.payload["type"] == "interactive"]
    assert [b["reply"]["id"] for b in offer["interactive"]["action"]["buttons"]] == [
        f"confirm:{ref}:yes",
        f"confirm:{ref}:other",
        f"confirm:{ref}:no",
    ]
    again = chat.send("yes")  # the customer answers the retry offer
    assert f"I've sent an M-Pesa prompt for KES {first.amount:,}" in again
    second = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    assert second.payment_id != first.payment_id
    assert (second.amount, second.order_id) == (first.amount, ref)


def test_a_payment_outcome_does_not_take_over_another_question(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    ref = start_stk(chat)
    payment = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    chat.send("I want a samsung phone")  # a new sale: the shortlist question is open
    pending = chat.state["pending"]
    post(setup, *callback(daraja, payment.checkout_request_id, 1032))
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    assert "was cancelled, so nothing was paid" in pipe.replies_to(PHONE)[-1]
    state = chat.conversations.graph.get_state({"configurable": {"thread_id": chat.state["conversation_id"]}})
    assert with_open_question(state.values)["pending"] == pending


def test_a_forged_success_changes_nothing(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    ref = start_stk(chat)
    payment = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    token_path = urlsplit(str(daraja.stk[payment.checkout_request_id].body["CallBackURL"])).path
    forged = {
        "Body": {
            "stkCallback": {
                "MerchantRequestID": "x",
                "CheckoutRequestID": payment.checkout_request_id,
                "ResultCode": 0,
                "ResultDesc": "The service request is processed successfully.",
                "CallbackMetadata": {"Item": [{"Name": "MpesaReceiptNumber", "Value": "FAKE000001"}]},
            }
        }
    }
    assert post(setup, token_path, json.dumps(forged).encode())["statusCode"] == 200
    assert seeded.payments.get(SHOP, ref, payment.payment_id).status == "pending"  # Daraja says: still processing
    assert setup["pipe"].lambda_event()["Records"] == []
    unknown = "/payments/daraja/stk/" + "ab" * 16
    assert post(setup, unknown, json.dumps(forged).encode())["statusCode"] == 200
    assert post(setup, token_path, b"{not json")["statusCode"] == 400
    assert seeded.payments.get(SHOP, ref, payment.payment_id).status == "pending"


def test_other_payment_paths_are_404(setup: dict[str, Any]) -> None:
    assert post(setup, "/payments/daraja/stk/NOT-A-TOKEN", b"{}")["statusCode"] == 404
    assert (
        payments_app.handle(api_event("GET", path="/payments/daraja/stk/" + "ab" * 16), setup["callbacks"])[
            "statusCode"
        ]
        == 404
    )


# the no-callback path: a delayed STK query ----------------------------------------------------
@pytest.fixture
def checks(setup: dict[str, Any]) -> Any:
    from tulia.store.queues import PAYMENT_CHECKS, PaymentCheckQueue

    sqs = setup["pipe"].sqs
    url = sqs.get_queue_url(QueueName=PAYMENT_CHECKS.name("test-"))["QueueUrl"]
    queue = PaymentCheckQueue(sqs, url)
    setup["callbacks"].checks = queue
    setup["callbacks"].check_delay_seconds = 0  # scheduled checks are visible at once here
    return queue


def scheduled(checks: Any) -> list[dict[str, Any]]:
    got = checks.client.receive_message(QueueUrl=checks.url, MaxNumberOfMessages=10).get("Messages", [])
    for m in got:
        checks.client.delete_message(QueueUrl=checks.url, ReceiptHandle=m["ReceiptHandle"])
    return [json.loads(m["Body"]) for m in got]


def test_a_prompt_nobody_answers_times_out_after_the_checks(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any], checks: Any
) -> None:
    ref = start_stk(chat)
    pay_id = chat.state["payment_request_id"]
    callbacks: PaymentCallbacks = setup["callbacks"]
    check = {"tenant_id": SHOP, "order_id": ref, "payment_id": pay_id, "attempt": 1}
    assert callbacks.check(check) is None  # Daraja: still being processed
    [again] = scheduled(checks)
    assert again["attempt"] == 2
    assert callbacks.check({**check, "attempt": 3}) == "timeout"
    assert seeded.payments.get(SHOP, ref, pay_id).status == "timeout"
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    assert "expired before it was completed" in pipe.replies_to(PHONE)[0]


def test_a_paid_prompt_whose_callback_was_lost_is_found_by_the_check(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any], checks: Any
) -> None:
    ref = start_stk(chat)
    pay_id = chat.state["payment_request_id"]
    payment = seeded.payments.get(SHOP, ref, pay_id)
    daraja.complete(payment.checkout_request_id, 0, send_callback=False)
    check = {"tenant_id": SHOP, "order_id": ref, "payment_id": pay_id, "attempt": 1}
    assert payments_app.handle({"Records": [{"messageId": "c1", "body": json.dumps(check)}]}, setup["callbacks"]) == {
        "batchItemFailures": []
    }
    assert seeded.orders.get(SHOP, ref).status == "paid"
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    assert pipe.replies_to(PHONE) == [f"Yes! We received KES {payment.amount:,} for order {ref}."]
    assert callbacks_check_is_quiet(setup, check)


def callbacks_check_is_quiet(setup: dict[str, Any], check: dict[str, Any]) -> bool:
    """A later check of a settled payment changes nothing and tells nobody."""
    assert setup["callbacks"].check(check) == "paid"
    return setup["pipe"].lambda_event()["Records"] == []


# PesaPal IPN ------------------------------------------------------------------------------------
def card_checkout(chat: Chat, seeded: Services) -> Any:
    from tests.integration.test_launch_checklist import buy_a_power_bank_for_pickup

    ref = buy_a_power_bank_for_pickup(chat)
    assert "securely here" in chat.send("card")
    return seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])


def ipn(setup: dict[str, Any], payment: Any, *, tenant: str = SHOP, method: str = "POST") -> dict[str, Any]:
    note = {
        "OrderTrackingId": payment.order_tracking_id,
        "OrderMerchantReference": payment.merchant_reference,
        "OrderNotificationType": "IPNCHANGE",
    }
    path = f"/payments/pesapal/ipn/{tenant}"
    if method == "GET":
        event = api_event("GET", path=path, params=note)
    else:
        event = api_event("POST", path=path, body=json.dumps(note).encode())
    return payments_app.handle(event, setup["callbacks"])


def test_a_completed_pesapal_payment_is_confirmed_answered_and_told(
    chat: Chat, seeded: Services, pesapal: Any, setup: dict[str, Any]
) -> None:
    payment = card_checkout(chat, seeded)
    assert json.loads(ipn(setup, payment)["body"])["status"] == 200
    assert seeded.payments.get(SHOP, payment.order_id, payment.payment_id).status == "pending"  # not yet paid
    done = pesapal.complete(payment.order_tracking_id, 1)
    response = ipn(setup, payment, method="GET")
    assert json.loads(response["body"]) == {
        "orderNotificationType": "IPNCHANGE",
        "orderTrackingId": payment.order_tracking_id,
        "orderMerchantReference": payment.merchant_reference,
        "status": 200,
    }
    settled = seeded.payments.get(SHOP, payment.order_id, payment.payment_id)
    assert (settled.status, settled.receipt) == ("paid", done.confirmation_code)
    assert seeded.orders.get(SHOP, payment.order_id).status == "paid"
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    [told] = pipe.replies_to(PHONE)
    assert f"We received KES {payment.amount:,} for order {payment.order_id}" in told
    ipn(setup, payment)  # a duplicate notification
    pipe.run_agent()
    assert len(pipe.replies_to(PHONE)) == 1


def test_a_failed_pesapal_payment_and_notifications_for_other_tenants_or_orders(
    chat: Chat, seeded: Services, pesapal: Any, setup: dict[str, Any]
) -> None:
    payment = card_checkout(chat, seeded)
    pesapal.complete(payment.order_tracking_id, 1)
    # the same tracking id under another tenant's URL finds nothing there
    assert json.loads(ipn(setup, payment, tenant="demo-salon")["body"])["status"] == 200
    assert seeded.payments.get(SHOP, payment.order_id, payment.payment_id).status == "pending"
    bad = payments_app.handle(
        api_event("POST", path=f"/payments/pesapal/ipn/{SHOP}", body=b"{oops"), setup["callbacks"]
    )
    assert bad["statusCode"] == 400
    pesapal.complete(payment.order_tracking_id, 2)
    ipn(setup, payment)
    assert seeded.payments.get(SHOP, payment.order_id, payment.payment_id).status == "failed"


def test_the_customer_returning_from_the_hosted_page_sees_a_thank_you(setup: dict[str, Any]) -> None:
    page = payments_app.handle(
        api_event("GET", path="/payments/pesapal/return", params={"OrderTrackingId": "x"}), setup["callbacks"]
    )
    assert page["statusCode"] == 200
    assert "go back to WhatsApp" in page["body"]


# C2B (Paybill / Till from the phone menu) --------------------------------------------------------
def c2b_body(ref: str, amount: str, *, trans_id: str = "RKL51ZDR4F", shortcode: str = "600984") -> bytes:
    return json.dumps(
        {
            "TransactionType": "Pay Bill",
            "TransID": trans_id,
            "TransTime": "20261123121325",
            "TransAmount": amount,
            "BusinessShortCode": shortcode,
            "BillRefNumber": ref,
            "InvoiceNumber": "",
            "OrgAccountBalance": "",
            "ThirdPartyTransID": "",
            "MSISDN": "2547 ***** 678",
            "FirstName": "WANJIKU",
            "MiddleName": "",
            "LastName": "",
        }
    ).encode()


def c2b(setup: dict[str, Any], seeded: Services, phase: str, body: bytes, token: str | None = None) -> dict[str, Any]:
    token = token or seeded.tenants.c2b_token(SHOP)
    path = f"/payments/daraja/c2b/{token}/{phase}"
    response = payments_app.handle(api_event("POST", path=path, body=body), setup["callbacks"])
    return {"status": response["statusCode"], **json.loads(response["body"])}


def test_a_paybill_payment_with_the_order_reference_pays_the_order_once(
    chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    from tests.integration.test_launch_checklist import buy_a_power_bank_for_pickup

    ref = buy_a_power_bank_for_pickup(chat)
    chat.send("paybill")
    due = seeded.orders.get(SHOP, ref).amount_due
    typed = ref.replace("-", "").lower()  # what people type: "ord7f3k2"
    assert c2b(setup, seeded, "validation", c2b_body(typed, f"{due}.00"))["ResultCode"] == "0"
    assert c2b(setup, seeded, "validation", c2b_body(typed, f"{due - 1}.00")) == {
        "status": 200,
        "ResultCode": "C2B00013",
        "ResultDesc": "Rejected",
    }
    assert c2b(setup, seeded, "validation", c2b_body("ORD-ZZZZZ", f"{due}.00"))["ResultCode"] == "C2B00012"
    confirmed = c2b(setup, seeded, "confirmation", c2b_body(typed, f"{due}.00"))
    assert confirmed == {"status": 200, "ResultCode": 0, "ResultDesc": "Accepted"}
    order = seeded.orders.get(SHOP, ref)
    assert order.status == "paid"
    pipe: Pipeline = setup["pipe"]
    pipe.run_agent()
    [told] = pipe.replies_to(PHONE)
    assert f"We received KES {due:,} for order {ref}" in told
    assert "RKL51ZDR4F" in told
    c2b(setup, seeded, "confirmation", c2b_body(typed, f"{due}.00"))  # Daraja repeats itself
    pipe.run_agent()
    assert len(pipe.replies_to(PHONE)) == 1


def test_c2b_callbacks_that_do_not_match_change_nothing(chat: Chat, seeded: Services, setup: dict[str, Any]) -> None:
    from tests.integration.test_launch_checklist import buy_a_power_bank_for_pickup

    ref = buy_a_power_bank_for_pickup(chat)
    due = seeded.orders.get(SHOP, ref).amount_due
    for body, token in (
        (c2b_body(ref, f"{due}.00"), "ab" * 16),  # not the tenant's token
        (c2b_body(ref, f"{due}.00", shortcode="999999"), None),  # another business number
        (c2b_body(ref, f"{due + 500}.00", trans_id="RKL51ZDR5G"), None),  # another amount
    ):
        assert c2b(setup, seeded, "confirmation", body, token)["ResultCode"] == 0  # acknowledged
    assert seeded.orders.get(SHOP, ref).status != "paid"
    assert c2b(setup, seeded, "confirmation", b"{not json")["status"] == 400
    assert setup["pipe"].lambda_event()["Records"] == []


def test_money_for_an_unknown_account_number_is_kept_for_the_shop_to_match(
    seeded: Services, setup: dict[str, Any]
) -> None:
    body = c2b_body("MY NAME", "2500.00", trans_id="RKL51ZDR7K")
    assert c2b(setup, seeded, "confirmation", body)["ResultCode"] == 0
    assert c2b(setup, seeded, "confirmation", body)["ResultCode"] == 0  # Daraja repeats: kept once
    [kept] = seeded.payments.list_unmatched(SHOP).items
    assert (kept.trans_id, kept.amount, kept.bill_ref, kept.reason) == (
        "RKL51ZDR7K",
        "2500.00",
        "MY NAME",
        "unknown_reference",
    )
    assert kept.status == "open"
    assert seeded.payments.list_unmatched("demo-salon").items == []  # the shop's own, nobody else's


def test_a_wrong_amount_for_a_real_order_is_kept_and_a_person_takes_over(
    chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    from tests.integration.test_launch_checklist import buy_a_power_bank_for_pickup

    ref = buy_a_power_bank_for_pickup(chat)
    order = seeded.orders.get(SHOP, ref)
    body = c2b_body(ref, f"{order.amount_due - 100}.00", trans_id="RKL51ZDR8M")
    assert c2b(setup, seeded, "confirmation", body)["ResultCode"] == 0
    assert seeded.orders.get(SHOP, ref).status != "paid"  # short money never marks an order paid
    [kept] = seeded.payments.list_unmatched(SHOP).items
    assert (kept.reason, kept.order_id, kept.customer_id) == ("amount_mismatch", ref, order.customer_id)
    customer = seeded.customers.get(SHOP, order.customer_id)
    assert customer.handoff_ticket_id is not None
    ticket = seeded.handoffs.get(SHOP, customer.handoff_ticket_id)
    assert ticket.priority == "high"
    assert ticket.context_snapshot["mpesa_transaction"] == "RKL51ZDR8M"
    assert ref in ticket.reason


def test_money_confirmed_to_a_shortcode_the_shop_no_longer_lists_is_kept_not_lost(
    chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    """Issue 31, part 1: the owner changed the Till in settings; Daraja kept confirming the old shortcode to
    the shop's URL, and the money (KES 28,000 in the attack) was answered "Accepted" and written nowhere."""
    from tests.integration.test_launch_checklist import buy_a_power_bank_for_pickup

    ref = buy_a_power_bank_for_pickup(chat)
    order = seeded.orders.get(SHOP, ref)
    old_till = c2b_body(ref, f"{order.amount_due}.00", trans_id="RKL51ZDR9P", shortcode="600111")
    assert c2b(setup, seeded, "confirmation", old_till)["ResultCode"] == 0
    assert c2b(setup, seeded, "confirmation", old_till)["ResultCode"] == 0  # Daraja repeats: kept once
    [kept] = seeded.payments.list_unmatched(SHOP).items
    assert (kept.trans_id, kept.amount, kept.reason, kept.order_id) == (
        "RKL51ZDR9P",
        f"{order.amount_due}.00",
        "shortcode_not_listed",
        ref,
    )
    assert seeded.orders.get(SHOP, ref).status != "paid"  # never paid from a shortcode the shop does not list
    ticket = seeded.handoffs.get(SHOP, seeded.customers.get(SHOP, order.customer_id).handoff_ticket_id or "")
    assert ticket.context_snapshot["mpesa_transaction"] == "RKL51ZDR9P"
    unknown_ref = c2b_body("SOMEONE", "28000.00", trans_id="RKL51ZDS1Q", shortcode="600111")
    assert c2b(setup, seeded, "confirmation", unknown_ref)["ResultCode"] == 0
    assert {u.trans_id for u in seeded.payments.list_unmatched(SHOP).items} == {"RKL51ZDR9P", "RKL51ZDS1Q"}
    assert c2b(setup, seeded, "validation", unknown_ref)["ResultCode"] == "C2B00015"  # before: refused
