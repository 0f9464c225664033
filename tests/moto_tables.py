"""moto's DynamoDB tables handed to each test from a snapshot, copying only what the tests before it wrote.

Every test starts from the same tables (empty, or the demo packs seeded): the snapshot is deep-copied into moto's
backend. A deep copy of the seeded catalog (some 400 items) takes about 45 ms and most tests never write to it,
so a table handed out by the last restore of the same snapshot is handed out again unless something wrote to it
since. What wrote is known from moto's own request handler: every DynamoDB operation that is not a read marks the
table it names, and one that names no single table (or an operation this module does not know) marks them all.
``tests/integration/test_table_snapshots.py`` proves a written table comes back as it was, for each kind of write."""

from __future__ import annotations

import copy
from typing import Any

READS = frozenset(
    {
        "GetItem",
        "Query",
        "Scan",
        "BatchGetItem",
        "TransactGetItems",
        "DescribeTable",
        "ListTables",
        "DescribeTimeToLive",
        "ListTagsOfResource",
        "DescribeContinuousBackups",
        "DescribeEndpoints",
        "DescribeLimits",
    }
)
ONE_TABLE_WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem"})
EVERY_TABLE = "*"


class WrittenTables:
    """The names of the tables written since the last restore (``EVERY_TABLE``: any of them may have been)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def mark(self, action: str, params: Any) -> None:
        if action in READS:
            return
        params = params if isinstance(params, dict) else {}
        if action in ONE_TABLE_WRITES and isinstance(params.get("TableName"), str):
            self.names.add(params["TableName"])
        elif action == "BatchWriteItem" and isinstance(params.get("RequestItems"), dict):
            self.names.update(params["RequestItems"])
        elif action == "TransactWriteItems" and isinstance(params.get("TransactItems"), list):
            for op in params["TransactItems"]:
                for body in op.values():
                    self.names.add(str(body.get("TableName", EVERY_TABLE)))
        else:
            self.names.add(EVERY_TABLE)

    def untouched(self, name: str) -> bool:
        return EVERY_TABLE not in self.names and name not in self.names


WRITTEN = WrittenTables()
_last: tuple[int, dict[str, Any]] | None = None  # (the snapshot's id, the tables its last restore handed out)


def watch_writes() -> None:
    """Mark the tables each DynamoDB request writes (moto's handler, in process and in server mode)."""
    from moto.dynamodb.responses import DynamoHandler

    if getattr(DynamoHandler.call_action, "marks_written_tables", False):
        return
    handle = DynamoHandler.call_action

    def call_action(self: Any) -> Any:
        WRITTEN.mark(self._get_action(), getattr(self, "params", None))
        return handle(self)

    call_action.marks_written_tables = True  # type: ignore[attr-defined]
    DynamoHandler.call_action = call_action  # type: ignore[method-assign]


def dynamodb_backend() -> Any:
    from moto.core import DEFAULT_ACCOUNT_ID
    from moto.dynamodb.models import dynamodb_backends

    return dynamodb_backends[DEFAULT_ACCOUNT_ID]["eu-west-1"]


def restore(snapshot: dict[str, Any]) -> None:
    """moto's tables become the snapshot's: a table the last restore of this snapshot handed out and nothing has
    written since is handed out again, every other one is a fresh deep copy."""
    global _last
    before = _last[1] if _last is not None and _last[0] == id(snapshot) else {}
    tables = {
        name: before[name] if name in before and WRITTEN.untouched(name) else copy.deepcopy(table)
        for name, table in snapshot.items()
    }
    WRITTEN.names.clear()
    dynamodb_backend().tables = tables
    _last = (id(snapshot), dict(tables))
