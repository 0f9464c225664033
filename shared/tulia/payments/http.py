"""JSON over HTTP to payment providers: timeouts, bounded retries with backoff, typed errors."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import httpx

from tulia.errors import ProviderError, ProviderUnavailable
from tulia.observability import traced

RETRYABLE_STATUS = frozenset({429, 500, 502, 503, 504})


def call_json(
    http: httpx.Client,
    method: str,
    url: str,
    *,
    provider: str,
    retries: int,
    idempotent: bool,
    headers: Mapping[str, str] | None = None,
    json: Any = None,
    params: Mapping[str, str] | None = None,
    backoff_seconds: float = 0.2,
    expect_object: bool = True,
) -> Any:
    """Send a request and return the decoded JSON object.

    ``idempotent=False`` (for example an STK push) retries only when the request certainly did not
    reach the provider (connection refused) or was refused as throttled (429), so a customer never
    gets two M-Pesa prompts for one order.
    """
    attempt = 0
    while True:
        try:
            with traced("provider", provider, attempt=attempt):
                resp = http.request(method, url, headers=headers, json=json, params=params)
        except httpx.ConnectError as exc:
            failure: Exception = exc
        except httpx.TransportError as exc:  # timeouts, broken connections: maybe delivered
            if not idempotent:
                raise ProviderUnavailable(
                    f"{provider} did not answer in time.", details={"provider": provider}
                ) from exc
            failure = exc
        else:
            if resp.status_code < 400:
                return _decode(resp, provider) if expect_object else _safe_json(resp)
            retryable = resp.status_code == 429 or (idempotent and resp.status_code in RETRYABLE_STATUS)
            if not retryable or attempt >= retries:
                body = _safe_json(resp)
                message = _provider_message(body) or f"HTTP {resp.status_code}"
                err_cls = ProviderUnavailable if resp.status_code >= 500 or resp.status_code == 429 else ProviderError
                raise err_cls(
                    f"{provider}: {message}", details={"provider": provider, "status": resp.status_code, "body": body}
                )
            failure = ProviderUnavailable(f"{provider}: HTTP {resp.status_code}")
        if attempt >= retries:
            raise ProviderUnavailable(f"{provider} is unavailable.", details={"provider": provider}) from failure
        time.sleep(backoff_seconds * (2**attempt))
        attempt += 1


def _decode(resp: httpx.Response, provider: str) -> dict[str, Any]:
    body = _safe_json(resp)
    if not isinstance(body, dict):
        raise ProviderError(
            f"{provider} answered with something that is not a JSON object.",
            details={"provider": provider, "status": resp.status_code},
        )
    return body


def _safe_json(resp: httpx.Response) -> Any:
    try:
        return resp.json()
    except ValueError:
        return {"raw": resp.text[:500]}


def _provider_message(body: Any) -> str | None:
    if not isinstance(body, dict):
        return None
    for key in ("errorMessage", "ResponseDescription", "message", "error_description"):
        if isinstance(body.get(key), str):
            return str(body[key])
    err = body.get("error")
    if isinstance(err, dict):
        return str(err.get("message") or err.get("code") or err)
    return None
