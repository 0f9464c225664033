"""Analytics for a date range (Nairobi calendar days): conversations, messages, orders created and
paid, conversion, revenue, payment success by method, escalations and their reasons, searches that
found nothing, and the LLM's calls, tokens and estimated cost. Owner only. Read from the daily
counters the agent keeps (:mod:`tulia.store.stats`): one query per request, whatever the range; and, for shops
that book, the appointments of those days as the appointment book has them (one more query)."""

import csv
import io
from datetime import date, datetime, time, timedelta
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query

from tulia.admin.common import Deps, Owner, View, admin_router, business_day
from tulia.domain.booking import Booking
from tulia.domain.common import NAIROBI
from tulia.errors import InvalidInput
from tulia.store.stats import StatsRepo

MAX_RANGE_DAYS = 366
STARTED = {  # method -> the turn metric that counts it being started
    "mpesa_stk": "StkPushesStarted",
    "mpesa_c2b": "PaybillInstructionsGiven",
    "pesapal": "CardCheckoutsStarted",
}
OUTCOMES = ("paid", "failed", "cancelled", "timeout")


class MethodStats(View):
    started: int
    paid: int
    failed: int
    cancelled: int
    timed_out: int
    success_rate: float | None  # paid / started; None when nothing started


class SearchMiss(View):
    query: str
    count: int


class Funnel(View):
    """From looking to paying: searches, orders made, payment prompts (STK push, Paybill steps, card
    checkout) and orders paid."""

    searches: int
    orders_created: int
    payment_prompts: int
    orders_paid: int


class BookingFigures(View):
    """The appointments of the days (by the day they are for): booked (confirmed, done or missed), done, missed,
    cancelled, and the deposits paid for them (a cancelled booking's paid deposit too, kept or given back)."""

    booked: int
    completed: int
    no_shows: int
    cancelled: int
    deposits_paid_kes: int


def booking_figures(bookings: list[Booking]) -> BookingFigures:
    booked = [b for b in bookings if b.status in ("confirmed", "completed", "no_show")]
    cancelled = [b for b in bookings if b.status == "cancelled"]
    paid_back_or_kept = ("kept", "refund_due", "refunded", "applied", "moved")
    deposits = sum(b.deposit for b in booked) + sum(
        b.deposit for b in cancelled if b.deposit_outcome in paid_back_or_kept
    )
    return BookingFigures(
        booked=len(booked),
        completed=sum(b.status == "completed" for b in bookings),
        no_shows=sum(b.status == "no_show" for b in bookings),
        cancelled=len(cancelled),
        deposits_paid_kes=deposits,
    )


class DayFigures(View):
    date: date
    conversations: int
    messages: int
    funnel: Funnel
    revenue_kes: int  # paid, less paid deposits given back
    refunds_kes: int  # every shilling given back that day (deposits and overpayments)
    revenue_by_method: dict[str, int]
    escalations: int
    escalation_rate: float | None
    llm_cost_kes: float
    bookings: BookingFigures


class Analytics(View):
    date_from: date
    date_to: date
    conversations: int
    turns: int
    messages: int
    orders_created: int
    orders_paid: int
    conversion_rate: float | None  # orders paid / conversations
    revenue_kes: int  # paid, less paid deposits given back (shown apart in refunds_kes)
    refunds_kes: int
    payments: dict[str, MethodStats]
    escalations: int
    escalation_rate: float | None  # escalations / conversations
    escalation_reasons: dict[str, int]
    top_unmatched_searches: list[SearchMiss]
    llm_calls: int
    llm_input_tokens: int
    llm_output_tokens: int
    llm_estimated_cost_usd: float
    llm_estimated_cost_kes: float
    tool_errors: int
    funnel: Funnel
    revenue_by_method: dict[str, int]
    bookings: BookingFigures  # appointments of the range's days (zeros for a shop that does not book)
    days: list[DayFigures]  # every day of the range, oldest first (days without activity are zeros)


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def counts_of(item: dict[str, Any]) -> dict[str, int]:
    return {k: int(v) for k, v in item.items() if k not in ("pk", "sk", "expires_at") and isinstance(v, int | float)}


