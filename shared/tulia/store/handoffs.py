"""Human handoff tickets. Creating one also puts the customer's conversation in handoff."""

from __future__ import annotations

from typing import Any

from tulia.domain.common import iso, sortable
from tulia.domain.handoff import HandoffTicket
from tulia.errors import NotFound
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Page
from tulia.store.tables import CUSTOMERS, HANDOFFS, HANDOFFS_BY_STATUS


class HandoffRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    @staticmethod
    def from_item(item: dict[str, Any]) -> HandoffTicket:
        return from_item(HandoffTicket, item)

    def create(self, ticket: HandoffTicket) -> None:
        self.db.transact(
            [
                {
                    "Put": {
                        "table": HANDOFFS,
                        "item": to_item(
                            ticket,
                            pk=keys.handoff_pk(ticket.tenant_id, ticket.ticket_id),
                            sk=keys.TICKET,
                            gsi1pk=keys.handoff_status_gsi_pk(ticket.tenant_id, ticket.status),
                            gsi1sk=sortable(ticket.created_at),
                        ),
                        "condition": "attribute_not_exists(pk)",
                    }
                },
                {
                    "Update": {
                        "table": CUSTOMERS,
                        "pk": keys.customer_pk(ticket.tenant_id, ticket.customer_id),
                        "sk": keys.PROFILE,
                        "update": "SET handoff_ticket_id = :t, updated_at = :now",
                        "condition": "attribute_exists(pk)",
                        "values": {":t": ticket.ticket_id, ":now": iso(ticket.created_at)},
                    }
                },
            ],
            conflict_message="The customer does not exist.",
        )

    def get(self, tenant_id: str, ticket_id: str) -> HandoffTicket:
        item = self.db.get(HANDOFFS, keys.handoff_pk(tenant_id, ticket_id), keys.TICKET)
        if item is None:
            raise NotFound("Unknown handoff ticket.", field="ticket_id")
        return self.from_item(item)

    def list_by_status(
        self, tenant_id: str, status: str, *, limit: int = 50, cursor: str | None = None
    ) -> Page[HandoffTicket]:
        page = self.db.query(
            HANDOFFS,
            keys.handoff_status_gsi_pk(tenant_id, status),
            index=HANDOFFS_BY_STATUS.name,
            pk_name=HANDOFFS_BY_STATUS.pk,
            sk_name=HANDOFFS_BY_STATUS.sk,
            limit=limit,
            cursor=cursor,
        )
        return Page([self.from_item(i) for i in page.items], page.cursor)
