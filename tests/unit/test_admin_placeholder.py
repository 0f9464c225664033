"""Until the admin API lands, /admin answers 501 with a structured error, and 401 without a tenant claim."""

from __future__ import annotations

import json

from tulia.pipeline.admin_app import handle


def _event(claims: dict[str, str]) -> dict:
    return {
        "version": "2.0",
        "rawPath": "/admin/orders",
        "requestContext": {
            "http": {"method": "GET", "path": "/admin/orders"},
            "authorizer": {"jwt": {"claims": claims}},
        },
    }


def test_a_verified_tenant_token_gets_not_implemented_in_words() -> None:
    out = handle(_event({"custom:tenant_id": "demo-shop", "cognito:groups": "[owner]"}))
    assert out["statusCode"] == 501
    body = json.loads(out["body"])
    assert body["code"] == "not_implemented"
    assert body["details"] == {"tenant_id": "demo-shop", "path": "/admin/orders"}


def test_a_token_without_a_tenant_is_refused() -> None:
    out = handle(_event({"sub": "abc"}))
    assert out["statusCode"] == 401
    assert json.loads(out["body"])["code"] == "unauthorized"
