"""The local stack's data directory (``tulia dev --data-dir``): snapshots are versioned and migrated
on load, a journal cut short by a kill is read up to its last whole line, and prompts left pending
without a status check are found (their check comes back). The kill itself: tests/e2e/test_dev_data_dir.py."""

from __future__ import annotations

import json
from pathlib import Path

import boto3
import pytest

from tulia.local.persistence import (
    SNAPSHOT,
    DataDirectory,
    JournaledStore,
    Waiting,
    migrate,
    prompts_without_check,
    replay_lines,
)
from tulia.local.stack import free_port
from tulia.store import keys
from tulia.store.tables import ORDERS, create_tables

PREFIX = "persist-"


def payment(order_id: str, payment_id: str, status: str, method: str = "mpesa_stk") -> dict[str, dict[str, str]]:
    return {
        "pk": {"S": keys.order_pk("shop-a", order_id)},
        "sk": {"S": keys.payment_sk(payment_id)},
        "tenant_id": {"S": "shop-a"},
        "order_id": {"S": order_id},
        "payment_id": {"S": payment_id},
        "method": {"S": method},
        "status": {"S": status},
    }


def test_a_snapshot_from_before_saved_queues_is_migrated_and_its_pending_prompts_get_their_check(
    tmp_path: Path,
) -> None:
    port = free_port()
    store = JournaledStore(port, tmp_path)
    journal = store.start()
    try:
        url = f"http://127.0.0.1:{port}"
        client = boto3.client(
            "dynamodb", region_name="eu-west-1", endpoint_url=url, aws_access_key_id="l", aws_secret_access_key="l"
        )
        create_tables(client, PREFIX)
        table = PREFIX + ORDERS.logical_name
        v1 = {  # version 1: the tables alone, no queues, no users, no journal
            table: [
                payment("ORD-1", "pay-pending", "pending"),
                payment("ORD-2", "pay-paid", "paid"),
                payment("ORD-3", "pay-card", "pending", method="pesapal"),
                payment("ORD-4", "pay-checked", "pending"),
            ]
        }
        (tmp_path / SNAPSHOT).write_text(json.dumps(v1))
        restored = DataDirectory(tmp_path, client, PREFIX, journal, url).restore()
        assert restored.items == 4
        assert restored.queues is None  # unknown: the data predates saved queues
        already = [Waiting(body=json.dumps({"payment_id": "pay-checked", "order_id": "ORD-4"}))]
        assert prompts_without_check(client, PREFIX, already) == [
            {"tenant_id": "shop-a", "order_id": "ORD-1", "payment_id": "pay-pending"}
        ]
    finally:
        store.stop()


def test_a_snapshot_written_by_a_newer_tulia_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="newer Tulia"):
        migrate({"version": 99, "tables": {}})
    assert migrate({"t": []})["tables"] == {"t": []}  # version 1 in the current shape


def test_a_journal_line_cut_short_by_the_kill_ends_the_replay(tmp_path: Path) -> None:
    journal = tmp_path / "journal-3.jsonl"
    journal.write_text('{"q":"send","queue":"a","id":"1","body":"x"}\n{"q":"delete","queue":"a","id":"1"}\n{"q":"se')
    assert [line["q"] for line in replay_lines(journal)] == ["send", "delete"]
