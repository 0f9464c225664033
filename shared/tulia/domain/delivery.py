"""Delivery statuses of messages we sent, in the order Meta reports them (no pydantic: the webhook
imports this to count statuses, and nothing else of the domain)."""

from __future__ import annotations

# a status only moves forward: a late "sent" after "read" changes nothing; failed is final
STATUS_RANK: dict[str, int] = {
    "queued": 0,
    "sending": 0,
    "sent": 1,
    "delivered": 2,
    "read": 3,
    "failed": 4,
    "skipped": 4,
}
