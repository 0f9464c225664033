"""End to end: `tulia dev` in its own process, driven only over HTTP with signed Meta payloads, with
our own Graph API recorder behind TULIA_WHATSAPP_API_BASE (as an outside checker would run it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.conftest import ROOT, SANDBOX_PASSKEY
from tests.integration.test_webhook import SALON_NUMBER, SHOP_NUMBER, meta_payload, text_message, value
from tulia.channel.whatsapp import sign
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.graph import GraphSimulator
from tulia.local.stack import free_port

SECRET = "e2e-app-secret"
VERIFY = "e2e-verify-token"


@dataclass
class Stack:
    url: str
    graph: GraphSimulator
    daraja: DarajaSimulator

    def say(self, phone: str, words: str) -> str:
        """The customer sends a message and waits for the bot's answer."""
        before = len(self.texts_to(phone))
        mid = f"wamid.say-{phone}-{before}-{time.monotonic_ns()}"
        assert (
            self.post(meta_payload(value(text_message(words, mid=mid, sender=phone), wa_id=phone))).status_code == 200
        )
        wait_for(lambda: self.texts_to(phone)[before:])
        return "\n".join(self.settled(phone)[before:])

    def settled(self, phone: str, quiet_seconds: float = 0.5) -> list[str]:
        """The replies once a turn's messages have all arrived (nothing new for a moment)."""
        seen = -1
        while len(self.texts_to(phone)) != seen:
            seen = len(self.texts_to(phone))
            time.sleep(quiet_seconds)
        return self.texts_to(phone)

    def post(self, body: bytes, signature: str | None = None) -> httpx.Response:
        headers = {"content-type": "application/json", "x-hub-signature-256": signature or sign(body, SECRET)}
        return httpx.post(f"{self.url}/webhooks/whatsapp", content=body, headers=headers, timeout=10)

    def texts_to(self, phone: str) -> list[str]:
        out = []
        for m in self.graph.messages_to(phone):
            p = m.payload
            body = p["text"]["body"] if p["type"] == "text" else p["interactive"]["body"]["text"]
            if p["type"] == "interactive" and p["interactive"]["type"] == "list":
                body += "\n" + "\n".join(r["title"] for s in p["interactive"]["action"]["sections"] for r in s["rows"])
            out.append(body)
        return out


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    port = free_port()
    log = tmp_path_factory.mktemp("stack") / "stack.log"
    with (
        GraphSimulator() as graph,
        DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as daraja,
        log.open("w") as out,
    ):
        env = {
            **os.environ,
            "TULIA_META_APP_SECRET": SECRET,
            "TULIA_META_VERIFY_TOKEN": VERIFY,
            "TULIA_WHATSAPP_API_BASE": graph.base_url,
            "TULIA_MPESA_API_BASE": daraja.base_url,
            "TULIA_PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
            "TULIA_AGENT_BATCH_WINDOW_SECONDS": "0.5",
            "TULIA_STK_QUERY_DELAY_SECONDS": "2",
            "TULIA_LOG_LEVEL": "WARNING",
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "tulia.cli", "dev", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_for(lambda: "Press Ctrl-C" in log.read_text(), timeout=120)
            yield Stack(f"http://127.0.0.1:{port}", graph, daraja)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def test_meta_verification_over_http(stack: Stack) -> None:
    params = {"hub.mode": "subscribe", "hub.verify_token": VERIFY, "hub.challenge": "8675309"}
    ok = httpx.get(f"{stack.url}/webhooks/whatsapp", params=params, timeout=10)
    assert (ok.status_code, ok.text) == (200, "8675309")
    wrong = httpx.get(f"{stack.url}/webhooks/whatsapp", params={**params, "hub.verify_token": "x"}, timeout=10)
    assert wrong.status_code == 403


def test_a_signed_message_gets_a_whatsapp_reply_from_the_right_number(stack: Stack) -> None:
    phone = "254711000001"
    body = meta_payload(value(text_message("Nataka simu ya Samsung", mid="wamid.e2e-1", sender=phone), wa_id=phone))
    assert stack.post(body).status_code == 200
    [reply] = wait_for(lambda: stack.texts_to(phone))
    assert "Hivi ndivyo nimepata" in reply
    assert "Samsung Galaxy A15" in reply
    assert {m.phone_number_id for m in stack.graph.messages_to(phone)} == {SHOP_NUMBER}


def test_the_same_webhook_twice_gets_one_reply(stack: Stack) -> None:
    phone = "254711000002"
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
    phone = "254711000003"
    body = meta_payload(value(text_message("hello", mid="wamid.e2e-bad", sender=phone), wa_id=phone))
    assert stack.post(body, signature="sha256=" + "0" * 64).status_code == 401
    # the customer's next real message: answered alone (a forged one accepted would be answered first)
    real = meta_payload(value(text_message("STOP", mid="wamid.e2e-bad-2", sender=phone), wa_id=phone))
    assert stack.post(real).status_code == 200
    [reply] = wait_for(lambda: stack.texts_to(phone))
    assert "unsubscribed" in reply


def test_stop_opts_out_at_once(stack: Stack) -> None:
    phone = "254711000004"
    body = meta_payload(value(text_message("STOP", mid="wamid.e2e-stop", sender=phone), wa_id=phone))
    assert stack.post(body).status_code == 200
    [reply] = wait_for(lambda: stack.texts_to(phone))
    assert "unsubscribed" in reply


def test_two_tenants_and_several_customers_interleaved(stack: Stack) -> None:
    shop_a, shop_b, salon = "254711000005", "254711000006", "254711000007"
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
    phone = "254711000010"
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
    phone = "254711000011"
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
    phone = "254711000012"
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
    phone = "254711000013"
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
    phone = "254711000014"
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
