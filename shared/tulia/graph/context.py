"""What nodes need that is not state: the trusted channel identity and the collaborators.

It reaches nodes through LangGraph's runtime context and is never checkpointed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tulia.nlu.engine import UnderstandingEngine
    from tulia.services import Services


@dataclass(frozen=True)
class EngineContext:
    tenant_id: str  # resolved from the WhatsApp phone_number_id, never from text
    phone_e164: str  # the chat's own number (the channel's wa_id)
    services: Services
    engine: UnderstandingEngine
    display_name: str | None = None
    message_id: str | None = None
