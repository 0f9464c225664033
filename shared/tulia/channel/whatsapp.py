"""The WhatsApp Cloud API webhook: verification, signatures and payload parsing (PROTOCOLS.md 1.1-1.4, 1.8).

Plain data and the standard library only: the webhook function imports this on a cold start, so it
stays light (no pydantic, no LangChain). Every field Meta may leave out is optional here.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import asdict, dataclass, field
from typing import Any

# message types the bot reads as words; photos and voice notes are fetched and read by the agent
# (pipeline/media.py); the others get a polite "text, photos and voice notes" reply
READABLE = frozenset({"text", "interactive", "button", "order", "location"})
IGNORED = frozenset({"reaction"})  # a thumbs-up on our message is not a turn
MAX_TEXT_CHARS = 10_000  # WhatsApp's own limit is 4,096; anything longer is cut here


class WebhookError(ValueError):
    """A payload that is not a WhatsApp webhook (answered with 400)."""


def subscription_challenge(params: dict[str, str], verify_token: str) -> str | None:
    """GET verification: the challenge to echo when mode and token are right, else None (403)."""
    if params.get("hub.mode") != "subscribe":
        return None
    token = params.get("hub.verify_token") or ""
    if not hmac.compare_digest(token.encode(), verify_token.encode()):
        return None
    challenge = params.get("hub.challenge")
    return challenge if challenge is not None else None


def signature_valid(raw_body: bytes, header: str | None, app_secret: str) -> bool:
    """``X-Hub-Signature-256: sha256=<hex>`` over the untouched body bytes, compared in constant time."""
    if not header or not header.startswith("sha256="):
        return False
    expected = hmac.new(app_secret.encode(), raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header.removeprefix("sha256=").strip().lower())


def sign(raw_body: bytes, app_secret: str) -> str:
    """The header value Meta would send (tests and the local chat page sign with it)."""
    return "sha256=" + hmac.new(app_secret.encode(), raw_body, hashlib.sha256).hexdigest()


def customer_key(phone_e164: str | None, wa_user_id: str | None) -> str:
    """Who a chat is with, within a tenant: the phone when Meta shares it, else the business-scoped
    user id (queues' message groups, conversation threads)."""
    if phone_e164:
        return phone_e164
    if wa_user_id:
        return f"bsuid:{wa_user_id}"
    raise ValueError("a chat needs the customer's phone number or WhatsApp user id")


def conversation_id_for(tenant_id: str, customer_key: str) -> str:
    """The conversation (LangGraph thread) of a customer: stable per (tenant, customer) without
    carrying the phone number (or user id) into logs."""
    return "conv_" + hashlib.sha256(f"{tenant_id}|{customer_key}".encode()).hexdigest()[:20]


def addressed_to(phone_e164: str | None, wa_user_id: str | None) -> dict[str, str]:
    """How a reply names its recipient (PROTOCOLS.md 1.8): ``to`` the phone, else ``recipient``."""
    return {"to": phone_e164} if phone_e164 else {"recipient": str(wa_user_id)}


@dataclass(frozen=True)
class InboundMessage:
    """One customer message, as the agent needs it."""

    phone_number_id: str  # our business number: the tenant
    message_id: str
    timestamp: int
    kind: str  # text | interactive | button | order | image | audio | location | ...
    phone_e164: str | None = None  # "+2547..." when Meta shares the number
    wa_user_id: str | None = None  # the business-scoped user id (BSUID)
    display_name: str | None = None
    username: str | None = None
    text: str = ""
    reply_id: str | None = None  # the id of a tapped button or list row
    context_id: str | None = None  # the message of ours it answers, if any
    order_items: list[dict[str, Any]] = field(default_factory=list)  # [{product_retailer_id, quantity, item_price}]
    location: dict[str, Any] | None = None  # a location pin: {lat, lon, name?, address?}
    media: dict[str, Any] | None = None  # a file sent: {id, mime_type, sha256?, voice?} (fetched by the agent)
    spoken: str | None = None  # a voice note's transcript: the language heard ("sw", "en", "unknown")

    @property
    def readable(self) -> bool:
        return self.kind in READABLE

    @property
    def customer_key(self) -> str:
        """The customer within the tenant: the phone when known, else the BSUID."""
        return customer_key(self.phone_e164, self.wa_user_id)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> InboundMessage:
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class StatusUpdate:
    """What happened to a message we sent (sent, delivered, read, failed)."""

    phone_number_id: str
    message_id: str
    status: str
    timestamp: int
    recipient: str | None = None
    error_code: int | None = None
    error_details: str | None = None


@dataclass
class Webhook:
    messages: list[InboundMessage] = field(default_factory=list)
    statuses: list[StatusUpdate] = field(default_factory=list)
    ignored: int = 0  # reactions and messages without a sender


def _e164(wa_id: str | None) -> str | None:
    digits = "".join(c for c in str(wa_id or "") if c.isdigit())
    return f"+{digits}" if 8 <= len(digits) <= 15 else None


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _text_of(kind: str, msg: dict[str, Any]) -> tuple[str, str | None]:
    """The words of a message and the id of a tapped reply."""
    if kind == "text":
        return str((msg.get("text") or {}).get("body") or ""), None
    if kind == "interactive":
        inter = msg.get("interactive") or {}
        reply = inter.get("button_reply") or inter.get("list_reply") or {}
        return str(reply.get("title") or ""), (str(reply["id"]) if reply.get("id") else None)
    if kind == "button":
        button = msg.get("button") or {}
        return str(button.get("text") or ""), (str(button["payload"]) if button.get("payload") else None)
    if kind in ("image", "video", "document"):
        return str((msg.get(kind) or {}).get("caption") or ""), None
    if kind == "order":
        return str((msg.get("order") or {}).get("text") or ""), None
    if kind == "location":  # the pin's name and address, as the customer's words for the place
        pin = msg.get("location") or {}
        return ", ".join(str(pin[k]).strip() for k in ("name", "address") if pin.get(k)), None
    return "", None


MEDIA_KINDS = ("image", "audio", "video", "document", "sticker")


def _media(kind: str, msg: dict[str, Any]) -> dict[str, Any] | None:
    """A file's media id and what Meta says of it (the file itself is fetched by the agent, never here)."""
    if kind not in MEDIA_KINDS:
        return None
    node = msg.get(kind)
    if not isinstance(node, dict) or not isinstance(node.get("id"), str | int) or not str(node["id"]).strip():
        return None
    out: dict[str, Any] = {"id": str(node["id"]).strip()[:128], "mime_type": str(node.get("mime_type") or "")[:100]}
    if isinstance(node.get("sha256"), str):
        out["sha256"] = node["sha256"][:128]
    if kind == "audio":
        out["voice"] = node.get("voice") is True
    return out


def _pin(msg: dict[str, Any]) -> dict[str, Any] | None:
    """A location message's pin, when its coordinates are numbers on the globe (else it is unreadable)."""
    pin = msg.get("location")
    if not isinstance(pin, dict):
        return None
    try:
        lat, lon = float(pin["latitude"]), float(pin["longitude"])
    except (KeyError, TypeError, ValueError):
        return None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180) or lat != lat or lon != lon:  # NaN compares unequal
        return None
    out: dict[str, Any] = {"lat": lat, "lon": lon}
    for key in ("name", "address"):
        if isinstance(pin.get(key), str) and pin[key].strip():
            out[key] = pin[key].strip()[:200]
    return out


