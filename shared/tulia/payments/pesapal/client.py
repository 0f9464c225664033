"""PesaPal API 3.0 client: token, IPN registration, order submission, transaction status.

Paths are appended unchanged to ``TULIA_PESAPAL_API_BASE`` (see PROTOCOLS.md section 3).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, cast

import httpx

from tulia.errors import ProviderError
from tulia.payments.http import call_json

TOKEN_TTL_SECONDS = 240  # tokens live 5 minutes; refresh a minute early


@dataclass(frozen=True)
class PesapalCredentials:
    consumer_key: str
    consumer_secret: str


@dataclass(frozen=True)
class CheckoutResult:
    order_tracking_id: str
    merchant_reference: str
    redirect_url: str


@dataclass(frozen=True)
class TransactionStatus:
    status_code: int  # 0 invalid, 1 completed, 2 failed, 3 reversed
    description: str
    amount: float | None
    currency: str | None
    merchant_reference: str | None
    confirmation_code: str | None
    payment_method: str | None


class PesapalClient:
    def __init__(self, http: httpx.Client, base_url: str, *, retries: int = 2) -> None:
        self.http = http
        self.base = base_url.rstrip("/")
        self.retries = retries
        self._tokens: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    def _call(self, method: str, path: str, *, idempotent: bool, token: str | None = None, **kw: Any) -> dict[str, Any]:
        headers = {"Accept": "application/json", "Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        body = call_json(
            self.http,
            method,
            f"{self.base}{path}",
            provider="pesapal",
            retries=self.retries,
            idempotent=idempotent,
            headers=headers,
            **kw,
        )
        error = body.get("error")
        if error or str(body.get("status", "200")) not in ("200", "None"):
            message = error.get("message") if isinstance(error, dict) else error
            raise ProviderError(
                f"pesapal: {message or body.get('message') or 'request refused'}",
                details={"provider": "pesapal", "body": body},
            )
        return cast(dict[str, Any], body)

    def token(self, creds: PesapalCredentials) -> str:
        with self._lock:
            cached = self._tokens.get(creds.consumer_key)
            if cached and cached[1] > time.monotonic():
                return cached[0]
        body = self._call(
            "POST",
            "/api/Auth/RequestToken",
            idempotent=True,
            json={"consumer_key": creds.consumer_key, "consumer_secret": creds.consumer_secret},
        )
        token = body.get("token")
        if not isinstance(token, str) or not token:
            raise ProviderError("pesapal: no token in the auth answer.", details={"provider": "pesapal"})
        with self._lock:
            self._tokens[creds.consumer_key] = (token, time.monotonic() + TOKEN_TTL_SECONDS)
        return token

    def register_ipn(self, creds: PesapalCredentials, url: str, notification_type: str = "POST") -> str:
        token = self.token(creds)
        # reuse an existing registration of the same URL instead of piling up duplicates
        listing = call_json(
            self.http,
            "GET",
            f"{self.base}/api/URLSetup/GetIpnList",
            provider="pesapal",
            retries=self.retries,
            idempotent=True,
            headers={"Accept": "application/json", "Authorization": f"Bearer {token}"},
            expect_object=False,
        )
        for entry in listing if isinstance(listing, list) else []:
            if isinstance(entry, dict) and entry.get("url") == url and entry.get("ipn_id"):
                return str(entry["ipn_id"])
        body = self._call(
            "POST",
            "/api/URLSetup/RegisterIPN",
            idempotent=True,
            token=token,
            json={"url": url, "ipn_notification_type": notification_type},
        )
        ipn_id = body.get("ipn_id")
        if not ipn_id:
            raise ProviderError("pesapal: no ipn_id in the registration answer.", details={"provider": "pesapal"})
        return str(ipn_id)

    def submit_order(
        self,
        creds: PesapalCredentials,
        *,
        merchant_reference: str,
        amount: int,
        description: str,
        callback_url: str,
        notification_id: str,
        phone_number: str | None,
        first_name: str | None,
        email: str | None = None,  # PesaPal needs an email or a phone (an owner's test: her email)
    ) -> CheckoutResult:
        body = self._call(
            "POST",
            "/api/Transactions/SubmitOrderRequest",
            idempotent=False,
            token=self.token(creds),
            json={
                "id": merchant_reference,
                "currency": "KES",
                "amount": int(amount),
                "description": description[:100],
                "callback_url": callback_url,
                "notification_id": notification_id,
                "billing_address": {
                    "email_address": email or "",
                    "phone_number": phone_number or "",
                    "country_code": "KE",
                    "first_name": first_name or "",
                    "last_name": "",
                },
            },
        )
        if not body.get("order_tracking_id") or not body.get("redirect_url"):
            raise ProviderError(
                "pesapal: the checkout answer has no tracking id or redirect URL.",
                details={"provider": "pesapal", "body": body},
            )
        return CheckoutResult(
            str(body["order_tracking_id"]),
            str(body.get("merchant_reference") or merchant_reference),
            str(body["redirect_url"]),
        )

    def transaction_status(self, creds: PesapalCredentials, order_tracking_id: str) -> TransactionStatus:
        body = call_json(
            self.http,
            "GET",
            f"{self.base}/api/Transactions/GetTransactionStatus",
            provider="pesapal",
            retries=self.retries,
            idempotent=True,
            params={"orderTrackingId": order_tracking_id},
            headers={"Accept": "application/json", "Authorization": f"Bearer {self.token(creds)}"},
        )
        return TransactionStatus(
            status_code=int(body.get("status_code", 0) or 0),
            description=str(body.get("payment_status_description") or ""),
            amount=float(body["amount"]) if body.get("amount") is not None else None,
            currency=body.get("currency"),
            merchant_reference=body.get("merchant_reference"),
            confirmation_code=body.get("confirmation_code"),
            payment_method=body.get("payment_method"),
        )
