"""API Gateway HTTP API (payload format 2.0) events in and out: the only place that knows their shape."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class HttpResponse:
    """What a handler answers; :func:`response_of` turns it into API Gateway's shape."""

    status: int
    body: str = ""
    content_type: str = "application/json"


@dataclass(frozen=True)
class HttpRequest:
    method: str
    path: str
    params: dict[str, str]
    headers: dict[str, str]  # lower-case names
    body: bytes  # the untouched bytes (signatures are computed over them)


def request_of(event: dict[str, Any]) -> HttpRequest:
    http = (event.get("requestContext") or {}).get("http") or {}
    raw = event.get("body") or ""
    body = base64.b64decode(raw) if event.get("isBase64Encoded") else raw.encode("utf-8")
    return HttpRequest(
        method=str(http.get("method") or "GET").upper(),
        path=str(event.get("rawPath") or http.get("path") or "/"),
        params={k: str(v) for k, v in (event.get("queryStringParameters") or {}).items()},
        headers={k.lower(): str(v) for k, v in (event.get("headers") or {}).items()},
        body=body,
    )


def response_of(response: HttpResponse) -> dict[str, Any]:
    return {
        "statusCode": response.status,
        "headers": {"content-type": response.content_type},
        "body": response.body,
        "isBase64Encoded": False,
    }
