"""Human handoff tickets. Creating one also puts the customer's conversation in handoff."""

from __future__ import annotations

from typing import Any

from tulia.domain.common import iso
from tulia.domain.handoff import HandoffTicket, TranscriptEntry
from tulia.domain.times import sortable
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
                        "item": self.item(ticket),
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

    def all_for_customer(self, tenant_id: str, customer_id: str) -> list[HandoffTicket]:
        """Every ticket of one customer, whatever its status (an export or an erasure)."""
        found = []
        for status in ("open", "claimed", "resolved"):
            cursor = None
            while True:
                page = self.db.page(
                    HANDOFFS,
                    keys.handoff_status_gsi_pk(tenant_id, status),
                    index=HANDOFFS_BY_STATUS,
                    where="customer_id = :c",
                    values={":c": customer_id},
                    limit=100,
                    cursor=cursor,
                )
                found += [self.from_item(i) for i in page.items]
                if not page.cursor:
                    break
                cursor = page.cursor
        return found

    def overwrite(self, ticket: HandoffTicket) -> None:
        """Write the ticket as given, whatever changed meanwhile (an erasure: nothing the customer wrote stays)."""
        self.db.put(HANDOFFS, self.item(ticket))

    def item(self, ticket: HandoffTicket) -> dict[str, Any]:
        return to_item(
            ticket,
            pk=keys.handoff_pk(ticket.tenant_id, ticket.ticket_id),
            sk=keys.TICKET,
            gsi1pk=keys.handoff_status_gsi_pk(ticket.tenant_id, ticket.status),
            gsi1sk=sortable(ticket.created_at),
        )

    def replace(self, before: HandoffTicket, after: HandoffTicket) -> None:
        """Write a changed ticket; refused (StateConflict) if it changed since ``before`` was read."""
        self.db.put(
            HANDOFFS,
            self.item(after),
            condition="updated_at = :before",
            values={":before": iso(before.updated_at)},
            conflict_message="The ticket changed meanwhile; reload it and try again.",
        )

    def resolve(self, before: HandoffTicket, after: HandoffTicket) -> None:
        """Close the ticket and give the conversation back to the bot, in one transaction."""
        self.db.transact(
            [
                {
                    "Put": {
                        "table": HANDOFFS,
                        "item": self.item(after),
                        "condition": "updated_at = :before",
                        "values": {":before": iso(before.updated_at)},
                    }
                },
                {
                    "Update": {
                        "table": CUSTOMERS,
                        "pk": keys.customer_pk(after.tenant_id, after.customer_id),
                        "sk": keys.PROFILE,
                        "update": "REMOVE handoff_ticket_id SET updated_at = :now",
                        # a newer ticket of the same customer stays in force
                        "condition": (
                            "attribute_exists(pk) AND (handoff_ticket_id = :t OR "
                            "attribute_not_exists(handoff_ticket_id) OR handoff_ticket_id = :null)"
                        ),
                        "values": {":t": after.ticket_id, ":now": iso(after.updated_at), ":null": None},
                    }
                },
            ],
            conflict_message="The ticket changed meanwhile; reload it and try again.",
        )

    def note_customer_message(self, tenant_id: str, ticket_id: str, entry: TranscriptEntry) -> None:
        """Append what the customer wrote while a person has the conversation (the inbox shows it,
        and it reopens WhatsApp's 24-hour window for the person's replies)."""
        self.db.update(
            HANDOFFS,
            keys.handoff_pk(tenant_id, ticket_id),
            keys.TICKET,
            update=(
                "SET transcript = list_append(if_not_exists(transcript, :empty), :entry), "
                "last_customer_message_at = :at, updated_at = :at"
            ),
            condition="attribute_exists(pk) AND #s <> :resolved",
            names={"#s": "status"},
            values={
                ":empty": [],
                ":entry": [entry.model_dump(mode="json")],
                ":at": iso(entry.at),
                ":resolved": "resolved",
            },
            conflict_message="The ticket is closed.",
        )
