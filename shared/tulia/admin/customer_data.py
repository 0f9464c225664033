"""Everything stored about one customer, exported as JSON or erased (Kenya Data Protection Act
requests).

Erasure removes the profile and its phone / WhatsApp-user aliases and the conversation (the LangGraph
thread), blanks what the customer wrote in handoff tickets, and keeps orders and payments for the
shop's accounts with the phone and delivery address removed. Consent events and offer redemption
counts stay: they name only the opaque customer id, and they prove what the customer agreed to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from tulia.channel.whatsapp import conversation_id_for, customer_key
from tulia.domain.customer import Customer
from tulia.domain.handoff import HandoffTicket
from tulia.domain.order import Order
from tulia.domain.payment import Payment
from tulia.services import Services
from tulia.store import keys
from tulia.store.orders import OrderRepo
from tulia.store.tables import CUSTOMERS, HANDOFFS, HANDOFFS_BY_STATUS, ORDERS

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


def _tickets(s: Services, tenant_id: str, customer_id: str) -> list[HandoffTicket]:
    found = []
    for status in ("open", "claimed", "resolved"):
        cursor = None
        while True:
            page = s.db.page(
                HANDOFFS,
                keys.handoff_status_gsi_pk(tenant_id, status),
                index=HANDOFFS_BY_STATUS,
                where="customer_id = :c",
                values={":c": customer_id},
                limit=100,
                cursor=cursor,
            )
            found += [s.handoffs.from_item(i) for i in page.items]
            if not page.cursor:
                break
            cursor = page.cursor
    return found


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
        "handoff_tickets": [t.model_dump(mode="json") for t in _tickets(s, tid, cid)],
        "conversation": {
            "conversation_id": thread,
            "recent_messages": conversations.messages(thread) if conversations else None,
        },
    }


def erase_customer(s: Services, customer: Customer, conversations: ConversationStore | None) -> dict[str, int]:
    """Erase as the module says; returns what was touched (for the audit trail, without personal data)."""
    tid, cid = customer.tenant_id, customer.customer_id
    now = s.clock()
    orders = _orders(s, tid, cid)
    for order, payments in orders:
        delivery = order.delivery.model_copy(update={"address_text": None, "location_hint": None})
        kept = order.model_copy(update={"delivery": delivery, "notes": None})
        if kept != order:
            s.db.put(ORDERS, OrderRepo.to_item(kept))
        for payment in payments:
            if payment.msisdn:
                s.db.update(
                    ORDERS,
                    keys.order_pk(tid, order.order_id),
                    keys.payment_sk(payment.payment_id),
                    update="SET msisdn = :erased",
                    values={":erased": None},
                )
    tickets = _tickets(s, tid, cid)
    for ticket in tickets:
        erased = ticket.model_copy(
            update={
                "context_snapshot": {"erased": True},
                "transcript": [e.model_copy(update={"text": ERASED}) for e in ticket.transcript],
                "updated_at": now,
            }
        )
        s.db.put(HANDOFFS, s.handoffs.item(erased))
    thread = conversation_id_for(tid, customer_key(customer.phone_e164, customer.wa_user_id))
    if conversations is not None:
        conversations.forget(thread)
    aliases = []
    if customer.phone_e164:
        aliases.append((keys.customer_phone_alias_pk(tid, customer.phone_e164), keys.ALIAS))
    if customer.wa_user_id:
        aliases.append((keys.customer_wa_user_alias_pk(tid, customer.wa_user_id), keys.ALIAS))
    s.db.batch_write(CUSTOMERS, deletes=[*aliases, (keys.customer_pk(tid, cid), keys.PROFILE)])
    return {
        "orders_kept_anonymised": len(orders),
        "payments": sum(len(p) for _, p in orders),
        "handoff_tickets_redacted": len(tickets),
        "conversation_deleted": int(conversations is not None),
    }
