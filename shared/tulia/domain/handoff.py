"""Human handoff tickets."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from tulia.domain.common import Model

Priority = Literal["low", "normal", "high", "urgent"]
TicketStatus = Literal["open", "claimed", "resolved"]
TRANSCRIPT_LIMIT = 100  # entries kept on a ticket (the oldest go first)


class TranscriptEntry(Model):
    """A message of the handed-over conversation: the customer's, a person's reply from the inbox, or
    the bot's word that it has the conversation again."""

    role: Literal["customer", "agent", "bot"]
    text: str = Field(max_length=4096)
    at: datetime
    by: str | None = None  # the staff member, for agent replies
    message_id: str | None = None  # the WhatsApp message id (wamid) once sent
    client_key: str | None = Field(default=None, max_length=100)  # the Idempotency-Key of a person's reply


class HandoffTicket(Model):
    tenant_id: str
    ticket_id: str
    customer_id: str
    conversation_id: str
    reason: str = Field(min_length=1, max_length=500)
    priority: Priority
    status: TicketStatus = "open"
    context_snapshot: dict[str, Any] = Field(default_factory=dict)
    assigned_to: str | None = None
    transcript: list[TranscriptEntry] = Field(default_factory=list)
    last_customer_message_at: datetime | None = None  # opens WhatsApp's 24-hour reply window
    resolution_note: str | None = Field(default=None, max_length=500)
    created_at: datetime
    updated_at: datetime
    resolved_at: datetime | None = None
