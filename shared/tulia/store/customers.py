"""Customers (tenant-scoped), their phone / WhatsApp-user aliases, and append-only consent events."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tulia.domain.common import iso, new_id
from tulia.domain.customer import ConsentEvent, ConsentSource, Customer
from tulia.domain.times import sortable
from tulia.errors import NotFound, StateConflict
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Key, Page
from tulia.store.tables import CUSTOMERS, CUSTOMERS_BY_TENANT


class CustomerRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def page_for_tenant(
        self, tenant_id: str, *, limit: int = 50, cursor: str | None = None, newest_first: bool = True
    ) -> Page[Customer]:
        """One page of the shop's customers (this shop's partition of the customers index)."""
        page = self.db.page(
            CUSTOMERS,
            keys.tenant_customers_gsi_pk(tenant_id),
            index=CUSTOMERS_BY_TENANT,
            limit=limit,
            cursor=cursor,
            forward=not newest_first,
        )
        return Page([self.from_item(i) for i in page.items], page.cursor)

    @staticmethod
    def key(tenant_id: str, customer_id: str) -> Key:
        return Key(CUSTOMERS, keys.customer_pk(tenant_id, customer_id), keys.PROFILE)

    @staticmethod
    def redemption_key(tenant_id: str, customer_id: str, offer_id: str) -> Key:
        return Key(CUSTOMERS, keys.customer_pk(tenant_id, customer_id), keys.redemption_sk(offer_id))

    @staticmethod
    def from_item(item: dict[str, Any]) -> Customer:
        return from_item(Customer, item)

    @staticmethod
    def profile_item(customer: Customer) -> dict[str, Any]:
        """The stored profile, listed per tenant by creation time (the admin API's customer list)."""
        return to_item(
            customer,
            pk=keys.customer_pk(customer.tenant_id, customer.customer_id),
            sk=keys.PROFILE,
            gsi1pk=keys.tenant_customers_gsi_pk(customer.tenant_id),
            gsi1sk=f"{sortable(customer.created_at)}#{customer.customer_id}",
        )

    def delete_with_aliases(self, customer: Customer) -> None:
        """The profile and the phone and WhatsApp-user aliases that find it, gone (an erasure); consent events
        and redemption counts stay (they name only the opaque customer id)."""
        tid = customer.tenant_id
        aliases = []
        if customer.phone_e164:
            aliases.append((keys.customer_phone_alias_pk(tid, customer.phone_e164), keys.ALIAS))
        if customer.wa_user_id:
            aliases.append((keys.customer_wa_user_alias_pk(tid, customer.wa_user_id), keys.ALIAS))
        self.db.batch_write(CUSTOMERS, deletes=[*aliases, (keys.customer_pk(tid, customer.customer_id), keys.PROFILE)])

    def get(self, tenant_id: str, customer_id: str) -> Customer:
        item = self.db.get(CUSTOMERS, keys.customer_pk(tenant_id, customer_id), keys.PROFILE)
        if item is None:
            raise NotFound("Unknown customer.", field="customer_id")
        return self.from_item(item)

    def get_many(self, tenant_id: str, customer_ids: list[str]) -> dict[str, Customer]:
        """The shop's customers of these ids (one batch read); ids of erased customers are left out."""
        wanted = [Key(CUSTOMERS, keys.customer_pk(tenant_id, c), keys.PROFILE) for c in dict.fromkeys(customer_ids)]
        found = self.db.batch_get(wanted) if wanted else {}
        customers = (self.from_item(item) for item in found.values())
        return {c.customer_id: c for c in customers if c.tenant_id == tenant_id}

    def find_id_by_phone(self, tenant_id: str, phone_e164: str) -> str | None:
        item = self.db.get(CUSTOMERS, keys.customer_phone_alias_pk(tenant_id, phone_e164), keys.ALIAS)
        return item["customer_id"] if item else None

    def find_id_by_wa_user(self, tenant_id: str, wa_user_id: str) -> str | None:
        item = self.db.get(CUSTOMERS, keys.customer_wa_user_alias_pk(tenant_id, wa_user_id), keys.ALIAS)
        return item["customer_id"] if item else None

    def find_or_create(self, tenant_id: str, phone_e164: str, name: str | None, now: datetime) -> tuple[Customer, bool]:
        """The shop's customer with this (normalised) number, made now if there is none; True when made. Two
        makers at once find the one made first."""
        existing_id = self.find_id_by_phone(tenant_id, phone_e164)
        if existing_id is not None:
            return self.get(tenant_id, existing_id), False
        customer = Customer(
            tenant_id=tenant_id,
            customer_id=new_id("cus"),
            phone_e164=phone_e164,
            display_name=(name or "").strip()[:120] or None,
            created_at=now,
            updated_at=now,
        )
        try:
            self.create(customer)
        except StateConflict:
            existing_id = self.find_id_by_phone(tenant_id, phone_e164)
            if existing_id is None:
                raise
            return self.get(tenant_id, existing_id), False
        return customer, True

    def create(self, customer: Customer) -> None:
        """Create the profile and its aliases atomically; a concurrent create loses cleanly."""
        ops: list[dict[str, Any]] = [
            {
                "Put": {
                    "table": CUSTOMERS,
                    "item": self.profile_item(customer),
                    "condition": "attribute_not_exists(pk)",
                }
            }
        ]
        aliases = []
        if customer.phone_e164:
            aliases.append(keys.customer_phone_alias_pk(customer.tenant_id, customer.phone_e164))
        if customer.wa_user_id:
            aliases.append(keys.customer_wa_user_alias_pk(customer.tenant_id, customer.wa_user_id))
        for alias_pk in aliases:
            ops.append(
                {
                    "Put": {
                        "table": CUSTOMERS,
                        "item": {
                            "pk": alias_pk,
                            "sk": keys.ALIAS,
                            "tenant_id": customer.tenant_id,
                            "customer_id": customer.customer_id,
                        },
                        "condition": "attribute_not_exists(pk)",
                    }
                }
            )
        self.db.transact(ops, conflict_message="customer already exists")

    def add_alias(
        self, customer: Customer, *, phone_e164: str | None = None, wa_user_id: str | None = None, now: datetime
    ) -> Customer:
        """Attach a phone or WhatsApp user id seen later to the same customer (one person, one customer)."""
        sets, values, ops = ["updated_at = :now"], {":now": iso(now)}, []
        if phone_e164 and not customer.phone_e164:
            sets.append("phone_e164 = :phone")
            values[":phone"] = phone_e164
            ops.append(keys.customer_phone_alias_pk(customer.tenant_id, phone_e164))
        if wa_user_id and not customer.wa_user_id:
            sets.append("wa_user_id = :wau")
            values[":wau"] = wa_user_id
            ops.append(keys.customer_wa_user_alias_pk(customer.tenant_id, wa_user_id))
        if not ops:
            return customer
        transact: list[dict[str, Any]] = [
            {
                "Update": {
                    "table": CUSTOMERS,
                    "pk": keys.customer_pk(customer.tenant_id, customer.customer_id),
                    "sk": keys.PROFILE,
                    "update": "SET " + ", ".join(sets),
                    "condition": "attribute_exists(pk)",
                    "values": values,
                }
            }
        ]
        for alias_pk in ops:
            transact.append(
                {
                    "Put": {
                        "table": CUSTOMERS,
                        "item": {
                            "pk": alias_pk,
                            "sk": keys.ALIAS,
                            "tenant_id": customer.tenant_id,
                            "customer_id": customer.customer_id,
                        },
                        "condition": "attribute_not_exists(pk)",
                    }
                }
            )
        self.db.transact(transact, conflict_message="alias already belongs to another customer")
        return customer.model_copy(
            update={
                "phone_e164": customer.phone_e164 or phone_e164,
                "wa_user_id": customer.wa_user_id or wa_user_id,
                "updated_at": now,
            }
        )

    def save_preferences(self, before: Customer, after: Customer, events: list[ConsentEvent]) -> None:
        """Write new preferences and append their consent events in one transaction.

        Optimistic: refused if the profile changed since ``before`` was read.
        """
        ops: list[dict[str, Any]] = [
            {
                "Put": {
                    "table": CUSTOMERS,
                    "item": self.profile_item(after),
                    "condition": "updated_at = :before",
                    "values": {":before": iso(before.updated_at)},
                }
            }
        ]
        for event in events:
            ops.append(
                {
                    "Put": {
                        "table": CUSTOMERS,
                        "item": to_item(
                            event,
                            pk=keys.customer_pk(event.tenant_id, event.customer_id),
                            sk=keys.consent_event_sk(sortable(event.at), event.event_id),
                        ),
                        "condition": "attribute_not_exists(pk)",
                    }
                }
            )
        self.db.transact(ops, conflict_message="The customer changed meanwhile; try again.")

    def consent_events(self, tenant_id: str, customer_id: str) -> list[ConsentEvent]:
        items = self.db.query_all(CUSTOMERS, keys.customer_pk(tenant_id, customer_id), sk_prefix=keys.CONSENT_PREFIX)
        return [from_item(ConsentEvent, i) for i in items]

    @staticmethod
    def new_consent_event(
        customer: Customer,
        *,
        field: str,
        old: Any,
        new: Any,
        source: ConsentSource,
        request_id: str,
        conversation_id: str | None,
        at: datetime,
        message_id: str | None = None,
    ) -> ConsentEvent:
        return ConsentEvent(
            tenant_id=customer.tenant_id,
            customer_id=customer.customer_id,
            event_id=new_id("cev", 6),
            at=at,
            field=field,
            old_value=old,
            new_value=new,
            source=source,
            request_id=request_id,
            conversation_id=conversation_id,
            message_id=message_id,
        )

    def redemptions(self, tenant_id: str, customer_id: str) -> dict[str, int]:
        """How often this customer used each offer: ``{offer_id: uses}``."""
        items = self.db.query_all(CUSTOMERS, keys.customer_pk(tenant_id, customer_id), sk_prefix=keys.REDEMPTION_PREFIX)
        return {i["sk"][len(keys.REDEMPTION_PREFIX) :]: int(i.get("uses", 0)) for i in items}

    def set_handoff(self, tenant_id: str, customer_id: str, ticket_id: str | None, now: datetime) -> None:
        self.db.update(
            CUSTOMERS,
            keys.customer_pk(tenant_id, customer_id),
            keys.PROFILE,
            update="SET handoff_ticket_id = :t, updated_at = :now"
            if ticket_id
            else "REMOVE handoff_ticket_id SET updated_at = :now",
            condition="attribute_exists(pk)",
            values={":t": ticket_id, ":now": iso(now)} if ticket_id else {":now": iso(now)},
            conflict_message="Unknown customer.",
        )
