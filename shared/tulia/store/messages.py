"""WhatsApp message records: one inbound marker per message id (de-duplication that outlives Meta's
redeliveries), and the delivery statuses of what we sent."""

from __future__ import annotations

import base64
import contextlib
import hashlib
from datetime import datetime, timedelta
from typing import Any

from tulia.domain.times import sortable
from tulia.errors import StateConflict
from tulia.store import keys
from tulia.store.dynamo import Dynamo
from tulia.store.tables import MESSAGES

# Meta redelivers an unacknowledged webhook for up to about 7 days: keep the marker longer.
INBOUND_MARKER_TTL = timedelta(days=8)
STATUS_TTL = timedelta(days=30)
OUTBOX_TTL = timedelta(days=8)
WINDOW_RECORD_TTL = timedelta(hours=48)  # absent = the window is closed
MALFORMED_TTL = timedelta(days=14)
MALFORMED_KEEP_BYTES = 16_000


class MessageRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def claim_inbound(self, tenant_id: str, message_id: str, *, now: datetime, customer_key: str) -> bool:
        """Record that this message arrived; False when it already had (a redelivery)."""
        try:
            self.db.put(
                MESSAGES,
                {
                    "pk": keys.wa_message_pk(tenant_id, message_id),
                    "sk": keys.INBOUND,
                    "received_at": now.isoformat(),
                    "customer_key": customer_key,
                    "expires_at": int((now + INBOUND_MARKER_TTL).timestamp()),
                },
                condition="attribute_not_exists(pk)",
            )
        except StateConflict:
            return False
        return True

    def note_inbound(self, tenant_id: str, customer_key: str, *, at: datetime) -> None:
        """The customer wrote at ``at``: WhatsApp's 24-hour window runs from their latest message (an
        older message delivered late does not move it back). Kept a day past the window's end."""
        with contextlib.suppress(StateConflict):  # a later message was noted first
            self.db.update(
                MESSAGES,
                keys.customer_window_pk(tenant_id, customer_key),
                keys.WINDOW,
                update="SET last_inbound_at = :at, expires_at = :exp",
                condition="attribute_not_exists(last_inbound_at) OR last_inbound_at < :at",
                values={":at": sortable(at), ":exp": int((at + WINDOW_RECORD_TTL).timestamp())},
            )

    def last_inbound(self, tenant_id: str, customer_key: str) -> datetime | None:
        item = self.db.get(MESSAGES, keys.customer_window_pk(tenant_id, customer_key), keys.WINDOW)
        return datetime.fromisoformat(item["last_inbound_at"]) if item else None

    def keep_malformed(self, raw_body: bytes, why: str, *, now: datetime) -> None:
        """Keep a signed webhook body that could not be used, for a person to inspect (two weeks)."""
        digest = hashlib.sha256(raw_body).hexdigest()[:16]
        self.db.put(
            MESSAGES,
            {
                "pk": keys.MALFORMED_WEBHOOKS,
                "sk": f"{now.isoformat()}#{digest}",
                "why": why[:300],
                "size": len(raw_body),
                "body": base64.b64encode(raw_body[:MALFORMED_KEEP_BYTES]).decode(),
                "expires_at": int((now + MALFORMED_TTL).timestamp()),
            },
        )

    def malformed_webhooks(self, limit: int = 50) -> list[dict[str, Any]]:
        return list(self.db.query(MESSAGES, keys.MALFORMED_WEBHOOKS, limit=limit, forward=False, consistent=True).items)

    def release_inbound(self, tenant_id: str, message_id: str) -> None:
        """Forget a marker whose message could not be queued, so Meta's retry is accepted."""
        self.db.delete(MESSAGES, keys.wa_message_pk(tenant_id, message_id), keys.INBOUND)

    def record_status(
        self, tenant_id: str, message_id: str, status: str, *, at: int, now: datetime, error: dict[str, Any] | None
    ) -> None:
        item: dict[str, Any] = {
            "pk": keys.wa_message_pk(tenant_id, message_id),
            "sk": keys.STATUS_PREFIX + status,
            "at": at,
            "expires_at": int((now + STATUS_TTL).timestamp()),
        }
        if error:
            item["error"] = error
        self.db.put(MESSAGES, item)

    def statuses(self, tenant_id: str, message_id: str) -> list[dict[str, Any]]:
        page = self.db.query(MESSAGES, keys.wa_message_pk(tenant_id, message_id), sk_prefix=keys.STATUS_PREFIX)
        return list(page.items)

    # the agent's outbox: the replies of one turn, stored before they are sent ----------------------
    def get_outbox(self, tenant_id: str, message_id: str) -> dict[str, Any] | None:
        return self.db.get(MESSAGES, keys.wa_message_pk(tenant_id, message_id), keys.OUTBOX)

    def save_outbox(
        self,
        tenant_id: str,
        message_id: str,
        *,
        phone_number_id: str,
        replies: list[dict[str, Any]],
        covers: list[str],
        trace: list[dict[str, Any]],
        now: datetime,
    ) -> bool:
        """Store a turn's replies under the message that closed the turn; False if already stored.
        The other messages of the turn point to it."""
        expires = int((now + OUTBOX_TTL).timestamp())
        try:
            self.db.put(
                MESSAGES,
                {
                    "pk": keys.wa_message_pk(tenant_id, message_id),
                    "sk": keys.OUTBOX,
                    "phone_number_id": phone_number_id,
                    "replies": replies,
                    "sent": [None] * len(replies),
                    "covers": covers,
                    "trace": trace,
                    "created_at": now.isoformat(),
                    "expires_at": expires,
                },
                condition="attribute_not_exists(pk)",
            )
        except StateConflict:
            return False
        for other in covers:
            if other != message_id:
                self.db.put(
                    MESSAGES,
                    {
                        "pk": keys.wa_message_pk(tenant_id, other),
                        "sk": keys.OUTBOX,
                        "answered_in": message_id,
                        "expires_at": expires,
                    },
                )
        return True

    def mark_sent(self, tenant_id: str, message_id: str, index: int, result: str) -> None:
        self.db.update(
            MESSAGES,
            keys.wa_message_pk(tenant_id, message_id),
            keys.OUTBOX,
            update=f"SET sent[{int(index)}] = :r",
            values={":r": result},
        )
