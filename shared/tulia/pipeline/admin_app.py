"""The admin function behind ``/admin/*``: the Powertools resolver of :mod:`tulia.admin.api` over the
shop's data. API Gateway's JWT authorizer has verified the token (locally, the stack's front door
does the same) before an event reaches :func:`handle`."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

from tulia.admin.common import AdminDeps
from tulia.observability import request_scope
from tulia.pipeline.apigw import MAX_NESTING, too_deep

_LOCK = threading.Lock()  # a resolver serves one request at a time (the local stack has threads)


def embedded_signup(settings: Any, http: Any, api_base: str | None) -> tuple[Any, Any]:
    """Meta's Embedded Signup when the app is configured (TULIA_META_APP_ID and the configuration id), else, with
    the Graph simulator (no TULIA_WHATSAPP_API_BASE), its stand-in popup; neither: shops cannot connect a number
    in the console (the deployer puts it in their pack)."""
    import httpx

    from tulia.admin.whatsapp_connect import SignupDialog
    from tulia.channel.onboarding import MetaOnboarding

    secret = settings.meta_app_secret.get_secret_value()
    client = http or httpx.Client(timeout=settings.http_timeout_seconds)
    if settings.meta_app_id and settings.meta_embedded_signup_config_id and api_base:
        dialog = SignupDialog(
            mode="facebook", app_id=settings.meta_app_id, config_id=settings.meta_embedded_signup_config_id
        )
        return MetaOnboarding(client, api_base, settings.meta_app_id, secret), dialog
    if api_base and not settings.whatsapp_api_base:  # the local stack's Graph simulator
        root = api_base.rstrip("/")
        dialog = SignupDialog(
            mode="simulator", app_id="local-app", config_id="local", dialog_url=f"{root}/dialog/embedded-signup"
        )
        return MetaOnboarding(client, api_base, "local-app", secret), dialog
    return None, None


def build_deps(
    settings: Any, services: Any, *, http: Any = None, whatsapp_api_base: str | None = None, sqs: Any = None
) -> AdminDeps:
    """Everything the routes use, from settings: uploads need ``kb_bucket``; replies from the inbox
    need the Graph API root. ``sqs``: the client of the queues (the local stack's, which wakes its pollers)."""
    import boto3
    import httpx
    from botocore.config import Config

    from tulia.admin.customer_data import CheckpointConversations
    from tulia.admin.handoffs import WhatsAppAccess
    from tulia.admin.kb import KbUploads
    from tulia.pipeline.trial import TrialChats
    from tulia.store.audit import AuditRepo
    from tulia.store.stats import StatsRepo

    uploads = None
    if settings.kb_bucket:
        s3 = boto3.client(
            "s3",
            region_name=settings.aws_region,
            endpoint_url=settings.aws_endpoint_url,
            config=Config(s3={"addressing_style": "path"}, signature_version="s3v4"),
        )
        uploads = KbUploads(s3, settings.kb_bucket)
    api_base = whatsapp_api_base or settings.whatsapp_api_base
    whatsapp = (
        WhatsAppAccess(
            http or httpx.Client(timeout=settings.http_timeout_seconds),
            api_base,
            settings.whatsapp_access_token.get_secret_value(),
        )
        if api_base
        else None
    )

    from tulia.store.queues import INBOUND, OUTREACH, PAYMENT_CHECKS, InboundQueue, OutreachQueue, PaymentCheckQueue

    if sqs is None:
        sqs = boto3.client("sqs", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)

    def url_of(name: str) -> Callable[[], str]:
        return lambda: str(sqs.get_queue_url(QueueName=name)["QueueUrl"])

    notify = InboundQueue(sqs, settings.inbound_queue_url or url_of(INBOUND.name(settings.table_prefix)))
    outreach = OutreachQueue(sqs, settings.outreach_queue_url or url_of(OUTREACH.name(settings.table_prefix)))
    checks = PaymentCheckQueue(sqs, url_of(PAYMENT_CHECKS.name(settings.table_prefix)))  # found on first use

    def saver() -> Any:
        from tulia.graph.conversation import dynamodb_checkpointer

        return dynamodb_checkpointer(
            settings.table_name("checkpoints"),
            region_name=settings.aws_region,
            endpoint_url=settings.aws_endpoint_url,
            offload_bucket=settings.checkpoint_bucket,
        )

    vapid = settings.webpush_vapid_private_key
    if vapid is not None:
        from tulia.channel.webpush import VapidKey

        push_key: str | None = VapidKey(vapid.get_secret_value(), settings.webpush_subject).public_key
    else:
        push_key = None
    onboarding, dialog = embedded_signup(settings, http, api_base)

    def engine() -> Any:
        from tulia.nlu.engine import build_engine

        return build_engine(settings.llm, settings)

    return AdminDeps(
        services=services,
        onboarding=onboarding,
        signup_dialog=dialog,
        audit=AuditRepo(services.db),
        uploads=uploads,
        whatsapp=whatsapp,
        notify=notify,
        outreach=outreach,
        conversations=CheckpointConversations(saver),
        trial=TrialChats(services, engine, saver),  # the console's trial chat: the agent's engine, here
        stats=StatsRepo(services.db),
        staff=staff_directory(settings),
        kes_per_usd=settings.kes_per_usd,
        checks=checks,
        push_key=push_key,
        push_hosts=tuple(settings.webpush_hosts),
    )


def staff_directory(settings: Any, user_pool_id: str | None = None, *, send_email: bool = True) -> Any:
    """The staff user pool the admin API invites into (None without one)."""
    import boto3

    from tulia.admin.staff import StaffDirectory

    pool_id = user_pool_id or settings.staff_user_pool_id
    if not pool_id:
        return None

    def connect() -> Any:
        return boto3.client("cognito-idp", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)

    return StaffDirectory(connect, pool_id, send_email=send_email)


@lru_cache(maxsize=1)
def service() -> APIGatewayHttpResolver:
    from tulia.admin.api import build_admin_api
    from tulia.config import get_settings
    from tulia.credentials import deployment_settings, webpush_secret
    from tulia.services import build_services

    settings = deployment_settings(get_settings(), "meta", *webpush_secret(get_settings()))
    return build_admin_api(build_deps(settings, build_services(settings)))


def handle(event: dict[str, Any], api: APIGatewayHttpResolver | None = None) -> dict[str, Any]:
    """One admin request; its log lines carry API Gateway's request id and the caller's shop."""
    from tulia.admin.auth import TENANT_CLAIM
    from tulia.domain.common import TENANT_ID_PATTERN

    resolver = api or service()
    context = event.get("requestContext") or {}
    claims = ((context.get("authorizer") or {}).get("jwt") or {}).get("claims") or {}
    tenant_id = str(claims.get(TENANT_CLAIM) or "")
    with _LOCK, request_scope(context.get("requestId"), tenant_id if TENANT_ID_PATTERN.fullmatch(tenant_id) else None):
        if (refused := _not_utf8_json(event)) is not None:
            return refused
        return resolver.resolve(event, None)  # type: ignore[arg-type]


RAW_BODY_PATHS = frozenset({"/admin/catalog/import", "/admin/shop/pack"})


def raw_body(path: str) -> bool:
    """The routes whose body is a file, read as bytes by the route itself (never as JSON)."""
    return path in RAW_BODY_PATHS or (path.startswith("/admin/catalog/items/") and path.endswith("/picture"))


def _not_utf8_json(event: dict[str, Any]) -> dict[str, Any] | None:
    """A JSON body in bytes that are not UTF-8 (Latin-1, UTF-16), or nested past any sane depth: a clear
    422, never a decoding or recursion 500. (The catalog import, CSV or Excel, and a shop's pack read their own
    bytes and say so.)"""
    if raw_body(str(event.get("rawPath") or "")) or not event.get("body"):
        return None
    if not event.get("isBase64Encoded"):
        text = str(event["body"])
        return _refuse(f"The request body nests more than {MAX_NESTING} deep.") if too_deep(text.encode()) else None
    try:
        raw = base64.b64decode(str(event["body"]))
        raw.decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return _refuse("The request body must be JSON in UTF-8.")
    return _refuse(f"The request body nests more than {MAX_NESTING} deep.") if too_deep(raw) else None


def _refuse(message: str) -> dict[str, Any]:
    body = {"code": "invalid_input", "message": message}
    return {"statusCode": 422, "headers": {"Content-Type": "application/json"}, "body": json.dumps(body)}
