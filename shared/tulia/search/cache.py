"""Per-tenant search indexes, cached per container and rebuilt when the tenant's version moves."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class VersionedCache(Generic[T]):
    """``get(tenant_id, version)`` returns the cached index, building it when the version changed."""

    def __init__(self, build: Callable[[str], T], max_tenants: int = 64) -> None:
        self._build = build
        self._entries: dict[str, tuple[int, T]] = {}
        self._lock = threading.Lock()
        self._max = max_tenants
        self.builds = 0

    def prime(self, tenant_id: str, version: int, index: T) -> None:
        """Store an index built elsewhere (for example by the seeder, which has the items at hand)."""
        with self._lock:
            self._entries[tenant_id] = (version, index)

    def get(self, tenant_id: str, version: int) -> T:
        with self._lock:
            entry = self._entries.get(tenant_id)
            if entry is not None and entry[0] == version:
                return entry[1]
        index = self._build(tenant_id)
        with self._lock:
            self.builds += 1
            if len(self._entries) >= self._max and tenant_id not in self._entries:
                self._entries.pop(next(iter(self._entries)))
            self._entries[tenant_id] = (version, index)
        return index
