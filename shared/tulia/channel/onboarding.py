"""Meta's Embedded Signup, the server's half: the code the owner's browser got from the signup popup becomes the
shop's business token, the app is subscribed to her WhatsApp Business Account's webhooks, her number is
registered for the Cloud API (with a two-step verification PIN we keep), and its display number and name read.
Paths are the Graph API's, appended to ``TULIA_WHATSAPP_API_BASE`` (the local stack: the Graph simulator)."""

from __future__ import annotations

from typing import Any

import httpx

from tulia.errors import ProviderError, ProviderUnavailable
from tulia.observability import traced


class MetaOnboarding:
    def __init__(self, http: httpx.Client, base_url: str, app_id: str, app_secret: str) -> None:
        self.http, self.base, self.app_id, self.app_secret = http, base_url.rstrip("/"), app_id, app_secret

    def exchange_code(self, code: str) -> str:
        """The business integration system user's token for the code (a code works once, minutes after the popup)."""
        params = {"client_id": self.app_id, "client_secret": self.app_secret, "code": code}
        body = self._call("GET", "/oauth/access_token", None, params=params)
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise ProviderError("Meta gave no access token for the code.", code="meta_error")
        return token

    def subscribe(self, token: str, waba_id: str) -> None:
        """Our app receives the account's webhooks (messages and statuses of its numbers)."""
        self._call("POST", f"/{waba_id}/subscribed_apps", token)

    def register(self, token: str, phone_number_id: str, pin: str) -> None:
        """The number sends and receives through the Cloud API; ``pin`` becomes its two-step verification PIN."""
        self._call("POST", f"/{phone_number_id}/register", token, json={"messaging_product": "whatsapp", "pin": pin})

    def number(self, token: str, phone_number_id: str) -> dict[str, Any]:
        fields = "display_phone_number,verified_name,code_verification_status,quality_rating"
        return self._call("GET", f"/{phone_number_id}", token, params={"fields": fields})

    def _call(self, method: str, path: str, token: str | None, **kw: Any) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            with traced("provider", "whatsapp_onboarding"):
                resp = self.http.request(method, f"{self.base}{path}", headers=headers, **kw)
        except httpx.TransportError as exc:
            raise ProviderUnavailable(f"Meta's Graph API unreachable: {type(exc).__name__}") from exc
        if resp.status_code >= 500 or resp.status_code == 429:
            raise ProviderUnavailable(f"Meta's Graph API HTTP {resp.status_code}")
        try:
            data = resp.json()
        except ValueError:
            data = {}
        if resp.status_code >= 400:
            error = (data.get("error") if isinstance(data, dict) else None) or {}
            raise ProviderError(
                f"Meta refused ({path.split('/')[-1] or path}): {error.get('message') or resp.text[:200]}",
                code="meta_error",
                details={"status": resp.status_code, "meta_code": error.get("code")},
            )
        return data if isinstance(data, dict) else {}
