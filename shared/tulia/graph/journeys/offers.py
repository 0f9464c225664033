"""The offers journey (spec Appendix C): only real offers from offers_get_applicable; a code is applied with
order_apply_coupon and the sale continues to payment."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from tulia.graph.calls import Turn
from tulia.graph.context import EngineContext
from tulia.graph.journeys.sales import _ask_payment_method, order_summary
from tulia.graph.nodes import inbound_text, t
from tulia.graph.state import ConversationState
from tulia.graph.subgraph import as_node, journey_graph
from tulia.graph.wording import worded
from tulia.nlg.messages import text
from tulia.nlg.templates import COUPON_REASONS, money, word


def offers_start(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """A code to apply, or a question about what offers there are."""
    turn = Turn(state, runtime, "offers_start")
    code = state.understanding.get("slots", {}).get("coupon_code")
    if not code:
        turn.set(step="offers_lookup")
    elif not state.order_id:
        turn.say(text(t(turn, "coupon_no_order", code=code)))
        turn.set(pending_coupon=code)
    else:
        turn.set(step="apply_coupon", scratch={"code": code})
    return turn.done()


def apply_coupon(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """order_apply_coupon, then on to payment (payment_get_methods and the payment router)."""
    turn = Turn(state, runtime, "apply_coupon")
    code = state.scratch["code"]
    result = turn.tool("order_apply_coupon", customer_id=state.customer_id, order_id=state.order_id, coupon_code=code)
    if not result["ok"]:
        reason = result["error"].get("reason") or "unknown_code"
        turn.say(text(t(turn, "coupon_rejected", code=code, reason=word(COUPON_REASONS, reason, turn.lang))))
        return turn.done()
    order = result["data"]
    turn.set(order_totals={**order["totals"], "amount_due": order["amount_due"]})
    turn.say(
        text(
            t(
                turn,
                "coupon_applied",
                code=code,
                ref=order["order_ref"],
                discount=money(order["totals"]["discount"]),
                total=money(order["totals"]["total"]),
            )
        )
    )
    turn.say(text(order_summary(turn, order)))
    _ask_payment_method(turn, order)
    return turn.done()


def offers_lookup(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "offers_lookup")
    result = turn.tool(
        "offers_get_applicable",
        customer_id=state.customer_id,
        **({"order_id": state.order_id} if state.order_id else {}),
    )
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return turn.done()
    turn.set(scratch={"offers": [o for o in result["data"]["offers"] if o["eligible"]]}, step="offers_answer")
    return turn.done()


def offers_answer(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """The eligible offers, only as the tool returned them."""
    turn = Turn(state, runtime, "offers_answer")
    eligible = state.scratch.get("offers", [])
    if not eligible:
        turn.say(text(t(turn, "no_offers")))
        return turn.done()
    lines = []
    for o in eligible[:6]:
        line = f"- {o['title']}"
        if o["code"]:
            line += f" (code {o['code']})"
        if o["min_order"]:
            line += f", min. {money(o['min_order'])}"
        lines.append(line + f", until {o['valid_to']}")
    listed = t(turn, "offers_list", offers="\n".join(lines)) + "\n" + t(turn, "offers_apply_hint")
    shown = eligible[:6]
    turn.say(
        text(worded(turn, "offers_answer", listed, [shown], offers_json=shown, user_message=inbound_text(state)[:2000]))
    )
    return turn.done()


offers = as_node(
    "offers",
    journey_graph(
        "offers",
        {
            "offers_start": offers_start,
            "apply_coupon": apply_coupon,
            "offers_lookup": offers_lookup,
            "offers_answer": offers_answer,
        },
        {"offers_start": ["apply_coupon", "offers_lookup"], "offers_lookup": ["offers_answer"]},
        entry="offers_start",
    ),
)
