"""The payments function's wiring and routes: ``POST /payments/daraja/stk/{token}``."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from tulia.errors import InvalidInput
from tulia.pipeline.apigw import HttpResponse, request_of, response_of
from tulia.pipeline.payments import PaymentCallbacks

PAYMENTS_PREFIX = "/payments/"
_STK = re.compile(r"^/payments/daraja/stk/([0-9a-f]{16,128})/?$")
_C2B = re.compile(r"^/payments/daraja/c2b/([0-9a-f]{16,128})/(confirmation|validation)/?$")
_IPN = re.compile(r"^/payments/pesapal/ipn/([a-z0-9][a-z0-9-]{1,62})/?$")
RETURN_PAGE = (
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
    "<title>Payment received</title><p style='font-family:sans-serif;margin:2em'>Thank you! You can go back to "
    "WhatsApp: we will confirm your payment there as soon as it is through.</p>"
)


@lru_cache(maxsize=1)
def service() -> PaymentCallbacks:
    import boto3

    from tulia.config import get_settings
    from tulia.credentials import deployment_settings
    from tulia.domain.common import utc_now
    from tulia.services import build_services
    from tulia.store.queues import INBOUND, PAYMENT_CHECKS, InboundQueue, PaymentCheckQueue

    settings = deployment_settings(get_settings(), "payments")
    services = build_services(settings)
    sqs = boto3.client("sqs", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)
    url = settings.inbound_queue_url or sqs.get_queue_url(QueueName=INBOUND.name(settings.table_prefix))["QueueUrl"]
    checks_url = sqs.get_queue_url(QueueName=PAYMENT_CHECKS.name(settings.table_prefix))["QueueUrl"]
    return PaymentCallbacks(
        services=services,
        queue=InboundQueue(sqs, url),
        clock=utc_now,
        checks=PaymentCheckQueue(sqs, checks_url),
        check_delay_seconds=settings.stk_query_delay_seconds,
    )


def handle(event: dict[str, Any], svc: PaymentCallbacks | None = None) -> dict[str, Any]:
    """API Gateway callbacks, or (with ``Records``) the delayed STK checks from SQS."""
    if "Records" in event:
        return handle_checks(event, svc or service())
    try:
        return _route(event, svc)
    except InvalidInput as exc:  # input no provider should send (a key part with '#', ...): a clear 400
        return response_of(HttpResponse(400, json.dumps({"error": exc.code, "message": str(exc)[:200]})))


def _route(event: dict[str, Any], svc: PaymentCallbacks | None) -> dict[str, Any]:
    request = request_of(event)
    stk = _STK.match(request.path)
    if request.method == "POST" and stk:
        return response_of((svc or service()).stk_callback(stk.group(1), request.body))
    c2b = _C2B.match(request.path)
    if request.method == "POST" and c2b:
        return response_of((svc or service()).c2b(c2b.group(1), c2b.group(2), request.body))
    ipn = _IPN.match(request.path)
    if ipn and request.method in ("GET", "POST"):
        note: dict[str, Any] = dict(request.params)
        if request.method == "POST" and request.body:
            try:
                body = json.loads(request.body)
            except ValueError:
                return response_of(HttpResponse(400, '{"status":400,"error":"malformed"}'))
            note |= body if isinstance(body, dict) else {}
        return response_of((svc or service()).pesapal_ipn(ipn.group(1), note))
    if request.method == "GET" and request.path.rstrip("/") == "/payments/pesapal/return":
        return response_of(HttpResponse(200, RETURN_PAGE, "text/html; charset=utf-8"))
    return response_of(HttpResponse(404, '{"error":"not_found"}'))


def handle_checks(event: dict[str, Any], svc: PaymentCallbacks) -> dict[str, Any]:
    from tulia.observability import logger as log

    failed = []
    for record in event.get("Records") or []:
        try:
            svc.check(json.loads(record["body"]))
        except Exception:  # noqa: BLE001 - retried by SQS (then the dead-letter queue)
            log.exception("STK check failed")
            failed.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failed}
