"""A customer's side of a WhatsApp chat with the engine, for conversation tests."""

from __future__ import annotations

import itertools
from typing import Any

from tests.conftest import BOTO
from tulia.graph.conversation import Conversations, dynamodb_checkpointer
from tulia.services import Services

_ids = itertools.count(1)


class Chat:
    def __init__(
        self, conversations: Conversations, tenant_id: str = "demo-shop", phone: str = "+254712345678"
    ) -> None:
        self.conversations, self.tenant_id, self.phone = conversations, tenant_id, phone
        self.last: Any = None

    def send(
        self, body: str = "", *, reply_id: str | None = None, kind: str | None = None, pin: dict[str, Any] | None = None
    ) -> str:
        """``pin``: a location pin as the agent passes it (``{lat, lon, name?, address?}``; its words are the text)."""
        inbound: dict[str, Any] = {
            "type": "location" if pin else kind or ("interactive" if reply_id else "text"),
            "text": body or ", ".join(str(pin[k]) for k in ("name", "address") if pin and pin.get(k)),
            "message_id": f"wamid.{next(_ids)}",
        }
        if reply_id:
            inbound["reply_id"] = reply_id
        if pin:
            inbound["location"] = pin
        self.last = self.conversations.handle(tenant_id=self.tenant_id, phone_e164=self.phone, inbound=inbound)
        return "\n".join(m.plain_text() for m in self.last.replies)

    def cart(self, *lines: tuple[str, int], note: str = "") -> str:
        """Send a cart from the shop's WhatsApp catalog: (product retailer id, quantity) lines."""
        inbound: dict[str, Any] = {
            "type": "order",
            "text": note,
            "message_id": f"wamid.{next(_ids)}",
            "order_items": [
                {"product_retailer_id": sku, "quantity": qty, "item_price": 1, "currency": "KES"} for sku, qty in lines
            ],
        }
        self.last = self.conversations.handle(tenant_id=self.tenant_id, phone_e164=self.phone, inbound=inbound)
        return "\n".join(m.plain_text() for m in self.last.replies)

    @property
    def state(self) -> dict[str, Any]:
        return self.last.state

    def basket(self) -> dict[str, tuple[int | None, dict[str, str]]]:
        """The sale's basket as she sees it: each line's name, its count (None: asked) and its options."""
        return {ln.name: (ln.quantity, dict(ln.variant_selection)) for ln in self.state["frame"].lines}

    def nodes(self) -> list[str]:
        return [e["node"] for e in self.last.trace if e.get("kind") == "node"]

    def tools(self) -> list[str]:
        return [e["tool"] for e in self.last.trace if e.get("kind") == "tool"]

    def llm_calls(self) -> list[dict[str, Any]]:
        return [e for e in self.last.trace if e.get("kind") == "llm"]


def conversations_for(services: Services, engine: Any) -> Conversations:
    return Conversations(
        services, engine, dynamodb_checkpointer("test-checkpoints", region_name="eu-west-1", session=BOTO)
    )


def kes(amount: int) -> str:
    return f"KES {amount:,}"
