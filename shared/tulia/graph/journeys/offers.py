"""The offers journey (spec Appendix C): only real offers from offers_get_applicable. A code is applied
to the order with order_apply_coupon by the sales journey, whose frame keeps it."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from tulia.graph.calls import Turn
from tulia.graph.context import EngineContext
from tulia.graph.nodes import inbound_text, t
from tulia.graph.state import ConversationState, Scratch
from tulia.graph.subgraph import as_node, journey_graph
from tulia.graph.wording import worded
from tulia.nlg.messages import text
from tulia.nlg.templates import money


def offers_start(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """What offers there are. (A code the customer gives is part of the sale: the sales journey's frame
    takes it and order_apply_coupon applies it to the order.)"""
    turn = Turn(state, runtime, "offers_start")
    turn.set(step="offers_lookup")
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
    turn.set(scratch=Scratch(offers=[o for o in result["data"]["offers"] if o["eligible"]]), step="offers_answer")
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
            "offers_lookup": offers_lookup,
            "offers_answer": offers_answer,
        },
        {"offers_start": ["offers_lookup"], "offers_lookup": ["offers_answer"]},
        entry="offers_start",
    ),
)
