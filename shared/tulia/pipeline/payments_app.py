"""The payments function's wiring and routes: ``POST /payments/daraja/stk/{token}``."""

from __future__ import annotations

import json
import re
import threading
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

from tulia.errors import InvalidInput
from tulia.observability import logger as log
from tulia.observability import request_scope, set_tenant
from tulia.pipeline.apigw import HttpResponse, read_body, request_of
from tulia.pipeline.payments import PaymentCallbacks

PAYMENTS_PREFIX = "/payments/"
_TOKEN = re.compile(r"[0-9a-f]{16,128}")  # the callback URL tokens we issue
_TENANT = re.compile(r"[a-z0-9][a-z0-9-]{1,62}")
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
    from tulia.store.queues import INBOUND, OUTREACH, PAYMENT_CHECKS, InboundQueue, OutreachQueue, PaymentCheckQueue

    settings = deployment_settings(get_settings(), "payments")
    services = build_services(settings)
    sqs = boto3.client("sqs", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)
    url = settings.inbound_queue_url or sqs.get_queue_url(QueueName=INBOUND.name(settings.table_prefix))["QueueUrl"]
    checks_url = sqs.get_queue_url(QueueName=PAYMENT_CHECKS.name(settings.table_prefix))["QueueUrl"]
    outreach_url = (
        settings.outreach_queue_url or sqs.get_queue_url(QueueName=OUTREACH.name(settings.table_prefix))["QueueUrl"]
    )
    services.alerts.deliver = OutreachQueue(sqs, outreach_url).send  # money in: the staff's alerts
    return PaymentCallbacks(
        services=services,
        queue=InboundQueue(sqs, url),
        clock=utc_now,
        checks=PaymentCheckQueue(sqs, checks_url),
        check_delay_seconds=settings.stk_query_delay_seconds,
    )


def _response(answer: HttpResponse) -> Response[str]:
    return Response(status_code=answer.status, content_type=answer.content_type, body=answer.body)


app = APIGatewayHttpResolver()
_LOCK = threading.Lock()  # one resolver, one request at a time (the local stack serves from threads)


def _callbacks() -> PaymentCallbacks:
    svc: PaymentCallbacks = app.context["service"]
    return svc


def _body() -> bytes:
    return request_of(app.current_event.raw_event).body


@app.post("/payments/daraja/stk/<token>")
def stk(token: str) -> Response[str]:
    if not _TOKEN.fullmatch(token):
        return _not_found()
    return _response(_callbacks().stk_callback(token, _body()))


@app.post("/payments/daraja/c2b/<token>/<phase>")
def c2b(token: str, phase: str) -> Response[str]:
    if not _TOKEN.fullmatch(token) or phase not in ("confirmation", "validation"):
        return _not_found()
    return _response(_callbacks().c2b_or_defer(token, phase, _body()))


@app.route("/payments/pesapal/ipn/<tenant_id>", method=["GET", "POST"])
def pesapal_ipn(tenant_id: str) -> Response[str]:
    if not _TENANT.fullmatch(tenant_id):
        return _not_found()
    set_tenant(tenant_id)
    note: dict[str, Any] = dict(app.current_event.query_string_parameters or {})
    raw = _body()
    if app.current_event.request_context.http.method == "POST" and raw:
        try:
            body = read_body(raw)
        except ValueError:
            return _response(HttpResponse(400, '{"status":400,"error":"malformed"}'))
        note |= body if isinstance(body, dict) else {}
    return _response(_callbacks().pesapal_ipn(tenant_id, note))


@app.get("/payments/pesapal/return")
def pesapal_return() -> Response[str]:
    return _response(HttpResponse(200, RETURN_PAGE, "text/html; charset=utf-8"))


def _not_found() -> Response[str]:
    return _response(HttpResponse(404, '{"error":"not_found"}'))


@app.not_found
def not_found(_exc: Exception | None) -> Response[str]:
    return _not_found()


@app.exception_handler(InvalidInput)  # type: ignore[untyped-decorator]  # Powertools leaves it untyped
def invalid_input(exc: InvalidInput) -> Response[str]:
    """Input no provider should send (a key part with '#', ...): a clear 400, nothing changed."""
    return _response(HttpResponse(400, json.dumps({"error": exc.code, "message": str(exc)[:200]})))


def handle(event: dict[str, Any], svc: PaymentCallbacks | None = None) -> dict[str, Any]:
    """API Gateway callbacks, or (with ``Records``) the delayed STK checks from SQS."""
    if "Records" in event:
        return handle_checks(event, svc or service())
    request_id = (event.get("requestContext") or {}).get("requestId")
    with _LOCK, request_scope(request_id):
        app.append_context(service=svc or service())  # type: ignore[no-untyped-call]
        return app.resolve(event, None)  # type: ignore[arg-type]


def handle_checks(event: dict[str, Any], svc: PaymentCallbacks) -> dict[str, Any]:
    """The delayed STK status checks and kept C2B confirmations: Powertools' batch processor reports
    the ones that failed, which SQS retries and then moves to the dead-letter queue (its alarm)."""

    def check(record: SQSRecord) -> None:
        body = json.loads(record.body)
        with request_scope(record.message_id, str(body.get("tenant_id") or "") or None):
            try:
                svc.run_queued(body)
            except Exception:
                log.exception("payment check failed; SQS retries it, then its dead-letter queue")
                raise

    processor = BatchProcessor(EventType.SQS, raise_on_entire_batch_failure=False)  # a report, never a raise
    return dict(process_partial_response(event=event, record_handler=check, processor=processor))
