"""A customer's conversation as the console shows it: what the customer wrote, what the bot and the
shop's people sent, and the events between (a payment landed, an order was dispatched, a person took
the conversation over). Events carry their facts, so the console words them in its own language."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tulia.domain.common import Model

ThreadRole = Literal["customer", "bot", "staff", "event"]
NOTE_LIMIT = 2000
QUICK_REPLIES_MAX = 50


class ThreadEntry(Model):
    at: datetime
    role: ThreadRole
    text: str = Field(default="", max_length=4096)  # an event's text is its English wording, for exports
    ref: str = Field(min_length=1, max_length=300)  # what makes it once: a message id, a turn's key and index
    event: str | None = Field(default=None, max_length=60)  # the event's kind (role "event")
    facts: dict[str, str | int] = Field(default_factory=dict)  # what the console needs to word the event
    by: str | None = Field(default=None, max_length=320)  # the staff member who sent it
    template: str | None = Field(default=None, max_length=512)  # sent as this WhatsApp template


class ThreadHead(Model):
    """The newest of a conversation, for the list of every conversation."""

    customer_id: str
    last_at: datetime
    last_role: ThreadRole
    last_text: str = Field(default="", max_length=200)
    name: str | None = None
    phone: str | None = None


class StaffNote(Model):
    """A private note about a customer: the shop's people read it, the customer never does."""

    note_id: str
    customer_id: str
    text: str = Field(min_length=1, max_length=NOTE_LIMIT)
    by: str
    at: datetime


class QuickReply(Model):
    """A reply the shop writes once and sends with a tap."""

    title: str = Field(min_length=1, max_length=40)
    text: str = Field(min_length=1, max_length=1000)
