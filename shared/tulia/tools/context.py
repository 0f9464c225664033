"""The trusted context every tool call runs in. Its ``tenant_id`` comes from the channel (the
WhatsApp phone_number_id, or the admin JWT claim), never from model output or a request body."""

from __future__ import annotations

from dataclasses import dataclass

from tulia.services import Services


@dataclass(frozen=True)
class ToolContext:
    tenant_id: str
    request_id: str
    conversation_id: str
    services: Services
    customer_id: str | None = None  # the chat's own customer; customer-scoped tools must match it
    message_id: str | None = None
    language: str | None = None  # the reply's language: a shop's per-language texts are given in it
    node: str | None = None  # the graph node calling (named on the tool call's log line, spec 8.4)
