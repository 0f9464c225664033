"""The local stack's chat page: a person chats with a shop as a WhatsApp customer.

``GET /`` serves the page; ``/dev/...`` is its small JSON API (local stack only, never deployed):
- what the person types or taps becomes the payload Meta would post, signed with the app secret and
  sent over HTTP to the stack's own ``/webhooks/whatsapp`` (the real path: webhook, queue, agent);
- the shop's answers are the messages the Graph API simulator accepted for that customer;
- an M-Pesa prompt pending at the Daraja simulator for the customer's number shows on the simulated
  phone, where it is approved, cancelled, failed or ignored (the simulator then posts its callback,
  or stays silent so the STK query path runs);
- ``POST /dev/c2b`` pays the shop's Paybill or Till from the customer's M-Pesa menu with any amount and
  account number (Daraja's C2B confirmation reaches the shop's registered URL);
- each turn's trace (nodes, tools with latency and result, routing, model calls and tokens) is read
  from the agent's outbox, and ``GET /dev/turn`` says whether the turn answering a message has sent
  all its replies (what a script or a test waits on instead of a pause).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

import httpx

from tulia.channel.whatsapp import sign
from tulia.domain.common import TENANT_ID_PATTERN
from tulia.domain.phone import normalize_phone
from tulia.errors import InvalidInput, NotFound
from tulia.local.voice import demo_voice_notes
from tulia.pipeline.apigw import HttpResponse, request_of, response_of

if TYPE_CHECKING:
    from tulia.local.simulators.daraja import DarajaSimulator
    from tulia.local.simulators.graph import GraphSimulator
    from tulia.services import Services
    from tulia.store.messages import MessageRepo

PAGE_PATH = "/"
API_PREFIX = "/dev/"
MAX_TEXT = 4096  # what WhatsApp lets a customer type
MAX_UPLOAD_BYTES = 20 * 1024 * 1024  # what the page sends; the agent refuses more than WhatsApp's limits itself
# what the customer does on the simulated phone's M-Pesa prompt -> the result Safaricom reports
STK_OUTCOMES = {"approve": 0, "cancel": 1032, "wrong_pin": 2001, "insufficient": 1, "ignore": 1037}


def meta_webhook_body(
    *, phone_number_id: str, display_phone_number: str, wa_id: str, name: str, message: dict[str, Any]
) -> bytes:
    """The body Meta posts for one customer message (PROTOCOLS.md 1.2)."""
    value = {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": display_phone_number, "phone_number_id": phone_number_id},
        "contacts": [{"profile": {"name": name}, "wa_id": wa_id}],
        "messages": [{"from": wa_id, "timestamp": str(int(time.time())), **message}],
    }
    change = {"field": "messages", "value": value}
    return json.dumps({"object": "whatsapp_business_account", "entry": [{"id": "LOCAL", "changes": [change]}]}).encode()


class BadRequest(ValueError):
    pass


@dataclass
class ChatPage:
    services: Services
    tenant_ids: list[str]
    webhook_url: str
    app_secret: str
    messages: MessageRepo
    graph: GraphSimulator | None
    daraja: DarajaSimulator | None
    stk_check_delay_seconds: int
    sent: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)  # what each customer sent
    traces: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)  # (tenant, message id) -> trace
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def handle(self, event: dict[str, Any]) -> dict[str, Any]:
        """A Lambda-style handler, like every route of the local stack."""
        request = request_of(event)
        try:
            if request.method == "GET" and request.path == PAGE_PATH:
                return response_of(HttpResponse(200, page_html(), "text/html; charset=utf-8"))
            body = json.loads(request.body or b"{}") if request.method == "POST" else {}
            if not isinstance(body, dict):
                raise BadRequest("a JSON object is expected")
            route = (request.method, request.path.removeprefix(API_PREFIX).strip("/"))
            if route == ("GET", "tenants"):
                return _json(200, {"tenants": self.tenants(), "simulators": self.simulators()})
            if route == ("GET", "voice-notes"):  # the demo voice notes, with what the stand-in hears in each
                notes = [
                    {"name": n.name, "language": n.language_code, "transcript": n.transcript}
                    for n in demo_voice_notes()
                ]
                return _json(200, {"voice_notes": notes})
            if route == ("GET", "catalog"):
                return _json(200, {"items": self.catalog(request.params.get("tenant_id", ""))})
            if route == ("GET", "chat"):
                return _json(200, self.chat(request.params.get("tenant_id", ""), request.params.get("phone", "")))
            if route == ("GET", "turn"):
                tenant_id = self._tenant(request.params.get("tenant_id", "")).tenant_id
                return _json(200, self.turn(tenant_id, request.params.get("message_id", "")))
            if route == ("POST", "send"):
                return _json(200, self.send(body))
            if route == ("POST", "stk"):
                return _json(200, self.stk(body))
            if route == ("POST", "c2b"):
                return _json(200, self.pay_bill(body))
        except (BadRequest, ValueError) as exc:
            return _json(400, {"error": "bad_request", "message": str(exc)})
        except NotFound as exc:
            return _json(404, {"error": "not_found", "message": str(exc)})
        return _json(404, {"error": "not_found", "message": f"no route {request.method} {request.path}"})

    # --- what the page reads ---------------------------------------------------------------------
    def tenants(self) -> list[dict[str, Any]]:
        out = []
        for tenant_id in self.shops():
            tenant = self.services.tenants.get(tenant_id)
            p = tenant.payments
            out.append(
                {
                    "tenant_id": tenant.tenant_id,
                    "name": tenant.name,
                    "phone_number_id": tenant.whatsapp.phone_number_id if tenant.whatsapp else None,
                    "display_phone_number": tenant.whatsapp.display_phone_number if tenant.whatsapp else None,
                    "languages": tenant.languages.allowed,
                    "payments": [
                        name
                        for name, on in (
                            ("mpesa_stk", p.mpesa_stk is not None),
                            ("mpesa_c2b", p.mpesa_c2b is not None),
                            ("pesapal", bool(p.pesapal and p.pesapal.enabled)),
                        )
                        if on
                    ],
                }
            )
        return out

    def simulators(self) -> dict[str, bool]:
        return {"graph": self.graph is not None, "daraja": self.daraja is not None}

    def catalog(self, tenant_id: str) -> list[dict[str, Any]]:
        self._tenant(tenant_id)
        items = sorted(self.services.catalog.iter_all(tenant_id), key=lambda i: (i.category, i.name))
        return [
            {"sku": i.item_id, "name": i.name, "category": i.category, "price": i.price, "stock": i.stock}
            for i in items
            if i.active
        ]

    def chat(self, tenant_id: str, phone: str) -> dict[str, Any]:
        tenant = self._tenant(tenant_id)
        wa_id = _wa_id(phone)
        pnid = tenant.whatsapp.phone_number_id
        with self._lock:
            mine = [dict(m) for m in self.sent.get((tenant_id, wa_id), [])]
        for m in mine:
            m["read"] = self.graph.was_read(pnid, m["id"]) if self.graph else False
        answers = []
        if self.graph is not None:
            for s in self.graph.messages_to(wa_id, pnid):
                answer = {"direction": "out", "id": s.message_id, "at": s.at, "payload": s.payload}
                if s.payload.get("type") == "template":  # what the phone shows: the approved text, filled in
                    answer["template_text"] = self.graph.template_text(s.payload)
                answers.append(answer)
        timeline = sorted(mine + answers, key=lambda m: m["at"])
        return {
            "messages": timeline,
            "turns": [t for t in (self._trace(tenant_id, m) for m in mine) if t is not None],
            "stk": self._prompts(tenant.name, wa_id),
        }

    def _trace(self, tenant_id: str, message: dict[str, Any]) -> dict[str, Any] | None:
        key = (tenant_id, message["id"])
        if key not in self.traces:
            turn = self.turn(tenant_id, message["id"])
            trace = {"message_id": message["id"], "said": message["text"], **turn}
            if turn["pending"]:
                return trace
            self.traces[key] = trace  # a finished turn does not change: read once
        return self.traces[key]

    def turn(self, tenant_id: str, message_id: str) -> dict[str, Any]:
        """Where the turn that answers a customer's message stands, from the agent's outbox: pending until its
        replies are stored and every one has been sent (or given up on); a message answered together with a
        later one points to it (``answered_in``) and stands where that turn stands."""
        outbox = self.messages.get_outbox(tenant_id, message_id)
        answered_in = outbox.get("answered_in") if outbox else None
        if answered_in:
            outbox = self.messages.get_outbox(tenant_id, str(answered_in))
        if outbox is None or "replies" not in outbox:
            return {"pending": True, "answered_in": answered_in, "replies": 0, "sent": 0, "trace": []}
        sent = sum(1 for result in outbox.get("sent") or [] if result is not None)
        replies = len(outbox["replies"])
        return {
            "pending": sent < replies,
            "answered_in": answered_in,
            "replies": replies,
            "sent": sent,
            "trace": [] if answered_in else outbox.get("trace") or [],
        }

    def _prompts(self, shop: str, wa_id: str) -> list[dict[str, Any]]:
        if self.daraja is None:
            return []
        return [
            {
                "checkout_request_id": r.checkout_request_id,
                "amount": r.body["Amount"],
                "shop": shop,
                "account": r.body["AccountReference"],
                "shortcode": r.body["BusinessShortCode"],
            }
            for r in list(self.daraja.stk.values())
            if r.result_code is None and str(r.body.get("PhoneNumber")) == wa_id
        ]

    # --- what the person does ----------------------------------------------------------------------
    def send(self, body: dict[str, Any]) -> dict[str, Any]:
        tenant = self._tenant(str(body.get("tenant_id", "")))
        wa_id = _wa_id(str(body.get("phone", "")))
        name = str(body.get("name") or "Customer")[:60]
        kind = body.get("type", "text")
        mid = f"wamid.local-{int(time.time() * 1000)}-{next(self._ids)}"
        message: dict[str, Any] = {"id": mid}
        if kind == "text":
            words = str(body.get("text", ""))
            if not words.strip() or len(words) > MAX_TEXT:
                raise BadRequest(f"text must be 1-{MAX_TEXT} characters")
            message |= {"type": "text", "text": {"body": words}}
            shown = words
        elif kind in ("button_reply", "list_reply"):
            reply_id, title = str(body.get("id") or ""), str(body.get("title") or "")
            if not reply_id or not title:
                raise BadRequest("a reply needs the id and title of the button or row")
            message |= {"type": "interactive", "interactive": {"type": kind, kind: {"id": reply_id, "title": title}}}
            if body.get("context"):
                message["context"] = {"from": tenant.whatsapp.display_phone_number, "id": str(body["context"])}
            shown = title
        elif kind == "order":
            lines = body.get("items")
            if not isinstance(lines, list) or not lines:
                raise BadRequest("a cart needs at least one item")
            items = self._cart(tenant.tenant_id, lines)
            message |= {"type": "order", "order": {"catalog_id": "local", "text": "", "product_items": items}}
            shown = "\n".join(f"{i['quantity']} x {i['product_retailer_id']}" for i in items)
        elif kind == "location":
            try:
                lat, lon = float(body["latitude"]), float(body["longitude"])
            except (KeyError, TypeError, ValueError) as exc:
                raise BadRequest("a location needs its latitude and longitude as numbers") from exc
            if not (-90 <= lat <= 90 and -180 <= lon <= 180):
                raise BadRequest("latitude is -90 to 90 and longitude -180 to 180")
            pin: dict[str, Any] = {"latitude": lat, "longitude": lon}
            for key in ("name", "address"):
                if str(body.get(key) or "").strip():
                    pin[key] = str(body[key]).strip()[:200]
            message |= {"type": "location", "location": pin}
            shown = "📍 " + ", ".join([*(pin[k] for k in ("name", "address") if k in pin), f"{lat:.5f}, {lon:.5f}"])
        elif kind in ("image", "audio"):
            message |= {"type": kind, kind: self._upload(kind, body)}
            caption = str(body.get("caption") or "").strip()[:1000]
            if kind == "image" and caption:
                message["image"]["caption"] = caption
            shown = ("📷 Photo" if kind == "image" else "🎤 Voice note") + (f": {caption}" if caption else "")
        else:
            raise BadRequest(f"unknown message type {kind!r}")
        raw = meta_webhook_body(
            phone_number_id=tenant.whatsapp.phone_number_id,
            display_phone_number=tenant.whatsapp.display_phone_number,
            wa_id=wa_id,
            name=name,
            message=message,
        )
        entry = {"direction": "in", "id": mid, "at": time.time(), "type": message["type"], "text": shown}
        with self._lock:
            self.sent.setdefault((tenant.tenant_id, wa_id), []).append(entry)
        answer = httpx.post(
            self.webhook_url,
            content=raw,
            headers={"content-type": "application/json", "x-hub-signature-256": sign(raw, self.app_secret)},
            timeout=15,
        )
        return {"message_id": mid, "webhook_status": answer.status_code}

    def _upload(self, kind: str, body: dict[str, Any]) -> dict[str, Any]:
        """A file the phone uploads to Meta with its message (the Graph simulator keeps it): what the webhook
        says of it."""
        if self.graph is None:
            raise BadRequest("photos and voice notes need the Graph simulator (TULIA_WHATSAPP_API_BASE is set)")
        mime_type = str(body.get("mime_type") or "").strip()[:100]
        demo = str(body.get("demo") or "")
        if kind == "audio" and demo:  # one of the demo voice notes (the stand-in transcriber knows its words)
            note = next((n for n in demo_voice_notes() if n.name == demo), None)
            if note is None:
                raise BadRequest(f"no demo voice note {demo!r}")
            data, mime_type = note.audio, "audio/ogg; codecs=opus"
        else:
            if not mime_type.startswith(f"{'image' if kind == 'image' else 'audio'}/"):
                raise BadRequest(f"a {'photo' if kind == 'image' else 'voice note'} needs its mime_type")
            try:
                data = base64.b64decode(str(body.get("data") or ""), validate=True)
            except (binascii.Error, ValueError) as exc:
                raise BadRequest("the file must be base64") from exc
        if not data or len(data) > MAX_UPLOAD_BYTES:
            raise BadRequest(f"the file must be 1 byte to {MAX_UPLOAD_BYTES // (1024 * 1024)} MB")
        media_id = self.graph.add_media(data, mime_type)
        node: dict[str, Any] = {"id": media_id, "mime_type": mime_type, "sha256": hashlib.sha256(data).hexdigest()}
        if kind == "audio":
            node["voice"] = True
        return node

    def _cart(self, tenant_id: str, lines: list[Any]) -> list[dict[str, Any]]:
        wanted: list[tuple[str, int]] = []
        for line in lines[:30]:
            if not isinstance(line, dict):
                raise BadRequest("cart lines are objects with sku and quantity")
            sku, quantity = str(line.get("sku", "")), line.get("quantity")
            if not isinstance(quantity, int) or isinstance(quantity, bool) or not 1 <= quantity <= 99:
                raise BadRequest(f"quantity of {sku or 'a line'} must be a whole number from 1 to 99")
            wanted.append((sku, quantity))
        try:  # the price shown in the customer's catalog (the bot itself never trusts it)
            found = self.services.catalog.get_many(tenant_id, sorted({sku for sku, _ in wanted}))
        except InvalidInput as exc:
            raise BadRequest(str(exc)) from exc
        return [
            {
                "product_retailer_id": sku,
                "quantity": quantity,
                "item_price": found[sku].price if sku in found else 0,
                "currency": "KES",
            }
            for sku, quantity in wanted
        ]

    def stk(self, body: dict[str, Any]) -> dict[str, Any]:
        if self.daraja is None:
            raise BadRequest("the Daraja simulator is not running (TULIA_MPESA_API_BASE is set)")
        checkout, action = str(body.get("checkout_request_id", "")), str(body.get("action", ""))
        if action not in STK_OUTCOMES:
            raise BadRequest(f"action must be one of {', '.join(STK_OUTCOMES)}")
        request = self.daraja.stk.get(checkout)
        if request is None:
            raise NotFound("no such M-Pesa prompt")
        if request.result_code is not None:
            raise BadRequest("this prompt was already answered")
        ignored = action == "ignore"  # the phone never answers: no callback; Tulia asks Daraja later
        callback = self.daraja.complete(checkout, STK_OUTCOMES[action], send_callback=not ignored)
        result = callback["Body"]["stkCallback"]
        return {
            "result_code": result["ResultCode"],
            "result": result["ResultDesc"],
            "callback_sent": not ignored,
            "check_after_seconds": self.stk_check_delay_seconds if ignored else None,
        }

    def pay_bill(self, body: dict[str, Any]) -> dict[str, Any]:
        if self.daraja is None:
            raise BadRequest("the Daraja simulator is not running (TULIA_MPESA_API_BASE is set)")
        tenant = self._tenant(str(body.get("tenant_id", "")))
        c2b = tenant.payments.mpesa_c2b
        if c2b is None:
            raise BadRequest(f"{tenant.name} takes no Paybill or Till payments")
        amount = body.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 250_000:
            raise BadRequest("amount must be whole shillings from 1 to 250,000")
        account = str(body.get("account", ""))[:20] if c2b.paybill else ""
        wa_id = _wa_id(str(body.get("phone", "")))
        try:
            sent = self.daraja.pay_bill(
                str(c2b.paybill or c2b.till), amount, account, wa_id, str(body.get("name") or "Customer")
            )
        except LookupError as exc:
            raise BadRequest(str(exc)) from exc
        return {"trans_id": sent["TransID"], "amount": sent["TransAmount"], "account": sent["BillRefNumber"]}

    def shops(self) -> list[str]:
        """The demo shops, then every shop made in the console that has connected its WhatsApp number (a customer
        can write to it)."""
        made = [s.tenant_id for s in self.services.tenants.summaries() if s.display_phone_number]
        return [*self.tenant_ids, *(t for t in made if t not in self.tenant_ids)]

    def _tenant(self, tenant_id: str) -> Any:
        tenant = self.services.tenants.find(tenant_id) if TENANT_ID_PATTERN.fullmatch(tenant_id) else None
        if tenant is None or tenant.whatsapp is None:
            raise NotFound(f"unknown tenant {tenant_id!r}")
        return tenant


def _wa_id(phone: str) -> str:
    """The customer's number as WhatsApp writes it (digits, country code first)."""
    try:
        return normalize_phone(phone).lstrip("+")
    except InvalidInput as exc:
        raise BadRequest(f"not a phone number: {phone!r}") from exc


def _json(status: int, body: Any) -> dict[str, Any]:
    return response_of(HttpResponse(status, json.dumps(body, default=str)))


def page_html() -> str:
    return resources.files("tulia.local").joinpath("chatpage.html").read_text(encoding="utf-8")
