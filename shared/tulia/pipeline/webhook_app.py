"""The webhook function's wiring: settings, clients and the service, built once per container."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response

from tulia.observability import request_scope
from tulia.pipeline.apigw import HttpResponse, request_of
from tulia.pipeline.webhook import WebhookService

WEBHOOK_PATH = "/webhooks/whatsapp"


@lru_cache(maxsize=1)
def service() -> WebhookService:
    import boto3
    from botocore.config import Config

    from tulia.config import get_settings
    from tulia.credentials import deployment_settings
    from tulia.domain.common import utc_now
    from tulia.observability.metrics import MetricsRecorder
    from tulia.store.broadcasts import BroadcastRepo
    from tulia.store.dynamo import Dynamo
    from tulia.store.messages import MessageRepo
    from tulia.store.queues import INBOUND, InboundQueue
    from tulia.store.tenants import TenantRepo

    settings = deployment_settings(get_settings(), "meta")
    config = Config(connect_timeout=2, read_timeout=3, retries={"max_attempts": 3, "mode": "standard"})
    dynamodb = boto3.client(
        "dynamodb", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url, config=config
    )
    sqs = boto3.client("sqs", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url, config=config)
    db = Dynamo(dynamodb, settings.table_prefix)
    queue_url = (
        settings.inbound_queue_url or sqs.get_queue_url(QueueName=INBOUND.name(settings.table_prefix))["QueueUrl"]
    )

    return WebhookService(
        app_secret=settings.meta_app_secret.get_secret_value(),
        verify_token=settings.meta_verify_token.get_secret_value(),
        tenant_for_phone_number_id=TenantRepo(db).tenant_for_phone_number_id,
        messages=MessageRepo(db),
        queue=InboundQueue(sqs, queue_url),
        clock=utc_now,
        record=MetricsRecorder(),
        broadcasts=BroadcastRepo(db),
    )


def _response(answer: HttpResponse) -> Response[str]:
    return Response(status_code=answer.status, content_type=answer.content_type, body=answer.body)


app = APIGatewayHttpResolver()
_LOCK = threading.Lock()  # one resolver, one request at a time (the local stack serves from threads)


@app.get(WEBHOOK_PATH)
def verify() -> Response[str]:
    return _response(app.context["service"].verify(dict(app.current_event.query_string_parameters or {})))


@app.post(WEBHOOK_PATH)
def receive() -> Response[str]:
    request = request_of(app.current_event.raw_event)  # the untouched bytes: the signature covers them
    return _response(app.context["service"].receive(request.body, request.headers.get("x-hub-signature-256")))


@app.route(WEBHOOK_PATH, method=["PUT", "PATCH", "DELETE"])
def other_methods() -> Response[str]:
    return _response(HttpResponse(405, '{"error":"method_not_allowed"}'))


@app.not_found
def not_found(_exc: Exception) -> Response[str]:
    return _response(HttpResponse(404, '{"error":"not_found"}'))


def handle(event: dict[str, Any], svc: WebhookService | None = None) -> dict[str, Any]:
    """API Gateway (HTTP API, payload 2.0) in and out; the log lines of the request carry its id."""
    request_id = (event.get("requestContext") or {}).get("requestId")
    with _LOCK, request_scope(request_id):
        app.append_context(service=svc or service())
        return app.resolve(event, None)  # type: ignore[arg-type]
