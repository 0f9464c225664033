"""The data layer under DynamoDB throttling: batches retry with backoff, then raise; never a silent loss."""

from __future__ import annotations

from typing import Any

import pytest

from tulia.errors import ProviderUnavailable
from tulia.store.dynamo import Dynamo, Key
from tulia.store.tables import CATALOG


class Throttling:
    """A DynamoDB client that answers the first ``times`` batch calls with everything unprocessed (as
    DynamoDB does when a partition is throttled), then lets moto serve them."""

    def __init__(self, client: Any, times: int) -> None:
        self.client, self.times, self.calls = client, times, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def batch_write_item(self, RequestItems: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        if self.calls <= self.times:
            return {"UnprocessedItems": RequestItems}
        return dict(self.client.batch_write_item(RequestItems=RequestItems))

    def batch_get_item(self, RequestItems: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        if self.calls <= self.times:
            return {"Responses": {}, "UnprocessedKeys": RequestItems}
        return dict(self.client.batch_get_item(RequestItems=RequestItems))


def items(n: int) -> list[dict[str, Any]]:
    return [{"pk": "demo-shop#CATALOG", "sk": f"ITEM#T-{i}", "name": f"Item {i}"} for i in range(n)]


def stored(dynamodb: Any) -> int:
    return int(dynamodb.scan(TableName="test-" + CATALOG.logical_name, Select="COUNT")["Count"])


def test_a_throttled_batch_write_is_retried_until_written(dynamodb: Any) -> None:
    client = Throttling(dynamodb, times=3)
    waits: list[float] = []
    Dynamo(client, "test-", sleep=waits.append).batch_write(CATALOG, puts=items(30))
    assert stored(dynamodb) == 30
    assert len(waits) == 3  # backed off between the throttled attempts


def test_continued_throttling_raises_instead_of_returning_with_nothing_written(dynamodb: Any) -> None:
    db = Dynamo(Throttling(dynamodb, times=1_000), "test-", sleep=lambda _s: None)
    with pytest.raises(ProviderUnavailable, match="25 of 30 write"):
        db.batch_write(CATALOG, puts=items(30))
    assert stored(dynamodb) == 0


def test_continued_throttling_raises_instead_of_returning_nothing_read(dynamodb: Any) -> None:
    Dynamo(dynamodb, "test-").batch_write(CATALOG, puts=items(3))
    keys = [Key(CATALOG, "demo-shop#CATALOG", f"ITEM#T-{i}") for i in range(3)]
    assert len(Dynamo(Throttling(dynamodb, times=2), "test-", sleep=lambda _s: None).batch_get(keys)) == 3
    with pytest.raises(ProviderUnavailable, match="3 item"):
        Dynamo(Throttling(dynamodb, times=1_000), "test-", sleep=lambda _s: None).batch_get(keys)
