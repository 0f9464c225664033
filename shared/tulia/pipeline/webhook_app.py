"""The webhook function's wiring: settings, clients and the service, built once per container."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from tulia.observability import request_scope
from tulia.pipeline.apigw import HttpResponse, request_of, response_of
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
    from tulia.store.broadcast_statuses import BroadcastStatuses
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
        broadcasts=BroadcastStatuses(db),
    )


def handle(event: dict[str, Any], svc: WebhookService | None = None) -> dict[str, Any]:
    """API Gateway (HTTP API, payload 2.0) in and out; the log lines of the request carry its id. Two
    routes, dispatched here: Powertools' resolver would add a third of the function's cold start (its
    package imports every resolver, asyncio included) for what four lines do."""
    request_id = (event.get("requestContext") or {}).get("requestId")
    with request_scope(request_id):
        request = request_of(event)  # the untouched bytes: the signature covers them
        if request.path != WEBHOOK_PATH:
            return response_of(HttpResponse(404, '{"error":"not_found"}'))
        if request.method == "GET":
            return response_of((svc or service()).verify(request.params))
        if request.method == "POST":
            return response_of((svc or service()).receive(request.body, request.headers.get("x-hub-signature-256")))
        return response_of(HttpResponse(405, '{"error":"method_not_allowed"}'))
