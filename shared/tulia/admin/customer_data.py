"""Everything stored about one customer, exported as JSON or erased (Kenya Data Protection Act
requests).

Erasure removes the profile and its phone / WhatsApp-user aliases, the conversation (the LangGraph
thread), the conversation as the console shows it with the shop's notes about the customer, blanks what
the customer wrote in handoff tickets, and keeps orders and payments for the shop's accounts with the
phone and delivery address removed. Consent events and offer redemption counts stay: they name only the
opaque customer id, and they prove what the customer agreed to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from tulia.channel.whatsapp import conversation_id_for, customer_key
from tulia.domain.customer import Customer
from tulia.domain.order import Order
from tulia.domain.payment import Payment
from tulia.services import Services

ERASED = "[erased]"


class ConversationStore(Protocol):
    """The customer's conversation thread (checkpoints): read for an export, deleted on erasure."""

    def messages(self, thread_id: str) -> list[dict[str, Any]]: ...

    def forget(self, thread_id: str) -> None: ...


@dataclass
class CheckpointConversations:
    """:class:`ConversationStore` over the agent's DynamoDB checkpointer (imported on first use)."""

    make_saver: Callable[[], Any]

    def __post_init__(self) -> None:
        self._saver: Any = None

    @property
    def saver(self) -> Any:
        if self._saver is None:
            self._saver = self.make_saver()
        return self._saver

    def messages(self, thread_id: str) -> list[dict[str, Any]]:
        latest = self.saver.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
        if latest is None:
            return []
        return list(latest.checkpoint.get("channel_values", {}).get("messages", []))

    def forget(self, thread_id: str) -> None:
        self.saver.delete_thread(thread_id)


def _orders(s: Services, tenant_id: str, customer_id: str) -> list[tuple[Order, list[Payment]]]:
    out = []
    cursor = None
    while True:
        page = s.orders.list_for_customer(tenant_id, customer_id, limit=100, cursor=cursor)
        out += [s.orders.get_with_payments(tenant_id, o.order_id) for o in page.items]
        if not page.cursor:
            return out
        cursor = page.cursor


def export_customer(s: Services, customer: Customer, conversations: ConversationStore | None) -> dict[str, Any]:
    tid, cid = customer.tenant_id, customer.customer_id
    thread = conversation_id_for(tid, customer_key(customer.phone_e164, customer.wa_user_id))
    return {
        "customer": customer.model_dump(mode="json"),
        "consent_events": [e.model_dump(mode="json") for e in s.customers.consent_events(tid, cid)],
        "offer_redemptions": s.customers.redemptions(tid, cid),
        "orders": [
            {"order": o.model_dump(mode="json"), "payments": [p.model_dump(mode="json") for p in pays]}
            for o, pays in _orders(s, tid, cid)
        ],
        "handoff_tickets": [t.model_dump(mode="json") for t in s.handoffs.all_for_customer(tid, cid)],
        "conversation": {
            "conversation_id": thread,
            "recent_messages": conversations.messages(thread) if conversations else None,
        },
        # the conversation as the console shows it, and the shop's notes about the customer
        "console_conversation": s.threads.everything(tid, cid),
        # the photos and voice notes they sent (kept 30 days): where each is, its size, when it came
        "media_files": s.media_files.list_for(tid, thread) if s.media_files is not None else [],
    }


def erase_customer(s: Services, customer: Customer, conversations: ConversationStore | None) -> dict[str, int]:
    """Erase as the module says; returns what was touched (for the audit trail, without personal data)."""
    tid, cid = customer.tenant_id, customer.customer_id
    now = s.clock()
    orders = _orders(s, tid, cid)
    for order, payments in orders:
        delivery = order.delivery.model_copy(update={"address_text": None, "location_hint": None})
        kept = order.model_copy(update={"delivery": delivery, "notes": None})
        s.orders.overwrite_erased(order, kept, [p for p in payments if p.msisdn])
    tickets = s.handoffs.all_for_customer(tid, cid)
    for ticket in tickets:
        erased = ticket.model_copy(
            update={
                "context_snapshot": {"erased": True},
                "transcript": [e.model_copy(update={"text": ERASED}) for e in ticket.transcript],
                "updated_at": now,
            }
        )
        s.handoffs.overwrite(erased)
    thread = conversation_id_for(tid, customer_key(customer.phone_e164, customer.wa_user_id))
    if conversations is not None:
        conversations.forget(thread)
    logged = s.threads.forget(tid, cid)
    files = s.media_files.erase(tid, thread) if s.media_files is not None else 0
    s.customers.delete_with_aliases(customer)
    return {
        "conversation_log_items_deleted": logged,
        "media_files_deleted": files,
        "orders_kept_anonymised": len(orders),
        "payments": sum(len(p) for _, p in orders),
        "handoff_tickets_redacted": len(tickets),
        "conversation_deleted": int(conversations is not None),
    }
