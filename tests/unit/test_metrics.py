"""Business metrics from a turn's trace and from payment outcomes."""

from __future__ import annotations

from tulia.observability.metrics import UNITS, payment_counts, turn_counts


def test_a_turn_counts_its_successful_business_tools_its_errors_and_its_model_usage() -> None:
    trace = [
        {"kind": "node", "node": "load_context"},
        {"kind": "tool", "tool": "catalog_search", "ok": True},
        {"kind": "tool", "tool": "order_create", "ok": True},
        {"kind": "tool", "tool": "payment_initiate_stk_push", "ok": False},
        {"kind": "llm", "input_tokens": 300, "output_tokens": 40, "cost_usd": 0.000021},
        {"kind": "llm", "input_tokens": 100, "output_tokens": 10, "cost_usd": 0.000004},
    ]
    assert turn_counts(trace) == {
        "Turns": 1,
        "Searches": 1,  # the top of the funnel the console draws
        "OrdersCreated": 1,
        "ToolErrors": 1,
        "LlmCalls": 2,
        "LlmInputTokens": 400,
        "LlmOutputTokens": 50,
        "LlmCostMicroUsd": 25,
    }


def test_payment_outcomes_have_their_own_metric_and_pending_has_none() -> None:
    assert payment_counts("paid") == {"PaymentsPaid": 1}
    assert payment_counts("timeout") == {"PaymentsTimedOut": 1}
    assert payment_counts("pending") == {}
    assert set(turn_counts([])) | {"PaymentsPaid", "Escalations"} <= set(UNITS)
