"""A PesaPal API 3.0 sandbox simulator serving the documented paths."""

from __future__ import annotations

import html
import re
import secrets
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from tulia.local.simulators.base import Recorded, Reply, SimulatorServer

_REFERENCE = re.compile(r"^[A-Za-z0-9\-_.:]{1,50}$")


@dataclass
class PesapalOrder:
    tracking_id: str
    body: dict[str, Any]
    status_code: int = 0  # 0 pending/invalid, 1 completed, 2 failed, 3 reversed
    confirmation_code: str = ""


class PesapalSimulator(SimulatorServer):
    name = "pesapal-simulator"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.tokens: set[str] = set()
        self.ipns: dict[str, dict[str, Any]] = {}
        self.orders: dict[str, PesapalOrder] = {}
        self.routes.update(
            {
                ("POST", "/api/Auth/RequestToken"): self._token,
                ("POST", "/api/URLSetup/RegisterIPN"): self._register_ipn,
                ("GET", "/api/URLSetup/GetIpnList"): self._ipn_list,
                ("POST", "/api/Transactions/SubmitOrderRequest"): self._submit,
                ("GET", "/api/Transactions/GetTransactionStatus"): self._status,
                ("GET", "/checkout"): self._checkout_page,
                ("POST", "/checkout"): self._checkout_action,
            }
        )

    def _error(self, code: str, message: str) -> Reply:
        return Reply(200, {"error": {"error_type": "api_error", "code": code, "message": message}, "status": "500"})

    def _authorized(self, rec: Recorded) -> bool:
        header = rec.headers.get("authorization", "")
        return header.startswith("Bearer ") and header[7:] in self.tokens

    def _token(self, rec: Recorded) -> Reply:
        body = rec.body if isinstance(rec.body, dict) else {}
        if not body.get("consumer_key") or not body.get("consumer_secret"):
            return self._error("invalid_consumer_key_or_secret_provided", "Invalid consumer key or secret")
        token = secrets.token_urlsafe(24)
        self.tokens.add(token)
        return Reply(
            200,
            {
                "token": token,
                "expiryDate": "2099-01-01T00:05:00Z",
                "error": None,
                "status": "200",
                "message": "Request processed successfully",
            },
        )

    def _register_ipn(self, rec: Recorded) -> Reply:
        if not self._authorized(rec):
            return Reply(401, {"error": {"code": "invalid_token", "message": "Unauthorized"}, "status": "401"})
        body = rec.body if isinstance(rec.body, dict) else {}
        if not str(body.get("url", "")).startswith(("http://", "https://")):
            return self._error("invalid_url", "Invalid IPN URL")
        ipn_id = str(uuid.uuid4())
        self.ipns[ipn_id] = {
            "url": body["url"],
            "ipn_id": ipn_id,
            "ipn_notification_type": body.get("ipn_notification_type", "GET"),
        }
        return Reply(
            200,
            {
                "url": body["url"],
                "created_date": "2026-01-01T00:00:00Z",
                "ipn_id": ipn_id,
                "ipn_status": 1,
                "error": None,
                "status": "200",
            },
        )

    def _ipn_list(self, rec: Recorded) -> Reply:
        if not self._authorized(rec):
            return Reply(401, {"error": {"code": "invalid_token", "message": "Unauthorized"}, "status": "401"})
        return Reply(200, list(self.ipns.values()))

    def _submit(self, rec: Recorded) -> Reply:
        if not self._authorized(rec):
            return Reply(401, {"error": {"code": "invalid_token", "message": "Unauthorized"}, "status": "401"})
        body = rec.body if isinstance(rec.body, dict) else {}
        ref = str(body.get("id", ""))
        if not _REFERENCE.match(ref):
            return self._error("invalid_merchant_reference", "Invalid merchant reference")
        if any(o.body.get("id") == ref for o in self.orders.values()):
            return self._error("duplicate_merchant_reference", "Merchant reference already used")
        if body.get("currency") != "KES" or not isinstance(body.get("amount"), int | float) or body["amount"] <= 0:
            return self._error("invalid_amount", "Invalid amount or currency")
        if body.get("notification_id") not in self.ipns:
            return self._error("invalid_notification_id", "Invalid notification id")
        if len(str(body.get("description", ""))) > 100 or not body.get("callback_url"):
            return self._error("invalid_request", "Invalid description or callback url")
        tracking = str(uuid.uuid4())
        self.orders[tracking] = PesapalOrder(tracking, body)
        return Reply(
            200,
            {
                "order_tracking_id": tracking,
                "merchant_reference": ref,
                "redirect_url": f"{self.base_url}/checkout?OrderTrackingId={tracking}",
                "error": None,
                "status": "200",
            },
        )

    def _status(self, rec: Recorded) -> Reply:
        if not self._authorized(rec):
            return Reply(401, {"error": {"code": "invalid_token", "message": "Unauthorized"}, "status": "401"})
        order = self.orders.get(rec.query.get("orderTrackingId", ""))
        if order is None:
            return self._error("invalid_order_tracking_id", "Order tracking id not found")
        desc = {0: "INVALID", 1: "Completed", 2: "Failed", 3: "Reversed"}[order.status_code]
        return Reply(
            200,
            {
                "payment_method": "MPESA" if order.status_code == 1 else "",
                "amount": order.body["amount"],
                "created_date": "2026-01-01T10:03:11Z",
                "confirmation_code": order.confirmation_code,
                "payment_status_description": desc,
                "description": "",
                "message": "Request processed successfully",
                "payment_account": "",
                "call_back_url": order.body.get("callback_url"),
                "status_code": order.status_code,
                "merchant_reference": order.body["id"],
                "currency": "KES",
                "error": None,
                "status": "200",
            },
        )

    # the hosted checkout page the customer opens from the payment link --------------------------
    def _checkout_page(self, rec: Recorded) -> Reply:
        order = self.orders.get(rec.query.get("OrderTrackingId", ""))
        if order is None:
            return Reply(404, _page("Payment not found", "<p>This payment link is not valid.</p>"), "text/html")
        if order.status_code:
            done = {1: "This payment is complete.", 2: "This payment failed.", 3: "This payment was reversed."}
            return Reply(200, _page("PesaPal", f"<p id='outcome'>{done[order.status_code]}</p>"), "text/html")
        amount = order.body["amount"]
        body = (
            f"<p>Pay <b id='amount'>KES {amount:,.0f}</b> to merchant reference "
            f"<b id='reference'>{html.escape(str(order.body['id']))}</b></p>"
            f"<p>{html.escape(str(order.body.get('description', '')))}</p>"
            "<p class='note'>Simulator: no card is charged. Choose what the customer's bank answers.</p>"
            "<form method='post' action='/checkout'>"
            f"<input type='hidden' name='OrderTrackingId' value='{html.escape(order.tracking_id)}'>"
            "<button name='action' value='pay' id='pay'>Pay now</button> "
            "<button name='action' value='fail' id='fail' class='secondary'>Card declined</button>"
            "</form>"
        )
        return Reply(200, _page("PesaPal checkout", body), "text/html")

    def _checkout_action(self, rec: Recorded) -> Reply:
        form = rec.body if isinstance(rec.body, dict) else {}
        order = self.orders.get(str(form.get("OrderTrackingId", "")))
        if order is None or form.get("action") not in ("pay", "fail"):
            return Reply(400, _page("Payment not found", "<p>Unknown payment.</p>"), "text/html")
        if not order.status_code:
            self.complete(order.tracking_id, 1 if form["action"] == "pay" else 2, send_ipn=True)
        # like PesaPal: back to the merchant's callback page with the ids
        query = urlencode({"OrderTrackingId": order.tracking_id, "OrderMerchantReference": order.body["id"]})
        back = f"{order.body['callback_url']}{'&' if '?' in order.body['callback_url'] else '?'}{query}"
        return Reply(303, b"", "text/plain", headers={"Location": back})

    def complete(self, tracking_id: str, status_code: int = 1, *, send_ipn: bool = False) -> PesapalOrder:
        """The customer finishes (1) or fails (2) on the hosted page; PesaPal then notifies the
        merchant's IPN URL (only the ids: the result must be asked with GetTransactionStatus)."""
        order = self.orders[tracking_id]
        order.status_code = status_code
        if status_code == 1 and not order.confirmation_code:
            order.confirmation_code = f"SIM{secrets.token_hex(4).upper()}"
        if send_ipn:
            import httpx

            ipn = self.ipns[order.body["notification_id"]]
            note = {
                "OrderTrackingId": tracking_id,
                "OrderMerchantReference": order.body["id"],
                "OrderNotificationType": "IPNCHANGE",
            }
            if ipn["ipn_notification_type"] == "POST":
                httpx.post(ipn["url"], json=note, timeout=10)
            else:
                httpx.get(ipn["url"], params=note, timeout=10)
        return order


def _page(title: str, body: str) -> str:
    return (
        "<!doctype html><html><head><meta charset='utf-8'><meta name='viewport' content='width=device-width'>"
        f"<title>{html.escape(title)}</title><style>body{{font-family:system-ui,sans-serif;max-width:28rem;"
        "margin:3rem auto;padding:0 1rem;color:#1d2939}h1{font-size:1.3rem;color:#0b5cab}button{font-size:1rem;"
        "padding:.6rem 1.2rem;border:0;border-radius:.4rem;background:#0b5cab;color:#fff;cursor:pointer}"
        "button.secondary{background:#b42318}.note{color:#667085;font-size:.85rem}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>{body}</body></html>"
    )
