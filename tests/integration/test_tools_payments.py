"""payment_get_methods, payment_get_c2b_instructions, payment_initiate_stk_push, payment_create_pesapal_checkout,
against the Daraja and PesaPal simulators over real HTTP."""

from __future__ import annotations

import base64
from datetime import datetime, timedelta

import httpx
import pytest

from tests.conftest import SALON, SANDBOX_PASSKEY, SHOP, Caller, new_customer
from tulia.domain.common import NAIROBI
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.pesapal import PesapalSimulator
from tulia.payments.mpesa.daraja import BANNED_URL_WORDS
from tulia.services import Services

STK_PATH = "/mpesa/stkpush/v1/processrequest"
A15 = {"item_id": "PH-SAM-002", "quantity": 1, "variant_selection": {"colour": "Blue", "storage": "128GB"}}


@pytest.fixture(autouse=True)
def _clean_simulators(daraja: DarajaSimulator, pesapal: PesapalSimulator) -> None:
    daraja.clear_failures()
    pesapal.clear_failures()


def place(caller: Caller, items: list | None = None, **delivery: str) -> dict:
    caller.customer_id = caller.customer_id or new_customer(caller)
    return caller.ok(
        "order_create", customer_id=caller.customer_id, items=items or [A15], delivery=delivery or {"mode": "pickup"}
    )


def test_methods_follow_the_tenant_and_the_amount(shop: Caller, salon: Caller) -> None:
    order = place(shop)
    methods = shop.ok("payment_get_methods", order_id=order["order_id"])
    assert [m["method"] for m in methods["methods"]] == ["mpesa_stk", "mpesa_c2b", "pesapal"]
    assert methods["amount_due"] == 21500
    assert methods["methods"][1]["details"] == {"paybill": "600984"}
    salon_order = place(salon, [{"item_id": "SV-NL-02", "quantity": 1}])
    salon_methods = salon.ok("payment_get_methods", order_id=salon_order["order_id"])
    assert [m["method"] for m in salon_methods["methods"]] == ["mpesa_stk", "mpesa_c2b"]
    assert salon_methods["methods"][1]["details"] == {"till": "5123456"}


def test_mpesa_is_not_offered_above_its_per_payment_limit(shop: Caller) -> None:
    order = place(
        shop,
        [
            {
                "item_id": "PH-APP-022",
                "quantity": 2,
                "variant_selection": {"colour": "Natural Titanium", "storage": "512GB"},
            }
        ],
    )
    assert order["amount_due"] > 250_000
    methods = shop.ok("payment_get_methods", order_id=order["order_id"])
    assert [m["method"] for m in methods["methods"]] == ["pesapal"]
    err = shop.err(
        "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
    )
    assert (err["code"], err["reason"]) == ("method_unavailable", "above_mpesa_limit")


def test_c2b_instructions_carry_the_order_reference_and_exact_amount(shop: Caller, seeded: Services) -> None:
    order = place(shop)
    shop.ok("order_apply_coupon", customer_id=shop.customer_id, order_id=order["order_id"], coupon_code="WELCOME10")
    out = shop.ok("payment_get_c2b_instructions", order_id=order["order_id"])
    assert out == {
        "order_ref": order["order_ref"],
        "method": "paybill",
        "business_number": "600984",
        "account_reference": order["order_ref"],
        "amount": 21500 - 1500,
        "currency": "KES",
    }
    assert seeded.orders.get(SHOP, order["order_id"]).status == "pending_payment"


def test_each_order_gets_its_own_c2b_reference(shop: Caller) -> None:
    first, second = place(shop), place(shop)
    refs = {
        shop.ok("payment_get_c2b_instructions", order_id=o["order_id"])["account_reference"] for o in (first, second)
    }
    assert refs == {first["order_ref"], second["order_ref"]}
    assert len(refs) == 2


def test_till_instructions_have_no_account_number(salon: Caller) -> None:
    order = place(salon, [{"item_id": "SV-NL-02", "quantity": 1}])
    out = salon.ok("payment_get_c2b_instructions", order_id=order["order_id"])
    assert (out["method"], out["business_number"], out["account_reference"]) == ("till", "5123456", None)


