"""The messages a shop's bot did not understand, and the owner's labels of them (messages table, the shop's
``MISREADS`` partition: one item per message as written, counted). Unlabelled ones expire after ``MISREAD_KEPT``; a
labelled one is kept (it is part of the shop's reading) until its label is taken back."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from tulia.domain.understanding import MAX_MISREAD_TEXT, CorpusLang, Misread, MisreadLabel, MisreadWhy, misread_id
from tulia.errors import NotFound, StateConflict
from tulia.store import keys
from tulia.store.codec import from_item
from tulia.store.dynamo import Dynamo
from tulia.store.tables import MESSAGES

MISREAD_KEPT = timedelta(days=90)
MAX_LISTED = 500  # the most a shop's list reads (unlabelled ones expire; a shop with more has a reading problem)


# what a customer's words may hold that is theirs alone: phone numbers and payment codes are kept out of the list
_PHONE = re.compile(r"(?<!\d)(?:\+?254|0)\s?[17]\d{2}\s?\d{3}\s?\d{3}(?!\d)")
_MPESA_CODE = re.compile(r"\b(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{10}\b")


def redacted(text: str) -> str:
    """The message without phone numbers and M-Pesa codes (the owner labels what was meant, not who sent it)."""
    return _MPESA_CODE.sub("[code]", _PHONE.sub("[phone]", text))


class MisreadRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def record(
        self,
        tenant_id: str,
        text: str,
        *,
        lang: CorpusLang,
        why: MisreadWhy,
        read_as: str,
        confidence: float,
        at: datetime,
    ) -> Misread:
        """Count one more of this message (the first records it); its reading and why are the latest."""
        said = redacted(" ".join(text.split()))[:MAX_MISREAD_TEXT]
        mid = misread_id(said)
        values: dict[str, Any] = {
            ":tenant": tenant_id,
            ":id": mid,
            ":text": said,
            ":lang": lang,
            ":why": why,
            ":read_as": read_as,
            ":confidence": round(confidence, 4),
            ":at": at.isoformat(),
            ":one": 1,
        }
        sets = (
            "SET tenant_id = :tenant, misread_id = :id, #text = if_not_exists(#text, :text), lang = :lang, "
            "why = :why, read_as = :read_as, confidence = :confidence, first_at = if_not_exists(first_at, :at), "
            "last_at = :at"
        )
        names = {"#text": "text"}
        try:  # unlabelled: it expires unless it comes again
            item = self.db.update(
                MESSAGES,
                keys.misreads_pk(tenant_id),
                keys.misread_sk(mid),
                update=f"{sets}, expires_at = :expires ADD times :one",
                condition="attribute_not_exists(label)",
                names=names,
                values={**values, ":expires": int((at + MISREAD_KEPT).timestamp())},
            )
        except StateConflict:  # labelled: kept as it is, only counted
            item = self.db.update(
                MESSAGES,
                keys.misreads_pk(tenant_id),
                keys.misread_sk(mid),
                update=f"{sets} ADD times :one",
                names=names,
                values=values,
            )
        return from_item(Misread, item)

    def get(self, tenant_id: str, mid: str) -> Misread | None:
        item = self.db.get(MESSAGES, keys.misreads_pk(tenant_id), keys.misread_sk(mid))
        return from_item(Misread, item) if item else None

    def all(self, tenant_id: str) -> list[Misread]:
        """The shop's messages not understood, the most often sent first (then the latest)."""
        out = []
        for item in self.db.query_all(MESSAGES, keys.misreads_pk(tenant_id), sk_prefix=keys.MISREAD_PREFIX):
            out.append(from_item(Misread, item))
            if len(out) >= MAX_LISTED:
                break
        return sorted(out, key=lambda m: (m.times, m.last_at), reverse=True)

    def labelled(self, tenant_id: str) -> list[Misread]:
        """Every labelled message (the shop's reading layer and the corpus export: never cut at ``MAX_LISTED``)."""
        items = self.db.query_all(MESSAGES, keys.misreads_pk(tenant_id), sk_prefix=keys.MISREAD_PREFIX)
        return [m for m in (from_item(Misread, item) for item in items) if m.label is not None]

    def set_label(self, tenant_id: str, mid: str, label: MisreadLabel | None) -> Misread:
        """Label a message (kept from then on), or take its label back (``None``: it expires again)."""
        current = self.get(tenant_id, mid)
        if current is None:
            raise NotFound(f"No message '{mid}' in this shop's list.", field="misread_id")
        if label is None:
            update = "REMOVE label SET expires_at = :expires"
            values: dict[str, Any] = {":expires": int((current.last_at + MISREAD_KEPT).timestamp())}
        else:
            update, values = "SET label = :label REMOVE expires_at", {":label": label.model_dump(mode="json")}
        item = self.db.update(
            MESSAGES,
            keys.misreads_pk(tenant_id),
            keys.misread_sk(mid),
            update=update,
            condition="attribute_exists(pk)",
            values=values,
            conflict_message=f"No message '{mid}' in this shop's list.",
        )
        return from_item(Misread, item)
