"""Fair-use counters (spec 8.4): messages per customer and per shop in each minute, atomic ``ADD``
counters in the stats table that expire on their own. (The model spend per day is the analytics
counter of the day: :meth:`tulia.store.stats.StatsRepo.model_cost_usd`.)"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from tulia.store import keys
from tulia.store.dynamo import Dynamo
from tulia.store.tables import STATS

COUNTER_TTL_SECONDS = 180  # a minute's counter is gone soon after the minute
CLOSED_NOTICE_KEPT_SECONDS = 60 * 24 * 3600  # a customer told the shop is closed is not told again for 60 days


class LimitCounters:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def count(self, tenant_id: str, scope: str, at: datetime, n: int = 1) -> int:
        """Add ``n`` to the counter of ``scope`` for the minute of ``at``; the new total."""
        minute = at.astimezone(UTC).strftime("%Y%m%d%H%M")
        attrs = self.db.update(
            STATS,
            keys.stats_pk(tenant_id),
            f"RATE#{scope}#{minute}",
            update="ADD #n :n SET expires_at = if_not_exists(expires_at, :exp)",
            names={"#n": "count"},
            values={":n": n, ":exp": int(at.timestamp()) + COUNTER_TTL_SECONDS},
        )
        return int(attrs.get("count", n))

    def customer(self, tenant_id: str, customer_key: str, at: datetime, n: int = 1) -> int:
        return self.count(tenant_id, f"CUST#{_digest(customer_key)}", at, n)

    def first_notice(self, tenant_id: str, customer_key: str, at: datetime) -> bool:
        """Whether the customer is told about a limit now: once a minute."""
        return self.count(tenant_id, f"TOLD#{_digest(customer_key)}", at) == 1

    def first_closed_notice(self, tenant_id: str, customer_key: str, since: datetime | None, at: datetime) -> bool:
        """Whether the customer is told now that the shop is not answering: once for each time it closed."""
        moment = (since or datetime(2000, 1, 1, tzinfo=UTC)).astimezone(UTC).strftime("%Y%m%d%H%M%S")
        attrs = self.db.update(
            STATS,
            keys.stats_pk(tenant_id),
            f"CLOSED#{moment}#{_digest(customer_key)}",
            update="ADD #n :n SET expires_at = if_not_exists(expires_at, :exp)",
            names={"#n": "count"},
            values={":n": 1, ":exp": int(at.timestamp()) + CLOSED_NOTICE_KEPT_SECONDS},
        )
        return int(attrs.get("count", 1)) == 1

    def shop(self, tenant_id: str, at: datetime, n: int = 1) -> int:
        return self.count(tenant_id, "SHOP", at, n)


def _digest(customer_key: str) -> str:
    return hashlib.sha256(customer_key.encode()).hexdigest()[:24]
