"""Sending WhatsApp messages through the Cloud API (PROTOCOLS.md 1.5, 1.7).

``POST {base}/{phone_number_id}/messages`` with the tenant's bearer token. Throttling (429 / 130429)
and server errors are retried a bounded number of times with backoff; errors that retrying cannot
fix (undeliverable 131026, outside the 24 h window 131047, bad parameters, bad token) are raised at
once as permanent.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from tulia.observability import traced

RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
RETRY_CODES = frozenset({130429, 131000, 131056, 2, 4})


class SendFailed(Exception):
    def __init__(self, message: str, *, status: int | None, code: int | None, retryable: bool) -> None:
        super().__init__(message)
        self.status, self.code, self.retryable = status, code, retryable


class WhatsAppSender:
    def __init__(
        self,
        http: httpx.Client,
        base_url: str,
        *,
        max_retries: int = 3,
        backoff_seconds: float = 0.3,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.http, self.base = http, base_url.rstrip("/")
        self.max_retries, self.backoff, self.sleep = max_retries, backoff_seconds, sleep

    def send(self, phone_number_id: str, token: str, payload: dict[str, Any]) -> str:
        """Send one message; returns its wamid."""
        body = self._post(phone_number_id, token, payload)
        try:
            return str(body["messages"][0]["id"])
        except (KeyError, IndexError, TypeError):
            # a 2xx is a sent message whatever its body: sending again would duplicate it
            return "sent:no-message-id"

    def mark_read(self, phone_number_id: str, token: str, message_id: str) -> None:
        self._post(
            phone_number_id, token, {"messaging_product": "whatsapp", "status": "read", "message_id": message_id}
        )

    def _post(self, phone_number_id: str, token: str, payload: dict[str, Any]) -> dict[str, Any]:
        url = f"{self.base}/{phone_number_id}/messages"
        headers = {"Authorization": f"Bearer {token}"}
        attempt = 0
        while True:
            try:
                with traced("provider", "whatsapp", attempt=attempt):
                    resp = self.http.post(url, json=payload, headers=headers)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:  # never reached Meta: safe to send again
                failure = SendFailed(
                    f"Graph API unreachable: {type(exc).__name__}", status=None, code=None, retryable=True
                )
            except httpx.TransportError as exc:
                # sent, but no answer (a read timeout): Meta may have delivered it. Not resent here; the
                # queue's retry may send it once more, which is the only duplicate a timeout can cause.
                raise SendFailed(
                    f"Graph API did not answer: {type(exc).__name__}", status=None, code=None, retryable=True
                ) from exc
            else:
                if resp.status_code < 400:
                    try:
                        data = resp.json()
                    except ValueError:
                        return {}  # a 2xx with an odd body is still a success
                    return data if isinstance(data, dict) else {}
                failure = _failure(resp)
            if not failure.retryable or attempt >= self.max_retries:
                raise failure
            attempt += 1
            self.sleep(self.backoff * 2 ** (attempt - 1))


def _failure(resp: httpx.Response) -> SendFailed:
    try:
        error = resp.json().get("error") or {}
    except ValueError:
        error = {}
    code = error.get("code")
    retryable = resp.status_code in RETRY_STATUS or code in RETRY_CODES
    return SendFailed(
        f"Graph API HTTP {resp.status_code}: {error.get('message') or resp.text[:200]}",
        status=resp.status_code,
        code=code if isinstance(code, int) else None,
        retryable=retryable,
    )


class TemplateManager:
    """A shop's message templates in the WhatsApp Business Management API (``/{waba-id}/message_templates``):
    list them (every page), submit one for approval, delete one by name."""

    def __init__(self, http: httpx.Client, base_url: str) -> None:
        self.http, self.base = http, base_url.rstrip("/")

    def list(self, waba_id: str, token: str, *, max_pages: int = 20) -> list[dict[str, Any]]:
        url: str | None = f"{self.base}/{waba_id}/message_templates"
        params: dict[str, Any] | None = {
            "fields": "name,language,category,status,components,rejected_reason",
            "limit": 100,
        }
        found: list[dict[str, Any]] = []
        for _ in range(max_pages):
            if url is None:
                break
            body = self._call("GET", url, token, params=params)
            found += [t for t in body.get("data") or [] if isinstance(t, dict)]
            url, params = (body.get("paging") or {}).get("next"), None  # the next page's URL carries its query
        return found

    def create(self, waba_id: str, token: str, template: dict[str, Any]) -> dict[str, Any]:
        return self._call("POST", f"{self.base}/{waba_id}/message_templates", token, json=template)

    def delete(self, waba_id: str, token: str, name: str) -> None:
        self._call("DELETE", f"{self.base}/{waba_id}/message_templates", token, params={"name": name})

    def _call(self, method: str, url: str, token: str, **kw: Any) -> dict[str, Any]:
        from tulia.errors import ProviderError, ProviderUnavailable

        try:
            with traced("provider", "whatsapp_templates"):
                resp = self.http.request(method, url, headers={"Authorization": f"Bearer {token}"}, **kw)
        except httpx.TransportError as exc:
            raise ProviderUnavailable(f"WhatsApp Business Management API unreachable: {type(exc).__name__}") from exc
        if resp.status_code >= 500 or resp.status_code == 429:
            raise ProviderUnavailable(f"WhatsApp Business Management API HTTP {resp.status_code}")
        failure = _failure(resp) if resp.status_code >= 400 else None
        if failure is not None:
            raise ProviderError(str(failure), details={"status": failure.status, "code": failure.code})
        try:
            data = resp.json()
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}
