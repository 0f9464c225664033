"""The local stack's DynamoDB stand-in takes its requests one at a time: moto's tables are plain dictionaries, and a
transaction deep-copying a table while another thread writes it failed with a 500 (``dictionary changed size during
iteration``; it broke a fresh clone's e2e run, whose stack log must hold no traceback)."""

from __future__ import annotations

import threading
from typing import Any

import boto3
from botocore.config import Config

from tulia.local.stack import free_port
from tulia.local.store_server import StoreServer


def client(port: int) -> Any:
    return boto3.client(
        "dynamodb", endpoint_url=f"http://127.0.0.1:{port}", region_name="eu-west-1", aws_access_key_id="local",
        aws_secret_access_key="local", config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )  # fmt: skip


def test_transactions_and_writes_from_many_threads_at_once_all_succeed() -> None:
    port = free_port()
    server = StoreServer(port)
    server.start()
    try:
        client(port).create_table(
            TableName="race", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST",
        )  # fmt: skip
        failures: list[str] = []

        def write(n: int) -> None:
            db = client(port)  # no retries: a 500 is a failure here, not a second try
            for i in range(120):
                try:
                    if n % 2:
                        db.transact_write_items(
                            TransactItems=[
                                {"Put": {"TableName": "race", "Item": {"pk": {"S": f"a{n}-{i}"}}}},
                                {"Put": {"TableName": "race", "Item": {"pk": {"S": f"b{n}-{i}"}}}},
                            ]
                        )
                    else:
                        db.put_item(TableName="race", Item={"pk": {"S": f"c{n}-{i}"}})
                except Exception as exc:  # noqa: BLE001 - every failure is counted
                    failures.append(f"{type(exc).__name__}: {exc}"[:200])

        threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        count = client(port).scan(TableName="race", Select="COUNT")["Count"]
        assert count == 3 * 120 * 2 + 3 * 120  # every write landed once
    finally:
        server.stop()
