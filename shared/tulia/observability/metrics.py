"""Business metrics, derived from what a turn did (its trace) and from payment outcomes.

Published by the Lambda functions as CloudWatch embedded metric format through Powertools
(namespace ``POWERTOOLS_METRICS_NAMESPACE``, ``Tulia`` in AWS), one dimension: the service. Tenants
are not dimensions (a metric per shop would cost per shop); the tenant id is a property of each
record, so CloudWatch Logs Insights can split any figure by shop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol


class MetricsSink(Protocol):
    def __call__(self, counts: Mapping[str, float], *, tenant_id: str | None = None) -> None: ...


NAMESPACE = "Tulia"

# tool -> metric counted when the tool succeeded in a turn
TOOL_METRICS = {
    "catalog_search": "Searches",
    "order_create": "OrdersCreated",
    "payment_initiate_stk_push": "StkPushesStarted",
    "payment_create_pesapal_checkout": "CardCheckoutsStarted",
    "payment_get_c2b_instructions": "PaybillInstructionsGiven",
    "handoff_create_ticket": "Escalations",
    "order_apply_coupon": "CouponsApplied",
}
PAYMENT_METRICS = {
    "paid": "PaymentsPaid",
    "failed": "PaymentsFailed",
    "cancelled": "PaymentsCancelled",
    "timeout": "PaymentsTimedOut",
}
# every metric the functions publish, and its unit (the dashboard draws these)
UNITS: dict[str, str] = {
    "Turns": "Count",
    "InboundMessages": "Count",
    "DuplicateDeliveries": "Count",
    "UnroutedMessages": "Count",
    "ToolErrors": "Count",
    "LlmCalls": "Count",
    "LlmInputTokens": "Count",
    "LlmOutputTokens": "Count",
    "LlmCostMicroUsd": "Count",
    "RateLimited": "Count",  # customer messages acknowledged but not answered (fair use)
    "ModelBudgetExceeded": "Count",  # turns answered by the rules engine: the shop's model budget is spent
    **dict.fromkeys(TOOL_METRICS.values(), "Count"),
    **dict.fromkeys(PAYMENT_METRICS.values(), "Count"),
}


def turn_counts(trace: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """What one conversation turn did, as counts (zero counts left out)."""
    counts: dict[str, float] = {"Turns": 1}

    def add(name: str, value: float = 1) -> None:
        if value:
            counts[name] = counts.get(name, 0) + value

    for entry in trace:
        kind = entry.get("kind")
        if kind == "tool":
            if not entry.get("ok"):
                add("ToolErrors")
            elif entry.get("tool") in TOOL_METRICS:
                add(TOOL_METRICS[str(entry["tool"])])
        elif kind == "llm":
            add("LlmCalls")
            add("LlmInputTokens", float(entry.get("input_tokens") or 0))
            add("LlmOutputTokens", float(entry.get("output_tokens") or 0))
            add("LlmCostMicroUsd", round(float(entry.get("cost_usd") or 0) * 1_000_000))
    return counts


def payment_counts(status: str) -> dict[str, float]:
    name = PAYMENT_METRICS.get(status)
    return {name: 1} if name else {}


class MetricsRecorder:
    """Publishes counts through Powertools (one EMF record per call, so each carries its tenant)."""

    def __init__(self, namespace: str | None = None) -> None:
        import os

        from aws_lambda_powertools import Metrics

        self.metrics = Metrics(namespace=namespace or os.environ.get("POWERTOOLS_METRICS_NAMESPACE", NAMESPACE))

    def __call__(self, counts: Mapping[str, float], *, tenant_id: str | None = None) -> None:
        from aws_lambda_powertools.metrics import MetricUnit

        for name, value in counts.items():
            self.metrics.add_metric(name=name, unit=MetricUnit(UNITS[name]), value=value)
        if not counts:
            return
        if tenant_id:
            self.metrics.add_metadata(key="tenant_id", value=tenant_id)
        self.metrics.flush_metrics()
