"""The preferences and consent journey (spec Appendix C): read what the customer wants (STOP and
START reach it from the fast path), customer_update_preferences (which records the consent event),
then confirm."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from tulia.graph.calls import Turn
from tulia.graph.context import EngineContext
from tulia.graph.nodes import inbound_text, t
from tulia.graph.state import ConversationState
from tulia.graph.subgraph import as_node, journey_graph
from tulia.graph.wording import worded
from tulia.nlg.messages import text
from tulia.nlu.lexicon import any_phrase, normalize

OPT_OUT_WORDS = ("no more", "don't send", "dont send", "don t send", "stop", "sitaki", "acha", "usinitumie")
OPT_IN_WORDS = ("send me", "nitumie", "subscribe", "nataka offers")


def prefs_parse(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """The preference change asked for: the fast path's keyword, else the words of the message."""
    turn = Turn(state, runtime, "prefs_parse")
    keyword = state.understanding.get("keyword")
    if keyword is None:
        plain = normalize(inbound_text(state))
        if any_phrase(plain, OPT_OUT_WORDS) or any(w in plain for w in OPT_OUT_WORDS):
            keyword = "opt_out"
        elif any_phrase(plain, OPT_IN_WORDS) or any(w in plain for w in OPT_IN_WORDS):
            keyword = "opt_in"
    if keyword in ("opt_out", "opt_in"):
        turn.set(scratch={"marketing_opt_in": keyword == "opt_in"}, step="prefs_update")
    else:
        turn.set(step="prefs_consent_response")  # nothing to change: say where they stand
    return turn.done()


def prefs_update(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "prefs_update")
    opted_in = bool(state.scratch["marketing_opt_in"])
    result = turn.tool(
        "customer_update_preferences",
        customer_id=state.customer_id,
        updates={"marketing_opt_in": opted_in},
        consent_source="user_message",
    )
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return turn.done()
    turn.set(
        marketing_opt_in=opted_in,
        notification_prefs=result["data"]["notification_prefs"],
        pending=None,
        pending_options=[],
        scratch={"customer": result["data"]},
        step="prefs_consent_response",
    )
    return turn.done()


def prefs_consent_response(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "prefs_consent_response")
    confirmation = t(turn, "opted_in" if state.marketing_opt_in else "opted_out", shop=state.tenant_name or "")
    customer = state.scratch.get("customer")
    if customer is None:
        turn.say(text(confirmation))
    else:
        turn.say(text(worded(turn, "prefs_consent_response", confirmation, [customer], customer_json=customer)))
    return turn.done()


prefs = as_node(
    "prefs",
    journey_graph(
        "prefs",
        {"prefs_parse": prefs_parse, "prefs_update": prefs_update, "prefs_consent_response": prefs_consent_response},
        {"prefs_parse": ["prefs_update", "prefs_consent_response"], "prefs_update": ["prefs_consent_response"]},
        entry="prefs_parse",
    ),
)
