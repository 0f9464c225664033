"""The audit trail of a shop: who changed what, and when. Append-only; listed newest first."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from tulia.domain.common import Model, new_id
from tulia.domain.times import sortable
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Page
from tulia.store.tables import AUDIT


class AuditEntry(Model):
    tenant_id: str
    entry_id: str
    at: datetime
    actor: str  # the staff member's e-mail (or Cognito subject)
    role: str
    action: str  # e.g. catalog.item.update, customer.erase
    target: str  # what was acted on: a sku, an order id, a customer id...
    details: dict[str, Any] = Field(default_factory=dict)


class AuditRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def record(
        self,
        tenant_id: str,
        *,
        actor: str,
        role: str,
        action: str,
        target: str,
        at: datetime,
        details: dict[str, Any] | None = None,
    ) -> AuditEntry:
        entry = AuditEntry(
            tenant_id=tenant_id,
            entry_id=new_id("aud", 6),
            at=at,
            actor=actor,
            role=role,
            action=action,
            target=target,
            details=details or {},
        )
        self.db.put(
            AUDIT,
            to_item(entry, pk=keys.audit_pk(tenant_id), sk=keys.audit_sk(sortable(at), entry.entry_id)),
            condition="attribute_not_exists(pk)",
            conflict_message="audit entry already written",
        )
        return entry

    def list(self, tenant_id: str, *, limit: int = 50, cursor: str | None = None) -> Page[AuditEntry]:
        page = self.db.query(AUDIT, keys.audit_pk(tenant_id), limit=limit, cursor=cursor, forward=False)
        return Page([from_item(AuditEntry, i) for i in page.items], page.cursor)
