"""Voice notes being transcribed (issue 35, part 2): who sent each, so its transcript can come back as that
customer's turn, and whether they were told "listening…". One item per voice note beside the message's inbound
marker (the messages table), kept a day. ``status``: started -> acknowledged (told "listening…") -> done; each step
is conditional, so a late acknowledgement after the answer is never sent and a transcript is turned into a
turn once."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tulia.errors import StateConflict
from tulia.store import keys
from tulia.store.dynamo import Dynamo
from tulia.store.tables import MESSAGES

VOICE = "VOICE"
VOICE_JOB_TTL = timedelta(days=1)


class VoiceJobs:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    @staticmethod
    def _pk(tenant_id: str, digest: str) -> str:
        return keys.wa_message_pk(tenant_id, f"voice-{digest}")

    def start(self, tenant_id: str, digest: str, sender: dict[str, Any], *, now: datetime) -> bool:
        """Keep who sent the voice note; False when its job was already started (a redelivered turn)."""
        try:
            self.db.put(
                MESSAGES,
                {
                    "pk": self._pk(tenant_id, digest),
                    "sk": VOICE,
                    **sender,
                    "status": "started",
                    "started_at": now.isoformat(),
                    "expires_at": int((now + VOICE_JOB_TTL).timestamp()),
                },
                condition="attribute_not_exists(pk)",
            )
        except StateConflict:
            return False
        return True

    def get(self, tenant_id: str, digest: str) -> dict[str, Any] | None:
        return self.db.get(MESSAGES, self._pk(tenant_id, digest), VOICE)

    def _step(self, tenant_id: str, digest: str, to: str, allowed: tuple[str, ...], now: datetime) -> bool:
        try:
            self.db.update(
                MESSAGES,
                self._pk(tenant_id, digest),
                VOICE,
                update="SET #s = :to, #at = :now",
                condition="#s IN (" + ", ".join(f":a{i}" for i in range(len(allowed))) + ")",
                names={"#s": "status", "#at": f"{to}_at"},
                values={":to": to, ":now": now.isoformat(), **{f":a{i}": a for i, a in enumerate(allowed)}},
            )
        except StateConflict:
            return False
        return True

    def acknowledge(self, tenant_id: str, digest: str, *, now: datetime) -> bool:
        """True once, while the transcript has not come: the customer may be told "listening…"."""
        return self._step(tenant_id, digest, "acknowledged", ("started",), now)

    def finish(self, tenant_id: str, digest: str, *, now: datetime) -> bool:
        """True once, when the transcript (or the job's failure) comes: it becomes the customer's turn."""
        return self._step(tenant_id, digest, "done", ("started", "acknowledged"), now)
