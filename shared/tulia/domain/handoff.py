"""Human handoff tickets."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from tulia.domain.common import Model

Priority = Literal["low", "normal", "high", "urgent"]
TicketStatus = Literal["open", "claimed", "resolved"]


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
    created_at: datetime
    updated_at: datetime
