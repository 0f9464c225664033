"""The booking journey as its own subgraph of the orchestrator.

The orchestrator runs it for a booking's question answered, a booking's row or button, and a change asked of
a booking made ("I can't make it"); and when the sale hands a turn over (a service picked, a booking's tap
that reached the sale). A deposit is handed back to the sale's payment nodes the same way, so one turn may
run sales -> booking -> sales.
"""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.domain.literals import BOOKING_ENTRIES, BOOKING_QUESTIONS
from tulia.graph.buttons import parse_tap
from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.journeys.booking.nodes import (
    booking_advance,
    booking_ask_variant,
    booking_ask_zone,
    booking_book,
    booking_change,
    booking_fill,
    booking_hold,
    booking_offer,
    booking_summary,
    booking_tap,
)
from tulia.graph.slots import Node
from tulia.graph.state import ConversationState
from tulia.graph.subgraph import as_node, command_journey

StartTarget = Literal["booking_advance", "booking_tap", "booking_fill", "booking_change", "__end__"]


def booking_start(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[StartTarget]:
    """Where this turn goes on: the node the sale handed it to, a change of a booking made, a tap, or the
    answer to the booking's open question."""
    turn = Turn(state, runtime, "booking_start")
    if state.handover in BOOKING_ENTRIES:
        entry = state.handover
        turn.set(handover=None)
        return turn.goto("booking_tap" if entry == "booking_tap" else "booking_advance")
    if state.route == "booking_change":
        return turn.goto("booking_change")
    tap = parse_tap(state.inbound.get("reply_id"))
    if tap is not None and tap.booking:
        return turn.goto("booking_tap")
    if state.pending in BOOKING_QUESTIONS:
        return turn.goto("booking_fill")
    return turn.goto(END)


BOOKING_NODES: tuple[tuple[str, Node], ...] = (
    ("booking_start", booking_start),
    ("booking_advance", booking_advance),
    ("booking_ask_variant", booking_ask_variant),
    ("booking_ask_zone", booking_ask_zone),
    ("booking_offer", booking_offer),
    ("booking_hold", booking_hold),
    ("booking_summary", booking_summary),
    ("booking_book", booking_book),
    ("booking_fill", booking_fill),
    ("booking_tap", booking_tap),
    ("booking_change", booking_change),
)

booking = as_node("booking", command_journey("booking", BOOKING_NODES, entry="booking_start"))
