"""What nodes need that is not state: the trusted channel identity and the collaborators.

It reaches nodes through LangGraph's runtime context and is never checkpointed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tulia.channel.whatsapp import customer_key

if TYPE_CHECKING:
    from tulia.nlu.engine import UnderstandingEngine
    from tulia.services import Services


@dataclass(frozen=True)
class EngineContext:
    tenant_id: str  # resolved from the WhatsApp phone_number_id, never from text
    phone_e164: str | None  # the chat's own number (the channel's wa_id), when Meta shares it
    services: Services
    engine: UnderstandingEngine
    display_name: str | None = None
    message_id: str | None = None
    wa_user_id: str | None = None  # the business-scoped user id (BSUID), when Meta sends one

    @property
    def customer_key(self) -> str:
        """Who the chat is with: the phone when known, else the BSUID."""
        return customer_key(self.phone_e164, self.wa_user_id)
