"""A shop's staff: who may sign in to its console, one item per person in the shop's tenant partition
(the sign-in itself is Cognito's; this list is what the shop reads, scoped to its own partition)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tulia.domain.common import Model
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo
from tulia.store.tables import TENANTS

StaffRole = Literal["owner", "agent"]


class StaffMember(Model):
    email: str = Field(max_length=254)
    role: StaffRole
    invited_at: datetime
    invited_by: str | None = None


class StaffRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def list(self, tenant_id: str) -> list[StaffMember]:
        items = self.db.query_all(TENANTS, keys.tenant_pk(tenant_id), sk_prefix=keys.STAFF_PREFIX)
        return sorted((from_item(StaffMember, i) for i in items), key=lambda m: (m.role != "owner", m.email))

    def get(self, tenant_id: str, email: str) -> StaffMember | None:
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.staff_sk(email))
        return from_item(StaffMember, item) if item else None

    def save(self, tenant_id: str, member: StaffMember) -> None:
        self.db.put(TENANTS, to_item(member, pk=keys.tenant_pk(tenant_id), sk=keys.staff_sk(member.email)))

    def delete(self, tenant_id: str, email: str) -> None:
        self.db.delete(TENANTS, keys.tenant_pk(tenant_id), keys.staff_sk(email))
