"""A shop's staff: who may sign in to its console, one item per person in the shop's tenant partition
(the sign-in itself is Cognito's; this list is what the shop reads, scoped to its own partition)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from pydantic import Field

from tulia.domain.common import Model
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Key
from tulia.store.tables import TENANTS

StaffRole = Literal["owner", "agent"]
REMOVAL_KEPT = timedelta(days=2)


class StaffMember(Model):
    email: str = Field(max_length=254)
    name: str | None = Field(default=None, max_length=80)  # as the shop knows them ("Wanjiku"); older records: none
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

    def names(self, tenant_id: str) -> dict[str, str]:
        """Each named person's name by their email (how actions are recorded), for showing who did what."""
        return {m.email: m.name for m in self.list(tenant_id) if m.name}

    def save(self, tenant_id: str, member: StaffMember) -> None:
        self.db.put(TENANTS, to_item(member, pk=keys.tenant_pk(tenant_id), sk=keys.staff_sk(member.email)))

    def delete(self, tenant_id: str, email: str) -> None:
        self.db.delete(TENANTS, keys.tenant_pk(tenant_id), keys.staff_sk(email))

    def mark_removed(self, tenant_id: str, email: str, *, at: datetime) -> None:
        """Remember that this person was removed (kept two days: longer than any token of theirs lives)."""
        self.db.put(
            TENANTS,
            {
                "pk": keys.tenant_pk(tenant_id),
                "sk": keys.staff_removed_sk(email),
                "removed_at": at.isoformat(),
                "expires_at": int((at + REMOVAL_KEPT).timestamp()),
            },
        )

    def clear_removed(self, tenant_id: str, email: str) -> None:
        """Invited again: the removal no longer stands."""
        self.db.delete(TENANTS, keys.tenant_pk(tenant_id), keys.staff_removed_sk(email))

    def standing(self, tenant_id: str, email: str) -> tuple[StaffMember | None, bool]:
        """The person's membership record (None for people who predate the staff list) and whether
        they were removed: one read of the two items."""
        pk = keys.tenant_pk(tenant_id)
        found = self.db.batch_get(
            [Key(TENANTS, pk, keys.staff_sk(email)), Key(TENANTS, pk, keys.staff_removed_sk(email))]
        )
        member = found.get(Key(TENANTS, pk, keys.staff_sk(email)))
        removed = Key(TENANTS, pk, keys.staff_removed_sk(email)) in found
        return (from_item(StaffMember, member) if member else None), removed
