"""Broadcasts: one approved marketing template sent to the shop's customers who asked for offers,
optionally narrowed (language, a recent order, a category bought, money spent)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tulia.domain.common import Lang, Model
from tulia.domain.templates import NAME_PATTERN
from tulia.domain.tenant import Tenant

BroadcastStatus = Literal["sending", "done", "cancelled"]
RecipientStatus = Literal["queued", "sending", "sent", "delivered", "read", "failed", "skipped"]
NAME_PARAMETER = "{name}"  # a template parameter filled with each customer's first name


class Segment(Model):
    """Who gets it: always only customers opted in to WhatsApp offers; then every filter given."""

    language: Lang | None = Field(default=None, description="Customers who chose this language")
    ordered_within_days: int | None = Field(default=None, ge=1, le=3650, description="Ordered in the last N days")
    category: str | None = Field(default=None, min_length=1, max_length=80, description="Bought from this category")
    min_spent_kes: int | None = Field(default=None, ge=0, le=100_000_000, description="Paid at least this in all")


class Broadcast(Model):
    tenant_id: str
    broadcast_id: str
    template: str = Field(pattern=NAME_PATTERN)
    parameters: list[str] = Field(default_factory=list, max_length=20)
    segment: Segment = Field(default_factory=Segment)
    status: BroadcastStatus = "sending"
    created_by: str
    created_at: datetime
    finished_at: datetime | None = None
    recipients: int = 0
    # how it went: sent, delivered, read, failed (Meta's statuses); skipped (consent withdrawn, no
    # template in their language...); stopped (replied STOP afterwards)
    counts: dict[str, int] = Field(default_factory=dict)


class Recipient(Model):
    customer_id: str
    status: RecipientStatus = "queued"
    message_id: str | None = None
    why: str | None = Field(default=None, max_length=200)  # why skipped or failed
    at: datetime | None = None


def marketing_opens_at(tenant: Tenant, now: datetime) -> datetime | None:
    """None inside the shop's marketing hours, else when they open."""
    hours = tenant.messaging.marketing_allowed()
    return None if hours.is_open(now) else hours.next_opening(now)
