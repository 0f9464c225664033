"""The conversation state: the spec's ConversationState (section 3) plus what multi-turn dialogue
needs. If it is not in state, the agent does not know it. Clients never enter state; it is
checkpointed after every turn, so it stays small (bounded message window, at most 6 results).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, TypedDict, cast

from tulia.domain.literals import (
    ConversationQuestion,
    GovernorClass,
    Handover,
    Intent,
    Journey,
    PaymentStatus,
    Pending,
)
from tulia.domain.literals import DetectedLang as Lang
from tulia.graph.booking_frame import BookingFrame
from tulia.graph.frame import OrderFrame


class Scratch(TypedDict, total=False):
    """What one node of a journey hands the next within a turn (emptied when the turn ends: nothing of it is
    checkpointed). Each key is written by one kind of step and read by the next."""

    query: str  # the sale: the words to search for
    category: str  # the sale: a category chosen from the menu
    slots: dict[str, Any]  # the sale: the classifier's slots for the search
    echo: bool  # the sale: a line changed, the basket is said back
    orders: list[dict[str, Any]]  # order status: the orders found
    offers: list[dict[str, Any]]  # offers: the ones the customer may use
    snippets: list[dict[str, Any]]  # support: the passages found
    updates: dict[str, Any]  # preferences: the change asked for
    customer: dict[str, Any]  # preferences: the customer after the change
    booking: dict[str, Any]  # a booking: the slot held this turn
    pay: str | None  # a booking: how its deposit is paid ("stk" or another way)
    change: str  # a booking: the change asked for (move, cancel, keep...)
    ref: str  # a booking: the booking it is about
    lead: str  # a booking: a line to say before the times offered
    sale_asked: bool  # a side journey asked the open sale's next question itself: no reminder after it


MESSAGE_WINDOW = 12


def append_or_reset(old: list[Any] | None, new: list[Any] | None) -> list[Any]:
    """Reducer for per-turn lists: nodes append; ``None`` (sent at the start of a turn) empties."""
    if new is None:
        return []
    return [*(old or []), *new]


def window(old: list[Any] | None, new: list[Any] | None) -> list[Any]:
    """Reducer for the message window: append, keep the last MESSAGE_WINDOW."""
    return [*(old or []), *(new or [])][-MESSAGE_WINDOW:]


@dataclass
class ConversationState:
    # Identity and scoping (spec)
    tenant_id: str = ""
    conversation_id: str = ""
    request_id: str = ""
    customer_id: str | None = None
    phone_e164: str | None = None

    # Tenant context (spec)
    tenant_name: str | None = None
    bot_name: str | None = None
    bot_intro: str | None = None
    tone_style: str = "friendly_concise"
    llm_wording: bool = False  # the tenant lets the model word text nodes (fact-guarded)
    default_language: Lang = "en"
    allowed_languages: list[str] = field(default_factory=lambda: ["en", "sw", "sheng"])
    sheng_fallback: str = "sw"
    max_chattiness_level: int = 2
    catalog_link_base: str | None = None
    payments_enabled: dict[str, bool] = field(default_factory=dict)
    compliance: dict[str, Any] = field(default_factory=dict)
    handoff: dict[str, Any] = field(default_factory=dict)

    # Customer preferences and consent (spec)
    customer_language_pref: Lang | None = None
    marketing_opt_in: bool | None = None
    notification_prefs: dict[str, bool] = field(default_factory=dict)
    display_name: str | None = None
    in_handoff: bool = False

    # Classifiers (spec)
    intent: Intent = "unknown"
    intent_confidence: float = 0.0
    journey: Journey = "unknown"
    response_language: Lang = "en"
    language_confidence: float = 0.0
    governor_classification: GovernorClass = "business"
    governor_confidence: float = 0.0

    # Catalog selection and ordering (spec)
    last_catalog_query: str | None = None
    last_catalog_filters: dict[str, Any] = field(default_factory=dict)
    last_catalog_results: list[dict[str, Any]] = field(default_factory=list)
    catalog_total_matches_estimate: int | None = None
    selected_item_ids: list[str] = field(default_factory=list)
    pictures_shown: list[str] = field(default_factory=list)  # items whose picture this chat has sent (once each)
    order_id: str | None = None
    order_totals: dict[str, Any] = field(default_factory=dict)
    payment_request_id: str | None = None
    payment_status: PaymentStatus | None = None

    # Retrieval (spec)
    kb_snippets: list[dict[str, Any]] = field(default_factory=list)

    # Safety and escalation (spec)
    escalation_required: bool = False
    escalation_reason: str | None = None
    handoff_ticket_id: str | None = None

    # Conversation controls (spec)
    turn_count: int = 0
    casual_turns: int = 0
    spam_turns: int = 0

    # Output (spec)
    response_text: str | None = None

    # --- dialogue state the engine needs -------------------------------------------------------
    inbound: dict[str, Any] = field(default_factory=dict)  # this turn's message
    understanding: dict[str, Any] = field(default_factory=dict)  # this turn's classifier output
    route: str | None = None  # where the fast path or the router sent this turn
    handover: Handover | None = None  # a journey gave the rest of this turn to another, at this node of it
    scratch: Scratch = field(default_factory=lambda: Scratch())  # what one step hands the next (this turn)
    question: ConversationQuestion | None = None  # the conversation's own open question (a frame's is its ``asking``)
    question_options: list[dict[str, Any]] = field(default_factory=list)  # [{id, title, ...}] of that question
    clarified_once: bool = False  # the one clarifying question of spec 4.1 was asked
    clarification_loops: int = 0
    consecutive_tool_errors: int = 0
    frustrated_turns: int = 0
    rejected_shortlists: int = 0
    payment_code_failures: int = 0  # M-Pesa codes sent that paid nothing: the second goes to a person
    code_awaiting_payer: str | None = None  # an M-Pesa code from another phone: which number paid is asked
    requested_language: str | None = None
    frame: OrderFrame | None = None  # the sale in progress: what the customer said, filled from every message
    booking: BookingFrame | None = None  # the appointment being booked or changed (its deposit is paid as a sale)
    holding_notice_for: str | None = None  # the handoff ticket whose "a person will reply" was said
    messages: Annotated[list[dict[str, str]], window] = field(default_factory=list)
    outbox: Annotated[list[dict[str, Any]], append_or_reset] = field(default_factory=list)
    trace: Annotated[list[dict[str, Any]], append_or_reset] = field(default_factory=list)

    @property
    def pending(self) -> Pending | None:
        """What the bot asked and waits for (derived, never stored twice): see :func:`open_question`."""
        return open_question(self.question, self.question_options, self.frame, self.booking)[0]

    @property
    def pending_options(self) -> list[dict[str, Any]]:
        """The answers offered with that question, as ``[{id, title, ...}]``."""
        return open_question(self.question, self.question_options, self.frame, self.booking)[1]


def open_question(
    question: ConversationQuestion | None,
    options: list[dict[str, Any]],
    frame: OrderFrame | None,
    booking: BookingFrame | None,
) -> tuple[Pending | None, list[dict[str, Any]]]:
    """The one question the bot waits for: the conversation's own while it is open (the menu, which order...),
    else the question of the frame that asked last (``graph.slots.ask`` closes the other frame's)."""
    if question is not None:
        return question, options
    for asked in (booking, frame):
        if asked is not None and asked.asking is not None:
            return cast(Pending, asked.asking), asked.asking_options
    return None, []


def with_open_question(values: dict[str, Any]) -> dict[str, Any]:
    """A turn's state values with its open question named, as ``pending`` and ``pending_options``."""
    pending, options = open_question(
        values.get("question"), values.get("question_options") or [], values.get("frame"), values.get("booking")
    )
    return {**values, "pending": pending, "pending_options": options}
