"""Issue 33, part 5: money owed back (an overpayment, a deposit due back) applied by the owner to another order
of the same customer: a real payment on that order (paid, or part paid and the rest still due), the rest still
owed back, each step audited and told to the customer; refused, with why and changing nothing, for another
customer's order, an order that cannot take money or has a payment in flight; and a payment begun for the old
amount that lands after the money was applied is kept as money owed back, never paid twice.

The admin API and the payments function over moto, the Daraja simulator over HTTP, the agent telling the
customer through the Graph simulator."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.chat import Chat
from tests.conftest import SHOP, Caller, Clock, new_customer
from tests.integration.test_money_ledger import accounted
from tests.integration.test_payments_callbacks import c2b, c2b_body, callback, post
from tests.integration.test_reaching_customers import (  # noqa: F401 - fixtures
    customer_wrote,
    http_client,
    paid_order,
    sent_to,
    shown,
    world,
)
from tulia.domain.payment import OwedBack
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.services import Services
from tulia.store.audit import AuditRepo

CHARGER = "CH-002"  # KES 1,900, 10% off chargers: KES 1,710 a piece


def overpaid(chat: Chat, seeded: Services, setup: dict[str, Any]) -> tuple[str, OwedBack]:
    """A paid power bank (KES 2,610) the customer pays a second time by Paybill: KES 2,610 owed back."""
    ref = paid_order(chat, seeded, setup, "TAPL000001")
    due = seeded.orders.get(SHOP, ref).totals.total
    assert c2b(setup, seeded, "confirmation", c2b_body(ref, f"{due}.00", trans_id="TAPL000002"))["ResultCode"] == 0
    [owed] = seeded.payments.open_owed_back_of(SHOP, ref)
    assert (owed.amount, owed.remaining, owed.receipt) == (2610, 2610, "TAPL000002")
    customer = seeded.customers.get(SHOP, owed.customer_id)
    assert owed.handoff_ticket_id == customer.handoff_ticket_id is not None  # a person is asked to close it
    return ref, owed


def order_of(seeded: Services, customer_id: str, chargers: int) -> str:
    shop = Caller(seeded, SHOP, customer_id)
    made = shop.ok(
        "order_create", customer_id=customer_id, items=[{"item_id": CHARGER, "quantity": chargers}],
        delivery={"mode": "pickup"},
    )  # fmt: skip
    return str(made["order_id"])


def apply_path(owed: OwedBack) -> str:
    return f"/admin/payments/overpayments/{owed.method}/{owed.provider_ref}/apply"


def test_money_owed_back_pays_another_order_then_part_of_a_third_and_the_customer_is_told_each_time(
    world: dict[str, Any],  # noqa: F811 - the fixture imported above
    chat: Chat,
    setup: dict[str, Any],
    clock: Clock,
) -> None:
    admin, seeded, pipe = world["admin"], world["seeded"], world["pipe"]
    first, owed = overpaid(chat, seeded, setup)
    customer_id = owed.customer_id
    confirmed = accounted(seeded, SHOP)
    one = order_of(seeded, customer_id, 1)  # KES 1,710
    two = order_of(seeded, customer_id, 2)  # KES 3,420
    customer_wrote(seeded, clock.now)
    pipe.run_agent()  # the receipts of the first order's two payments
    before = len(sent_to(pipe.graph))

    status, after_one = admin("POST", apply_path(owed), {"order_id": one.lower()})  # typed as she likes
    assert status == 200, after_one
    assert (after_one["status"], after_one["applied_amount"]) == ("open", 1710)  # KES 900 still owed back
    paid_one, payments = seeded.orders.get_with_payments(SHOP, one)
    assert (paid_one.status, paid_one.paid_amount, paid_one.amount_due) == ("paid", 1710, 0)
    [credit] = payments
    assert (credit.amount, credit.status, credit.receipt, credit.applied_from) == (
        1710,
        "paid",
        "TAPL000002",
        "TAPL000002",
    )
    assert after_one["applied"] == [
        {"order_id": one, "payment_id": credit.payment_id, "amount": 1710, "at": after_one["applied"][0]["at"],
         "by": "owner@shop.example"},
    ]  # fmt: skip

    status, after_two = admin("POST", apply_path(owed), {"order_id": two})
    assert status == 200, after_two
    assert (after_two["status"], after_two["applied_amount"]) == ("applied", 2610)  # nothing remains: closed
    part_paid = seeded.orders.get(SHOP, two)
    assert (part_paid.status, part_paid.paid_amount, part_paid.amount_due) == ("draft", 900, 2520)
    assert seeded.payments.open_owed_back_of(SHOP, first) == []
    moved = accounted(seeded, SHOP)  # the same money, now in the orders it pays
    assert (moved["paid_orders"] - confirmed["paid_orders"], moved["overpayments"]) == (2610, 0)
    assert sum(moved.values()) == sum(confirmed.values())

    pipe.run_agent()
    told = [shown(pipe.graph, p) for p in sent_to(pipe.graph)[before:]]
    assert any("KES 1,710" in m and one in m and "TAPL000002" in m for m in told), told  # the receipt
    assert (
        f"We have put KES 900 you paid before (order {first}) towards your order {two}. Still to pay: KES 2,520."
        in told
    ), told
    trail = [(e.target, e.details) for e in AuditRepo(seeded.db).list(SHOP).items if e.action == "overpayment.applied"]
    assert sorted(trail, key=lambda t: t[1]["amount"]) == [
        ("TAPL000002", {"order_id": two, "amount": 900, "from_order": first}),
        ("TAPL000002", {"order_id": one, "amount": 1710, "from_order": first}),
    ]

    # the rest of the third order is paid as any order is: by its amount due, once
    assert c2b(setup, seeded, "confirmation", c2b_body(two, "2520.00", trans_id="TAPL000003"))["ResultCode"] == 0
    done = seeded.orders.get(SHOP, two)
    assert (done.status, done.paid_amount) == ("paid", 3420)
    later = accounted(seeded, SHOP)
    assert sum(later.values()) - sum(confirmed.values()) == 2520  # only the new money is new


def test_what_remains_after_a_part_was_applied_is_what_is_recorded_refunded_and_told(
    world: dict[str, Any],  # noqa: F811 - the fixture imported above
    chat: Chat,
    setup: dict[str, Any],
    clock: Clock,
) -> None:
    admin, seeded, pipe = world["admin"], world["seeded"], world["pipe"]
    first, owed = overpaid(chat, seeded, setup)
    one = order_of(seeded, owed.customer_id, 1)
    assert admin("POST", apply_path(owed), {"order_id": one})[0] == 200
    customer_wrote(seeded, clock.now)
    pipe.run_agent()
    before = len(sent_to(pipe.graph))
    close = f"/admin/payments/overpayments/{owed.method}/{owed.provider_ref}/close"
    status, closed = admin("POST", close, {"outcome": "refunded", "note": "M-Pesa reversal QREV1"})
    assert (status, closed["status"], closed["applied_amount"]) == (200, "refunded", 1710)
    pipe.run_agent()
    told = [shown(pipe.graph, p) for p in sent_to(pipe.graph)[before:]]
    assert told == [f"We have sent back KES 900 for your order {first}. Reply here if you have a question."]
    assert admin("POST", apply_path(owed), {"order_id": order_of(seeded, owed.customer_id, 1)})[0] == 409


def test_applying_money_where_it_cannot_go_is_refused_with_why_and_changes_nothing(
    world: dict[str, Any],  # noqa: F811 - the fixture imported above
    chat: Chat,
    setup: dict[str, Any],
) -> None:
    admin, seeded = world["admin"], world["seeded"]
    first, owed = overpaid(chat, seeded, setup)
    stranger = Caller(seeded, SHOP)
    theirs = order_of(seeded, new_customer(stranger, "0799000111"), 1)
    mine = order_of(seeded, owed.customer_id, 1)
    Caller(seeded, SHOP, owed.customer_id).ok(
        "payment_initiate_stk_push", order_id=mine, phone_e164="+254712345678", amount=1710
    )  # a prompt is on the customer's phone for this order
    cases = [
        (theirs, 422, "another customer's"),
        (first, 409, "it cannot take this money"),  # paid
        (mine, 409, "in progress"),
        ("ORD-NOPE0", 404, ""),
    ]
    for order_id, code, why in cases:
        status, body = admin("POST", apply_path(owed), {"order_id": order_id})
        assert status == code, (order_id, body)
        assert why in body["message"], body
    assert seeded.payments.get_owed_back(SHOP, owed.method, owed.provider_ref) == owed  # unchanged
    assert [seeded.orders.get(SHOP, o).paid_amount for o in (theirs, mine)] == [0, 0]
    status, body = admin("POST", "/admin/payments/overpayments/mpesa_c2b/TAPL000002/close", {"outcome": "applied"})
    assert status == 422  # "applied" without an order said nothing about where the money went
    assert admin("POST", apply_path(owed), {"order_id": mine}, role="agent")[0] == 403  # the owner's call


def test_a_prompt_for_the_old_amount_approved_after_money_was_applied_is_kept_owed_back_not_paid_twice(
    world: dict[str, Any],  # noqa: F811 - the fixture imported above
    chat: Chat,
    setup: dict[str, Any],
    daraja: DarajaSimulator,
) -> None:
    admin, seeded = world["admin"], world["seeded"]
    _, owed = overpaid(chat, seeded, setup)
    two = order_of(seeded, owed.customer_id, 2)  # KES 3,420
    shop = Caller(seeded, SHOP, owed.customer_id)
    started = shop.ok("payment_initiate_stk_push", order_id=two, phone_e164="+254712345678", amount=3420)
    check = {"tenant_id": SHOP, "order_id": two, "payment_id": started["payment_request_id"], "attempt": 3}
    assert setup["callbacks"].check(check) == "timeout"  # nobody answered, as far as the shop knows
    assert admin("POST", apply_path(owed), {"order_id": two})[0] == 200  # KES 2,610 of it: 810 due
    confirmed = accounted(seeded, SHOP)
    post(setup, *callback(daraja, started["checkout_request_id"], 0))  # then the prompt is approved, late
    order = seeded.orders.get(SHOP, two)
    assert (order.status, order.paid_amount, order.amount_due) == ("payment_failed", 2610, 810)  # not paid twice
    late = seeded.payments.get(SHOP, two, started["payment_request_id"])
    assert (late.status, late.overpayment) == ("paid", True)
    kept = list(seeded.payments.open_owed_back_of(SHOP, two))
    assert [(o.amount, o.reason) for o in kept] == [(3420, "order_not_payable")]
    after = accounted(seeded, SHOP)
    assert after["overpayments"] - confirmed["overpayments"] == Decimal(3420)  # every shilling, once


@pytest.mark.parametrize("lang", ["sw"])
def test_the_customer_is_told_of_money_applied_in_their_language(lang: str) -> None:
    from tulia.nlg.templates import render

    said = render("order_update_credit_applied", lang, "sw", amount="KES 900", source="ORD-A", ref="ORD-B", due="KES 1")
    assert said == "Tumeweka KES 900 ulizolipa awali (oda ORD-A) kwenye oda yako ORD-B. Kiasi kilichobaki: KES 1."
