"""The WhatsApp webhook: verify, authenticate, parse, route to the tenant, de-duplicate, enqueue.

It answers Meta quickly and does no conversation work (that is the agent's, behind the FIFO queue).
Kept free of LangChain/LangGraph and pydantic-heavy paths so the function starts fast.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tulia.channel.whatsapp import WebhookError, parse, signature_valid, subscription_challenge
from tulia.errors import InvalidInput, TuliaError
from tulia.observability import logger as log
from tulia.observability import set_tenant
from tulia.pipeline.apigw import HttpResponse, read_body
from tulia.store.broadcast_statuses import BroadcastStatuses
from tulia.store.messages import MessageRepo
from tulia.store.queues import InboundQueue

if TYPE_CHECKING:
    from tulia.observability.metrics import MetricsSink

ROUTE_CACHE_SECONDS = 60.0
MAX_ID_LENGTH = 256  # Meta's message ids are about 60 characters; longer is not Meta's


def _json(status: int, **body: Any) -> HttpResponse:
    return HttpResponse(status, json.dumps(body))


@dataclass
class WebhookService:
    app_secret: str
    verify_token: str
    tenant_for_phone_number_id: Callable[[str], str | None]
    messages: MessageRepo
    queue: InboundQueue
    clock: Callable[[], datetime]
    record: MetricsSink | None = None  # business metrics (the Lambda publishes them)
    broadcasts: BroadcastStatuses | None = None  # statuses of broadcast messages are counted on their broadcast
    _routes: dict[str, tuple[float, str | None]] = field(default_factory=dict)

    def verify(self, params: dict[str, str]) -> HttpResponse:
        challenge = subscription_challenge(params, self.verify_token)
        if challenge is None:
            log.warning("webhook verification refused", extra={"mode": params.get("hub.mode")})
            return HttpResponse(403, "forbidden", "text/plain")
        return HttpResponse(200, challenge, "text/plain")

    def receive(self, raw_body: bytes, signature: str | None) -> HttpResponse:
        if not signature_valid(raw_body, signature, self.app_secret):
            log.warning("webhook signature missing or wrong", extra={"has_signature": bool(signature)})
            return _json(401, error="invalid_signature")
        now = self.clock()
        try:
            webhook = parse(read_body(raw_body))
        except (ValueError, TypeError, KeyError, AttributeError, WebhookError, TuliaError) as exc:
            # signed by Meta but unusable: acknowledged (Meta would retry it for days), kept, counted
            return self._malformed(raw_body, f"{type(exc).__name__}: {exc}", now)
        queued = duplicates = unrouted = malformed = 0
        for message in webhook.messages:
            try:
                if len(message.message_id) > MAX_ID_LENGTH:
                    raise InvalidInput("message id longer than WhatsApp's.", field="message_id")
                tenant_id = self._tenant(message.phone_number_id)
                claimed = tenant_id is not None and self.messages.claim_inbound(
                    tenant_id, message.message_id, now=now, customer_key=message.customer_key
                )
            except InvalidInput as exc:  # an id no key can hold ('#', empty): this message is unusable
                malformed += 1
                self.messages.keep_malformed(raw_body, f"message: {exc}", now=now)
                continue
            if tenant_id is None:
                unrouted += 1
                log.warning(
                    "message for an unknown business number", extra={"phone_number_id": message.phone_number_id}
                )
                continue
            set_tenant(tenant_id)
            if not claimed:
                duplicates += 1
                continue
            try:
                # the window runs from when the message reached us: a sample payload's old timestamp must
                # not close it (and a real Meta refusal, 131047, is handled where we send)
                self.messages.note_inbound(tenant_id, message.customer_key, at=now)
                self.queue.send(
                    tenant_id=tenant_id,
                    customer_key=message.customer_key,
                    dedup=message.message_id,
                    body={"kind": "message", "tenant_id": tenant_id, "message": message.to_dict()},
                )
            except Exception:  # noqa: BLE001 - any failure to queue means: let Meta retry
                # not queued: forget the marker and let Meta retry the whole delivery
                self.messages.release_inbound(tenant_id, message.message_id)
                log.exception("could not queue an inbound message", extra={"tenant_id": tenant_id})
                return _json(503, error="queue_unavailable")
            queued += 1
        for status in webhook.statuses:  # (the log lines name the last shop routed; Meta sends one per call)
            try:
                if len(status.message_id) > MAX_ID_LENGTH:
                    raise InvalidInput("status id longer than WhatsApp's.", field="message_id")
                tenant_id = self._tenant(status.phone_number_id)
                if tenant_id is None or not status.message_id:
                    continue
                set_tenant(tenant_id)
                error = {"code": status.error_code, "details": status.error_details} if status.error_code else None
                self.messages.record_status(
                    tenant_id, status.message_id, status.status, at=status.timestamp, now=now, error=error
                )
                if self.broadcasts is not None:
                    self.broadcasts.on_status(tenant_id, status.message_id, status.status)
            except InvalidInput:
                malformed += 1  # a status nobody can file: dropped, counted
        if self.record is not None:
            counts = {
                "InboundMessages": queued,
                "DuplicateDeliveries": duplicates,
                "UnroutedMessages": unrouted,
                "MalformedWebhooks": malformed,
            }
            self.record({k: v for k, v in counts.items() if v})
        log.info(
            "webhook received",
            extra={
                "queued": queued,
                "duplicates": duplicates,
                "unrouted": unrouted,
                "statuses": len(webhook.statuses),
                "ignored": webhook.ignored,
            },
        )
        return _json(200, queued=queued, duplicates=duplicates)

    def _malformed(self, raw_body: bytes, why: str, now: datetime) -> HttpResponse:
        log.warning("signed webhook payload unusable: kept for inspection", extra={"why": why[:200]})
        self.messages.keep_malformed(raw_body, why, now=now)
        if self.record is not None:
            self.record({"MalformedWebhooks": 1})
        return _json(200, ignored="malformed")

    def _tenant(self, phone_number_id: str) -> str | None:
        cached = self._routes.get(phone_number_id)
        if cached is not None and time.monotonic() - cached[0] < ROUTE_CACHE_SECONDS:
            return cached[1]
        tenant_id = self.tenant_for_phone_number_id(phone_number_id)
        if tenant_id is not None:  # a miss is asked again: a shop onboarded a minute ago is served at once
            self._routes[phone_number_id] = (time.monotonic(), tenant_id)
        return tenant_id
