"""Time as the store's keys write it (no pydantic: the webhook imports this and nothing else of the domain)."""

from __future__ import annotations

from datetime import UTC, datetime


def sortable(dt: datetime) -> str:
    """Fixed-width UTC time for sort keys, so keys order exactly as times do."""
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
