"""Logger, Tracer and the request's log keys in one place, so domain code never imports from a handler.

Every log line of a request carries ``correlation_id`` (API Gateway's request id, the inbound
WhatsApp message id in the agent, the SQS message id of a payment check) and ``tenant_id`` (the
shop, once it is known; ``"unknown"`` before, e.g. for a webhook with a bad signature). The keys are
thread-local, so the local stack's threads never mix two requests' keys.

The Tracer records one X-Ray subsegment per tool call, model call and provider call (Graph API,
Daraja, PesaPal) with the tenant as an annotation. It is off outside Lambda (Powertools detects
that), so tests and ``tulia dev`` pay nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from aws_lambda_powertools import Logger, Tracer

logger = Logger(service="tulia")

UNKNOWN_TENANT = "unknown"
REQUEST_KEYS = ("correlation_id", "tenant_id")


@contextmanager
def request_scope(correlation_id: str | None, tenant_id: str | None = None) -> Iterator[None]:
    """The log keys of one request (or one queued record) for the lines logged inside the block."""
    logger.thread_safe_append_keys(correlation_id=correlation_id or "-", tenant_id=tenant_id or UNKNOWN_TENANT)
    try:
        yield
    finally:
        logger.thread_safe_remove_keys(REQUEST_KEYS)


def set_tenant(tenant_id: str | None) -> None:
    """The shop of the current request, once it is known (a webhook learns it from the payload)."""
    logger.thread_safe_append_keys(tenant_id=tenant_id or UNKNOWN_TENANT)


def current_tenant() -> str:
    return str(logger.thread_safe_get_current_keys().get("tenant_id") or UNKNOWN_TENANT)


@lru_cache(maxsize=1)
def tracer() -> Tracer:
    """Built on first use (the webhook never traces, so it never loads the X-Ray SDK). No auto-patching:
    that would import every library the SDK can patch; the subsegments below are explicit."""
    return Tracer(service="tulia", auto_patch=False)


@contextmanager
def traced(kind: str, name: str, **annotations: Any) -> Iterator[None]:
    """One subsegment ``## <kind> <name>`` around a tool, model or provider call (a no-op outside Lambda)."""
    if tracer().disabled:
        yield
        return
    with tracer().provider.in_subsegment(f"## {kind} {name}") as subsegment:
        if subsegment is not None:  # None when no segment is open (X-Ray logs it; the call goes on untraced)
            subsegment.put_annotation("tenant_id", annotations.pop("tenant_id", None) or current_tenant())
            subsegment.put_annotation(kind, name)
            for key, value in annotations.items():
                if value is not None:
                    subsegment.put_annotation(key, value)
        yield
