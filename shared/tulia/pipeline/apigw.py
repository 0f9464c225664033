"""API Gateway HTTP API (payload format 2.0) events in and out: the only place that knows their shape."""

from __future__ import annotations

import base64
import json
import re
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


# signed or authorised bodies of any shape: bounded before parsing, decoded leniently
MAX_NESTING = 64  # Meta's payloads nest about ten deep; deeper is refused before parsing
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def too_deep(raw: bytes, limit: int = MAX_NESTING) -> bool:
    """Whether a JSON body nests arrays and objects more than ``limit`` deep (strings skipped), read
    before parsing so no body can exhaust the parser's recursion."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    depth, in_string, escaped = 0, False, False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def without_lone_surrogates(value: Any) -> Any:
    """Every string of a parsed body with lone surrogates ("\\ud800" escaped in JSON, which no queue or
    table can encode) replaced by U+FFFD."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [without_lone_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {without_lone_surrogates(k): without_lone_surrogates(v) for k, v in value.items()}
    return value


def read_body(raw: bytes) -> Any:
    """A signed body as JSON: bounded nesting, decoded leniently (bytes that are not UTF-8 become U+FFFD),
    lone surrogates replaced. Raises ``ValueError`` for a body that is not usable JSON."""
    if too_deep(raw):
        raise ValueError(f"nested more than {MAX_NESTING} deep")
    payload = json.loads(raw.decode("utf-8", errors="replace"))
    return without_lone_surrogates(payload) if _SURROGATE_ESCAPE.search(raw) else payload
