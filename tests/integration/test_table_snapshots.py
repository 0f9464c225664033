"""Each test starts from the seeded tables whatever the test before it wrote (tests/moto_tables.py): a table is handed
out again only when nothing wrote to it, and every kind of write makes the next test get a fresh copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import SHOP, SeededSnapshot
from tests.moto_tables import EVERY_TABLE, WRITTEN, dynamodb_backend, restore

CATALOG, ORDERS = "test-catalog", "test-orders"


def a_catalog_key(snapshot: SeededSnapshot) -> dict[str, Any]:
    item = next(i for hashed in snapshot.tables[CATALOG].items.values() for i in hashed.values())
    return {"pk": item.attrs["pk"].to_json(), "sk": item.attrs["sk"].to_json()}


WRITES: dict[str, Callable[[Any, dict[str, Any]], Any]] = {
    "PutItem": lambda db, key: db.put_item(TableName=CATALOG, Item={**key, "name": {"S": "changed"}}),
    "UpdateItem": lambda db, key: db.update_item(
        TableName=CATALOG, Key=key, UpdateExpression="SET #n = :n",
        ExpressionAttributeNames={"#n": "name"}, ExpressionAttributeValues={":n": {"S": "changed"}},
    ),
    "DeleteItem": lambda db, key: db.delete_item(TableName=CATALOG, Key=key),
    "BatchWriteItem": lambda db, key: db.batch_write_item(RequestItems={CATALOG: [{"DeleteRequest": {"Key": key}}]}),
    "TransactWriteItems": lambda db, key: db.transact_write_items(
        TransactItems=[{"Update": {"TableName": CATALOG, "Key": key, "UpdateExpression": "SET #n = :n",
                                   "ExpressionAttributeNames": {"#n": "name"},
                                   "ExpressionAttributeValues": {":n": {"S": "changed"}}}}]
    ),
    "ExecuteStatement": lambda db, key: db.execute_statement(
        Statement=f"UPDATE \"{CATALOG}\" SET name = 'changed' WHERE pk = '{key['pk']['S']}' AND sk = '{key['sk']['S']}'"
    ),
}  # fmt: skip


@pytest.mark.parametrize("write", list(WRITES))
def test_a_written_table_comes_back_as_it_was(write: str, dynamodb: Any, seeded_snapshot: SeededSnapshot) -> None:
    restore(seeded_snapshot.tables)
    key = a_catalog_key(seeded_snapshot)
    before = dynamodb.get_item(TableName=CATALOG, Key=key)["Item"]
    assert before["name"]["S"] != "changed"
    WRITES[write](dynamodb, key)
    assert dynamodb.get_item(TableName=CATALOG, Key=key).get("Item") != before  # the write took
    restore(seeded_snapshot.tables)
    assert dynamodb.get_item(TableName=CATALOG, Key=key)["Item"] == before


def test_only_what_was_written_is_copied_again(dynamodb: Any, seeded_snapshot: SeededSnapshot) -> None:
    restore(seeded_snapshot.tables)
    catalog, orders = dynamodb_backend().tables[CATALOG], dynamodb_backend().tables[ORDERS]
    key = a_catalog_key(seeded_snapshot)
    dynamodb.get_item(TableName=CATALOG, Key=key)
    dynamodb.query(TableName=CATALOG, KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": key["pk"]})
    dynamodb.put_item(TableName=ORDERS, Item={"pk": {"S": f"{SHOP}#ORDER#1"}, "sk": {"S": "ORDER"}})
    assert WRITTEN.names == {ORDERS}
    restore(seeded_snapshot.tables)
    assert dynamodb_backend().tables[CATALOG] is catalog  # only read: handed out again
    assert dynamodb_backend().tables[ORDERS] is not orders
    assert dynamodb_backend().tables[ORDERS].items == {}
    dynamodb.update_time_to_live(  # an operation that is no item write: every table is copied again
        TableName=ORDERS, TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires_at"}
    )
    assert WRITTEN.names == {EVERY_TABLE}
    restore(seeded_snapshot.tables)
    assert dynamodb_backend().tables[CATALOG] is not catalog
