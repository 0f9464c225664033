"""The routing rules of spec section 4 as pure functions with named thresholds.

Nothing here calls a model or a store: the graph feeds in what the classifiers and tools said, and
these functions decide. Each threshold is a constant so tests can pin its boundary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tulia.domain.literals import EscalationReason, GovernorAction, GovernorClass

# 4.1 intent
INTENT_ROUTE_MIN = 0.70  # >= : go to the suggested journey
INTENT_CLARIFY_MIN = 0.50  # >= (and below INTENT_ROUTE_MIN): one clarifying question, then re-classify

# 4.2 language
LANGUAGE_CONFIDENCE_MIN = 0.75
LANGUAGE_EVIDENCE_MIN = 0.35  # below: the message has no language in it ("2", "ok", an emoji, "iPhone 13")

# 4.3 / 4.6 governor and chattiness: casual turns allowed per conversation at each level
CASUAL_TURNS_ALLOWED = {0: 0, 1: 1, 2: 2, 3: 4}
SPAM_TURNS_BEFORE_DISENGAGING = 2

# 4.4 catalog
MAX_SHORTLIST_ITEMS = 6
CATALOG_LINK_MIN_MATCHES = 50
LOW_SEARCH_CONFIDENCE = 0.5
REJECTED_SHORTLISTS_FOR_LINK = 2

# 4.5 escalation
CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE = 2
CLARIFICATION_LOOPS_TO_ESCALATE = 3
FRUSTRATED_UNRESOLVED_TURNS_TO_ESCALATE = 2

IntentRoute = Literal["journey", "clarify", "unknown"]


def route_intent(confidence: float, *, clarified_once: bool) -> IntentRoute:
    """4.1: confident -> journey; middling -> one clarifying question; otherwise the unknown handler.

    After the one clarifying question, a middling answer goes to the unknown handler (a menu of what
    the bot can do) instead of asking again.
    """
    if confidence >= INTENT_ROUTE_MIN:
        return "journey"
    if confidence >= INTENT_CLARIFY_MIN and not clarified_once:
        return "clarify"
    return "unknown"


def choose_language(
    detected: str,
    confidence: float,
    *,
    allowed: Sequence[str],
    default: str,
    requested: str | None = None,
    preferred: str | None = None,
    current: str | None = None,
    sheng_kin: bool = True,
) -> str:
    """4.2: an explicit request (now or saved as the customer's preference) wins if the tenant allows
    it; else a confident detection of an allowed language; else the tenant's default.

    A message with no language in it (a number, a product name), or with weak evidence of the language
    the conversation is already in, keeps that language: answering "2" or "niletee Kilimani" to a
    Swahili question does not switch to English; Swahili in a Sheng conversation keeps it in Sheng.
    """
    for choice in (requested, preferred):
        if choice is not None and choice in allowed:
            return choice
    if sheng_kin and current == "sheng" and detected == "sw" and current in allowed:
        return current  # Sheng is built on Swahili: a Sheng speaker's plain Swahili stays in Sheng
    kin = ("sw", "sheng")
    if sheng_kin and current in kin and detected in kin and confidence < LANGUAGE_CONFIDENCE_MIN and current in allowed:
        return current  # a little Sheng in a Swahili conversation ("aki ... cancel hiyo order") keeps it Swahili
    if confidence >= LANGUAGE_CONFIDENCE_MIN and detected in allowed:
        return detected
    if detected == "mixed" and current is not None and current in allowed:
        return current  # code-switching ("aki nimebadilisha mawazo, cancel hiyo order") is no switch of language
    if current is not None and current in allowed and (confidence < LANGUAGE_EVIDENCE_MIN or detected == current):
        return current
    return default


@dataclass(frozen=True)
class GovernorDecision:
    action: GovernorAction
    casual_turns: int
    spam_turns: int


def govern(
    classification: GovernorClass,
    *,
    casual_turns: int,
    spam_turns: int,
    chattiness: int,
    abuse_action: Literal["refuse_and_end", "escalate"] = "refuse_and_end",
) -> GovernorDecision:
    """4.3 and 4.6. Business proceeds. Casual chat is allowed up to the tenant's limit, then the bot
    re-anchors to business with a menu. Spam gets a redirect, and from the second spam turn a minimal
    answer. Abuse is refused (or escalated, if the tenant says so)."""
    if classification == "business":
        return GovernorDecision("proceed", casual_turns, spam_turns)
    if classification == "casual":
        turns = casual_turns + 1
        allowed = CASUAL_TURNS_ALLOWED[max(0, min(3, chattiness))]
        return GovernorDecision("small_talk" if turns <= allowed else "redirect", turns, spam_turns)
    if classification == "spam":
        turns = spam_turns + 1
        return GovernorDecision(
            "disengage" if turns >= SPAM_TURNS_BEFORE_DISENGAGING else "redirect", casual_turns, turns
        )
    return GovernorDecision("escalate" if abuse_action == "escalate" else "refuse", casual_turns, spam_turns)


def should_show_catalog_link(
    *,
    has_link: bool,
    total_matches: int,
    clarifications_asked: int,
    asked_for_everything: bool = False,
    search_confidence: float = 1.0,
    needs_visuals: bool = False,
    rejected_shortlists: int = 0,
) -> bool:
    """4.4: any one reason is enough (and only when the tenant has a catalog link)."""
    if not has_link:
        return False
    return (
        (total_matches >= CATALOG_LINK_MIN_MATCHES and clarifications_asked >= 1)
        or asked_for_everything
        or (total_matches > 0 and search_confidence < LOW_SEARCH_CONFIDENCE)
        or needs_visuals
        or rejected_shortlists >= REJECTED_SHORTLISTS_FOR_LINK
    )


@dataclass(frozen=True)
class EscalationSignals:
    human_requested: bool = False
    payment_dispute: bool = False
    refund_request: bool = False
    delivery_complaint: bool = False
    missing_information: bool = False  # tools and documents could not answer an authoritative question
    consecutive_tool_errors: int = 0
    clarification_loops: int = 0
    sensitive_topic: bool = False
    frustrated_unresolved_turns: int = 0


def escalation_reason(s: EscalationSignals, *, escalate_sensitive: bool = True) -> EscalationReason | None:
    """4.5: the first reason that applies, in the order of the spec; None when the bot carries on."""
    if s.human_requested:
        return "human_requested"
    if s.payment_dispute:
        return "payment_dispute"
    if s.refund_request:
        return "refund_request"
    if s.delivery_complaint:
        return "delivery_complaint"
    if s.missing_information:
        return "missing_information"
    if s.consecutive_tool_errors >= CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE:
        return "repeated_tool_errors"
    if s.clarification_loops >= CLARIFICATION_LOOPS_TO_ESCALATE:
        return "clarification_loop"
    if s.sensitive_topic and escalate_sensitive:
        return "sensitive_topic"
    if s.frustrated_unresolved_turns >= FRUSTRATED_UNRESOLVED_TURNS_TO_ESCALATE:
        return "frustration_unresolved"
    return None
