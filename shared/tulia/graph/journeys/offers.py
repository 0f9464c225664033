"""The offers journey (spec Appendix C): only real offers from offers_get_applicable. A code is applied
to the order with order_apply_coupon by the sales journey, whose frame keeps it."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.nodes import inbound_text, t
from tulia.graph.state import ConversationState, Scratch
from tulia.graph.subgraph import as_node, command_journey
from tulia.graph.wording import worded
from tulia.nlg.messages import text
from tulia.nlg.templates import money


def offers_start(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["offers_lookup", "__end__"]]:
    """What offers there are. (A code the customer gives is part of the sale: the sales journey's frame
    takes it and order_apply_coupon applies it to the order.)"""
    turn = Turn(state, runtime, "offers_start")
    return turn.goto("offers_lookup")


def offers_lookup(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["offers_answer", "__end__"]]:
    turn = Turn(state, runtime, "offers_lookup")
    result = turn.tool(
        "offers_get_applicable",
        customer_id=state.customer_id,
        **({"order_id": state.order_id} if state.order_id else {}),
    )
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return turn.goto(END)
    turn.set(scratch=Scratch(offers=[o for o in result["data"]["offers"] if o["eligible"]]))
    return turn.goto("offers_answer")


def offers_answer(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """The eligible offers, only as the tool returned them."""
    turn = Turn(state, runtime, "offers_answer")
    eligible = state.scratch.get("offers", [])
    if not eligible:
        turn.say(text(t(turn, "no_offers")))
        return turn.goto(END)
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
    return turn.goto(END)


offers = as_node(
    "offers",
    command_journey(
        "offers",
        [("offers_start", offers_start), ("offers_lookup", offers_lookup), ("offers_answer", offers_answer)],
        entry="offers_start",
    ),
)
