"""The local stack's queue poller, woken by what the stack sends instead of asking an empty queue over and over.
Each poller here would leave an empty queue alone for an hour: a record handled within the test's wait proves that
the send (or the delay, the visibility timeout, the end of the batch in flight) woke it. moto's SQS, in process."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from moto import mock_aws

from tests.conftest import BOTO
from tests.e2e.stack import wait_for
from tulia.local.poller import QueuePoller, wake_on_send

AN_HOUR = 3600.0


class Handled:
    """What the handler was given, batch by batch; it fails the records it is told to fail once."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.fail_once: set[str] = set()
        self.hold: threading.Event | None = None  # while set to an unset event, a batch waits for it

    def __call__(self, event: dict[str, Any]) -> dict[str, Any]:
        bodies = [json.loads(r["body"])["n"] for r in event["Records"]]
        self.batches.append(bodies)
        if self.hold is not None:
            assert self.hold.wait(30)
        failed = [r["messageId"] for r in event["Records"] if json.loads(r["body"])["n"] in self.fail_once]
        self.fail_once -= set(bodies)
        return {"batchItemFailures": [{"itemIdentifier": m} for m in failed]}

    def seen(self) -> list[str]:
        return [n for batch in self.batches for n in batch]


@pytest.fixture
def sqs() -> Iterator[Any]:
    with mock_aws():
        yield BOTO.client("sqs")


def started(sqs: Any, url: str, handled: Handled, **options: Any) -> QueuePoller:
    poller = QueuePoller(sqs, url, handled, window_seconds=0.05, idle_seconds=AN_HOUR, **options)
    wake_on_send(sqs, [poller])
    return poller.start()


def body(n: str) -> str:
    return json.dumps({"n": n})


def test_a_message_sent_wakes_the_poller_of_its_queue(sqs: Any) -> None:
    url = sqs.create_queue(QueueName="plain")["QueueUrl"]
    handled = Handled()
    poller = started(sqs, url, handled)
    try:
        sqs.send_message(QueueUrl=url, MessageBody=body("first"))
        sqs.send_message_batch(
            QueueUrl=url,
            Entries=[{"Id": "a", "MessageBody": body("second")}, {"Id": "b", "MessageBody": body("third")}],
        )
        wait_for(lambda: len(handled.seen()) == 3, timeout=30)
        assert sorted(handled.seen()) == ["first", "second", "third"]
    finally:
        poller.stop()


def test_a_delayed_message_wakes_it_when_it_becomes_visible(sqs: Any) -> None:
    url = sqs.create_queue(QueueName="delayed")["QueueUrl"]
    handled = Handled()
    poller = started(sqs, url, handled)
    try:
        sqs.send_message(QueueUrl=url, MessageBody=body("later"), DelaySeconds=1)
        wait_for(lambda: handled.seen() == ["later"], timeout=30)
    finally:
        poller.stop()


def test_a_failed_record_handed_back_for_seconds_wakes_it_when_it_comes_back(sqs: Any) -> None:
    url = sqs.create_queue(QueueName="retried")["QueueUrl"]
    handled = Handled()
    handled.fail_once = {"flaky"}
    poller = started(sqs, url, handled, retry_seconds=1)
    try:
        sqs.send_message(QueueUrl=url, MessageBody=body("flaky"))
        wait_for(lambda: handled.seen() == ["flaky", "flaky"], timeout=30)
        wait_for(lambda: "Messages" not in sqs.receive_message(QueueUrl=url, VisibilityTimeout=0), timeout=30)
    finally:
        poller.stop()


def test_a_message_held_behind_its_customers_batch_in_flight_is_asked_for_when_the_batch_ends(sqs: Any) -> None:
    url = sqs.create_queue(
        QueueName="customers.fifo", Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"}
    )["QueueUrl"]
    handled = Handled()
    handled.hold = threading.Event()
    poller = started(sqs, url, handled, workers=2)
    try:
        sqs.send_message(QueueUrl=url, MessageBody=body("hello"), MessageGroupId="customer")
        wait_for(lambda: handled.batches == [["hello"]], timeout=30)
        # sent while her first batch is in flight: the send wakes the poller, but FIFO holds it back
        sqs.send_message(QueueUrl=url, MessageBody=body("are you there"), MessageGroupId="customer")
        handled.hold.set()
        wait_for(lambda: handled.batches == [["hello"], ["are you there"]], timeout=30)
    finally:
        poller.stop()
