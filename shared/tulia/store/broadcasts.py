"""Broadcasts and their recipients, in the messages table (the webhook records their delivery statuses
there): the broadcast in the shop's list, one item per recipient (each sent at most once), and on each
message sent the broadcast it belongs to."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tulia.domain.broadcast import Broadcast, Recipient
from tulia.domain.common import iso
from tulia.errors import NotFound, StateConflict
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Page
from tulia.store.tables import MESSAGES

MESSAGE_LINK_TTL = timedelta(days=30)  # Meta's statuses come within days
STOP_WINDOW = timedelta(days=7)  # a STOP within a week of a broadcast is counted against it


class BroadcastRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def create(self, broadcast: Broadcast, customer_ids: list[str]) -> None:
        self.db.put(
            MESSAGES,
            to_item(broadcast, pk=keys.broadcasts_pk(broadcast.tenant_id), sk=broadcast.broadcast_id),
            condition="attribute_not_exists(pk)",
        )
        self.db.batch_write(
            MESSAGES,
            [
                to_item(
                    Recipient(customer_id=c),
                    pk=keys.broadcast_recipients_pk(broadcast.tenant_id, broadcast.broadcast_id),
                    sk=keys.recipient_sk(c),
                )
                for c in customer_ids
            ],
        )

    def get(self, tenant_id: str, broadcast_id: str) -> Broadcast:
        item = self.db.get(MESSAGES, keys.broadcasts_pk(tenant_id), broadcast_id)
        if item is None:
            raise NotFound(f"No broadcast '{broadcast_id}'.", field="broadcast_id")
        return from_item(Broadcast, item)

    def list(self, tenant_id: str, *, limit: int = 50, cursor: str | None = None) -> Page[Broadcast]:
        page = self.db.query(MESSAGES, keys.broadcasts_pk(tenant_id), limit=limit, cursor=cursor, forward=False)
        return Page([from_item(Broadcast, i) for i in page.items], page.cursor)

    def recipients(
        self, tenant_id: str, broadcast_id: str, *, limit: int = 100, cursor: str | None = None
    ) -> Page[Recipient]:
        page = self.db.query(
            MESSAGES,
            keys.broadcast_recipients_pk(tenant_id, broadcast_id),
            sk_prefix=keys.RECIPIENT_PREFIX,
            limit=limit,
            cursor=cursor,
        )
        return Page([from_item(Recipient, i) for i in page.items], page.cursor)

    def set_status(self, tenant_id: str, broadcast_id: str, status: str, now: datetime) -> None:
        self.db.update(
            MESSAGES,
            keys.broadcasts_pk(tenant_id),
            broadcast_id,
            update="SET #s = :s, finished_at = :now",
            condition="#s = :sending",
            names={"#s": "status"},
            values={":s": status, ":now": iso(now), ":sending": "sending"},
            conflict_message="The broadcast is not sending.",
        )

    def claim(self, tenant_id: str, broadcast_id: str, customer_id: str, now: datetime) -> bool:
        """Take a queued recipient for sending: False if it was taken before (a batch retried)."""
        try:
            self.db.update(
                MESSAGES,
                keys.broadcast_recipients_pk(tenant_id, broadcast_id),
                keys.recipient_sk(customer_id),
                update="SET #s = :sending, #at = :now",
                condition="#s = :queued",
                names={"#s": "status", "#at": "at"},
                values={":sending": "sending", ":queued": "queued", ":now": iso(now)},
            )
        except StateConflict:
            return False
        return True

    def release(self, tenant_id: str, broadcast_id: str, customer_id: str) -> None:
        """A recipient whose send failed for a reason that passes (throttled, Meta unreachable)."""
        self.db.update(
            MESSAGES,
            keys.broadcast_recipients_pk(tenant_id, broadcast_id),
            keys.recipient_sk(customer_id),
            update="SET #s = :queued",
            names={"#s": "status"},
            values={":queued": "queued"},
        )

    def settle(
        self,
        tenant_id: str,
        broadcast_id: str,
        customer_id: str,
        *,
        status: str,
        now: datetime,
        message_id: str | None = None,
        why: str | None = None,
    ) -> None:
        """What happened to a recipient taken for sending: sent (and the message linked to the
        broadcast, and the customer's last broadcast noted), skipped or failed; counted once."""
        sets = ["#s = :s", "#at = :now"]
        values: dict[str, Any] = {":s": status, ":now": iso(now), ":sending": "sending"}
        if message_id:
            sets.append("message_id = :m")
            values[":m"] = message_id
        if why:
            sets.append("why = :w")
            values[":w"] = why[:200]
        ops: list[dict[str, Any]] = [
            {
                "Update": {
                    "table": MESSAGES,
                    "pk": keys.broadcast_recipients_pk(tenant_id, broadcast_id),
                    "sk": keys.recipient_sk(customer_id),
                    "update": "SET " + ", ".join(sets),
                    "condition": "#s = :sending",
                    "names": {"#s": "status", "#at": "at"},
                    "values": values,
                }
            },
            {
                "Update": {
                    "table": MESSAGES,
                    "pk": keys.broadcasts_pk(tenant_id),
                    "sk": broadcast_id,
                    "update": "ADD counts.#c :one",
                    "names": {"#c": status},
                    "values": {":one": 1},
                }
            },
        ]
        if message_id:
            ops.append(
                {
                    "Put": {
                        "table": MESSAGES,
                        "item": {
                            "pk": keys.wa_message_pk(tenant_id, message_id),
                            "sk": keys.BROADCAST_OF_MESSAGE,
                            "broadcast_id": broadcast_id,
                            "customer_id": customer_id,
                            "expires_at": int((now + MESSAGE_LINK_TTL).timestamp()),
                        },
                    }
                }
            )
            ops.append(
                {
                    "Put": {
                        "table": MESSAGES,
                        "item": {
                            "pk": keys.last_broadcast_pk(tenant_id, customer_id),
                            "sk": keys.BROADCAST_OF_MESSAGE,
                            "broadcast_id": broadcast_id,
                            "expires_at": int((now + STOP_WINDOW).timestamp()),
                        },
                    }
                }
            )
        self.db.transact(ops, conflict_message="The recipient was settled before.")

    def count_stop(self, tenant_id: str, customer_id: str) -> str | None:
        """A customer opted out: the broadcast they got in the week before counts a STOP."""
        last = self.db.get(MESSAGES, keys.last_broadcast_pk(tenant_id, customer_id), keys.BROADCAST_OF_MESSAGE)
        if last is None:
            return None
        self.db.delete(MESSAGES, keys.last_broadcast_pk(tenant_id, customer_id), keys.BROADCAST_OF_MESSAGE)
        self.db.update(
            MESSAGES,
            keys.broadcasts_pk(tenant_id),
            str(last["broadcast_id"]),
            update="ADD counts.#c :one",
            names={"#c": "stopped"},
            values={":one": 1},
        )
        return str(last["broadcast_id"])

    def claim_reminder(self, tenant_id: str, order_id: str, now: datetime) -> bool:
        """The unpaid-order reminder of ``order_id`` is sent once: False if it was taken before."""
        try:
            self.db.put(
                MESSAGES,
                {
                    "pk": keys.reminder_pk(tenant_id, order_id),
                    "sk": "REMINDER",
                    "at": iso(now),
                    "expires_at": int((now + timedelta(days=90)).timestamp()),
                },
                condition="attribute_not_exists(pk)",
            )
        except StateConflict:
            return False
        return True
