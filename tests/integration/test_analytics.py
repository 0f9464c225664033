"""The shop's analytics: daily counters written per turn and per payment outcome, read for a range."""

from __future__ import annotations

from datetime import date, timedelta

from tests.conftest import Clock
from tulia.admin.analytics import analytics
from tulia.domain.common import NAIROBI
from tulia.services import Services
from tulia.store.stats import StatsRepo


def tool(name: str, ok: bool = True, **extra: object) -> dict[str, object]:
    return {"kind": "tool", "tool": name, "ok": ok, **extra}


def test_a_day_of_turns_and_payments_adds_up(services: Services, clock: Clock) -> None:
    stats = StatsRepo(services.db)
    day = clock().date()
    stats.record_turn(
        "demo-shop",
        at=clock(),
        trace=[
            tool("catalog_search", query="iphone 99", matches=0),
            tool("order_create"),
            tool("payment_initiate_stk_push"),
        ],
        messages=2,
        customer="+254711000001",
    )
    stats.record_turn(
        "demo-shop",
        at=clock(),
        trace=[
            tool("handoff_create_ticket", reason="refund_request"),
            {"kind": "llm", "input_tokens": 100, "output_tokens": 20, "cost_usd": 0.0005},
        ],
        messages=1,
        customer="+254711000001",  # the same customer the same day: one conversation
    )
    stats.record_turn(
        "demo-shop", at=clock(), trace=[tool("order_create", ok=False)], messages=1, customer="+254711000002"
    )
    stats.record_payment("demo-shop", at=clock(), method="mpesa_stk", status="paid", amount=4500)
    stats.record_turn("demo-salon", at=clock(), trace=[tool("order_create")], messages=1, customer="+254711000003")

    a = analytics(stats, "demo-shop", day, day)
    assert (a.conversations, a.turns, a.messages) == (2, 3, 4)
    assert (a.orders_created, a.orders_paid, a.revenue_kes) == (1, 1, 4500)
    assert a.conversion_rate == 0.5
    assert a.payments["mpesa_stk"].started == 1
    assert a.payments["mpesa_stk"].success_rate == 1.0
    assert a.payments["pesapal"].success_rate is None
    assert a.escalations == 1
    assert a.escalation_reasons == {"refund_request": 1}
    assert [(m.query, m.count) for m in a.top_unmatched_searches] == [("iphone 99", 1)]
    assert (a.llm_calls, a.llm_input_tokens, a.llm_output_tokens) == (1, 100, 20)
    assert a.llm_estimated_cost_usd == 0.0005
    assert a.tool_errors == 1
    assert analytics(stats, "demo-shop", date(2026, 11, 24), date(2026, 11, 30)).turns == 0  # other days
    assert analytics(stats, "demo-salon", day, day).orders_created == 1  # another shop's counters are its own


def test_the_days_download_as_a_spreadsheet_with_the_figures_of_the_screen(seeded: Services, clock: Clock) -> None:
    import csv
    import io

    from tests.integration.test_webhook import api_event
    from tulia.admin.api import build_admin_api
    from tulia.admin.common import AdminDeps
    from tulia.pipeline import admin_app
    from tulia.store.audit import AuditRepo

    services = seeded
    stats = StatsRepo(services.db)
    stats.record_payment("demo-shop", at=clock(), method="mpesa_stk", status="paid", amount=2500)
    stats.record_refund("demo-shop", at=clock(), amount=400, of_revenue=False)
    api = build_admin_api(AdminDeps(services=services, audit=AuditRepo(services.db), stats=stats))
    today = clock().astimezone(NAIROBI).date()
    days = {"from": (today - timedelta(days=1)).isoformat(), "to": today.isoformat()}
    event = api_event("GET", path="/admin/analytics.csv", params=days)
    claims = {
        "sub": "u-owner",
        "email": "owner@shop.example",
        "custom:tenant_id": "demo-shop",
        "cognito:groups": "[owner]",
    }
    event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
    response = admin_app.handle(event, api)
    assert response["statusCode"] == 200
    assert response["headers"]["Content-Type"].startswith("text/csv")
    assert response["headers"]["Content-Disposition"].startswith('attachment; filename="tulia-demo-shop-')
    rows = list(csv.DictReader(io.StringIO(response["body"])))
    assert [r["date"] for r in rows] == [(today - timedelta(days=1)).isoformat(), today.isoformat()]
    assert (rows[1]["orders_paid"], rows[1]["revenue_kes"], rows[1]["refunds_kes"]) == ("1", "2500", "400")
    assert rows[0]["revenue_kes"] == "0"
    agent_claims = {**claims, "cognito:groups": "[agent]"}
    event["requestContext"]["authorizer"] = {"jwt": {"claims": agent_claims, "scopes": None}}
    assert admin_app.handle(event, api)["statusCode"] == 403  # the owner's figures


def test_a_paid_deposit_applied_to_another_order_is_revenue_once(services: Services, clock: Clock) -> None:
    """Issue 33, part 5: a cancelled appointment's deposit (KES 450, revenue when paid) applied to the customer's
    next order (KES 1,200): the order counts it again when it is paid, so the day it moved takes it off once."""
    stats = StatsRepo(services.db)
    day = clock().date()
    stats.record_payment("demo-salon", at=clock(), method="mpesa_c2b", status="paid", amount=450)  # the deposit
    stats.record_revenue_moved("demo-salon", at=clock(), amount=450)  # applied to the next order
    stats.record_payment("demo-salon", at=clock(), method="mpesa_stk", status="paid", amount=1200)  # paid: 450 + 750
    a = analytics(stats, "demo-salon", day, day)
    assert (a.revenue_kes, a.refunds_kes) == (1200, 0)  # what the customer paid in all; nothing given back
    assert a.days[0].revenue_kes == 1200
