"""The SQS queues, defined once for the handlers, the local stack, tests and CDK."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class QueueDef:
    logical_name: str
    purpose: str
    fifo: bool = True
    visibility_timeout_seconds: int = 120  # longer than the agent's timeout
    max_receive_count: int = 5  # failed deliveries; then the message goes to the dead-letter queue
    held_deliveries: int = 0  # deliveries handed back on purpose (not failures): allowed on top

    @property
    def receives_before_dead_letter(self) -> int:
        return self.max_receive_count + self.held_deliveries

    def name(self, prefix: str) -> str:
        return prefix + self.logical_name

    def create_kwargs(self, name: str) -> dict[str, Any]:
        attributes = {"VisibilityTimeout": str(self.visibility_timeout_seconds)}
        if self.fifo:
            attributes |= {"FifoQueue": "true", "ContentBasedDeduplication": "false"}
        return {"QueueName": name, "Attributes": attributes}


INBOUND = QueueDef(
    "inbound.fifo",
    "Customer messages and payment events for the agent; one message group per tenant and customer.",
    held_deliveries=3,  # deliveries the agent may hand back to wait for a customer's next quick message
)
PAYMENT_CHECKS = QueueDef(
    "payment-checks",
    "Delayed checks of STK pushes that got no callback: the STK query resolves them.",
    fifo=False,
    visibility_timeout_seconds=60,
)
OUTREACH = QueueDef(
    "outreach",
    "Messages the shop sends first, paced: broadcast batches, reminders of unpaid orders (the agent sends them).",
    fifo=False,
)
ALL_QUEUES: tuple[QueueDef, ...] = (INBOUND, PAYMENT_CHECKS, OUTREACH)
MAX_SQS_DELAY_SECONDS = 900


def dead_letter_name(queue: QueueDef, prefix: str) -> str:
    """``<prefix><base>-dlq[.fifo]``, as the CDK app names it."""
    base, suffix = (queue.logical_name[:-5], ".fifo") if queue.fifo else (queue.logical_name, "")
    return f"{prefix}{base}-dlq{suffix}"


def create_queues(client: Any, prefix: str, queues: tuple[QueueDef, ...] = ALL_QUEUES) -> dict[str, str]:
    """Create the queues with their dead-letter queues (idempotent), as in AWS: a record reported as
    failed ``max_receive_count`` times moves to the dead-letter queue. Returns URLs by logical name."""
    urls = {}
    for q in queues:
        dlq_url = client.create_queue(**q.create_kwargs(dead_letter_name(q, prefix)))["QueueUrl"]
        dlq_arn = client.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        kwargs = q.create_kwargs(q.name(prefix))
        redrive = {"deadLetterTargetArn": dlq_arn, "maxReceiveCount": str(q.receives_before_dead_letter)}
        kwargs["Attributes"]["RedrivePolicy"] = json.dumps(redrive)
        urls[q.logical_name] = client.create_queue(**kwargs)["QueueUrl"]
    return urls


def group_id(tenant_id: str, customer_key: str) -> str:
    """One FIFO group per tenant and customer: their messages are handled in order, one at a time.
    The customer's number is hashed so it does not show in queue metrics and logs."""
    return f"{tenant_id}.{hashlib.sha256(customer_key.encode()).hexdigest()[:32]}"


def dedup_id(message_id: str) -> str:
    return (
        message_id
        if len(message_id) <= 128 and message_id.isascii()
        else hashlib.sha256(message_id.encode()).hexdigest()
    )


class _Queue:
    """A queue by URL; ``url`` may be a function that finds it (by name) on first use, for callers
    built before the queue exists."""

    def __init__(self, client: Any, url: str | Callable[[], str]) -> None:
        self.client, self._url = client, url

    @property
    def url(self) -> str:
        if callable(self._url):
            self._url = self._url()
        return self._url