def revenue_of(counts: dict[str, int]) -> int:
    """Money paid for orders, less paid deposits given back or moved to another order (which counts them)."""
    return counts.get("RevenueKes", 0) - counts.get("RevenueRefundedKes", 0) - counts.get("RevenueMovedKes", 0)


def funnel_of(counts: dict[str, int]) -> Funnel:
    return Funnel(
        searches=counts.get("Searches", 0),
        orders_created=counts.get("OrdersCreated", 0),
        payment_prompts=sum(counts.get(metric, 0) for metric in STARTED.values()),
        orders_paid=counts.get("OrdersPaid", 0),
    )


def revenue_by_method(counts: dict[str, int]) -> dict[str, int]:
    return {method: counts.get(f"revenue_kes_{method}", 0) for method in STARTED}


def kes(micro_usd: int, kes_per_usd: float) -> float:
    return round(micro_usd / 1_000_000 * kes_per_usd, 2)


def analytics(
    stats: StatsRepo,
    tenant_id: str,
    start: date,
    end: date,
    kes_per_usd: float = 129.0,
    bookings: list[Booking] | None = None,
) -> Analytics:
    by_start: dict[date, list[Booking]] = {}
    for booking in bookings or []:
        by_start.setdefault(booking.start.astimezone(NAIROBI).date(), []).append(booking)
    totals: dict[str, int] = {}
    by_day: dict[str, dict[str, int]] = {}
    for item in stats.days(tenant_id, start, end):
        counts = counts_of(item)
        by_day[str(item["sk"]).rsplit("#", 1)[-1]] = counts
        for key, value in counts.items():
            totals[key] = totals.get(key, 0) + value
    days = []
    for n in range((end - start).days + 1):
        day = start + timedelta(days=n)
        c = by_day.get(day.isoformat(), {})
        days.append(
            DayFigures(
                date=day,
                conversations=c.get("Conversations", 0),
                messages=c.get("Messages", 0),
                funnel=funnel_of(c),
                revenue_kes=revenue_of(c),
                refunds_kes=c.get("RefundsKes", 0),
                revenue_by_method=revenue_by_method(c),
                escalations=c.get("Escalations", 0),
                escalation_rate=_rate(c.get("Escalations", 0), c.get("Conversations", 0)),
                llm_cost_kes=kes(c.get("LlmCostMicroUsd", 0), kes_per_usd),
                bookings=booking_figures(by_start.get(day, [])),
            )
        )
    conversations = totals.get("Conversations", 0)
    payments = {}
    for method, started_metric in STARTED.items():
        started = totals.get(started_metric, 0)
        outcome = {o: totals.get(f"payments_{o}_{method}", 0) for o in OUTCOMES}
        payments[method] = MethodStats(
            started=started,
            paid=outcome["paid"],
            failed=outcome["failed"],
            cancelled=outcome["cancelled"],
            timed_out=outcome["timeout"],
            success_rate=_rate(outcome["paid"], started),
        )
    misses = stats.unmatched_searches(tenant_id, start, end)
    return Analytics(
        date_from=start,
        date_to=end,
        conversations=conversations,
        turns=totals.get("Turns", 0),
        messages=totals.get("Messages", 0),
        orders_created=totals.get("OrdersCreated", 0),
        orders_paid=totals.get("OrdersPaid", 0),
        conversion_rate=_rate(totals.get("OrdersPaid", 0), conversations),
        revenue_kes=revenue_of(totals),
        refunds_kes=totals.get("RefundsKes", 0),
        payments=payments,
        escalations=totals.get("Escalations", 0),
        escalation_rate=_rate(totals.get("Escalations", 0), conversations),
        escalation_reasons={
            k.removeprefix("escalation_reason:"): v for k, v in totals.items() if k.startswith("escalation_reason:")
        },
        top_unmatched_searches=[
            SearchMiss(query=q, count=c) for q, c in sorted(misses.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
        ],
        llm_calls=totals.get("LlmCalls", 0),
        llm_input_tokens=totals.get("LlmInputTokens", 0),
        llm_output_tokens=totals.get("LlmOutputTokens", 0),
        llm_estimated_cost_usd=round(totals.get("LlmCostMicroUsd", 0) / 1_000_000, 6),
        llm_estimated_cost_kes=kes(totals.get("LlmCostMicroUsd", 0), kes_per_usd),
        tool_errors=totals.get("ToolErrors", 0),
        funnel=funnel_of(totals),
        revenue_by_method=revenue_by_method(totals),
        bookings=booking_figures(bookings or []),
        days=days,
    )


router = admin_router()


@router.get("/admin/analytics", tags=["analytics"], summary="How the bot sells, for a range of days")
def get_analytics(
    who: Owner,
    deps: Deps,
    date_from: Annotated[date | None, Query(alias="from", description="first day, default today")] = None,
    date_to: Annotated[date | None, Query(alias="to", description="last day, default the first")] = None,
) -> Analytics:
    return figures(who, deps, date_from, date_to)


CSV_COLUMNS = (
    "date",
    "conversations",
    "messages",
    "searches",
    "orders_created",
    "payment_prompts",
    "orders_paid",
    "revenue_kes",
    "refunds_kes",
    "escalations",
    "model_cost_kes",
    "appointments",
    "no_shows",
    "cancelled_appointments",
    "deposits_paid_kes",
)


def csv_of(report: Analytics) -> str:
    """One row per day, the figures the analytics screen shows (a spreadsheet opens it as it is)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for d in report.days:
        f, b = d.funnel, d.bookings
        writer.writerow(
            [
                *(d.date.isoformat(), d.conversations, d.messages, f.searches, f.orders_created, f.payment_prompts),
                *(f.orders_paid, d.revenue_kes, d.refunds_kes, d.escalations, f"{d.llm_cost_kes:.2f}"),
                *(b.booked, b.no_shows, b.cancelled, b.deposits_paid_kes),
            ]
        )
    return out.getvalue()


@router.get(
    "/admin/analytics.csv",
    tags=["analytics"],
    summary="The analytics of a range of days as a spreadsheet (CSV, one row per day)",
    response_description="text/csv",
)
def get_analytics_csv(
    who: Owner,
    deps: Deps,
    date_from: Annotated[date | None, Query(alias="from", description="first day, default today")] = None,
    date_to: Annotated[date | None, Query(alias="to", description="last day, default the first")] = None,
) -> Response[str]:
    report = figures(who, deps, date_from, date_to)
    name = f"tulia-{who.tenant_id}-{report.date_from.isoformat()}-{report.date_to.isoformat()}.csv"
    return Response(
        200,
        "text/csv; charset=utf-8",
        csv_of(report),
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def figures(who: Owner, deps: Deps, date_from: date | None, date_to: date | None) -> Analytics:
    today = deps.services.clock().astimezone(NAIROBI).date()
    start = business_day(date_from, "from") or today
    end = business_day(date_to, "to") or (start if date_from else today)
    if end < start:
        raise InvalidInput("'to' is before 'from'.", field="to")
    if end - start > timedelta(days=MAX_RANGE_DAYS):
        raise InvalidInput(f"At most {MAX_RANGE_DAYS} days at a time.", field="to")
    bookings = None
    if deps.services.tenants.get(who.tenant_id).bookings is not None:  # a shop that books
        first = datetime.combine(start, time(0), NAIROBI)
        bookings = deps.services.bookings.list_between(
            who.tenant_id, first, first + timedelta(days=(end - start).days + 1)
        )
    return analytics(deps.stats, who.tenant_id, start, end, deps.kes_per_usd, bookings)
