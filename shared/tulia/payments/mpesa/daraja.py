"""Safaricom Daraja (M-Pesa) client: OAuth, STK push, STK query, C2B URL registration.

Paths are appended unchanged to ``TULIA_MPESA_API_BASE`` (see PROTOCOLS.md section 2).
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import httpx

from tulia.domain.common import NAIROBI
from tulia.domain.tenant import MpesaStkConfig
from tulia.errors import ProviderError, ProviderUnavailable
from tulia.payments.http import call_json

# Daraja refuses callback and C2B URLs that contain any of these words
BANNED_URL_WORDS = ("mpesa", "m-pesa", "safaricom", "exe", "exec", "cmd", "sql", "query")
PENDING_ERROR_CODE = "500.001.1001"  # "The transaction is being processed"


@dataclass(frozen=True)
class DarajaCredentials:
    consumer_key: str
    consumer_secret: str


@dataclass(frozen=True)
class StkPushResult:
    merchant_request_id: str
    checkout_request_id: str
    customer_message: str


@dataclass(frozen=True)
class StkQueryResult:
    pending: bool
    result_code: str | None
    result_desc: str | None


def stk_timestamp(now: datetime) -> str:
    return now.astimezone(NAIROBI).strftime("%Y%m%d%H%M%S")


def stk_password(shortcode: str, passkey: str, timestamp: str) -> str:
    return base64.b64encode(f"{shortcode}{passkey}{timestamp}".encode()).decode()


class DarajaClient:
    def __init__(
        self, http: httpx.Client, base_url: str, *, retries: int = 2, clock: Callable[[], datetime] | None = None
    ) -> None:
        self.http = http
        self.base = base_url.rstrip("/")
        self.retries = retries
        self.clock = clock or (lambda: datetime.now(NAIROBI))
        self._tokens: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    def token(self, creds: DarajaCredentials) -> str:
        with self._lock:
            cached = self._tokens.get(creds.consumer_key)
            if cached and cached[1] > time.monotonic():
                return cached[0]
        basic = base64.b64encode(f"{creds.consumer_key}:{creds.consumer_secret}".encode()).decode()
        body = call_json(
            self.http,
            "GET",
            f"{self.base}/oauth/v1/generate",
            provider="daraja",
            retries=self.retries,
            idempotent=True,
            params={"grant_type": "client_credentials"},
            headers={"Authorization": f"Basic {basic}"},
        )
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise ProviderError("daraja: no access token in the OAuth answer.", details={"provider": "daraja"})
        expires_in = int(str(body.get("expires_in", "3599")) or 3599)
        with self._lock:
            self._tokens[creds.consumer_key] = (token, time.monotonic() + max(30, expires_in - 120))
        return token

    def _auth(self, creds: DarajaCredentials) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(creds)}"}

    def stk_push(
        self,
        cfg: MpesaStkConfig,
        creds: DarajaCredentials,
        *,
        amount: int,
        msisdn: str,
        account_reference: str,
        description: str,
        callback_url: str,
    ) -> StkPushResult:
        timestamp = stk_timestamp(self.clock())
        body = call_json(
            self.http,
            "POST",
            f"{self.base}/mpesa/stkpush/v1/processrequest",
            provider="daraja",
            retries=self.retries,
            idempotent=False,
            headers=self._auth(creds),
            json={
                "BusinessShortCode": cfg.shortcode,
                "Password": stk_password(cfg.shortcode, cfg.passkey, timestamp),
                "Timestamp": timestamp,
                "TransactionType": cfg.transaction_type,
                "Amount": int(amount),
                "PartyA": msisdn,
                "PartyB": cfg.receiving_shortcode,
                "PhoneNumber": msisdn,
                "CallBackURL": callback_url,
                "AccountReference": account_reference[:12],
                "TransactionDesc": description[:13] or "Payment",
            },
        )
        if str(body.get("ResponseCode")) != "0" or not body.get("CheckoutRequestID"):
            raise ProviderError(
                f"daraja refused the STK push: {body.get('ResponseDescription') or body}",
                details={"provider": "daraja", "body": body},
            )
        return StkPushResult(
            str(body["MerchantRequestID"]), str(body["CheckoutRequestID"]), str(body.get("CustomerMessage", ""))
        )

    def stk_query(self, cfg: MpesaStkConfig, creds: DarajaCredentials, checkout_request_id: str) -> StkQueryResult:
        timestamp = stk_timestamp(self.clock())
        try:
            body = call_json(
                self.http,
                "POST",
                f"{self.base}/mpesa/stkpushquery/v1/query",
                provider="daraja",
                retries=self.retries,
                idempotent=True,
                headers=self._auth(creds),
                json={
                    "BusinessShortCode": cfg.shortcode,
                    "Password": stk_password(cfg.shortcode, cfg.passkey, timestamp),
                    "Timestamp": timestamp,
                    "CheckoutRequestID": checkout_request_id,
                },
            )
        except (ProviderError, ProviderUnavailable) as exc:
            body = exc.details.get("body") if isinstance(exc.details.get("body"), dict) else None
            if body and body.get("errorCode") == PENDING_ERROR_CODE:
                return StkQueryResult(True, None, str(body.get("errorMessage")))
            raise
        if "ResultCode" not in body:
            return StkQueryResult(True, None, body.get("ResponseDescription"))
        return StkQueryResult(False, str(body["ResultCode"]), body.get("ResultDesc"))

    def register_c2b_urls(
        self,
        creds: DarajaCredentials,
        *,
        shortcode: str,
        confirmation_url: str,
        validation_url: str,
        response_type: str = "Completed",
    ) -> None:
        body = call_json(
            self.http,
            "POST",
            f"{self.base}/mpesa/c2b/v1/registerurl",
            provider="daraja",
            retries=self.retries,
            idempotent=True,
            headers=self._auth(creds),
            json={
                "ShortCode": shortcode,
                "ResponseType": response_type,
                "ConfirmationURL": confirmation_url,
                "ValidationURL": validation_url,
            },
        )
        if str(body.get("ResponseCode", "0")) != "0":
            raise ProviderError(f"daraja refused the C2B URLs: {body}", details={"provider": "daraja", "body": body})