def test_stk_push_sends_the_right_request_to_daraja(shop: Caller, seeded: Services, daraja: DarajaSimulator) -> None:
    order = place(shop)
    out = shop.ok(
        "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="+254 712 345 678", amount=21500.0
    )
    assert out["phone_masked"] == "+254 7** *** 678"
    body = daraja.stk[out["checkout_request_id"]].body
    assert body["Amount"] == 21500
    assert (body["PhoneNumber"], body["PartyA"], body["PartyB"]) == ("254712345678", "254712345678", "174379")
    assert body["TransactionType"] == "CustomerPayBillOnline"
    assert base64.b64decode(body["Password"]).decode() == f"174379{SANDBOX_PASSKEY}{body['Timestamp']}"
    sent_at = datetime.strptime(body["Timestamp"], "%Y%m%d%H%M%S").replace(tzinfo=NAIROBI)
    assert abs(datetime.now(NAIROBI) - sent_at) < timedelta(minutes=2)  # Daraja's clock: Nairobi time, now
    url = body["CallBackURL"]
    assert url.startswith("https://tulia.example/payments/daraja/stk/")
    assert not any(word in url.lower() for word in BANNED_URL_WORDS)
    payment = seeded.payments.find_by_ref(SHOP, "stk", out["checkout_request_id"])
    assert (payment.status, payment.amount, payment.msisdn) == ("pending", 21500, "254712345678")
    assert url.endswith("/" + payment.callback_token)
    assert seeded.orders.get(SHOP, order["order_id"]).payment_status == "pending"


def test_salon_till_stk_uses_buy_goods(salon: Caller, daraja: DarajaSimulator) -> None:
    order = place(salon, [{"item_id": "SV-NL-02", "quantity": 1}])
    out = salon.ok(
        "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
    )
    assert daraja.stk[out["checkout_request_id"]].body["TransactionType"] == "CustomerBuyGoodsOnline"


