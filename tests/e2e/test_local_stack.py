"""End to end: `tulia dev` in its own process, driven only over HTTP with signed Meta payloads, with
our own Graph API recorder behind TULIA_WHATSAPP_API_BASE (as an outside checker would run it)."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.e2e.stack import VERIFY, Stack, wait_for
from tests.integration.test_webhook import SALON_NUMBER, SHOP_NUMBER, meta_payload, text_message, value


@pytest.fixture(scope="module")
def stack(recorded_stack: Stack) -> Stack:
    return recorded_stack


def test_meta_verification_over_http(stack: Stack) -> None:
    params = {"hub.mode": "subscribe", "hub.verify_token": VERIFY, "hub.challenge": "8675309"}
    ok = httpx.get(f"{stack.url}/webhooks/whatsapp", params=params, timeout=10)
    assert (ok.status_code, ok.text) == (200, "8675309")
    wrong = httpx.get(f"{stack.url}/webhooks/whatsapp", params={**params, "hub.verify_token": "x"}, timeout=10)
    assert wrong.status_code == 403


def test_a_signed_message_gets_a_whatsapp_reply_from_the_right_number(stack: Stack) -> None:
    phone = "254713000001"
    body = meta_payload(value(text_message("Nataka simu ya Samsung", mid="wamid.e2e-1", sender=phone), wa_id=phone))
    assert stack.post(body).status_code == 200
    [reply] = wait_for(lambda: stack.texts_to(phone))
    assert "Hivi ndivyo nimepata" in reply
    assert "Samsung Galaxy A15" in reply
    assert {m.phone_number_id for m in stack.graph.messages_to(phone)} == {SHOP_NUMBER}


def test_the_dev_api_says_when_a_turn_has_sent_all_its_replies(stack: Stack) -> None:
    phone = "254713000011"
    body = meta_payload(value(text_message("Nataka simu ya Samsung", mid="wamid.e2e-turn", sender=phone), wa_id=phone))
    assert stack.post(body).status_code == 200
    turn = stack.answered("wamid.e2e-turn")
    assert turn["replies"] == turn["sent"] == len(stack.texts_to(phone)) >= 1
    assert any(step.get("node") for step in turn["trace"])  # the turn's trace comes with it
    never = httpx.get(
        f"{stack.url}/dev/turn", params={"tenant_id": "demo-shop", "message_id": "wamid.none"}, timeout=10
    )
    assert never.json() == {"pending": True, "answered_in": None, "replies": 0, "sent": 0, "trace": []}
    unknown = httpx.get(
        f"{stack.url}/dev/turn", params={"tenant_id": "no-shop", "message_id": "wamid.e2e-turn"}, timeout=10
    )
    assert unknown.status_code == 404


def test_the_same_webhook_twice_gets_one_reply(stack: Stack) -> None:
    phone = "254713000002"
    body = meta_payload(value(text_message("any offers?", mid="wamid.e2e-dup", sender=phone), wa_id=phone))
    assert stack.post(body).status_code == 200
    assert stack.post(body).status_code == 200
    [first] = wait_for(lambda: stack.texts_to(phone))
    # a follow-up in the customer's FIFO group: once it is answered, anything queued before it was too
    later = meta_payload(value(text_message("thanks", mid="wamid.e2e-dup-2", sender=phone), wa_id=phone))
    assert stack.post(later).status_code == 200
    wait_for(lambda: len(stack.texts_to(phone)) > 1)
    assert stack.texts_to(phone).count(first) == 1


def test_a_bad_signature_is_401_and_nothing_is_answered(stack: Stack) -> None:
    phone = "254713000003"
    body = meta_payload(value(text_message("hello", mid="wamid.e2e-bad", sender=phone), wa_id=phone))
    assert stack.post(body, signature="sha256=" + "0" * 64).status_code == 401
    # the customer's next real message: answered alone (a forged one accepted would be answered first)
    real = meta_payload(value(text_message("STOP", mid="wamid.e2e-bad-2", sender=phone), wa_id=phone))
    assert stack.post(real).status_code == 200
    [reply] = wait_for(lambda: stack.texts_to(phone))
    assert "unsubscribed" in reply


def test_stop_opts_out_at_once(stack: Stack) -> None:
    phone = "254713000004"
    body = meta_payload(value(text_message("STOP", mid="wamid.e2e-stop", sender=phone), wa_id=phone))
    assert stack.post(body).status_code == 200
    [reply] = wait_for(lambda: stack.texts_to(phone))
    assert "unsubscribed" in reply


def test_two_tenants_and_several_customers_interleaved(stack: Stack) -> None:
    shop_a, shop_b, salon = "254713000005", "254713000006", "254713000007"
    body = meta_payload(
        value(text_message("oraimo power bank", mid="wamid.i1", sender=shop_a), wa_id=shop_a),
        value(text_message("nataka kusukwa", mid="wamid.i2", sender=salon), wa_id=salon, number=SALON_NUMBER),
        value(text_message("where is my order?", mid="wamid.i3", sender=shop_b), wa_id=shop_b),
    )
    assert json.loads(stack.post(body).text)["queued"] == 3
    wait_for(lambda: stack.texts_to(shop_a) and stack.texts_to(shop_b) and stack.texts_to(salon))
    assert "Oraimo" in stack.texts_to(shop_a)[0]
    assert "Braids" in stack.texts_to(salon)[0]
    assert "can't find any orders" in stack.texts_to(shop_b)[0]
    assert {m.phone_number_id for m in stack.graph.messages_to(salon)} == {SALON_NUMBER}
    assert {m.phone_number_id for m in stack.graph.messages_to(shop_a) + stack.graph.messages_to(shop_b)} == {
        SHOP_NUMBER
    }


def test_discovery_order_stk_approval_and_the_confirmation_message(stack: Stack) -> None:
    phone = "254713000010"
    assert "colour" in stack.say(phone, "I want an oraimo 20000mAh power bank")  # named: straight to the item
    assert "How many" in stack.say(phone, "black")
    assert "delivery" in stack.say(phone, "1").lower()
    summary = stack.say(phone, "pickup")
    assert "Order ORD-" in summary
    assert "Please confirm" in stack.say(phone, "M-Pesa prompt")
    sent = stack.say(phone, "yes")
    assert "I've sent an M-Pesa prompt" in sent
    [stk] = [r for r in stack.daraja.stk.values() if r.body["PhoneNumber"] == phone]
    assert stk.body["CallBackURL"].startswith(stack.url + "/payments/daraja/stk/")
    before = len(stack.texts_to(phone))
    stack.daraja.complete(stk.checkout_request_id, 0)  # the customer enters the PIN; Daraja calls back
    told = "\n".join(wait_for(lambda: stack.texts_to(phone)[before:]))
    assert f"We received KES {stk.body['Amount']:,}" in told
    assert str(stk.receipt) in told
    assert "paid" in stack.say(phone, "where is my order?")


def test_a_cancelled_prompt_is_explained_with_paybill_steps(stack: Stack) -> None:
    phone = "254713000011"
    stack.say(phone, "I want an oraimo 20000mAh power bank")
    stack.say(phone, "black")
    stack.say(phone, "1")
    stack.say(phone, "pickup")
    stack.say(phone, "M-Pesa prompt")
    stack.say(phone, "yes")
    [stk] = [r for r in stack.daraja.stk.values() if r.body["PhoneNumber"] == phone]
    before = len(stack.texts_to(phone))
    stack.daraja.complete(stk.checkout_request_id, 1032)
    told = "\n".join(wait_for(lambda: len(stack.texts_to(phone)) >= before + 2 and stack.texts_to(phone)[before:]))
    assert "was cancelled, so nothing was paid" in told
    assert "Business number: 600984" in told


def test_a_prompt_without_a_callback_is_resolved_by_the_stk_query(stack: Stack) -> None:
    phone = "254713000012"
    stack.say(phone, "I want an oraimo 20000mAh power bank")
    stack.say(phone, "black")
    stack.say(phone, "1")
    stack.say(phone, "pickup")
    stack.say(phone, "M-Pesa prompt")
    stack.say(phone, "yes")
    [stk] = [r for r in stack.daraja.stk.values() if r.body["PhoneNumber"] == phone]
    before = len(stack.texts_to(phone))
    stack.daraja.complete(stk.checkout_request_id, 1037, send_callback=False)  # Safaricom never calls back
    told = "\n".join(wait_for(lambda: len(stack.texts_to(phone)) >= before + 2 and stack.texts_to(phone)[before:]))
    assert "expired before it was completed" in told
    assert len(stack.daraja.calls("/mpesa/stkpushquery/v1/query")) >= 1


def test_a_paybill_payment_confirmed_by_daraja_reaches_the_customer(stack: Stack) -> None:
    phone = "254713000013"
    stack.say(phone, "I want an oraimo 20000mAh power bank")
    stack.say(phone, "black")
    stack.say(phone, "1")
    summary = stack.say(phone, "pickup")
    steps = stack.say(phone, "paybill")
    ref = summary.split("Order ", 1)[1].split()[0]
    assert f"Account number: {ref}" in steps
    amount = steps.split("Amount: KES ", 1)[1].split()[0].replace(",", "")
    [registration] = [r for r in stack.daraja.c2b_registrations if r["ShortCode"] == "600984"]
    assert registration["ConfirmationURL"].startswith(stack.url + "/payments/daraja/c2b/")
    confirmation = {
        "TransactionType": "Pay Bill",
        "TransID": "RKL51E2E01",
        "TransTime": "20261123121325",
        "TransAmount": f"{amount}.00",
        "BusinessShortCode": "600984",
        "BillRefNumber": ref,
        "MSISDN": "2547 ***** 013",
        "FirstName": "WANJIKU",
    }
    before = len(stack.texts_to(phone))
    answer = httpx.post(registration["ConfirmationURL"], json=confirmation, timeout=10)
    assert answer.json() == {"ResultCode": 0, "ResultDesc": "Accepted"}
    told = "\n".join(wait_for(lambda: stack.texts_to(phone)[before:]))
    assert f"We received KES {int(amount):,} for order {ref}" in told


def test_a_prompt_approved_after_it_timed_out_is_recorded_paid_and_told(stack: Stack) -> None:
    """The attack's finding: an approval that arrives after Tulia gave up on the prompt is money
    received: the payment is paid (flagged for review), the order paid, the customer told."""
    phone = "254713000014"
    stack.say(phone, "I want an oraimo 20000mAh power bank")
    stack.say(phone, "black")
    stack.say(phone, "1")
    summary = stack.say(phone, "pickup")
    ref = summary.split("Order ", 1)[1].split()[0]
    stack.say(phone, "M-Pesa prompt")
    stack.say(phone, "yes")
    [stk] = [r for r in stack.daraja.stk.values() if r.body["PhoneNumber"] == phone]
    before = len(stack.texts_to(phone))
    # the customer leaves the prompt alone: no callback, and the STK query cannot say, until Tulia gives up
    # the expiry may come as more than one message (the notice, then the Paybill way to pay): wait for
    # the notice itself, then for the confirmation itself, so the order the messages land in cannot matter
    wait_for(lambda: "expired before it was completed" in "\n".join(stack.texts_to(phone)[before:]), timeout=60)
    before = len(stack.texts_to(phone))
    stack.daraja.complete(stk.checkout_request_id, 0)  # then approves it late; Daraja calls back
    received = f"We received KES {stk.body['Amount']:,} for order {ref}"
    wait_for(lambda: received in "\n".join(stack.texts_to(phone)[before:]))
    assert "paid" in stack.say(phone, f"where is my order {ref}?")
