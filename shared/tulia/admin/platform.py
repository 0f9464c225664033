"""The platform operator's view (issue 34, part 8): every shop with its status and this month's use, suspending
and resuming a shop (audited in the shop's own trail, with a reason), and the month's usage per shop as CSV for
billing. Only the Cognito group ``platform`` (people of the deployer, created by the deployer) reaches these
routes; shop staff, owners included, get 403, and the operator reaches no shop's own routes (its token names no
shop)."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Depends, Response
from aws_lambda_powertools.event_handler.request import Request
from pydantic import Field, StringConstraints

from tulia.admin.auth import GROUPS_CLAIM, PLATFORM_GROUP, Forbidden, Unauthorized, groups_of
from tulia.admin.common import AdminDeps, Deps, View, admin_router
from tulia.domain.common import TENANT_ID_PATTERN
from tulia.errors import NotFound
from tulia.store.stats import StatsRepo
from tulia.store.tenants import ShopSummary

MONTH_PATTERN = r"^20\d\d-(0[1-9]|1[0-2])$"
# the month's figures of a shop, from its daily counters (tulia.store.stats)
FIGURES = (
    "Conversations",
    "Turns",
    "Messages",
    "OrdersCreated",
    "OrdersPaid",
    "RevenueKes",
    "LlmCalls",
    "LlmCostMicroUsd",
    "ToolErrors",
)


class Operator(View):
    subject: str
    email: str


def operator(request: Request) -> Operator:
    event = request.resolved_event.raw_event
    claims = ((event.get("requestContext") or {}).get("authorizer") or {}).get("jwt", {}).get("claims") or {}
    subject, email = str(claims.get("sub") or ""), str(claims.get("email") or "").lower()
    if not subject:
        raise Unauthorized("The token names no person (sub).")
    if PLATFORM_GROUP not in groups_of(claims.get(GROUPS_CLAIM)):
        raise Forbidden("Only the platform's operators may see every shop.", code="forbidden")
    return Operator(subject=subject, email=email or subject)


Caller = Annotated[Operator, Depends(operator)]
Month = Annotated[str, StringConstraints(pattern=MONTH_PATTERN)]


class ShopRow(View):
    tenant_id: str
    name: str
    status: str
    status_since: str | None
    status_reason: str | None
    trade: str | None
    whatsapp: str | None  # its display number, once connected
    conversations: int
    orders: int
    orders_paid: int
    payments_kes: int
    model_cost_kes: float
    tool_errors: int
    last_error_day: str | None  # the last day of the month with a failed tool call


class StatusBody(View):
    reason: Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=300)] = Field(
        description="Why (the shop's owner sees it)"
    )


def month_days(month: str) -> tuple[date, date]:
    first = date.fromisoformat(f"{month}-01")
    following = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
    return first, following - timedelta(days=1)


def figures(deps: AdminDeps, tenant_id: str, month: str) -> tuple[dict[str, int], str | None]:
    first, last = month_days(month)
    totals = dict.fromkeys(FIGURES, 0)
    error_day = None
    for day in StatsRepo(deps.services.db).days(tenant_id, first, last):
        for name in FIGURES:
            totals[name] += int(day.get(name, 0))
        if int(day.get("ToolErrors", 0)):
            error_day = max(error_day or "", str(day.get("sk", "")).removeprefix("DAY#")) or None
    return totals, error_day


def this_month(deps: AdminDeps) -> str:
    return deps.services.clock().strftime("%Y-%m")


def rows(deps: AdminDeps, month: str) -> list[ShopRow]:
    return [row(deps, shop, month) for shop in deps.services.tenants.summaries()]


def row(deps: AdminDeps, shop: ShopSummary, month: str) -> ShopRow:
    totals, error_day = figures(deps, shop.tenant_id, month)
    return ShopRow(
        tenant_id=shop.tenant_id,
        name=shop.name,
        status=shop.status,
        status_since=shop.status_since,
        status_reason=shop.status_reason,
        trade=shop.trade,
        whatsapp=shop.display_phone_number,
        conversations=totals["Conversations"],
        orders=totals["OrdersCreated"],
        orders_paid=totals["OrdersPaid"],
        payments_kes=totals["RevenueKes"],
        model_cost_kes=round(totals["LlmCostMicroUsd"] / 1_000_000 * deps.kes_per_usd, 2),
        tool_errors=totals["ToolErrors"],
        last_error_day=error_day,
    )


def row_of(deps: AdminDeps, tenant_id: str) -> ShopRow:
    """One shop's row this month, read by its key (not by scanning every shop)."""
    summary = deps.services.tenants.summary(tenant_id)
    if summary is None:
        raise NotFound(f"No shop '{tenant_id}'.", field="tenant_id")
    return row(deps, summary, this_month(deps))


def _shop(deps: AdminDeps, tenant_id: str) -> None:
    if not TENANT_ID_PATTERN.fullmatch(tenant_id) or not deps.services.tenants.exists(tenant_id):
        raise NotFound(f"No shop '{tenant_id}'.", field="tenant_id")


def _record(deps: AdminDeps, who: Operator, tenant_id: str, action: str, **details: Any) -> None:
    deps.audit.record(
        tenant_id,
        actor=who.email,
        role=PLATFORM_GROUP,
        action=action,
        target=tenant_id,
        at=deps.services.clock(),
        details=details,
    )


router = admin_router()


@router.get("/admin/platform/shops", tags=["platform"], summary="Every shop, its status and this month's use")
def list_shops(who: Caller, deps: Deps, month: Month | None = None) -> list[ShopRow]:
    return rows(deps, month or this_month(deps))


@router.post("/admin/platform/shops/<tenant_id>/suspend", tags=["platform"], summary="Suspend a shop (with why)")
def suspend(tenant_id: str, body: StatusBody, who: Caller, deps: Deps) -> ShopRow:
    _shop(deps, tenant_id)
    deps.services.tenants.set_status(
        tenant_id, "suspended", was=("setup", "live", "paused"), at=deps.services.clock(), reason=body.reason
    )
    _record(deps, who, tenant_id, "shop.suspend", reason=body.reason)
    return row_of(deps, tenant_id)


@router.post("/admin/platform/shops/<tenant_id>/resume", tags=["platform"], summary="Lift a suspension")
def resume(tenant_id: str, body: StatusBody, who: Caller, deps: Deps) -> ShopRow:
    _shop(deps, tenant_id)
    before = deps.services.tenants.get(tenant_id).status_before or "live"
    back = before if before != "suspended" else "live"
    deps.services.tenants.set_status(tenant_id, back, was=("suspended",), at=deps.services.clock(), reason=body.reason)
    _record(deps, who, tenant_id, "shop.unsuspend", reason=body.reason, to=back)
    return row_of(deps, tenant_id)


@router.get("/admin/platform/usage.csv", tags=["platform"], summary="Usage per shop for a month, as CSV (billing)")
def usage_csv(who: Caller, deps: Deps, month: Month | None = None) -> Response[str]:
    month = month or this_month(deps)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["month", "tenant_id", "name", "status", *(name.lower() for name in FIGURES)])
    for shop in deps.services.tenants.summaries():
        totals, _ = figures(deps, shop.tenant_id, month)
        writer.writerow([month, shop.tenant_id, shop.name, shop.status, *(totals[name] for name in FIGURES)])
    return Response(
        200,
        "text/csv; charset=utf-8",
        out.getvalue(),
        headers={"Content-Disposition": f'attachment; filename="tulia-usage-{month}.csv"'},
    )