def parse(payload: Any) -> Webhook:
    """Every message and status in a webhook POST (several entries, changes, messages are normal)."""
    if not isinstance(payload, dict) or not isinstance(payload.get("entry"), list):
        raise WebhookError("not a WhatsApp webhook payload: 'entry' list missing")
    out = Webhook()
    for entry in payload["entry"]:
        for change in (entry or {}).get("changes") or []:
            value = (change or {}).get("value") or {}
            pnid = str((value.get("metadata") or {}).get("phone_number_id") or "")
            if not pnid:
                continue
            contacts = value.get("contacts") or []
            for msg in value.get("messages") or []:
                parsed = _message(pnid, msg or {}, contacts)
                if parsed is None:
                    out.ignored += 1
                else:
                    out.messages.append(parsed)
            for status in value.get("statuses") or []:
                errors = (status or {}).get("errors") or [{}]
                out.statuses.append(
                    StatusUpdate(
                        phone_number_id=pnid,
                        message_id=str(status.get("id") or ""),
                        status=str(status.get("status") or ""),
                        timestamp=_int(status.get("timestamp")),
                        recipient=status.get("recipient_id") or status.get("recipient_user_id"),
                        error_code=_int(errors[0].get("code")) or None,
                        error_details=(errors[0].get("error_data") or {}).get("details"),
                    )
                )
    return out


def _message(pnid: str, msg: dict[str, Any], contacts: list[dict[str, Any]]) -> InboundMessage | None:
    kind = str(msg.get("type") or "unsupported")
    message_id = str(msg.get("id") or "")
    if kind in IGNORED or not message_id:
        return None
    sender = msg.get("from")
    contact = next(
        (
            c
            for c in contacts
            if c.get("wa_id") == sender or (c.get("user_id") and c.get("user_id") == msg.get("from_user_id"))
        ),
        contacts[0] if len(contacts) == 1 else {},
    )
    phone = _e164(sender or contact.get("wa_id"))
    wa_user_id = contact.get("user_id") or msg.get("from_user_id")
    if phone is None and not wa_user_id:
        return None  # no way to answer
    profile = contact.get("profile") or {}
    text, reply_id = _text_of(kind, msg)
    pin = _pin(msg) if kind == "location" else None
    media = _media(kind, msg)
    if kind == "location" and pin is None:
        kind = "unsupported"  # a pin without a place on the globe: the polite "could not read that"
    raw_order = msg.get("order")
    order: dict[str, Any] = raw_order if isinstance(raw_order, dict) else {}
    items = order.get("product_items")
    items = [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []  # a string is no cart
    return InboundMessage(
        phone_number_id=pnid,
        message_id=message_id,
        timestamp=_int(msg.get("timestamp")),
        kind=kind,
        phone_e164=phone,
        wa_user_id=str(wa_user_id) if wa_user_id else None,
        display_name=(str(profile["name"])[:120] if profile.get("name") else None),
        username=profile.get("username"),
        text=text[:MAX_TEXT_CHARS],
        reply_id=reply_id,
        context_id=(msg.get("context") or {}).get("id"),
        location=pin,
        media=media,
        order_items=[
            {
                "product_retailer_id": str(i.get("product_retailer_id") or ""),
                "quantity": _int(i.get("quantity")),
                "item_price": i.get("item_price"),
            }
            for i in items
        ],
    )
