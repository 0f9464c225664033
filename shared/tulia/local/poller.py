"""Feeds an SQS queue to a handler the way Lambda's event source mapping does: batches of up to 10,
received every ``window_seconds``; records a handler reports as failed are left to come back (with
``retry_seconds`` they come back that soon; ``None``: as Lambda, the handler or the queue decides)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from tulia.observability import logger as log

LOCAL_RETRY_SECONDS = 5  # a failed record becomes visible again this soon locally (Lambda: the queue's timeout)


class QueuePoller:
    def __init__(
        self,
        sqs: Any,
        queue_url: str,
        handler: Callable[[dict[str, Any]], dict[str, Any]],
        *,
        window_seconds: float = 1.0,
        workers: int = 1,
        retry_seconds: float | None = LOCAL_RETRY_SECONDS,
        queue_arn: str = "arn:aws:sqs:eu-west-1:000000000000:local-inbound.fifo",
    ) -> None:
        self.sqs, self.url, self.handler = sqs, queue_url, handler
        self.window, self.arn, self.workers = window_seconds, queue_arn, workers
        self.retry_seconds = retry_seconds
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.batches = 0

    def poll_once(self) -> int:
        got = self.sqs.receive_message(
            QueueUrl=self.url, MaxNumberOfMessages=10, MessageSystemAttributeNames=["All"], WaitTimeSeconds=0
        ).get("Messages", [])
        if not got:
            return 0
        event = {
            "Records": [
                {
                    "messageId": m["MessageId"],
                    "receiptHandle": m["ReceiptHandle"],
                    "body": m["Body"],
                    "attributes": m.get("Attributes", {}),
                    "messageAttributes": {},
                    "md5OfBody": m.get("MD5OfBody", ""),
                    "eventSource": "aws:sqs",
                    "eventSourceARN": self.arn,
                    "awsRegion": "eu-west-1",
                }
                for m in got
            ]
        }
        try:
            result = self.handler(event)
            failed = {f["itemIdentifier"] for f in result.get("batchItemFailures", [])}
        except Exception:  # noqa: BLE001 - the whole batch failed, as a crashed Lambda would
            log.exception("agent batch failed")
            failed = {r["messageId"] for r in event["Records"]}
        for record in event["Records"]:
            if record["messageId"] in failed:
                if self.retry_seconds is not None:
                    self.sqs.change_message_visibility(
                        QueueUrl=self.url,
                        ReceiptHandle=record["receiptHandle"],
                        VisibilityTimeout=int(self.retry_seconds),
                    )
            else:
                self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=record["receiptHandle"])
        self.batches += 1
        return len(got)

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                self.poll_once()
            except Exception:  # noqa: BLE001 - keep polling; the store may be restarting
                if not self._stop.is_set():
                    log.exception("poller error")
            self._stop.wait(self.window)  # messages arriving within the window form one batch

    def start(self) -> QueuePoller:
        """``workers`` concurrent pollers, as Lambda runs concurrent invocations; FIFO keeps each
        customer's messages in order (a group in flight is not handed to a second worker)."""
        self._threads = [
            threading.Thread(target=self.run, name=f"queue-poller-{n}", daemon=True) for n in range(self.workers)
        ]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        """Stop after the batches in hand (before the store they read from goes away)."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)