@pytest.mark.parametrize("amount", [21499, 21500.5, 1, 0, -21500, 10**12])
def test_an_amount_other_than_the_amount_due_is_refused_before_daraja(
    shop: Caller, daraja: DarajaSimulator, amount: float
) -> None:
    order = place(shop)
    before = len(daraja.calls(STK_PATH))
    err = shop.err("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=amount)
    assert (err["code"], err["details"]["amount_due"]) == ("amount_mismatch", 21500)
    assert len(daraja.calls(STK_PATH)) == before


@pytest.mark.parametrize("phone", ["+447911123456", "0812345678", "hello"])
def test_stk_needs_a_kenyan_mpesa_number(shop: Caller, daraja: DarajaSimulator, phone: str) -> None:
    order = place(shop)
    before = len(daraja.calls(STK_PATH))
    err = shop.err("payment_initiate_stk_push", order_id=order["order_id"], phone_e164=phone, amount=21500)
    assert (err["code"], err["field"]) == ("invalid_input", "phone_e164")
    assert len(daraja.calls(STK_PATH)) == before


def test_no_second_prompt_while_one_is_pending(shop: Caller, daraja: DarajaSimulator) -> None:
    order = place(shop)
    shop.ok("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=21500)
    before = len(daraja.calls(STK_PATH))
    err = shop.err("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=21500)
    assert err["code"] == "payment_in_progress"
    assert len(daraja.calls(STK_PATH)) == before


def test_daraja_down_gives_provider_unavailable_and_releases_the_order(
    shop: Caller, seeded: Services, daraja: DarajaSimulator
) -> None:
    order = place(shop)
    seeded.daraja.token(seeded.payment_config.mpesa_credentials)  # warm the OAuth token
    daraja.fail_next(503)
    err = shop.err("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=21500)
    assert err["code"] == "provider_unavailable"
    assert seeded.orders.get_with_payments(SHOP, order["order_id"])[1] == []
    assert seeded.orders.get(SHOP, order["order_id"]).status == "draft"
    retry = shop.ok("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=21500)
    assert retry["status"] == "pending"


def test_stk_push_is_not_repeated_when_daraja_answers_too_slowly(
    shop: Caller, seeded: Services, daraja: DarajaSimulator
) -> None:
    order = place(shop)
    seeded.daraja.http.timeout = httpx.Timeout(0.3)
    seeded.daraja.token(seeded.payment_config.mpesa_credentials)  # warm the OAuth token
    before = len(daraja.calls(STK_PATH))
    daraja.fail_next(200, {"ResponseCode": "0"}, delay_seconds=0.6)
    err = shop.err("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=21500)
    assert err["code"] == "provider_unavailable"
    assert len(daraja.calls(STK_PATH)) == before + 1  # one attempt, never a second prompt


def test_daraja_refusal_is_a_provider_error(shop: Caller, daraja: DarajaSimulator) -> None:
    order = place(shop)
    daraja.fail_next(400, {"errorCode": "400.002.02", "errorMessage": "Bad Request - Invalid PhoneNumber"})
    err = shop.err("payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=21500)
    assert err["code"] == "provider_error"
    assert "Invalid PhoneNumber" in err["message"]


def test_paid_and_cancelled_orders_cannot_be_paid_again(shop: Caller, seeded: Services) -> None:
    order = place(shop)
    seeded.orders.transition(SHOP, order["order_id"], to="cancelled", now=seeded.clock())
    for tool in ("payment_get_methods", "payment_get_c2b_instructions", "payment_create_pesapal_checkout"):
        err = shop.err(tool, order_id=order["order_id"])
        assert (err["code"], err["reason"]) == ("state_conflict", "cancelled")
    paid = place(shop)
    seeded.orders.transition(SHOP, paid["order_id"], to="pending_payment", now=seeded.clock())
    seeded.orders.transition(SHOP, paid["order_id"], to="paid", now=seeded.clock())
    err = shop.err("payment_initiate_stk_push", order_id=paid["order_id"], phone_e164="0712345678", amount=21500)
    assert err["reason"] == "already_paid"


def test_pesapal_checkout_link_is_created_once_and_tracked(
    shop: Caller, seeded: Services, pesapal: PesapalSimulator
) -> None:
    order = place(shop, **{"mode": "delivery", "address_text": "Westlands"})
    submits = len(pesapal.calls("/api/Transactions/SubmitOrderRequest"))
    out = shop.ok("payment_create_pesapal_checkout", order_id=order["order_id"])
    assert out["checkout_url"].startswith(pesapal.base_url)
    assert (out["amount"], out["reused"]) == (21500 + 300, False)
    sent = pesapal.orders[out["order_tracking_id"]].body
    assert (sent["amount"], sent["currency"]) == (21800, "KES")
    assert sent["id"].startswith(order["order_ref"])
    assert len(sent["id"]) <= 50
    assert sent["billing_address"]["phone_number"] == "+254712345678"
    assert sent["callback_url"] == "https://tulia.example/payments/pesapal/return"
    assert pesapal.ipns[sent["notification_id"]]["url"] == "https://tulia.example/payments/pesapal/ipn/demo-shop"
    payment = seeded.payments.find_by_ref(SHOP, "pesapal", out["order_tracking_id"])
    assert (payment.method, payment.status, payment.amount) == ("pesapal", "pending", 21800)
    again = shop.ok("payment_create_pesapal_checkout", order_id=order["order_id"])
    assert (again["checkout_url"], again["reused"]) == (out["checkout_url"], True)
    assert len(pesapal.calls("/api/Transactions/SubmitOrderRequest")) == submits + 1


def test_pesapal_ipn_is_registered_once_per_tenant(shop: Caller, seeded: Services, pesapal: PesapalSimulator) -> None:
    registrations = len(pesapal.calls("/api/URLSetup/RegisterIPN")) + len(pesapal.calls("/api/URLSetup/GetIpnList"))
    shop.ok("payment_create_pesapal_checkout", order_id=place(shop)["order_id"])
    shop.ok("payment_create_pesapal_checkout", order_id=place(shop)["order_id"])
    after = len(pesapal.calls("/api/URLSetup/RegisterIPN")) + len(pesapal.calls("/api/URLSetup/GetIpnList"))
    assert after - registrations <= 2  # looked up or registered for the first checkout only
    assert seeded.tenants.get(SHOP).payments.pesapal.ipn_id


def test_pesapal_refusal_records_nothing(shop: Caller, seeded: Services, pesapal: PesapalSimulator) -> None:
    order = place(shop)
    shop.ok("payment_get_methods", order_id=order["order_id"])
    seeded.tenants.set_pesapal_ipn_id(SHOP, "not-a-registered-ipn")
    err = shop.err("payment_create_pesapal_checkout", order_id=order["order_id"])
    assert err["code"] == "provider_error"
    assert seeded.orders.get_with_payments(SHOP, order["order_id"])[1] == []


def test_a_tenant_without_card_payments_refuses_a_checkout(salon: Caller) -> None:
    order = place(salon, [{"item_id": "SV-NL-02", "quantity": 1}])
    err = salon.err("payment_create_pesapal_checkout", order_id=order["order_id"])
    assert err["code"] == "method_unavailable"
    assert err["details"]["enabled"] == ["mpesa_stk", "mpesa_c2b"]
    assert salon.tenant_id == SALON
