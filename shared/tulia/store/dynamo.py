"""A thin, typed wrapper over the low-level DynamoDB client.

It converts Python values to and from DynamoDB's wire types, names tables by their definitions,
turns conditional failures into :class:`StateConflict`, and pages with opaque cursors. Nothing
here knows about tenants: :mod:`tulia.store.keys` spells the keys.
"""

from __future__ import annotations

import base64
import json
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, TypeVar

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from tulia.errors import InvalidInput, ProviderUnavailable, StateConflict
from tulia.store.tables import Gsi, TableDef

_SER = TypeSerializer()
_DES = TypeDeserializer()


def _to_dynamo(value: Any) -> Any:
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, dict):
        return {k: _to_dynamo(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_to_dynamo(v) for v in value]
    return value


def _from_dynamo(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: _from_dynamo(v) for k, v in value.items()}
    if isinstance(value, list | set):
        return [_from_dynamo(v) for v in value]
    return value


def serialize(item: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _SER.serialize(_to_dynamo(v)) for k, v in item.items() if v is not None}


def deserialize(item: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _from_dynamo(_DES.deserialize(v)) for k, v in item.items()}


def _values(values: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not values:
        return None
    return {k: _SER.serialize(_to_dynamo(v)) for k, v in values.items()}


@dataclass(frozen=True)
class Key:
    table: TableDef
    pk: str
    sk: str


T = TypeVar("T")


@dataclass
class Page(Generic[T]):
    """One page of a listing, and the opaque cursor of the next (None at the end)."""

    items: list[T]
    cursor: str | None


def encode_cursor(last_key: Mapping[str, Any] | None) -> str | None:
    if not last_key:
        return None
    return base64.urlsafe_b64encode(json.dumps(last_key, sort_keys=True).encode()).decode()


def decode_cursor(cursor: str | None, *, expected_pk: str, pk_name: str = "pk") -> dict[str, Any] | None:
    """Decode a cursor, refusing one that points into another partition (another tenant)."""
    if not cursor:
        return None
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        pk_value = key[pk_name]["S"]
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidInput("The cursor is not valid.", field="cursor") from exc
    if pk_value != expected_pk:
        raise InvalidInput("The cursor does not belong to this listing.", field="cursor")
    return dict(key)


BATCH_ATTEMPTS = 8  # about 13 s of backoff in all before a batch gives up and raises


def backoff_seconds(attempt: int) -> float:
    """Exponential backoff with full jitter (AWS's advice for throttled batches), capped at 5 s."""
    return random.uniform(0, min(5.0, 0.05 * 2**attempt))


class Dynamo:
    """All DynamoDB access goes through one of these, so tests and benchmarks see every call."""

    def __init__(self, client: Any, table_prefix: str, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.client = client
        self.prefix = table_prefix
        self.sleep = sleep  # between retries of throttled batches

    def name(self, table: TableDef) -> str:
        return self.prefix + table.logical_name

    # single items
    def get(self, table: TableDef, pk: str, sk: str, *, consistent: bool = True) -> dict[str, Any] | None:
        resp = self.client.get_item(
            TableName=self.name(table),
            Key=serialize({table.pk: pk, table.sk: sk}),
            ConsistentRead=consistent,
        )
        item = resp.get("Item")
        return deserialize(item) if item else None

    def put(
        self,
        table: TableDef,
        item: Mapping[str, Any],
        *,
        condition: str | None = None,
        names: Mapping[str, str] | None = None,
        values: Mapping[str, Any] | None = None,
        conflict_message: str = "The item changed or already exists.",
    ) -> None:
        kwargs: dict[str, Any] = {"TableName": self.name(table), "Item": serialize(item)}
        if condition:
            kwargs["ConditionExpression"] = condition
        if names:
            kwargs["ExpressionAttributeNames"] = dict(names)
        if values:
            kwargs["ExpressionAttributeValues"] = _values(values)
        self._conditional(self.client.put_item, kwargs, conflict_message)

    def update(
        self,
        table: TableDef,
        pk: str,
        sk: str,
        *,
        update: str,
        condition: str | None = None,
        names: Mapping[str, str] | None = None,
        values: Mapping[str, Any] | None = None,
        conflict_message: str = "The item is not in the expected state.",
    ) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "TableName": self.name(table),
            "Key": serialize({table.pk: pk, table.sk: sk}),
            "UpdateExpression": update,
            "ReturnValues": "ALL_NEW",
        }
        if condition:
            kwargs["ConditionExpression"] = condition
        if names:
            kwargs["ExpressionAttributeNames"] = dict(names)
        if values:
            kwargs["ExpressionAttributeValues"] = _values(values)
        resp = self._conditional(self.client.update_item, kwargs, conflict_message)
        return deserialize(resp.get("Attributes", {}))

    def delete(self, table: TableDef, pk: str, sk: str) -> None:
        self.client.delete_item(TableName=self.name(table), Key=serialize({table.pk: pk, table.sk: sk}))

    # many items
    def query(
        self,
        table: TableDef,
        pk: str,
        *,
        sk_prefix: str | None = None,
        index: str | None = None,
        pk_name: str | None = None,
        sk_name: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        forward: bool = True,
        consistent: bool = False,
    ) -> Page[dict[str, Any]]:
        pk_attr = pk_name or table.pk
        sk_attr = sk_name or table.sk
        cond = "#pk = :pk"
        names = {"#pk": pk_attr}
        vals: dict[str, Any] = {":pk": pk}
        if sk_prefix is not None:
            cond += " AND begins_with(#sk, :skp)"
            names["#sk"] = sk_attr
            vals[":skp"] = sk_prefix
        kwargs: dict[str, Any] = {
            "TableName": self.name(table),
            "KeyConditionExpression": cond,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": _values(vals),
            "ScanIndexForward": forward,
        }
        if index:
            kwargs["IndexName"] = index
        elif consistent:
            kwargs["ConsistentRead"] = True
        if limit:
            kwargs["Limit"] = limit
        start = decode_cursor(cursor, expected_pk=pk, pk_name=pk_attr)
        if start:
            kwargs["ExclusiveStartKey"] = start
        resp = self.client.query(**kwargs)
        return Page([deserialize(i) for i in resp.get("Items", [])], encode_cursor(resp.get("LastEvaluatedKey")))

    def page(
        self,
        table: TableDef,
        pk: str,
        *,
        limit: int,
        cursor: str | None = None,
        index: Gsi | None = None,
        sk_prefix: str | None = None,
        sk_between: tuple[str, str] | None = None,
        where: str | None = None,
        names: Mapping[str, str] | None = None,
        values: Mapping[str, Any] | None = None,
        forward: bool = True,
    ) -> Page[dict[str, Any]]:
        """Up to ``limit`` items matching ``where`` (a filter expression), reading as many DynamoDB pages
        as it takes; the cursor points just after the last item returned, so no item is skipped or
        repeated. ``sk_between`` bounds the sort key (inclusive)."""
        pk_attr, sk_attr = (index.pk, index.sk) if index else (table.pk, table.sk)
        cond = "#pk = :pk"
        all_names = {"#pk": pk_attr, **(names or {})}
        all_values: dict[str, Any] = {":pk": pk, **(values or {})}
        if sk_prefix is not None:
            cond += " AND begins_with(#sk, :skp)"
            all_names["#sk"] = sk_attr
            all_values[":skp"] = sk_prefix
        elif sk_between is not None:
            cond += " AND #sk BETWEEN :sk_from AND :sk_to"
            all_names["#sk"] = sk_attr
            all_values[":sk_from"], all_values[":sk_to"] = sk_between
        kwargs: dict[str, Any] = {
            "TableName": self.name(table),
            "KeyConditionExpression": cond,
            "ExpressionAttributeNames": all_names,
            "ExpressionAttributeValues": _values(all_values),
            "ScanIndexForward": forward,
            # with a filter, read more than asked: most pages would otherwise come back short
            "Limit": limit if where is None else max(limit, 100),
        }
        if index:
            kwargs["IndexName"] = index.name
        if where:
            kwargs["FilterExpression"] = where
        start = decode_cursor(cursor, expected_pk=pk, pk_name=pk_attr)
        items: list[dict[str, Any]] = []
        while True:
            if start:
                kwargs["ExclusiveStartKey"] = start
            resp = self.client.query(**kwargs)
            items.extend(resp.get("Items", []))
            start = resp.get("LastEvaluatedKey")
            if len(items) >= limit or not start:
                break
        more = len(items) > limit or (len(items) == limit and bool(start))
        items = items[:limit]
        next_cursor = None
        if more and items:
            key_attrs = {table.pk, table.sk} | ({index.pk, index.sk} if index else set())
            next_cursor = encode_cursor({a: items[-1][a] for a in key_attrs if a in items[-1]})
        return Page([deserialize(i) for i in items], next_cursor)

    def query_all(self, table: TableDef, pk: str, *, sk_prefix: str | None = None) -> Iterator[dict[str, Any]]:
        cursor: str | None = None
        while True:
            page = self.query(table, pk, sk_prefix=sk_prefix, cursor=cursor)
            yield from page.items
            if not page.cursor:
                return
            cursor = page.cursor

    def scan_sk(self, table: TableDef, sk: str) -> Iterator[dict[str, Any]]:
        """Every item of the table whose sort key is ``sk``, across partitions: the platform operator's view of all
        shops (never a shop's own request: those are queries of its partition)."""
        kwargs: dict[str, Any] = {
            "TableName": self.name(table),
            "FilterExpression": "#sk = :sk",
            "ExpressionAttributeNames": {"#sk": table.sk},
            "ExpressionAttributeValues": serialize({":sk": sk}),
        }
        while True:
            answer = self.client.scan(**kwargs)
            for item in answer.get("Items", []):
                yield deserialize(item)
            if not answer.get("LastEvaluatedKey"):
                return
            kwargs["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    def batch_get(self, keys: Sequence[Key]) -> dict[Key, dict[str, Any]]:
        """Fetch up to 100 items from any tables in one call (retrying unprocessed keys)."""
        found: dict[Key, dict[str, Any]] = {}
        unique = list(dict.fromkeys(keys))
        tables = {self.name(k.table): k.table for k in unique}
        for start in range(0, len(unique), 100):
            request: dict[str, Any] = {}
            for key in unique[start : start + 100]:
                entry = request.setdefault(self.name(key.table), {"Keys": [], "ConsistentRead": True})
                entry["Keys"].append(serialize({key.table.pk: key.pk, key.table.sk: key.sk}))
            for attempt in range(BATCH_ATTEMPTS):
                resp = self.client.batch_get_item(RequestItems=request)
                for name, raw_items in resp.get("Responses", {}).items():
                    table = tables[name]
                    for raw in raw_items:
                        item = deserialize(raw)
                        found[Key(table, item[table.pk], item[table.sk])] = item
                request = resp.get("UnprocessedKeys") or {}
                if not request:
                    break
                self.sleep(backoff_seconds(attempt))  # throttled: back off before asking for the rest
            else:
                left = sum(len(entry["Keys"]) for entry in request.values())
                raise ProviderUnavailable(f"DynamoDB kept throttling: {left} item(s) could not be read.")
        return found

    def batch_write(
        self, table: TableDef, puts: Sequence[Mapping[str, Any]] = (), deletes: Sequence[tuple[str, str]] = ()
    ) -> None:
        requests: list[dict[str, Any]] = [{"PutRequest": {"Item": serialize(item)}} for item in puts]
        requests += [{"DeleteRequest": {"Key": serialize({table.pk: pk, table.sk: sk})}} for pk, sk in deletes]
        name = self.name(table)
        for start in range(0, len(requests), 25):
            pending: dict[str, Any] = {name: requests[start : start + 25]}
            for attempt in range(BATCH_ATTEMPTS):
                resp = self.client.batch_write_item(RequestItems=pending)
                pending = resp.get("UnprocessedItems") or {}
                if not pending:
                    break
                self.sleep(backoff_seconds(attempt))
            else:
                left = sum(len(entry) for entry in pending.values())
                raise ProviderUnavailable(
                    f"DynamoDB kept throttling: {left} of {len(requests)} write(s) were not applied; retry."
                )

    def transact(self, operations: Sequence[Mapping[str, Any]], *, conflict_message: str) -> None:
        """Run a TransactWriteItems. Operations are written with plain Python values:

        ``{"Put": {"table": T, "item": {...}, "condition": "...", "names": {...}, "values": {...}}}``
        ``{"Update": {"table": T, "pk": ..., "sk": ..., "update": "...", "condition": ..., ...}}``
        ``{"ConditionCheck" | "Delete": {"table": T, "pk": ..., "sk": ..., "condition": ..., ...}}``
        """
        items = []
        for op in operations:
            ((kind, spec),) = op.items()
            table: TableDef = spec["table"]
            body: dict[str, Any] = {"TableName": self.name(table)}
            if kind == "Put":
                body["Item"] = serialize(spec["item"])
            else:
                body["Key"] = serialize({table.pk: spec["pk"], table.sk: spec["sk"]})
            if kind == "Update":
                body["UpdateExpression"] = spec["update"]
            if spec.get("condition"):
                body["ConditionExpression"] = spec["condition"]
            if spec.get("names"):
                body["ExpressionAttributeNames"] = dict(spec["names"])
            if spec.get("values"):
                body["ExpressionAttributeValues"] = _values(spec["values"])
            items.append({kind: body})
        self._conditional(self.client.transact_write_items, {"TransactItems": items}, conflict_message)

    @staticmethod
    def _conditional(call: Any, kwargs: dict[str, Any], message: str) -> Any:
        try:
            return call(**kwargs)
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code")
            if code == "ConditionalCheckFailedException":
                raise StateConflict(message) from exc
            if code == "TransactionCanceledException":
                reasons = [r.get("Code", "None") for r in exc.response.get("CancellationReasons", [])]
                if "ConditionalCheckFailed" in reasons:
                    raise StateConflict(message, details={"reasons": reasons}) from exc
            raise
