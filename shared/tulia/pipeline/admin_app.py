"""The admin function behind ``/admin/*`` (Cognito JWT authorizer in AWS).

The admin API itself arrives with its own issue; until then every route answers 501 with a
structured error, after checking that the verified token names a tenant (a token without one is
refused with 401, as the full API will)."""

from __future__ import annotations

import json
from typing import Any


def _response(status: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"statusCode": status, "headers": {"content-type": "application/json"}, "body": json.dumps(body)}


def handle(event: dict[str, Any]) -> dict[str, Any]:
    claims = ((event.get("requestContext") or {}).get("authorizer") or {}).get("jwt", {}).get("claims") or {}
    tenant_id = claims.get("custom:tenant_id")
    if not tenant_id:
        return _response(401, {"code": "unauthorized", "message": "The token names no tenant (custom:tenant_id)."})
    return _response(
        501,
        {
            "code": "not_implemented",
            "message": "The admin API is not part of this release yet.",
            "details": {"tenant_id": tenant_id, "path": event.get("rawPath")},
        },
    )
