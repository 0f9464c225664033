"""Tenant-scoped customers and their append-only consent events."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field, model_validator

from tulia.domain.common import LangPref, Model

ConsentSource = Literal["user_message", "admin", "import", "keyword"]


class NotificationPrefs(Model):
    offers_whatsapp: bool = False
    order_updates_whatsapp: bool = True


class Customer(Model):
    tenant_id: str
    customer_id: str
    phone_e164: str | None = None
    wa_user_id: str | None = None  # WhatsApp business-scoped user id (BSUID), when Meta sends one
    display_name: str | None = Field(default=None, max_length=120)
    language_preference: LangPref | None = None
    marketing_opt_in: bool | None = None  # None: never asked; treated as "no" (strict by default)
    notification_prefs: NotificationPrefs = Field(default_factory=NotificationPrefs)
    orders_paid_count: int = 0
    handoff_ticket_id: str | None = None  # set while a human owns the conversation
    created_at: datetime
    updated_at: datetime

    @model_validator(mode="after")
    def _has_identity(self) -> Customer:
        if not self.phone_e164 and not self.wa_user_id:
            raise ValueError("a customer needs a phone number or a WhatsApp user id")
        return self

    @property
    def opted_in_to_marketing(self) -> bool:
        return self.marketing_opt_in is True


def may_market(marketing_opt_in: bool | None, offers_whatsapp: bool, *, requires_opt_in: bool) -> bool:
    """Whether offers and tips the customer did not ask for may be sent: never after an opt-out; with
    the shop's ``compliance.marketing_requires_opt_in``, only after an opt-in to WhatsApp offers."""
    if marketing_opt_in is False:
        return False
    if requires_opt_in:
        return marketing_opt_in is True and offers_whatsapp
    return True


def wants_offers(customer: Customer) -> bool:
    """Opted in to marketing and to offers on WhatsApp (a broadcast's audience, whatever else)."""
    return may_market(customer.marketing_opt_in, customer.notification_prefs.offers_whatsapp, requires_opt_in=True)


class ConsentEvent(Model):
    """One change of consent. Stored insert-only; never updated or deleted."""

    tenant_id: str
    customer_id: str
    event_id: str
    at: datetime
    field: str
    old_value: bool | str | None = None
    new_value: bool | str | None = None
    source: ConsentSource
    request_id: str
    conversation_id: str | None = None
    message_id: str | None = None
