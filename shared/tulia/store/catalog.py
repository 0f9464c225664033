"""Catalog items, one partition per tenant."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from tulia.domain.catalog import CatalogItem
from tulia.errors import NotFound
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Key, Page
from tulia.store.tables import CATALOG


class CatalogRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def page(
        self,
        tenant_id: str,
        *,
        category: str | None = None,
        active: bool | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[CatalogItem]:
        """One page of the shop's items, optionally of one category or only (in)active ones."""
        where: list[str] = []
        values: dict[str, Any] = {}
        if category:
            where.append("category = :category")
            values[":category"] = category
        if active is not None:
            where.append("active = :active")
            values[":active"] = active
        page = self.db.page(
            CATALOG,
            keys.catalog_pk(tenant_id),
            sk_prefix=keys.ITEM_PREFIX,
            where=" AND ".join(where) or None,
            values=values,
            limit=limit,
            cursor=cursor,
        )
        return Page([self.from_item(i) for i in page.items], page.cursor)

    @staticmethod
    def key(tenant_id: str, item_id: str) -> Key:
        return Key(CATALOG, keys.catalog_pk(tenant_id), keys.catalog_item_sk(item_id))

    @staticmethod
    def from_item(item: dict[str, Any]) -> CatalogItem:
        return from_item(CatalogItem, item)

    def get(self, tenant_id: str, item_id: str) -> CatalogItem:
        item = self.db.get(CATALOG, keys.catalog_pk(tenant_id), keys.catalog_item_sk(item_id))
        if item is None:
            raise NotFound(f"No catalog item '{item_id}'.", field="item_id")
        return self.from_item(item)

    def get_many(self, tenant_id: str, item_ids: Sequence[str]) -> dict[str, CatalogItem]:
        found = self.db.batch_get([self.key(tenant_id, i) for i in item_ids])
        items = (self.from_item(v) for v in found.values())
        return {i.item_id: i for i in items}

    def has_active(self, tenant_id: str) -> bool:
        """Whether customers are shown at least one item, read a few items at a time until the first (not the whole
        catalog: a shop's few hidden example items come before its real ones or among them)."""
        cursor: str | None = None
        while True:
            page = self.db.page(
                CATALOG, keys.catalog_pk(tenant_id), sk_prefix=keys.ITEM_PREFIX, limit=10, cursor=cursor
            )
            if any(self.from_item(item).active for item in page.items):
                return True
            if page.cursor is None:
                return False
            cursor = page.cursor

    def iter_all(self, tenant_id: str) -> Iterator[CatalogItem]:
        for item in self.db.query_all(CATALOG, keys.catalog_pk(tenant_id), sk_prefix=keys.ITEM_PREFIX):
            yield self.from_item(item)

    def put_many(self, items: Iterable[CatalogItem]) -> None:
        rows = [to_item(i, pk=keys.catalog_pk(i.tenant_id), sk=keys.catalog_item_sk(i.item_id)) for i in items]
        self.db.batch_write(CATALOG, puts=rows)

    def delete_many(self, tenant_id: str, item_ids: Iterable[str]) -> None:
        pk = keys.catalog_pk(tenant_id)
        self.db.batch_write(CATALOG, deletes=[(pk, keys.catalog_item_sk(i)) for i in item_ids])
