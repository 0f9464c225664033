"""Daily counters per shop, for the admin API's analytics: one item per Nairobi calendar day with
atomic ``ADD`` counters, one per catalog search that found nothing, and one marker per customer per
day (to count conversations). Written once per turn by the agent and once per payment outcome."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Any

from tulia.domain.common import NAIROBI
from tulia.errors import StateConflict
from tulia.observability.metrics import turn_counts
from tulia.search.text import fold
from tulia.store import keys
from tulia.store.dynamo import Dynamo
from tulia.store.tables import STATS

STATS_TTL_DAYS = 400  # a year of history, and the same day last year


def day_of(at: datetime) -> str:
    return at.astimezone(NAIROBI).date().isoformat()


def turn_details(trace: Iterable[Mapping[str, Any]]) -> tuple[list[str], list[str]]:
    """(escalation reasons, catalog queries that found nothing) of one turn; its counts are the
    business metrics' (:func:`tulia.observability.metrics.turn_counts`)."""
    reasons: list[str] = []
    no_match: list[str] = []
    for entry in trace:
        if entry.get("kind") != "tool" or not entry.get("ok"):
            continue
        if entry.get("tool") == "handoff_create_ticket" and entry.get("reason"):
            reasons.append(str(entry["reason"]))
        if entry.get("tool") == "catalog_search" and entry.get("matches") == 0 and entry.get("query"):
            no_match.append(str(entry["query"]))
    return reasons, no_match


class StatsRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def _add(self, tenant_id: str, sk: str, counts: Mapping[str, int], at: datetime, **extra: str) -> None:
        counts = {k: v for k, v in counts.items() if v}
        if not counts:
            return
        names = {f"#c{n}": k for n, k in enumerate(counts)}
        values: dict[str, Any] = {f":c{n}": v for n, v in enumerate(counts.values())}
        sets = ["expires_at = :exp"]
        values[":exp"] = int(at.timestamp()) + STATS_TTL_DAYS * 86_400
        for n, (k, v) in enumerate(extra.items()):
            names[f"#x{n}"], values[f":x{n}"] = k, v
            sets.append(f"#x{n} = :x{n}")
        self.db.update(
            STATS,
            keys.stats_pk(tenant_id),
            sk,
            update="ADD " + ", ".join(f"#c{n} :c{n}" for n in range(len(counts))) + " SET " + ", ".join(sets),
            names=names,
            values=values,
        )

    def record_turn(
        self, tenant_id: str, *, at: datetime, trace: Iterable[Mapping[str, Any]], messages: int, customer: str
    ) -> None:
        day = day_of(at)
        reasons, no_match = turn_details(trace)
        counts = {name: int(value) for name, value in turn_counts(trace).items()} | {"Messages": messages}
        for reason in reasons:
            key = f"escalation_reason:{reason}"
            counts[key] = counts.get(key, 0) + 1
        if self._first_turn_today(tenant_id, day, customer, at):
            counts["Conversations"] = 1
        self._add(tenant_id, keys.stats_day_sk(day), counts, at)
        for query in no_match:
            plain = " ".join(fold(query).split())[:60]
            if plain:
                self._add(tenant_id, keys.stats_nomatch_sk(day, plain), {"count": 1}, at, query=plain)

    def record_trial(self, tenant_id: str, *, at: datetime, trace: Iterable[Mapping[str, Any]]) -> None:
        """A turn of the console's trial chat: its model calls and their cost count (the day's budget, the
        operator's bill), nothing else (it is no customer's conversation, search or order)."""
        counts = {name: int(value) for name, value in turn_counts(trace).items() if name.startswith("Llm")}
        self._add(tenant_id, keys.stats_day_sk(day_of(at)), counts | {"TrialTurns": 1}, at)

    def record_payment(self, tenant_id: str, *, at: datetime, method: str, status: str, amount: int) -> None:
        counts = {f"payments_{status}_{method}": 1}
        if status == "paid":
            counts |= {"OrdersPaid": 1, "RevenueKes": amount, f"revenue_kes_{method}": amount}
        self._add(tenant_id, keys.stats_day_sk(day_of(at)), counts, at)

    def record_refund(self, tenant_id: str, *, at: datetime, amount: int, of_revenue: bool) -> None:
        """Money given back, on the day it was recorded. ``of_revenue``: it had been counted as revenue (a paid
        deposit returned), so revenue drops by it; money that paid no order (an overpayment) never was."""
        counts = {"Refunds": 1, "RefundsKes": amount}
        if of_revenue:
            counts["RevenueRefundedKes"] = amount
        self._add(tenant_id, keys.stats_day_sk(day_of(at)), counts, at)

    def record_revenue_moved(self, tenant_id: str, *, at: datetime, amount: int) -> None:
        """A paid deposit due back that the shop applied to another order: revenue when it came, and again when
        the order it pays is paid; the day it moved takes it off once."""
        self._add(tenant_id, keys.stats_day_sk(day_of(at)), {"RevenueMovedKes": amount}, at)

    def model_cost_usd(self, tenant_id: str, at: datetime) -> float:
        """What the shop's model calls cost on the day of ``at`` (Nairobi's day), in US dollars."""
        item = self.db.get(STATS, keys.stats_pk(tenant_id), keys.stats_day_sk(day_of(at)), consistent=False)
        return float((item or {}).get("LlmCostMicroUsd", 0)) / 1_000_000

    def _first_turn_today(self, tenant_id: str, day: str, customer: str, at: datetime) -> bool:
        marker = hashlib.sha256(f"{tenant_id}|{customer}".encode()).hexdigest()[:16]
        try:
            self.db.put(
                STATS,
                {
                    "pk": keys.stats_pk(tenant_id),
                    "sk": f"CONV#{day}#{marker}",
                    "expires_at": int(at.timestamp()) + 3 * 86_400,
                },
                condition="attribute_not_exists(pk)",
            )
        except StateConflict:
            return False
        return True

    def days(self, tenant_id: str, start: date, end: date) -> list[dict[str, Any]]:
        page = self.db.page(
            STATS,
            keys.stats_pk(tenant_id),
            sk_between=(keys.stats_day_sk(start.isoformat()), keys.stats_day_sk(end.isoformat())),
            limit=400,
        )
        return page.items

    def unmatched_searches(self, tenant_id: str, start: date, end: date) -> dict[str, int]:
        totals: dict[str, int] = {}
        cursor = None
        while True:
            page = self.db.page(
                STATS,
                keys.stats_pk(tenant_id),
                sk_between=(
                    keys.stats_nomatch_sk(start.isoformat(), ""),
                    keys.stats_nomatch_sk(end.isoformat(), "\uffff"),
                ),
                limit=500,
                cursor=cursor,
            )
            for item in page.items:
                totals[item["query"]] = totals.get(item["query"], 0) + int(item.get("count", 0))
            if not page.cursor:
                return totals
            cursor = page.cursor
