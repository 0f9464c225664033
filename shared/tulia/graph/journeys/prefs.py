"""The preferences and consent journey (spec Appendix C): read what the customer wants (STOP and
START reach it from the fast path), customer_update_preferences (which records the consent event),
then confirm."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.nodes import inbound_text, t
from tulia.graph.slots import close_questions
from tulia.graph.state import ConversationState, Scratch
from tulia.graph.subgraph import as_node, command_journey
from tulia.graph.wording import worded
from tulia.nlg.messages import text
from tulia.nlu.lexicon import any_phrase, normalize

OPT_OUT_WORDS = ("no more", "don't send", "dont send", "don t send", "stop", "sitaki", "acha", "usinitumie")
OPT_IN_WORDS = ("send me", "nitumie", "subscribe", "nataka offers")
# the other switch a customer can turn in chat: updates about their own orders
OFF_WORDS = (*OPT_OUT_WORDS, "turn off", "switch off", "mute", "zima", "disable", "unsubscribe", "sitaki tena")
ON_WORDS = (*OPT_IN_WORDS, "turn on", "switch on", "resume", "unmute", "enable", "washa", "keep sending")
UPDATE_WORDS = ("update", "updates", "notification", "notifications", "taarifa", "status", "order messages")
OFFER_WORDS = ("offer", "offers", "ofa", "promotion", "promotions", "deals", "matangazo", "marketing")


def wanted_change(plain: str) -> dict[str, bool] | None:
    """The preference a message asks to change: order updates on or off, or offers (marketing) on
    or off. ``None`` when it asks for no change ("what are my preferences?"). Consent to marketing
    is only read from words that give it ("send me offers", "subscribe"), never guessed."""
    off = any_phrase(plain, OFF_WORDS) or any(w in plain for w in OPT_OUT_WORDS)
    on = not off and (any_phrase(plain, ON_WORDS) or any(w in plain for w in OPT_IN_WORDS))
    if not (off or on):
        return None
    if any_phrase(plain, UPDATE_WORDS) and not any_phrase(plain, OFFER_WORDS):
        return {"order_updates_whatsapp": on}
    if on and not (any_phrase(plain, OFFER_WORDS) or any(w in plain for w in OPT_IN_WORDS)):
        return None  # "resume", "enable": not a yes to marketing
    return {"marketing_opt_in": on}


def prefs_parse(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["prefs_update", "prefs_consent_response"]]:
    """The preference change asked for: the fast path's keyword, else the words of the message."""
    turn = Turn(state, runtime, "prefs_parse")
    keyword = state.understanding.get("keyword")
    change = (
        {"marketing_opt_in": keyword == "opt_in"}
        if keyword in ("opt_out", "opt_in")
        else wanted_change(normalize(inbound_text(state)))
    )
    if change is None:
        return turn.goto("prefs_consent_response")  # nothing to change: say where they stand
    turn.set(scratch=Scratch(updates=change))
    return turn.goto("prefs_update")


def prefs_update(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["prefs_consent_response", "__end__"]]:
    turn = Turn(state, runtime, "prefs_update")
    updates = dict(state.scratch["updates"])
    result = turn.tool(
        "customer_update_preferences",
        customer_id=state.customer_id,
        updates=updates,
        consent_source="user_message",
    )
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return turn.goto(END)
    turn.set(
        marketing_opt_in=result["data"]["marketing_opt_in"],
        notification_prefs=result["data"]["notification_prefs"],
        question=None,
        question_options=[],
        scratch=Scratch(customer=result["data"], updates=updates),
    )
    if state.understanding.get("keyword") == "opt_out":
        close_questions(turn)  # STOP: nothing more is asked, and nothing asked before waits for an answer
    return turn.goto("prefs_consent_response")


def prefs_consent_response(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "prefs_consent_response")
    updates = state.scratch.get("updates", {})
    shop = state.tenant_name or ""
    if "order_updates_whatsapp" in updates:
        key = "order_updates_on" if updates["order_updates_whatsapp"] else "order_updates_off"
        confirmation = t(turn, key, shop=shop)
    elif "marketing_opt_in" in updates:
        confirmation = t(turn, "opted_in" if state.marketing_opt_in else "opted_out", shop=shop)
    else:  # nothing asked to change: where the customer stands
        offers = t(turn, "pref_on" if state.marketing_opt_in else "pref_off")
        updates_on = state.notification_prefs.get("order_updates_whatsapp", True)
        confirmation = t(
            turn, "prefs_status", shop=shop, offers=offers, updates=t(turn, "pref_on" if updates_on else "pref_off")
        )
    customer = state.scratch.get("customer")
    if customer is None:
        turn.say(text(confirmation))
    else:
        turn.say(text(worded(turn, "prefs_consent_response", confirmation, [customer], customer_json=customer)))
    return turn.goto(END)


prefs = as_node(
    "prefs",
    command_journey(
        "prefs",
        [
            ("prefs_parse", prefs_parse),
            ("prefs_update", prefs_update),
            ("prefs_consent_response", prefs_consent_response),
        ],
        entry="prefs_parse",
    ),
)
