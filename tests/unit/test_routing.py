"""Spec section 4, boundary by boundary."""

from __future__ import annotations

import pytest

from tulia.graph.routing import (
    EscalationSignals,
    choose_language,
    escalation_reason,
    govern,
    route_intent,
    should_show_catalog_link,
)


@pytest.mark.parametrize(
    ("confidence", "clarified_once", "route"),
    [
        (0.70, False, "journey"),
        (0.6999, False, "clarify"),
        (0.50, False, "clarify"),
        (0.4999, False, "unknown"),
        (0.0, False, "unknown"),
        (1.0, True, "journey"),
        (0.69, True, "unknown"),
        (0.70, True, "journey"),
    ],
)
def test_intent_thresholds(confidence: float, clarified_once: bool, route: str) -> None:
    assert route_intent(confidence, clarified_once=clarified_once) == route


ALL = ["en", "sw", "sheng"]


@pytest.mark.parametrize(
    ("detected", "confidence", "allowed", "requested", "preferred", "expected"),
    [
        ("sw", 0.75, ALL, None, None, "sw"),
        ("sw", 0.7499, ALL, None, None, "en"),
        ("sheng", 0.9, ["en", "sw"], None, None, "en"),  # confident but not allowed by the tenant
        ("en", 0.99, ALL, "sw", None, "sw"),  # "kiswahili please"
        ("en", 0.99, ALL, None, "sw", "sw"),  # asked for earlier and saved
        ("sw", 0.99, ["en"], "sw", "sw", "en"),  # asked for a language the tenant does not allow
        ("mixed", 0.9, ALL, None, "mixed", "en"),
    ],
)
def test_language_policy(
    detected: str, confidence: float, allowed: list, requested: str | None, preferred: str | None, expected: str
) -> None:
    assert (
        choose_language(detected, confidence, allowed=allowed, default="en", requested=requested, preferred=preferred)
        == expected
    )


@pytest.mark.parametrize("current", ["sw", "sheng", "en"])
def test_a_message_mixing_swahili_and_english_keeps_the_conversations_language(current: str) -> None:
    # "aki nimebadilisha mawazo, cancel hiyo order" in a Swahili sale was answered in English
    assert choose_language("mixed", 0.667, allowed=ALL, default="en", current=current) == current
    assert choose_language("mixed", 0.667, allowed=["en", "sw"], default="en", current="sheng") == "en"


def test_weak_sheng_in_a_swahili_conversation_keeps_it_swahili() -> None:
    assert choose_language("sheng", 0.72, allowed=ALL, default="en", current="sw") == "sw"
    assert choose_language("sheng", 0.9, allowed=ALL, default="en", current="sw") == "sheng"  # sure: Sheng


def test_language_falls_back_to_the_tenant_default() -> None:
    assert choose_language("en", 0.3, allowed=ALL, default="sw") == "sw"


@pytest.mark.parametrize(
    ("chattiness", "casual_so_far", "action"),
    [
        (0, 0, "redirect"),
        (1, 0, "small_talk"),
        (1, 1, "redirect"),
        (2, 1, "small_talk"),
        (2, 2, "redirect"),
        (3, 3, "small_talk"),
        (3, 4, "redirect"),
    ],
)
def test_casual_turn_limits_per_chattiness_level(chattiness: int, casual_so_far: int, action: str) -> None:
    decision = govern("casual", casual_turns=casual_so_far, spam_turns=0, chattiness=chattiness)
    assert (decision.action, decision.casual_turns) == (action, casual_so_far + 1)


def test_spam_is_redirected_once_then_disengaged() -> None:
    first = govern("spam", casual_turns=0, spam_turns=0, chattiness=2)
    second = govern("spam", casual_turns=0, spam_turns=first.spam_turns, chattiness=2)
    assert (first.action, second.action, second.spam_turns) == ("redirect", "disengage", 2)


def test_business_proceeds_and_abuse_is_refused_or_escalated_by_policy() -> None:
    assert govern("business", casual_turns=5, spam_turns=5, chattiness=0).action == "proceed"
    assert govern("abuse", casual_turns=0, spam_turns=0, chattiness=2).action == "refuse"
    assert govern("abuse", casual_turns=0, spam_turns=0, chattiness=2, abuse_action="escalate").action == "escalate"


@pytest.mark.parametrize(
    ("kwargs", "show"),
    [
        ({"total_matches": 50, "clarifications_asked": 1}, True),
        ({"total_matches": 49, "clarifications_asked": 1}, False),
        ({"total_matches": 50, "clarifications_asked": 0}, False),  # ask one clarifying question first
        ({"total_matches": 3, "clarifications_asked": 0, "asked_for_everything": True}, True),
        ({"total_matches": 8, "clarifications_asked": 0, "search_confidence": 0.49}, True),
        ({"total_matches": 8, "clarifications_asked": 0, "search_confidence": 0.5}, False),
        ({"total_matches": 5, "clarifications_asked": 0, "needs_visuals": True}, True),
        ({"total_matches": 5, "clarifications_asked": 0, "rejected_shortlists": 2}, True),
        ({"total_matches": 5, "clarifications_asked": 0, "rejected_shortlists": 1}, False),
    ],
)
def test_catalog_link_rules(kwargs: dict, show: bool) -> None:
    assert should_show_catalog_link(has_link=True, **kwargs) is show


def test_no_catalog_link_without_one() -> None:
    assert (
        should_show_catalog_link(has_link=False, total_matches=500, clarifications_asked=3, asked_for_everything=True)
        is False
    )


@pytest.mark.parametrize(
    ("signals", "reason"),
    [
        (EscalationSignals(human_requested=True), "human_requested"),
        (EscalationSignals(payment_dispute=True), "payment_dispute"),
        (EscalationSignals(refund_request=True), "refund_request"),
        (EscalationSignals(delivery_complaint=True), "delivery_complaint"),
        (EscalationSignals(missing_information=True), "missing_information"),
        (EscalationSignals(consecutive_tool_errors=2), "repeated_tool_errors"),
        (EscalationSignals(consecutive_tool_errors=1), None),
        (EscalationSignals(clarification_loops=3), "clarification_loop"),
        (EscalationSignals(clarification_loops=2), None),
        (EscalationSignals(sensitive_topic=True), "sensitive_topic"),
        (EscalationSignals(frustrated_unresolved_turns=2), "frustration_unresolved"),
        (EscalationSignals(frustrated_unresolved_turns=1), None),
        (EscalationSignals(), None),
    ],
)
def test_escalation_triggers(signals: EscalationSignals, reason: str | None) -> None:
    assert escalation_reason(signals) == reason


def test_sensitive_topics_follow_tenant_policy() -> None:
    assert escalation_reason(EscalationSignals(sensitive_topic=True), escalate_sensitive=False) is None


def test_a_message_without_language_keeps_the_conversations_language() -> None:
    assert choose_language("en", 0.3, allowed=ALL, default="en", current="sw") == "sw"
    assert choose_language("sw", 0.6, allowed=ALL, default="en", current="sw") == "sw"  # weak, but agrees
    assert choose_language("en", 0.6, allowed=ALL, default="sw", current="sheng") == "sw"  # weak, disagrees
    assert choose_language("en", 0.3, allowed=["en"], default="en", current="sw") == "en"
