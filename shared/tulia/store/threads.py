"""Each customer's conversation as the console shows it, in the messages table: one item per entry
(kept ``THREAD_KEPT``), a head item with the newest (listed newest first through the ``by_activity``
index, searchable by name and number), the staff's private notes about the customer, and the shop's
quick replies (in its partition of the tenants table).

Entries are written with keys made from what they are (a message id, a turn's key and index), so a
turn delivered twice writes the same items again and nothing twice."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from tulia.domain.thread import QuickReply, StaffNote, ThreadEntry, ThreadHead
from tulia.domain.times import sortable
from tulia.errors import StateConflict
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Key, Page
from tulia.store.tables import MESSAGES, MESSAGES_BY_ACTIVITY, TENANTS

THREAD_KEPT = timedelta(days=90)
PREVIEW = 200


def search_text(name: str | None, phone: str | None) -> str:
    """What a search for a customer matches: the name in lower case and the number's digits."""
    digits = re.sub(r"\D", "", phone or "")
    return f"{(name or '').casefold()} {digits}".strip()


def search_terms(query: str) -> tuple[str, str]:
    """A staff member's search: the words in lower case, and the digits when it reads as a number
    (a Kenyan 07… number matches the stored 2547…)."""
    q = " ".join(query.casefold().split())
    digits = re.sub(r"\D", "", q)
    if digits and len(digits) >= 3 and not re.search(r"[^\d\s+()-]", q):
        if digits.startswith("0"):
            digits = "254" + digits[1:]
        return "", digits
    return q, ""


class ThreadRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    # entries ----------------------------------------------------------------------------------------
    def add(
        self,
        tenant_id: str,
        customer_id: str,
        entries: Sequence[ThreadEntry],
        *,
        name: str | None = None,
        phone: str | None = None,
    ) -> None:
        """Write entries (again, harmlessly, when they were written before) and move the head forward."""
        if not entries:
            return
        pk = keys.thread_pk(tenant_id, customer_id)
        items = [
            to_item(e, pk=pk, sk=keys.thread_entry_sk(sortable(e.at), e.ref), expires_at=_expiry(e.at)) for e in entries
        ]
        self.db.batch_write(MESSAGES, puts=items)
        newest = max(entries, key=lambda e: (e.at, e.role != "event"))
        said = newest.text if newest.role != "event" else str(newest.event)  # the console words an event
        who = {":name": name, ":phone": phone, ":search": search_text(name, phone)} if name or phone else {}
        with contextlib.suppress(StateConflict):  # a newer entry is the head already
            self.db.update(
                MESSAGES,
                pk,
                keys.THREAD_HEAD,
                update=(
                    "SET customer_id = :c, last_at = :at, last_role = :role, last_text = :text, gsi1pk = :g, "
                    "gsi1sk = :gs, expires_at = :exp"
                    + (", #name = :name, phone = :phone, find_text = :search" if who else "")
                ),
                condition="attribute_not_exists(last_at) OR last_at <= :at",
                names={"#name": "name"} if who else None,
                values={
                    ":c": customer_id,
                    ":at": sortable(newest.at),
                    ":role": newest.role,
                    ":text": said[:PREVIEW],
                    ":g": keys.threads_gsi_pk(tenant_id),
                    ":gs": f"{sortable(newest.at)}#{customer_id}",
                    ":exp": _expiry(newest.at),
                    **who,
                },
            )

    def entries(
        self, tenant_id: str, customer_id: str, *, limit: int = 50, cursor: str | None = None
    ) -> Page[ThreadEntry]:
        """The newest ``limit`` entries before the cursor, oldest first (the cursor pages back in time)."""
        page = self.db.page(
            MESSAGES,
            keys.thread_pk(tenant_id, customer_id),
            limit=limit,
            cursor=cursor,
            sk_prefix=keys.THREAD_ENTRY_PREFIX,
            forward=False,
        )
        return Page([from_item(ThreadEntry, i) for i in reversed(page.items)], page.cursor)

    # heads ------------------------------------------------------------------------------------------
    def heads(self, tenant_id: str, *, limit: int = 30, cursor: str | None = None, query: str = "") -> Page[ThreadHead]:
        """The shop's conversations, newest first; with ``query``, those whose customer's name or number
        holds it."""
        words, digits = search_terms(query)
        where, values = None, None
        if digits:
            where, values = "contains(find_text, :q)", {":q": digits}
        elif words:
            where, values = "contains(find_text, :q)", {":q": words}
        page = self.db.page(
            MESSAGES,
            keys.threads_gsi_pk(tenant_id),
            index=MESSAGES_BY_ACTIVITY,
            limit=limit,
            cursor=cursor,
            where=where,
            values=values,
            forward=False,
        )
        return Page([_head(i) for i in page.items], page.cursor)

    def heads_of(self, tenant_id: str, customer_ids: Sequence[str]) -> dict[str, ThreadHead]:
        found = self.db.batch_get(
            [Key(MESSAGES, keys.thread_pk(tenant_id, c), keys.THREAD_HEAD) for c in dict.fromkeys(customer_ids)]
        )
        return {h.customer_id: h for h in (_head(i) for i in found.values())}

    def head(self, tenant_id: str, customer_id: str) -> ThreadHead | None:
        item = self.db.get(MESSAGES, keys.thread_pk(tenant_id, customer_id), keys.THREAD_HEAD)
        return _head(item) if item else None

    # notes ------------------------------------------------------------------------------------------
    def add_note(self, tenant_id: str, note: StaffNote) -> None:
        self.db.put(
            MESSAGES,
            to_item(note, pk=keys.thread_pk(tenant_id, note.customer_id), sk=keys.thread_note_sk(note.note_id)),
            condition="attribute_not_exists(pk)",
            conflict_message="This note was already added.",
        )

    def notes(self, tenant_id: str, customer_id: str) -> list[StaffNote]:
        items = self.db.query_all(MESSAGES, keys.thread_pk(tenant_id, customer_id), sk_prefix=keys.THREAD_NOTE_PREFIX)
        return sorted((from_item(StaffNote, i) for i in items), key=lambda n: n.at)

    def delete_note(self, tenant_id: str, customer_id: str, note_id: str) -> None:
        self.db.delete(MESSAGES, keys.thread_pk(tenant_id, customer_id), keys.thread_note_sk(note_id))

    # the whole conversation (an export, an erasure) ---------------------------------------------------
    def everything(self, tenant_id: str, customer_id: str) -> dict[str, Any]:
        items = list(self.db.query_all(MESSAGES, keys.thread_pk(tenant_id, customer_id)))
        return {
            "entries": [
                from_item(ThreadEntry, i).model_dump(mode="json")
                for i in items
                if str(i["sk"]).startswith(keys.THREAD_ENTRY_PREFIX)
            ],
            "notes": [
                from_item(StaffNote, i).model_dump(mode="json")
                for i in items
                if str(i["sk"]).startswith(keys.THREAD_NOTE_PREFIX)
            ],
        }

    def forget(self, tenant_id: str, customer_id: str) -> int:
        """Delete the conversation, its head and its notes; the number of items deleted."""
        pk = keys.thread_pk(tenant_id, customer_id)
        sks = [str(i["sk"]) for i in self.db.query_all(MESSAGES, pk)]
        self.db.batch_write(MESSAGES, deletes=[(pk, sk) for sk in sks])
        return len(sks)

    # the shop's quick replies -----------------------------------------------------------------------
    def quick_replies(self, tenant_id: str) -> list[QuickReply]:
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.QUICK_REPLIES)
        return [QuickReply.model_validate(r) for r in (item or {}).get("replies", [])]

    def save_quick_replies(self, tenant_id: str, replies: Sequence[QuickReply]) -> None:
        self.db.put(
            TENANTS,
            {
                "pk": keys.tenant_pk(tenant_id),
                "sk": keys.QUICK_REPLIES,
                "replies": [r.model_dump(mode="json") for r in replies],
            },
        )


def _expiry(at: datetime) -> int:
    return int((at + THREAD_KEPT).timestamp())


def _head(item: dict[str, Any]) -> ThreadHead:
    return from_item(ThreadHead, {k: v for k, v in item.items() if k != "find_text"})
