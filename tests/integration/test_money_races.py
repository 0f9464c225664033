"""Conditional-check races over the real payment handlers: another callback lands between a handler's
read and its conditional write (injected with botocore's ``before-call`` event on the DynamoDB
client, so the competing handler really runs there, then the first write meets DynamoDB's condition).
Whoever loses the race, every confirmed shilling is still in exactly one place, once."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from tests.chat import Chat
from tests.conftest import SHOP
from tests.integration.test_launch_checklist import buy_a_power_bank_for_pickup, start_stk
from tests.integration.test_money_ledger import accounted
from tests.integration.test_payments_callbacks import c2b, c2b_body, callback, post
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.pipeline.payments import PaymentCallbacks
from tulia.services import Services


def before_next_write(services: Services, operation: str, competitor: Callable[[], Any]) -> list[Any]:
    """Run ``competitor`` once, just before the next ``operation`` call on the shop's DynamoDB client
    is sent (the write then meets the competitor's result); returns what the competitor returned."""
    events = services.db.client.meta.events
    event = f"before-call.dynamodb.{operation}"
    results: list[Any] = []

    def race(**_: Any) -> None:
        events.unregister(event, race)  # once: the competitor's own writes pass straight through
        results.append(competitor())

    events.register(event, race)
    return results


def queued_outcomes(setup: dict[str, Any]) -> list[str]:
    """The payment outcomes queued for the agent (what the customer will be told)."""
    pipe = setup["pipe"]
    got = pipe.sqs.receive_message(QueueUrl=pipe.url, MaxNumberOfMessages=10, WaitTimeSeconds=0).get("Messages", [])
    bodies = [json.loads(m["Body"]) for m in got]
    return [b["status"] for b in bodies if b.get("kind") == "payment"]


def test_paybill_money_landing_while_an_approved_prompt_is_being_applied(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    ref = start_stk(chat)
    stk = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    due = seeded.orders.get(SHOP, ref).amount_due
    callbacks: PaymentCallbacks = setup["callbacks"]
    token = seeded.tenants.c2b_token(SHOP)
    paybill = before_next_write(
        seeded,
        "TransactWriteItems",
        lambda: json.loads(
            callbacks.c2b(token, "confirmation", c2b_body(ref, f"{due}.00", trans_id="TRACE00001")).body
        ),
    )
    assert post(setup, *callback(daraja, stk.checkout_request_id, 0))["statusCode"] == 200
    assert paybill == [{"ResultCode": 0, "ResultDesc": "Accepted"}]  # the Paybill money won the race
    order = seeded.orders.get(SHOP, ref)
    assert (order.status, order.paid_amount) == ("paid", due)
    settled = seeded.payments.get(SHOP, ref, stk.payment_id)
    assert (settled.status, settled.overpayment) == ("paid", True)  # the prompt's money: kept, not lost
    assert accounted(seeded, SHOP) == {"paid_orders": due, "overpayments": due, "unmatched": 0}
    assert sorted(queued_outcomes(setup)) == ["overpaid", "paid"]  # one receipt, one refund notice


def test_the_same_stk_callback_delivered_twice_at_once_is_applied_once(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    ref = start_stk(chat)
    stk = seeded.payments.get(SHOP, ref, chat.state["payment_request_id"])
    path, body = callback(daraja, stk.checkout_request_id, 0)
    token = path.rstrip("/").rsplit("/", 1)[-1]
    callbacks: PaymentCallbacks = setup["callbacks"]
    twin = before_next_write(seeded, "TransactWriteItems", lambda: callbacks.stk_callback(token, body).status)
    assert post(setup, path, body)["statusCode"] == 200
    assert twin == [200]
    order = seeded.orders.get(SHOP, ref)
    assert (order.status, order.paid_amount) == ("paid", stk.amount)
    assert seeded.payments.list_owed_back(SHOP).items == []  # one CheckoutRequestID: one payment
    assert accounted(seeded, SHOP) == {"paid_orders": stk.amount, "overpayments": 0, "unmatched": 0}
    assert queued_outcomes(setup) == ["paid"]  # one receipt


def test_one_mpesa_transid_confirmed_twice_at_once_is_booked_once(
    chat: Chat, seeded: Services, setup: dict[str, Any]
) -> None:
    ref = buy_a_power_bank_for_pickup(chat)
    due = seeded.orders.get(SHOP, ref).amount_due
    body = c2b_body(ref, f"{due}.00", trans_id="TTWIN00001")
    callbacks: PaymentCallbacks = setup["callbacks"]
    token = seeded.tenants.c2b_token(SHOP)
    twin = before_next_write(
        seeded, "TransactWriteItems", lambda: json.loads(callbacks.c2b(token, "confirmation", body).body)
    )
    assert c2b(setup, seeded, "confirmation", body)["ResultCode"] == 0
    assert twin == [{"ResultCode": 0, "ResultDesc": "Accepted"}]
    order = seeded.orders.get(SHOP, ref)
    assert (order.status, order.paid_amount) == ("paid", due)
    assert accounted(seeded, SHOP) == {"paid_orders": due, "overpayments": 0, "unmatched": Decimal(0)}
    assert queued_outcomes(setup) == ["paid"]


def test_a_late_approval_racing_the_timeout_check_ends_paid_once(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    """The no-callback check gives up on a prompt just as the customer's approval arrives."""
    ref = start_stk(chat)
    pay_id = chat.state["payment_request_id"]
    stk = seeded.payments.get(SHOP, ref, pay_id)
    path, body = callback(daraja, stk.checkout_request_id, 0)
    token = path.rstrip("/").rsplit("/", 1)[-1]
    callbacks: PaymentCallbacks = setup["callbacks"]
    daraja.fail_next(500, times=3)  # the check's query (3 attempts) cannot say: it settles on timeout
    approval = before_next_write(seeded, "TransactWriteItems", lambda: callbacks.stk_callback(token, body).status)
    callbacks.check({"tenant_id": SHOP, "order_id": ref, "payment_id": pay_id, "attempt": 3})
    assert approval == [200]
    settled = seeded.payments.get(SHOP, ref, pay_id)
    assert settled.status == "paid"  # the approval won; the timeout changed nothing after it
    order = seeded.orders.get(SHOP, ref)
    assert (order.status, order.paid_amount) == ("paid", stk.amount)
    assert accounted(seeded, SHOP) == {"paid_orders": stk.amount, "overpayments": 0, "unmatched": 0}
    assert queued_outcomes(setup) == ["paid"]


class Outage:
    """DynamoDB refusing every call of the shop's client (throttled past botocore's retries) until cleared."""

    def __init__(self, services: Services) -> None:
        self.events = services.db.client.meta.events

    def __enter__(self) -> Outage:
        self.events.register("before-call.dynamodb", self.refuse)
        return self

    def __exit__(self, *exc: object) -> None:
        self.events.unregister("before-call.dynamodb", self.refuse)

    @staticmethod
    def refuse(model: Any, **_: Any) -> None:
        from botocore.exceptions import ClientError

        raise ClientError(
            {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "Rate exceeded"}}, model.name
        )


def test_money_confirmed_during_a_dynamodb_outage_is_booked_once_when_it_clears(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any], clock: Any
) -> None:
    from tests.conftest import BOTO
    from tulia.pipeline import payments_app
    from tulia.store.queues import PAYMENT_CHECKS, PaymentCheckQueue, create_queues

    sqs = BOTO.client("sqs")
    checks_url = create_queues(sqs, "test-")[PAYMENT_CHECKS.logical_name]
    base: PaymentCallbacks = setup["callbacks"]
    callbacks = PaymentCallbacks(
        services=seeded, queue=base.queue, clock=clock, checks=PaymentCheckQueue(sqs, checks_url), check_delay_seconds=0
    )
    paybill_ref = buy_a_power_bank_for_pickup(chat)
    due = seeded.orders.get(SHOP, paybill_ref).amount_due
    confirmation = c2b_body(paybill_ref, f"{due}.00", trans_id="TOUT000001")
    token = seeded.tenants.c2b_token(SHOP)
    with Outage(seeded):
        for _delivery in range(2):  # Safaricom's confirmation, and a repeat of it, while the store is down
            answer = callbacks.c2b_or_defer(token, "confirmation", confirmation)
            assert (answer.status, json.loads(answer.body)) == (200, {"ResultCode": 0, "ResultDesc": "Accepted"})
    assert seeded.orders.get(SHOP, paybill_ref).paid_amount == 0  # nothing booked yet, nothing lost either
    kept = sqs.receive_message(QueueUrl=checks_url, MaxNumberOfMessages=10, WaitTimeSeconds=0)["Messages"]
    assert len(kept) == 2
    event = {"Records": [{"messageId": m["MessageId"], "body": m["Body"], "attributes": {}} for m in kept]}
    assert payments_app.handle(event, callbacks) == {"batchItemFailures": []}  # the store is back: booked
    order = seeded.orders.get(SHOP, paybill_ref)
    assert (order.status, order.paid_amount) == ("paid", due)
    assert accounted(seeded, SHOP) == {"paid_orders": due, "overpayments": 0, "unmatched": 0}
    assert queued_outcomes(setup) == ["paid"]  # one receipt for one transaction, delivered twice


def test_an_stk_approval_during_a_dynamodb_outage_is_applied_by_the_check_once_it_clears(
    chat: Chat, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    from botocore.exceptions import ClientError

    ref = start_stk(chat)
    pay_id = chat.state["payment_request_id"]
    stk = seeded.payments.get(SHOP, ref, pay_id)
    path, body = callback(daraja, stk.checkout_request_id, 0)
    with Outage(seeded), pytest.raises(ClientError):
        post(setup, path, body)  # a 5xx: the callback is not acknowledged as handled
    assert seeded.payments.get(SHOP, ref, pay_id).status == "pending"
    callbacks: PaymentCallbacks = setup["callbacks"]
    assert callbacks.check({"tenant_id": SHOP, "order_id": ref, "payment_id": pay_id, "attempt": 1}) == "paid"
    order = seeded.orders.get(SHOP, ref)
    assert (order.status, order.paid_amount) == ("paid", stk.amount)
    assert accounted(seeded, SHOP) == {"paid_orders": stk.amount, "overpayments": 0, "unmatched": 0}
    assert queued_outcomes(setup) == ["paid"]
