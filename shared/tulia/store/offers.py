"""Offers and coupons, one partition per tenant (a shop has tens of offers, not thousands)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tulia.domain.offer import Offer
from tulia.errors import StateConflict
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo
from tulia.store.tables import CUSTOMERS, OFFERS


class OfferRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def find(self, tenant_id: str, offer_id: str) -> Offer | None:
        """One offer of the shop, or None."""
        item = self.db.get(OFFERS, keys.offers_pk(tenant_id), keys.offer_sk(offer_id))
        return None if item is None else self.from_item(item)

    @staticmethod
    def from_item(item: dict[str, Any]) -> Offer:
        return from_item(Offer, item)

    def all_for(self, tenant_id: str) -> list[Offer]:
        return [
            self.from_item(i) for i in self.db.query_all(OFFERS, keys.offers_pk(tenant_id), sk_prefix=keys.OFFER_PREFIX)
        ]

    def put_many(self, offers: Iterable[Offer]) -> None:
        rows = [to_item(o, pk=keys.offers_pk(o.tenant_id), sk=keys.offer_sk(o.offer_id)) for o in offers]
        self.db.batch_write(OFFERS, puts=rows)

    def delete_many(self, tenant_id: str, offer_ids: Iterable[str]) -> None:
        pk = keys.offers_pk(tenant_id)
        self.db.batch_write(OFFERS, deletes=[(pk, keys.offer_sk(o)) for o in offer_ids])

    def count_use(self, tenant_id: str, offer_id: str) -> None:
        """One more order paid with this automatic offer's discount (an offer deleted since is left alone)."""
        try:
            self.db.update(
                OFFERS,
                keys.offers_pk(tenant_id),
                keys.offer_sk(offer_id),
                update="SET redemptions = if_not_exists(redemptions, :zero) + :one",
                condition="attribute_exists(pk)",
                values={":zero": 0, ":one": 1},
            )
        except StateConflict:
            return

    @staticmethod
    def redeem_operations(offer: Offer, customer_id: str, order_id: str, now_iso: str) -> list[dict[str, Any]]:
        """Transaction parts that count one redemption, refused past the global or per-customer limit."""
        limit_cond = "attribute_exists(pk)"
        values: dict[str, Any] = {":one": 1, ":zero": 0}
        if offer.usage_limit is not None:
            limit_cond += " AND (attribute_not_exists(redemptions) OR redemptions < :limit)"
            values[":limit"] = offer.usage_limit
        return [
            {
                "Update": {
                    "table": OFFERS,
                    "pk": keys.offers_pk(offer.tenant_id),
                    "sk": keys.offer_sk(offer.offer_id),
                    "update": "SET redemptions = if_not_exists(redemptions, :zero) + :one",
                    "condition": limit_cond,
                    "values": values,
                }
            },
            {
                "Update": {
                    "table": CUSTOMERS,
                    "pk": keys.customer_pk(offer.tenant_id, customer_id),
                    "sk": keys.redemption_sk(offer.offer_id),
                    "update": "SET uses = if_not_exists(uses, :zero) + :one, order_ids = list_append("
                    "if_not_exists(order_ids, :empty), :oid), updated_at = :now",
                    "condition": "attribute_not_exists(uses) OR uses < :per",
                    "values": {
                        ":one": 1,
                        ":zero": 0,
                        ":per": offer.per_customer_limit,
                        ":empty": [],
                        ":oid": [order_id],
                        ":now": now_iso,
                    },
                }
            },
        ]
