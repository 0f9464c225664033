"""Feeds an SQS queue to a handler the way Lambda's event source mapping does: batches of up to 10,
received every ``window_seconds``; records a handler reports as failed are left to come back (with
``retry_seconds`` they come back that soon; ``None``: as Lambda, the handler or the queue decides).

Lambda long-polls; moto's long poll spins on a FIFO queue whose visible messages all wait behind a group in
flight, so the local stack is woken instead: ``wake_on_send`` wakes a poller when the stack's own client sends to
its queue (or when what it sent with a delay, or handed back for some seconds, becomes visible), and
``idle_seconds`` bounds the wait for what other clients send."""

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
        idle_seconds: float | None = None,
    ) -> None:
        """``idle_seconds``: how long an empty queue is left alone unless ``wake`` is called (``None``: it is asked
        again every ``window_seconds``)."""
        self.sqs, self.url, self.handler = sqs, queue_url, handler
        self.window, self.arn, self.workers = window_seconds, queue_arn, workers
        self.retry_seconds = retry_seconds
        self.idle_seconds = idle_seconds
        self._stop = threading.Event()
        self._woken = threading.Event()
        self._free = threading.Semaphore(workers)  # invocations not handling a batch
        self._thread: threading.Thread | None = None

    def receive(self) -> list[dict[str, Any]]:
        """One batch of up to 10 records, as Lambda's event source mapping hands them (empty: none visible)."""
        got = self.sqs.receive_message(
            QueueUrl=self.url, MaxNumberOfMessages=10, MessageSystemAttributeNames=["All"], WaitTimeSeconds=0
        ).get("Messages", [])
        return list(got)

    def handle(self, got: list[dict[str, Any]]) -> None:
        """One invocation: the handler's batch; its failed records are left to come back, the others deleted."""
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

    def run(self) -> None:
        """The one thread that asks the queue, while an invocation is free: every ``window_seconds`` while the queue
        is empty (messages arriving within the window form one batch), again at once after a batch (other customers'
        messages may be waiting). One asking thread, not one per invocation: an idle stack asked the queue 20 times
        a second with four, and spent a tenth of a core on it."""
        while not self._stop.is_set():
            if not self._free.acquire(timeout=self.window):
                continue  # every invocation busy: ask again when one is done
            got: list[dict[str, Any]] = []
            self._woken.clear()  # before asking: a send after this wakes the wait below at once
            try:
                got = self.receive()
            except Exception:  # noqa: BLE001 - keep polling; the store may be restarting
                if not self._stop.is_set():
                    log.exception("poller error")
            if not got:
                self._free.release()
                if self.idle_seconds is None:
                    self._stop.wait(self.window)
                else:
                    self._woken.wait(self.idle_seconds)
            elif self.workers == 1:
                self._invoke(got)
                self._stop.wait(self.window)
            else:
                threading.Thread(target=self._invoke, args=(got,), name="queue-invocation", daemon=True).start()

    def wake(self) -> None:
        """Something was sent to the queue (or became visible): ask it now, not after ``idle_seconds``."""
        self._woken.set()

    def _invoke(self, got: list[dict[str, Any]]) -> None:
        try:
            self.handle(got)
        except Exception:  # noqa: BLE001 - a store error while deleting: the records come back, as in Lambda
            log.exception("poller error")
        finally:
            self._free.release()
            self.wake()  # its customer's next messages (held behind the batch in flight) may be asked for now

    def start(self) -> QueuePoller:
        """Up to ``workers`` batches handled at once, as Lambda runs concurrent invocations; FIFO keeps each
        customer's messages in order (a group in flight is not handed out again)."""
        self._thread = threading.Thread(target=self.run, name="queue-poller", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop after the batches in hand (before the store they read from goes away)."""
        self._stop.set()
        self._woken.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        for _ in range(self.workers):  # the invocations still running
            if not self._free.acquire(timeout=5):
                break


VISIBLE_MARGIN_SECONDS = 0.05  # the store counts a delay from when it took the message, a little before the timer
_WAKING_CALLS = ("SendMessage", "SendMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch")


def wake_on_send(sqs: Any, pollers: list[QueuePoller]) -> None:
    """Wake the poller of a queue when ``sqs`` (a boto3 client) has sent to it, or changed how long a record of it
    stays hidden: at once, or when the delay or visibility timeout it gave runs out (a timer each)."""
    by_url = {poller.url: poller for poller in pollers}

    def note(params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        entries = params.get("Entries") or [params]
        seconds = [int(e.get("DelaySeconds", e.get("VisibilityTimeout", 0)) or 0) for e in entries]
        context["tulia_visible_in"] = (params.get("QueueUrl"), sorted(set(seconds)))

    def woken(context: dict[str, Any], **_: Any) -> None:
        url, seconds = context.get("tulia_visible_in", (None, []))
        poller = by_url.get(url)
        if poller is None:
            return
        for delay in seconds:
            if delay <= 0:
                poller.wake()
            else:
                timer = threading.Timer(delay + VISIBLE_MARGIN_SECONDS, poller.wake)
                timer.daemon = True
                timer.start()

    for call in _WAKING_CALLS:
        sqs.meta.events.register(f"provide-client-params.sqs.{call}", note)
        sqs.meta.events.register(f"after-call.sqs.{call}", woken)