class InboundQueue(_Queue):
    """Sends work to the agent's FIFO queue."""

    def send(self, *, tenant_id: str, customer_key: str, dedup: str, body: dict[str, Any]) -> None:
        self.client.send_message(
            QueueUrl=self.url,
            MessageBody=json.dumps(body, separators=(",", ":"), ensure_ascii=False),
            MessageGroupId=group_id(tenant_id, customer_key),
            MessageDeduplicationId=dedup_id(dedup),
        )


def dead_letter_url(url: str) -> str:
    """The dead-letter queue beside a queue (named as :func:`dead_letter_name` names it)."""
    base, slash, name = url.rpartition("/")
    stem, fifo = (name[:-5], ".fifo") if name.endswith(".fifo") else (name, "")
    return f"{base}{slash}{stem}-dlq{fifo}"


def set_aside_to(client: Any, url: str) -> Callable[[Any, str], None]:
    """How the agent moves a record it cannot process to the dead-letter queue itself (with why), so
    the customer's later messages are not held behind it: the record is sent there, then deleted here."""
    dlq = dead_letter_url(url)

    def set_aside(record: Any, why: str) -> None:
        body = json.dumps({"record": record.body, "why": why[:500]}, separators=(",", ":"), ensure_ascii=True)
        kwargs: dict[str, Any] = {"QueueUrl": dlq, "MessageBody": body}
        if dlq.endswith(".fifo"):
            kwargs |= {"MessageGroupId": record.group_id, "MessageDeduplicationId": dedup_id(record.record_id)}
        client.send_message(**kwargs)
        if record.receipt_handle:
            client.delete_message(QueueUrl=url, ReceiptHandle=record.receipt_handle)

    return set_aside


def requeue_to(client: Any, url: str) -> Callable[[Any, int], None]:
    """How the agent sends a record it received back to the queue for ``seconds``: its visibility
    timeout becomes that (what a partial batch failure leaves alone)."""

    def requeue(record: Any, seconds: int) -> None:
        if record.receipt_handle:
            client.change_message_visibility(
                QueueUrl=url, ReceiptHandle=record.receipt_handle, VisibilityTimeout=max(0, min(int(seconds), 43_200))
            )

    return requeue


class PaymentCheckQueue(_Queue):
    """Schedules an STK query for a payment that may never get its callback, keeps C2B confirmations
    that arrived while the store was unavailable, and asks for a changed Paybill/Till's C2B URLs to be
    registered (by the payments function, which holds the Daraja keys)."""

    def register_c2b(self, *, tenant_id: str) -> None:
        self.client.send_message(
            QueueUrl=self.url, MessageBody=json.dumps({"kind": "register_c2b", "tenant_id": tenant_id})
        )

    def defer_c2b(self, *, token: str, body: str, delay_seconds: int) -> None:
        """Keep a C2B confirmation the store could not take, to book it from the queue later."""
        self.client.send_message(
            QueueUrl=self.url,
            MessageBody=json.dumps({"kind": "c2b_confirmation", "token": token, "body": body}),
            DelaySeconds=max(0, min(int(delay_seconds), MAX_SQS_DELAY_SECONDS)),
        )

    def schedule(self, *, tenant_id: str, order_id: str, payment_id: str, delay_seconds: int, attempt: int = 1) -> None:
        self.client.send_message(
            QueueUrl=self.url,
            MessageBody=json.dumps(
                {"tenant_id": tenant_id, "order_id": order_id, "payment_id": payment_id, "attempt": attempt}
            ),
            DelaySeconds=max(0, min(int(delay_seconds), MAX_SQS_DELAY_SECONDS)),
        )


class OutreachQueue(_Queue):
    """Work for the outreach worker: ``body`` now, or after ``delay_seconds`` (SQS allows up to 15
    minutes; longer waits are re-queued by the worker)."""

    def send(self, body: dict[str, Any], delay_seconds: float = 0) -> None:
        self.client.send_message(
            QueueUrl=self.url,
            MessageBody=json.dumps(body, separators=(",", ":")),
            DelaySeconds=max(0, min(int(delay_seconds), MAX_SQS_DELAY_SECONDS)),
        )
