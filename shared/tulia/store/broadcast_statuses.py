"""Meta's delivery statuses of broadcast messages, counted on their broadcast: what the webhook does with
a status, kept apart from the broadcasts' records (no pydantic, no domain models: the webhook's cold start)."""

from __future__ import annotations

from tulia.domain.delivery import STATUS_RANK
from tulia.errors import StateConflict
from tulia.store import keys
from tulia.store.dynamo import Dynamo
from tulia.store.tables import MESSAGES


class BroadcastStatuses:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def on_status(self, tenant_id: str, message_id: str, status: str) -> bool:
        """Meta's status of a message we sent: when it belongs to a broadcast, the recipient moves on
        (never back: sent < delivered < read; failed is final) and the broadcast counts it. One read
        for a message of no broadcast."""
        if status not in STATUS_RANK or status == "queued":
            return False
        link = self.db.get(MESSAGES, keys.wa_message_pk(tenant_id, message_id), keys.BROADCAST_OF_MESSAGE)
        if link is None:
            return False
        lower = [s for s, rank in STATUS_RANK.items() if rank < STATUS_RANK[status] and s not in ("failed", "skipped")]
        placeholders = {f":l{n}": s for n, s in enumerate(lower)}
        try:
            self.db.transact(
                [
                    {
                        "Update": {
                            "table": MESSAGES,
                            "pk": keys.broadcast_recipients_pk(tenant_id, str(link["broadcast_id"])),
                            "sk": keys.recipient_sk(str(link["customer_id"])),
                            "update": "SET #s = :s",
                            "condition": f"#s IN ({', '.join(placeholders)})",
                            "names": {"#s": "status"},
                            "values": {":s": status, **placeholders},
                        }
                    },
                    {
                        "Update": {
                            "table": MESSAGES,
                            "pk": keys.broadcasts_pk(tenant_id),
                            "sk": str(link["broadcast_id"]),
                            "update": "ADD counts.#c :one",
                            "names": {"#c": status},
                            "values": {":one": 1},
                        }
                    },
                ],
                conflict_message="An older status.",
            )
        except StateConflict:
            return False  # a repeat, or a status older than the one recorded
        return True
