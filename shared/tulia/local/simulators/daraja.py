"""A Daraja (M-Pesa) sandbox simulator serving the documented paths.

It checks what the real sandbox checks (Bearer token, password = base64(shortcode + passkey +
timestamp), whole-number amount, MSISDN format, field lengths, banned words in callback URLs) so a
test against it catches the mistakes Safaricom would refuse.
"""

from __future__ import annotations

import base64
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from tulia.local.simulators.base import Recorded, Reply, SimulatorServer
from tulia.payments.mpesa.daraja import BANNED_URL_WORDS

_MSISDN = re.compile(r"^254(7|1)\d{8}$")


@dataclass
class StkRequest:
    checkout_request_id: str
    merchant_request_id: str
    body: dict[str, Any]
    result_code: int | None = None  # None: the customer has not acted yet
    receipt: str | None = None


class DarajaSimulator(SimulatorServer):
    name = "daraja-simulator"

    def __init__(self, passkeys: dict[str, str] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.passkeys = dict(passkeys or {})  # shortcode -> passkey; unknown shortcodes are not checked
        self.tokens: set[str] = set()
        self.stk: dict[str, StkRequest] = {}
        self.c2b_registrations: list[dict[str, Any]] = []
        self.routes.update(
            {
                ("GET", "/oauth/v1/generate"): self._oauth,
                ("POST", "/mpesa/stkpush/v1/processrequest"): self._stk_push,
                ("POST", "/mpesa/stkpushquery/v1/query"): self._stk_query,
                ("POST", "/mpesa/c2b/v1/registerurl"): self._register,
                ("POST", "/mpesa/c2b/v2/registerurl"): self._register,
            }
        )

    def _oauth(self, rec: Recorded) -> Reply:
        if rec.query.get("grant_type") != "client_credentials" or not rec.headers.get("authorization", "").startswith(
            "Basic "
        ):
            return Reply(400, {"errorCode": "400.008.01", "errorMessage": "Invalid Authentication passed"})
        token = secrets.token_urlsafe(16)
        self.tokens.add(token)
        return Reply(200, {"access_token": token, "expires_in": "3599"})

    def _authorized(self, rec: Recorded) -> bool:
        header = rec.headers.get("authorization", "")
        return header.startswith("Bearer ") and header[7:] in self.tokens

    def _bad(self, message: str) -> Reply:
        return Reply(400, {"requestId": secrets.token_hex(4), "errorCode": "400.002.02", "errorMessage": message})

    def _check_password(self, body: dict[str, Any]) -> str | None:
        shortcode, ts = str(body.get("BusinessShortCode", "")), str(body.get("Timestamp", ""))
        if not re.fullmatch(r"\d{14}", ts):
            return "Bad Request - Invalid Timestamp"
        passkey = self.passkeys.get(shortcode)
        if passkey is not None:
            expected = base64.b64encode(f"{shortcode}{passkey}{ts}".encode()).decode()
            if body.get("Password") != expected:
                return "Bad Request - Invalid Password"
        return None

    def _stk_push(self, rec: Recorded) -> Reply:
        if not self._authorized(rec):
            return Reply(401, {"errorCode": "404.001.03", "errorMessage": "Invalid Access Token"})
        body = rec.body if isinstance(rec.body, dict) else {}
        required = (
            "BusinessShortCode",
            "Password",
            "Timestamp",
            "TransactionType",
            "Amount",
            "PartyA",
            "PartyB",
            "PhoneNumber",
            "CallBackURL",
            "AccountReference",
            "TransactionDesc",
        )
        missing = [f for f in required if body.get(f) in (None, "")]
        if missing:
            return self._bad(f"Bad Request - Invalid {missing[0]}")
        if (problem := self._check_password(body)) is not None:
            return self._bad(problem)
        amount = body["Amount"]
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            return self._bad("Bad Request - Invalid Amount")
        if not _MSISDN.match(str(body["PhoneNumber"])) or not _MSISDN.match(str(body["PartyA"])):
            return self._bad("Bad Request - Invalid PhoneNumber")
        if body["TransactionType"] not in ("CustomerPayBillOnline", "CustomerBuyGoodsOnline"):
            return self._bad("Bad Request - Invalid TransactionType")
        if len(str(body["AccountReference"])) > 12 or len(str(body["TransactionDesc"])) > 13:
            return self._bad("Bad Request - Invalid AccountReference")
        url = str(body["CallBackURL"])
        if not url.startswith(("http://", "https://")) or any(w in url.lower() for w in BANNED_URL_WORDS):
            return self._bad("Bad Request - Invalid CallBackURL")
        checkout = f"ws_CO_{secrets.token_hex(10)}"
        merchant = f"{secrets.randbelow(90000) + 10000}-{secrets.randbelow(10**8)}-1"
        self.stk[checkout] = StkRequest(checkout, merchant, body)
        return Reply(
            200,
            {
                "MerchantRequestID": merchant,
                "CheckoutRequestID": checkout,
                "ResponseCode": "0",
                "ResponseDescription": "Success. Request accepted for processing",
                "CustomerMessage": "Success. Request accepted for processing",
            },
        )

    def _stk_query(self, rec: Recorded) -> Reply:
        if not self._authorized(rec):
            return Reply(401, {"errorCode": "404.001.03", "errorMessage": "Invalid Access Token"})
        body = rec.body if isinstance(rec.body, dict) else {}
        if (problem := self._check_password(body)) is not None:
            return self._bad(problem)
        req = self.stk.get(str(body.get("CheckoutRequestID")))
        if req is None:
            return self._bad("Bad Request - Invalid CheckoutRequestID")
        if req.result_code is None:
            return Reply(
                500,
                {
                    "requestId": secrets.token_hex(4),
                    "errorCode": "500.001.1001",
                    "errorMessage": "The transaction is being processed",
                },
            )
        desc = RESULT_DESCRIPTIONS.get(req.result_code, "Failed")
        return Reply(
            200,
            {
                "ResponseCode": "0",
                "ResponseDescription": "The service request has been accepted successsfully",
                "MerchantRequestID": req.merchant_request_id,
                "CheckoutRequestID": req.checkout_request_id,
                "ResultCode": str(req.result_code),
                "ResultDesc": desc,
            },
        )

    def _register(self, rec: Recorded) -> Reply:
        if not self._authorized(rec):
            return Reply(401, {"errorCode": "404.001.03", "errorMessage": "Invalid Access Token"})
        body = rec.body if isinstance(rec.body, dict) else {}
        for key in ("ConfirmationURL", "ValidationURL"):
            url = str(body.get(key, ""))
            if not url.startswith(("http://", "https://")) or any(w in url.lower() for w in BANNED_URL_WORDS):
                return self._bad(f"Bad Request - Invalid {key}")
        self.c2b_registrations.append(body)
        return Reply(
            200,
            {"OriginatorCoversationID": secrets.token_hex(6), "ResponseCode": "0", "ResponseDescription": "Success"},
        )

    # what a person does on the simulated phone
    def pay_bill(self, shortcode: str, amount: int, account: str, msisdn: str, first_name: str) -> dict[str, Any]:
        """A customer pays the shop's Paybill or Till from the M-Pesa menu (any account number they
        type): Safaricom posts the C2B confirmation to the URL the shop registered for that shortcode,
        the number masked as Daraja now sends it. Returns the confirmation body."""
        import httpx

        registered = [r for r in self.c2b_registrations if str(r.get("ShortCode")) == str(shortcode)]
        if not registered:
            raise LookupError(f"no C2B URLs are registered for shortcode {shortcode}")
        code = secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ")
        trans_id = "T" + code + "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(6)) + "7Q"
        body = {
            "TransactionType": "Pay Bill" if account else "Buy Goods",
            "TransID": trans_id,
            "TransTime": time.strftime("%Y%m%d%H%M%S"),
            "TransAmount": f"{amount}.00",
            "BusinessShortCode": str(shortcode),
            "BillRefNumber": account,
            "InvoiceNumber": "",
            "OrgAccountBalance": "",
            "ThirdPartyTransID": "",
            "MSISDN": f"{msisdn[:4]} ***** {msisdn[-3:]}",
            "FirstName": first_name.upper(),
            "MiddleName": "",
            "LastName": "",
        }
        httpx.post(str(registered[-1]["ConfirmationURL"]), json=body, timeout=10)
        return body

    def resolve(self, checkout_request_id: str, result_code: int) -> StkRequest:
        req = self.stk[checkout_request_id]
        req.result_code = result_code
        return req

    def complete(self, checkout_request_id: str, result_code: int, *, send_callback: bool = True) -> dict[str, Any]:
        """The customer acts on the prompt (0 paid, 1 insufficient funds, 1032 cancelled, 2001 wrong PIN,
        1037 unreachable); Safaricom then POSTs the callback to the CallBackURL (unless told not to,
        so the no-callback timeout path runs). Returns the callback body."""
        req = self.resolve(checkout_request_id, result_code)
        callback: dict[str, Any] = {
            "MerchantRequestID": req.merchant_request_id,
            "CheckoutRequestID": req.checkout_request_id,
            "ResultCode": result_code,
            "ResultDesc": RESULT_DESCRIPTIONS.get(result_code, "Failed"),
        }
        if result_code == 0:
            req.receipt = "T" + secrets.token_hex(5).upper()[:9]
            callback["CallbackMetadata"] = {
                "Item": [
                    {"Name": "Amount", "Value": req.body["Amount"]},
                    {"Name": "MpesaReceiptNumber", "Value": req.receipt},
                    {"Name": "TransactionDate", "Value": 20261123101500},
                    {"Name": "PhoneNumber", "Value": int(req.body["PhoneNumber"])},
                ]
            }
        body = {"Body": {"stkCallback": callback}}
        if send_callback:
            import httpx

            httpx.post(str(req.body["CallBackURL"]), json=body, timeout=10)
        return body


RESULT_DESCRIPTIONS = {
    0: "The service request is processed successfully.",
    1: "The balance is insufficient for the transaction.",
    1032: "Request cancelled by user",
    1037: "DS timeout user cannot be reached",
    2001: "The initiator information is invalid.",
}
