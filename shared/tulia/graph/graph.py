"""The top-level orchestrator of spec 7.1, with the journeys as nodes, compiled with a checkpointer.

One thread per (tenant, customer). A turn runs ingest -> load_context -> fast_path -> (classifiers ->
router) -> journey -> respond -> wait; ``wait`` interrupts, and the next message resumes the thread
with ``Command(resume=message)``.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import START, StateGraph

from tulia.domain.literals import BOOKING_ENTRIES, BOOKING_QUESTIONS, SALE_ENTRIES, SALE_QUESTIONS
from tulia.graph import nodes as n
from tulia.graph.context import EngineContext
from tulia.graph.journeys.booking.journey import booking
from tulia.graph.journeys.offers import offers
from tulia.graph.journeys.orders import orders
from tulia.graph.journeys.prefs import prefs
from tulia.graph.journeys.sales import resume_sale, sales
from tulia.graph.journeys.support import support, unknown
from tulia.graph.routing import CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE
from tulia.graph.state import ConversationState

FAST_ROUTES = {
    "classify": "intent_classify",
    "prefs": "prefs",
    "holding": "holding",
    "media": "media",
    "handoff": "handoff",
    "language": "language",
    "injection": "injection",
    "governance": "governance",
    "unknown": "unknown",
    "failed": "respond",
    "catalog_order": "sales",
    "payment_event": "sales",
    "payment_code": "sales",
    "sale_tap": "sales",
    "location_pin": "sales",
    "booking_tap": "booking",
    "booking_change": "booking",
    "order_cancel": "orders",
}
JOURNEYS = ("sales", "booking", "support", "orders", "offers")
# A turn visits about ten nodes (a topic switch about fifteen); anything near this limit is a bug.
TURN_STEP_LIMIT = 40


def after_load(state: ConversationState) -> str:
    return "respond" if state.route == "failed" else "fast_path"


def after_fast_path(state: ConversationState) -> str:
    if state.route in ("answer", "maybe_answer"):
        pending = state.pending
        if pending in ("menu", "clarify_intent"):
            return "intent_classify"
        if pending == "order_selection":
            return "orders"
        if pending == "escalation_offer":
            return "support"
        if pending in SALE_QUESTIONS:
            return "sales"
        if pending in BOOKING_QUESTIONS:
            return "booking"
        return "intent_classify"
    return FAST_ROUTES.get(state.route or "classify", "intent_classify")


def after_journey(state: ConversationState) -> str:
    if state.handover in BOOKING_ENTRIES:  # a service picked in the sale, or a booking's tap
        return "booking"
    if state.handover in SALE_ENTRIES:  # a booking's deposit, paid by the sale's payment nodes
        return "sales"
    if state.route == "reclassify":
        return "intent_classify"
    if state.route == "handoff" or state.consecutive_tool_errors >= CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE:
        return "handoff"  # spec 4.5: two tool errors in a row go to a person at once
    return "respond"


def after_side_journey(state: ConversationState) -> str:
    """A side question during a sale (support, order status, offers) is answered, then the
    sale's pending step is offered again."""
    route = after_journey(state)
    if route == "respond" and (
        (state.frame is not None and state.frame.resumable) or (state.booking is not None and state.booking.open)
    ):
        return "resume_sale"
    return route


def after_prefs(state: ConversationState) -> str:
    """A setting changed mid-sale ("stop order updates") is confirmed, then the sale goes on; after an
    opt-out (STOP) nothing more is asked."""
    if state.understanding.get("keyword") == "opt_out":
        return "respond"
    return after_side_journey(state)


def build_graph(checkpointer: Any) -> Any:
    g: StateGraph[ConversationState, EngineContext, Any, Any] = StateGraph(
        ConversationState, context_schema=EngineContext
    )
    for name, fn in (
        ("ingest", n.ingest),
        ("load_context", n.load_context),
        ("fast_path", n.fast_path),
        ("intent_classify", n.intent_classify),
        ("language_policy", n.language_policy),
        ("governor", n.governor),
        ("governance", n.governance),
        ("clarify", n.clarify),
        ("offer_handoff", n.offer_handoff),
        ("unknown", unknown),
        ("injection", n.injection),
        ("media", n.media),
        ("language", n.language),
        ("prefs", prefs),
        ("handoff", n.handoff),
        ("holding", n.holding),
        ("sales", sales),
        ("booking", booking),
        ("support", support),
        ("orders", orders),
        ("offers", offers),
        ("resume_sale", resume_sale),
        ("respond", n.respond),
        ("wait", n.wait_for_customer),
    ):
        g.add_node(name, fn)
    g.add_edge(START, "ingest")
    g.add_edge("ingest", "load_context")
    g.add_conditional_edges("load_context", after_load, ["fast_path", "respond"])
    g.add_conditional_edges("fast_path", after_fast_path, sorted({*FAST_ROUTES.values(), "sales", "orders", "support"}))
    g.add_edge("intent_classify", "language_policy")
    g.add_edge("language_policy", "governor")
    g.add_conditional_edges("governance", n.after_governance, ["handoff", "respond"])
    for journey in ("sales", "booking"):
        g.add_conditional_edges(journey, after_journey, ["sales", "booking", "intent_classify", "handoff", "respond"])
    for journey in ("support", "orders", "offers"):
        g.add_conditional_edges(journey, after_side_journey, ["intent_classify", "handoff", "resume_sale", "respond"])
    g.add_conditional_edges("prefs", after_prefs, ["intent_classify", "handoff", "resume_sale", "respond"])
    for simple in (
        "clarify",
        "offer_handoff",
        "unknown",
        "injection",
        "media",
        "language",
        "handoff",
        "holding",
        "resume_sale",
    ):
        g.add_edge(simple, "respond")
    g.add_edge("respond", "wait")
    g.add_edge("wait", "ingest")
    return g.compile(checkpointer=checkpointer)
