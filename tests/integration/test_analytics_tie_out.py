"""Issue 33, part 6: every figure of the analytics screen is tied to the records it counts. A day of a shop's
customers runs through the real pipeline (webhook -> SQS -> the agent -> the Graph simulator; the payments
function with Daraja's callbacks; the admin API with the shop's counters): orders made and paid by prompt and by
Paybill, a prompt the customer cancels, money paid twice and given back, a customer who asks for a person, a
search that finds nothing. Then each figure the owner reads is computed again from the orders, payments, money
owed back, hand-overs and the conversation logs, and the two must agree. For the salon, the appointment figures are
tied to its bookings the same way."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.conftest import SALON, SHOP, Clock
from tests.integration.test_broadcasts import world  # noqa: F401 - the fixture
from tests.integration.test_conversation_log import says
from tests.integration.test_payments_callbacks import c2b, c2b_body, callback, post
from tests.integration.test_reaching_customers import Admin
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.queues import InboundQueue
from tulia.store.stats import StatsRepo

WANJIKU, OTIENO, ACHIENG, BARAKA = "254712345678", "254733111222", "254700200300", "254711400500"


@pytest.fixture
def day(world: dict[str, Any], seeded: Services) -> dict[str, Any]:  # noqa: F811 - the fixture imported above
    """The shop's pipeline and admin API, both keeping the shop's daily counters."""
    stats = StatsRepo(seeded.db)
    world["pipe"].agent.stats = world["pipe"].agent.news.stats = stats
    pipe = world["pipe"]
    deps = AdminDeps(services=seeded, audit=AuditRepo(seeded.db), notify=InboundQueue(pipe.sqs, pipe.url), stats=stats)
    api = build_admin_api(deps)
    return {**world, "shop": Admin(api), "salon": Admin(api, SALON)}


def prompt_of(seeded: Services, order_id: str) -> Any:
    _, payments = seeded.orders.get_with_payments(SHOP, order_id)
    [stk] = [p for p in payments if p.method == "mpesa_stk" and p.status == "pending"]
    return stk


def only_order(seeded: Services, phone: str) -> Any:
    customer_id = seeded.customers.find_id_by_phone(SHOP, "+" + phone)
    assert customer_id is not None
    [order] = seeded.orders.list_for_customer(SHOP, customer_id).items
    return order


def a_days_trade(day: dict[str, Any], seeded: Services, setup: dict[str, Any], daraja: DarajaSimulator) -> None:
    shop = day["shop"]
    # Wanjiku buys a power bank for pickup and pays by Paybill with the order's reference
    says(day, "I want an oraimo 20000mAh power bank", "wamid.w1")
    says(day, "black", "wamid.w2")
    says(day, "1", "wamid.w3")
    says(day, "pickup", "wamid.w4")
    says(day, "paybill", "wamid.w5")
    mine = only_order(seeded, WANJIKU)
    assert (
        c2b(setup, seeded, "confirmation", c2b_body(mine.order_id, f"{mine.amount_due}.00", trans_id="TDAY000001"))[
            "ResultCode"
        ]
        == 0
    )
    day["pipe"].run_agent()
    # Otieno looks for something the shop does not sell, then buys a charger and approves the M-Pesa prompt;
    # then pays it again by Paybill: money owed back, which the owner gives back
    says(day, "I want to buy something", "wamid.o0", OTIENO, "Otieno")
    says(day, "a lawn mower", "wamid.o1", OTIENO, "Otieno")
    says(day, "I want an oraimo 33W fast charger", "wamid.o2", OTIENO, "Otieno")
    says(day, "1", "wamid.o3", OTIENO, "Otieno")
    says(day, "pickup", "wamid.o4", OTIENO, "Otieno")
    says(day, "M-Pesa prompt", "wamid.o5", OTIENO, "Otieno")
    says(day, "yes", "wamid.o6", OTIENO, "Otieno")
    charger = only_order(seeded, OTIENO)
    post(setup, *callback(daraja, prompt_of(seeded, charger.order_id).checkout_request_id, 0))
    day["pipe"].run_agent()
    twice = c2b_body(charger.order_id, f"{charger.totals.total}.00", trans_id="TDAY000002")
    assert c2b(setup, seeded, "confirmation", twice)["ResultCode"] == 0
    day["pipe"].run_agent()
    [owed] = seeded.payments.open_owed_back_of(SHOP, charger.order_id)
    close = f"/admin/payments/overpayments/{owed.method}/{owed.provider_ref}/close"
    assert shop("POST", close, {"outcome": "refunded", "note": "QREV0001"})[0] == 200
    # Achieng orders a cable and cancels the prompt on her phone
    says(day, "I want an oraimo usb-c cable 1m", "wamid.a1", ACHIENG, "Achieng")
    says(day, "1", "wamid.a2", ACHIENG, "Achieng")  # the first of the shortlist
    says(day, "1", "wamid.a2b", ACHIENG, "Achieng")  # one of it
    says(day, "pickup", "wamid.a3", ACHIENG, "Achieng")
    says(day, "M-Pesa prompt", "wamid.a4", ACHIENG, "Achieng")
    says(day, "yes", "wamid.a5", ACHIENG, "Achieng")
    cable = only_order(seeded, ACHIENG)
    post(setup, *callback(daraja, prompt_of(seeded, cable.order_id).checkout_request_id, 1032))
    day["pipe"].run_agent()
    # Baraka wants a person
    says(day, "I want to talk to a human please", "wamid.b1", BARAKA, "Baraka")


def test_every_figure_of_the_days_analytics_is_the_count_of_the_records_it_stands_for(
    day: dict[str, Any], seeded: Services, setup: dict[str, Any], daraja: DarajaSimulator, clock: Clock
) -> None:
    a_days_trade(day, seeded, setup, daraja)
    today = clock().date().isoformat()
    status, figures = day["shop"]("GET", f"/admin/analytics?from={today}&to={today}")
    assert status == 200, figures

    # the records
    orders = seeded.orders.list_for_tenant(SHOP, limit=100).items
    payments = [p for o in orders for p in seeded.orders.get_with_payments(SHOP, o.order_id)[1]]
    owed = seeded.payments.list_owed_back(SHOP, limit=100).items
    conversations = day["shop"]("GET", "/admin/conversations")[1]["items"]
    logs = [day["shop"]("GET", f"/admin/conversations/{c['customer']['customer_id']}")[1] for c in conversations]
    tickets = [t for c in conversations for t in seeded.handoffs.all_for_customer(SHOP, c["customer"]["customer_id"])]
    paid = [o for o in orders if o.status == "paid"]
    completing = {
        o.order_id: [p for p in payments if p.order_id == o.order_id and p.status == "paid" and not p.overpayment][-1]
        for o in paid
    }

    assert (len(orders), len(paid)) == (3, 2)  # the scene is what it says: the figures below are not all zeros
    assert figures["conversations"] == len(conversations) == 4
    assert figures["messages"] == sum(1 for log in logs for e in log["entries"] if e["role"] == "customer")
    assert figures["orders_created"] == figures["funnel"]["orders_created"] == len(orders)
    assert figures["orders_paid"] == figures["funnel"]["orders_paid"] == len(paid)
    assert figures["conversion_rate"] == round(len(paid) / len(conversations), 4)
    assert figures["revenue_kes"] == sum(o.totals.total for o in paid)  # the money paid twice is not revenue
    assert figures["refunds_kes"] == sum(o.remaining for o in owed if o.status == "refunded") == 1710
    by_method = Counter[str]()
    for order in paid:
        by_method[completing[order.order_id].method] += order.totals.total
    assert figures["revenue_by_method"] == {"mpesa_stk": 0, "mpesa_c2b": 0, "pesapal": 0, **by_method}
    for method, counted in figures["payments"].items():
        mine = [p for p in payments if p.method == method and not p.overpayment]
        assert counted["paid"] == sum(p.status == "paid" for p in mine), method
        assert counted["failed"] + counted["cancelled"] + counted["timed_out"] == sum(
            p.status in ("failed", "cancelled", "timeout") for p in mine
        ), method
    assert figures["payments"]["mpesa_stk"]["started"] == sum(p.method == "mpesa_stk" for p in payments)
    assert figures["funnel"]["payment_prompts"] >= figures["payments"]["mpesa_stk"]["started"]
    # the bot's hand-overs (Baraka asked for a person); money paid twice went to a person too, from the payments
    # function: a money matter the money figures count, not the bot giving up on a conversation
    handed_over = [t for t in tickets if t.conversation_id != "payments"]
    assert (len(tickets), len(handed_over)) == (2, 1)
    assert figures["escalations"] == len(handed_over)
    assert sum(figures["escalation_reasons"].values()) == len(handed_over)
    assert figures["escalation_rate"] == round(len(handed_over) / len(conversations), 4)
    assert [m["query"] for m in figures["top_unmatched_searches"]] == ["lawn mower"]
    assert (figures["llm_calls"], figures["llm_estimated_cost_usd"]) == (0, 0.0)  # the rules engine calls none
    [row] = figures["days"]  # the day's row is the range's figures
    assert (row["revenue_kes"], row["refunds_kes"], row["conversations"]) == (
        figures["revenue_kes"], figures["refunds_kes"], figures["conversations"],
    )  # fmt: skip
    assert row["funnel"] == figures["funnel"]
