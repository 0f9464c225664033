"""The local stack's data across restarts: every table is written to a file in a data directory when
the stack stops (and every minute while it runs), and read back when it starts, so a developer's demo
shop keeps its orders, customers and conversations after Ctrl-C. Only for ``tulia dev``: the tables
are scanned, which no request path in AWS ever does."""

from __future__ import annotations

import base64
import json
import os
import threading
from pathlib import Path
from typing import Any

from tulia.store.tables import ALL_TABLES

SNAPSHOT = "tables.json"
SNAPSHOT_EVERY_SECONDS = 60.0


def _encode(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return {"__b64__": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, set):  # binary sets
        return {"__set__": [_encode(v) for v in value]}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"__b64__"}:
            return base64.b64decode(value["__b64__"])
        if set(value) == {"__set__"}:
            return [_decode(v) for v in value["__set__"]]
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


class DataDirectory:
    """Saves and restores the local store's tables (DynamoDB items as the API returns them)."""

    def __init__(self, path: Path, client: Any, prefix: str) -> None:
        self.path, self.client, self.prefix = path, client, prefix
        self._lock = threading.Lock()

    def restore(self) -> int:
        """Put back the items of the last snapshot; returns how many."""
        snapshot = self.path / SNAPSHOT
        if not snapshot.exists():
            return 0
        tables: dict[str, list[dict[str, Any]]] = _decode(json.loads(snapshot.read_text(encoding="utf-8")))
        restored = 0
        for name, items in tables.items():
            for start in range(0, len(items), 25):
                batch = [{"PutRequest": {"Item": item}} for item in items[start : start + 25]]
                pending: dict[str, Any] = {name: batch}
                while pending:
                    pending = self.client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
            restored += len(items)
        return restored

    def save(self) -> int:
        """Write every table to the snapshot (atomically: a crash mid-write keeps the previous one)."""
        with self._lock:
            tables: dict[str, list[dict[str, Any]]] = {}
            for table in ALL_TABLES:
                name = self.prefix + table.logical_name
                items: list[dict[str, Any]] = []
                kwargs: dict[str, Any] = {"TableName": name}
                while True:
                    page = self.client.scan(**kwargs)
                    items += page.get("Items", [])
                    if "LastEvaluatedKey" not in page:
                        break
                    kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
                tables[name] = items
            self.path.mkdir(parents=True, exist_ok=True)
            partial = self.path / (SNAPSHOT + ".tmp")
            partial.write_text(json.dumps(_encode(tables)), encoding="utf-8")
            os.replace(partial, self.path / SNAPSHOT)
            return sum(len(items) for items in tables.values())

    def keep_saving(self, stop: threading.Event) -> threading.Thread:
        """Save every minute until ``stop`` is set (so a killed process loses at most a minute)."""

        def loop() -> None:
            while not stop.wait(SNAPSHOT_EVERY_SECONDS):
                self.save()

        thread = threading.Thread(target=loop, name="data-dir", daemon=True)
        thread.start()
        return thread
