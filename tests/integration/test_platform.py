"""Issue 34, part 8: the platform operator sees every shop (status, this month's use), suspends and resumes one
(audited in the shop's own trail, with the reason), downloads the month's usage per shop as CSV; shop staff never
reach these routes, and a suspended shop's customer is told once and runs no engine. Through the admin function,
the webhook, the queue and the agent (moto)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any
from urllib.parse import parse_qsl

import pytest

from tests.conftest import SALON, SHOP
from tests.integration.conftest import says
from tests.integration.test_agent import Pipeline
from tests.integration.test_reaching_customers import Admin
from tests.integration.test_webhook import api_event
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.llm.scripted import ScriptedChatModel
from tulia.pipeline import admin_app
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.stats import StatsRepo, day_of


class Op:
    """The operator as the admin API sees them: a verified token in the group platform, no shop."""

    def __init__(self, api: Any, groups: str = "[platform]", tenant_id: str | None = None) -> None:
        self.api, self.groups, self.tenant_id = api, groups, tenant_id

    def __call__(self, method: str, path: str, body: Any = None) -> tuple[int, Any, dict[str, str]]:
        path, _, query = path.partition("?")
        raw = json.dumps(body).encode() if body is not None else None
        event = api_event(
            method, path=path, body=raw, headers={"content-type": "application/json"}, params=dict(parse_qsl(query))
        )
        claims = {"sub": "op-1", "email": "ops@tulia.example", "cognito:groups": self.groups, "token_use": "id"}
        if self.tenant_id:
            claims["custom:tenant_id"] = self.tenant_id
        event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
        answer = admin_app.handle(event, self.api)
        text = answer["body"]
        content_type = answer.get("headers", {}).get("Content-Type", "")
        return answer["statusCode"], (json.loads(text) if "json" in content_type else text), answer.get("headers", {})


@pytest.fixture
def api(seeded: Services) -> Any:
    return build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db), kes_per_usd=130.0))


def test_the_operator_sees_every_shop_with_this_months_use(api: Any, seeded: Services) -> None:
    now = seeded.clock()
    stats = StatsRepo(seeded.db)
    trace = [
        {"kind": "tool", "tool": "order_create", "ok": True},
        {"kind": "tool", "tool": "catalog_search", "ok": False},
    ]
    stats.record_turn(SHOP, at=now, trace=trace, messages=1, customer="c1")
    stats.record_payment(SHOP, at=now, method="mpesa_stk", status="paid", amount=2_500)
    status, shops, _ = Op(api)("GET", "/admin/platform/shops")
    assert status == 200, shops
    by_id = {s["tenant_id"]: s for s in shops}
    assert {SHOP, SALON} <= set(by_id)
    shop = by_id[SHOP]
    assert (shop["name"], shop["status"]) == ("Duka Bora Electronics", "live")
    assert (shop["conversations"], shop["orders"], shop["orders_paid"], shop["payments_kes"]) == (1, 1, 1, 2_500)
    assert shop["tool_errors"] == 1
    assert shop["last_error_day"] == day_of(now)
    assert by_id[SALON]["payments_kes"] == 0
    assert by_id[SHOP]["whatsapp"] == seeded.tenants.get(SHOP).whatsapp.display_phone_number

    status, text, headers = Op(api)("GET", "/admin/platform/usage.csv")
    assert status == 200
    assert "attachment" in headers["Content-Disposition"]
    rows = {r["tenant_id"]: r for r in csv.DictReader(io.StringIO(text))}
    assert rows[SHOP]["revenuekes"] == "2500"
    assert rows[SHOP]["orderscreated"] == "1"
    assert rows[SALON]["turns"] == "0"


def test_shop_staff_never_reach_the_operators_routes(api: Any) -> None:
    for groups, tenant in (("[owner]", SHOP), ("[agent]", SHOP), ("[]", None)):
        status, error, _ = Op(api, groups=groups, tenant_id=tenant)("GET", "/admin/platform/shops")
        assert status == 403, (groups, error)
        assert (
            Op(api, groups=groups, tenant_id=tenant)(
                "POST", f"/admin/platform/shops/{SALON}/suspend", {"reason": "x y z"}
            )[0]
            == 403
        )
    owner = Admin(api)
    assert owner("GET", "/admin/platform/usage.csv")[0] == 403


def test_a_suspended_shop_tells_its_customer_once_runs_no_engine_and_is_resumed(
    api: Any, seeded: Services, shop_pipeline: Pipeline, model: ScriptedChatModel
) -> None:
    status, row, _ = Op(api)("POST", f"/admin/platform/shops/{SHOP}/suspend", {"reason": "unpaid invoice"})
    assert (status, row["status"], row["status_reason"]) == (200, "suspended", "unpaid invoice")
    [told] = says(shop_pipeline, "Nataka simu ya Samsung", "wamid.s1")
    assert "is not answering on WhatsApp right now" in told
    assert says(shop_pipeline, "hello", "wamid.s2") == []
    assert model.calls == []
    owner = Admin(api)
    assert owner("POST", "/admin/shop/resume")[0] == 409  # the owner cannot lift the operator's suspension
    trail = [(e.action, e.role, e.details.get("reason")) for e in AuditRepo(seeded.db).list(SHOP).items]
    assert ("shop.suspend", "platform", "unpaid invoice") in trail
    status, row, _ = Op(api)("POST", f"/admin/platform/shops/{SHOP}/resume", {"reason": "paid"})
    assert (status, row["status"]) == (200, "live")  # back to what it was
    assert Op(api)("POST", "/admin/platform/shops/no-such-shop/suspend", {"reason": "x y z"})[0] == 404
    assert Op(api)("POST", f"/admin/platform/shops/{SHOP}/suspend", {"reason": ""})[0] == 422  # a reason is needed
