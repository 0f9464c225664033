"""A WhatsApp Cloud API (Graph API) simulator: ``POST /{phone_number_id}/messages`` and the
Business Management API's ``/{waba-id}/message_templates``.

It checks what Meta checks that matters to us (a bearer token, the envelope, WhatsApp's limits on
buttons and lists, templates that exist, are approved and get their parameters, the 24-hour
customer-service window), answers like Meta, and keeps every message sent so the chat page and
tests can read them. ``undeliverable`` numbers get Meta's error 131026; a free-form message to a
customer whose last message is more than 24 hours old gets 131047. The simulator learns when a
customer wrote from the local stack, which tells it about every webhook it accepts (Meta sees the
message before we do); a customer it never heard from it cannot judge, and lets a message through.
Every WhatsApp Business Account starts with the approved example templates of ``EXAMPLE_TEMPLATES``;
a template submitted with POST is pending until the next listing, as if Meta's review had passed.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tulia.local.simulators.base import Recorded, Reply, Route, SimulatorServer

_PATH = re.compile(r"^/(?:v\d+\.\d+/)?([0-9A-Za-z_-]+)/messages$")
_TEMPLATES_PATH = re.compile(r"^/(?:v\d+\.\d+/)?([0-9A-Za-z_-]+)/message_templates$")
_PLACEHOLDER = re.compile(r"\{\{\s*(\d{1,2})\s*\}\}")
WINDOW_SECONDS = 24 * 3600


def _example(
    name: str, language: str, category: str, body: str, *, quick_replies: tuple[str, ...] = ()
) -> dict[str, Any]:
    components: list[dict[str, Any]] = [{"type": "BODY", "text": body}]
    if quick_replies:  # tapped, Meta sends a "button" message whose text and payload are the button's text
        components.append({"type": "BUTTONS", "buttons": [{"type": "QUICK_REPLY", "text": q} for q in quick_replies]})
    return {
        "name": name,
        "language": language,
        "category": category,
        "status": "APPROVED",
        "components": components,
    }


# Approved examples every simulated WhatsApp Business Account has (the names Tulia uses by default).
EXAMPLE_TEMPLATES: tuple[dict[str, Any], ...] = (
    _example(
        "order_update", "en", "UTILITY", "Hello {{1}}, your order {{2}} {{3}}. Reply here if you have a question."
    ),
    _example("order_update", "sw", "UTILITY", "Habari {{1}}, oda yako {{2}} {{3}}. Jibu hapa kama una swali."),
    _example(
        "payment_receipt",
        "en",
        "UTILITY",
        "Hello {{1}}, we received KES {{2}} for order {{3}}. Thank you! Receipt: {{4}}.",
    ),
    _example(
        "payment_receipt",
        "sw",
        "UTILITY",
        "Habari {{1}}, tumepokea KES {{2}} kwa oda {{3}}. Asante! Risiti: {{4}}.",
    ),
    _example("staff_reply", "en", "UTILITY", "Hello {{1}}, {{2}} has replied to your request: {{3}}"),
    _example("staff_reply", "sw", "UTILITY", "Habari {{1}}, {{2}} amejibu ombi lako: {{3}}"),
    _example("staff_alert", "en", "UTILITY", "Tulia: {{1}} Open: {{2}}"),
    _example("staff_alert", "sw", "UTILITY", "Tulia: {{1}} Fungua: {{2}}"),
    _example(
        "unpaid_reminder",
        "en",
        "MARKETING",
        "Hello {{1}}, your order {{2}} of KES {{3}} is waiting for payment. Reply PAY to pay now, or STOP to "
        "stop these messages.",
    ),
    _example(
        "unpaid_reminder",
        "sw",
        "MARKETING",
        "Habari {{1}}, oda yako {{2}} ya KES {{3}} inasubiri malipo. Jibu LIPA kulipa sasa, au STOP kusimamisha "
        "ujumbe huu.",
    ),
    _example(
        "booking_reminder",
        "en",
        "UTILITY",
        "Hello {{1}}, a reminder of your appointment: {{2}}, {{3}} with {{4}}. Tap a button if you need to change it.",
        quick_replies=("I'll be there", "Change time", "Cancel booking"),
    ),
    _example(
        "booking_reminder",
        "sw",
        "UTILITY",
        "Habari {{1}}, kumbukumbu ya miadi yako: {{2}}, {{3}} na {{4}}. Bonyeza kitufe kama unahitaji kuibadilisha.",
        quick_replies=("Nitafika", "Badilisha saa", "Ghairi booking"),
    ),
    _example(
        "weekly_offer",
        "en",
        "MARKETING",
        "Hello {{1}}! This week at {{2}}: {{3}}. Reply to order, or STOP to stop offers.",
    ),
    _example(
        "weekly_offer",
        "sw",
        "MARKETING",
        "Habari {{1}}! Wiki hii {{2}}: {{3}}. Jibu kuagiza, au STOP kusimamisha ofa.",
    ),
)


@dataclass
class SentMessage:
    phone_number_id: str
    to: str  # the phone (digits) or the BSUID the message was addressed to
    payload: dict[str, Any]
    message_id: str
    at: float = field(default_factory=time.time)  # when Meta accepted it


def _graph_error(code: int, message: str, status: int = 400) -> Reply:
    return Reply(status, {"error": {"message": message, "type": "OAuthException", "code": code, "fbtrace_id": "SIM"}})


def limits_problem(payload: dict[str, Any]) -> str | None:
    """Why Meta would refuse this message body, if it would."""
    kind = payload.get("type")
    if kind == "text":
        body = (payload.get("text") or {}).get("body") or ""
        return None if 0 < len(body) <= 4096 else "text body must be 1-4096 characters"
    if kind != "interactive":
        return f"unsupported message type {kind!r}"
    inter = payload.get("interactive") or {}
    if not 0 < len((inter.get("body") or {}).get("text") or "") <= 1024:
        return "interactive body must be 1-1024 characters"
    action = inter.get("action") or {}
    if inter.get("type") == "button":
        buttons = action.get("buttons") or []
        titles = [b["reply"]["title"] for b in buttons]
        if not 1 <= len(buttons) <= 3 or any(not 0 < len(t) <= 20 for t in titles) or len(set(titles)) != len(titles):
            return "1-3 reply buttons with unique titles of at most 20 characters"
        return None
    if inter.get("type") == "list":
        rows = [r for s in action.get("sections") or [] for r in s.get("rows") or []]
        if not 0 < len(action.get("button") or "") <= 20:
            return "list button label must be 1-20 characters"
        if not 1 <= len(rows) <= 10 or any(not 0 < len(r["title"]) <= 24 for r in rows):
            return "1-10 list rows with titles of at most 24 characters"
        if any(len(r.get("description") or "") > 72 for r in rows):
            return "list row descriptions of at most 72 characters"
        return None
    return f"unsupported interactive type {inter.get('type')!r}"


class GraphSimulator(SimulatorServer):
    name = "graph-api"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.sent: list[SentMessage] = []
        self.read: list[tuple[str, str]] = []  # (phone_number_id, message_id)
        self.undeliverable: set[str] = set()
        self.last_inbound: dict[tuple[str, str], float] = {}  # (phone_number_id, wa_id or BSUID) -> when
        self.templates: dict[str, list[dict[str, Any]]] = {}  # per WhatsApp Business Account
        self._ids = itertools.count(1)
        self._sent_lock = threading.Lock()
        self.clock = time.time

    def route_for(self, rec: Recorded) -> Route | None:
        account = _TEMPLATES_PATH.match(rec.path)
        if account is not None and rec.method in ("GET", "POST", "DELETE"):
            waba_id = account.group(1)
            return lambda r: self._templates(r, waba_id)
        match = _PATH.match(rec.path)
        if rec.method != "POST" or match is None:
            return None
        return lambda r: self._messages(r, match.group(1))

    def note_inbound(self, phone_number_id: str, sender: str, at: float | None = None) -> None:
        """A customer wrote to this business number (the local stack calls this for every webhook)."""
        with self._sent_lock:
            key = (phone_number_id, sender.lstrip("+"))
            self.last_inbound[key] = max(self.last_inbound.get(key, 0.0), at if at is not None else self.clock())

    def _account(self, waba_id: str) -> list[dict[str, Any]]:
        if waba_id not in self.templates:
            self.templates[waba_id] = [{**t, "id": f"{waba_id}-{n}"} for n, t in enumerate(EXAMPLE_TEMPLATES)]
        return self.templates[waba_id]

    def _templates(self, rec: Recorded, waba_id: str) -> Reply:
        if not rec.headers.get("authorization", "").startswith("Bearer ") or len(rec.headers["authorization"]) < 10:
            return _graph_error(190, "Invalid OAuth access token.", 401)
        with self._sent_lock:
            account = self._account(waba_id)
            if rec.method == "GET":
                for t in account:  # Meta's review of a submitted template is done by the next listing
                    if t["status"] == "PENDING":
                        t["status"] = "APPROVED"
                listed = [dict(t) for t in account]
                return Reply(200, {"data": listed, "paging": {"cursors": {"before": "b", "after": "a"}}})
            if rec.method == "DELETE":
                name = rec.query.get("name") or ""
                kept = [t for t in account if t["name"] != name]
                if len(kept) == len(account):
                    return _graph_error(100, f"Template {name!r} does not exist")
                self.templates[waba_id] = kept
                return Reply(200, {"success": True})
            body = rec.body if isinstance(rec.body, dict) else {}
            name, language, category = str(body.get("name") or ""), body.get("language"), body.get("category")
            texts = [c.get("text") for c in body.get("components") or [] if str(c.get("type")).upper() == "BODY"]
            if not (name and language and category in ("UTILITY", "MARKETING", "AUTHENTICATION") and texts):
                return _graph_error(100, "Invalid parameter: name, language, category and a BODY component")
            if any(t["name"] == name and t["language"] == language for t in account):
                return _graph_error(2388024, "Content in this language already exists")
            template = {
                "id": f"{waba_id}-{next(self._ids)}",
                "name": name,
                "language": language,
                "category": category,
                "status": "PENDING",
                "components": [{"type": "BODY", "text": texts[0]}],
            }
            account.append(template)
        return Reply(200, {"id": template["id"], "status": "PENDING", "category": category})

    def _template_of(self, payload: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The template part of a message, and the template it names (any account's, or an example)."""
        template = payload.get("template") or {}
        name, language = template.get("name"), (template.get("language") or {}).get("code")
        with self._sent_lock:
            known = [t for account in self.templates.values() for t in account] + list(EXAMPLE_TEMPLATES)
        return template, next((t for t in known if t["name"] == name and t["language"] == language), None)

    def _template_problem(self, payload: dict[str, Any]) -> tuple[int, str] | None:
        template, found = self._template_of(payload)
        name, language = template.get("name"), (template.get("language") or {}).get("code")
        if found is None:
            return 132001, f"Template name does not exist in the translation ({name}, {language})"
        if found["status"] != "APPROVED":
            return 132001, f"Template {name} is not approved"
        body = next((c["text"] for c in found["components"] if c["type"] == "BODY"), "")
        wanted = len(set(_PLACEHOLDER.findall(body)))
        given = [
            p for c in template.get("components") or [] if c.get("type") == "body" for p in c.get("parameters") or []
        ]
        if len(given) != wanted:
            return 132000, f"Number of parameters does not match the expected number of params ({wanted})"
        return None

    def template_text(self, payload: dict[str, Any]) -> str:
        """What a customer's phone shows for a template message we sent."""
        template, found = self._template_of(payload)
        if found is None:
            return f"[template {template.get('name')}]"
        body = next((c["text"] for c in found["components"] if c["type"] == "BODY"), "")
        values = [
            str(p.get("text") or "")
            for c in template.get("components") or []
            if c.get("type") == "body"
            for p in c.get("parameters") or []
        ]
        return _PLACEHOLDER.sub(lambda m: values[int(m.group(1)) - 1] if int(m.group(1)) <= len(values) else "", body)

    def messages_to(self, to: str, phone_number_id: str | None = None) -> list[SentMessage]:
        digits = to.lstrip("+")
        with self._sent_lock:
            return [m for m in self.sent if m.to == digits and phone_number_id in (None, m.phone_number_id)]

    def was_read(self, phone_number_id: str, message_id: str) -> bool:
        with self._sent_lock:
            return (phone_number_id, message_id) in self.read

    def _messages(self, rec: Recorded, phone_number_id: str) -> Reply:
        if not rec.headers.get("authorization", "").startswith("Bearer ") or len(rec.headers["authorization"]) < 10:
            return _graph_error(190, "Invalid OAuth access token.", 401)
        body = rec.body if isinstance(rec.body, dict) else {}
        if body.get("messaging_product") != "whatsapp":
            return _graph_error(100, "Param messaging_product must be 'whatsapp'")
        if body.get("status") == "read":
            if not body.get("message_id"):
                return _graph_error(100, "Param message_id is required")
            with self._sent_lock:
                self.read.append((phone_number_id, str(body["message_id"])))
            return Reply(200, {"success": True})
        to = str(body.get("to") or body.get("recipient") or "")
        if not to:
            return _graph_error(100, "Param to or recipient is required")
        if to in self.undeliverable:
            return _graph_error(131026, "Message undeliverable")
        if body.get("type") == "template":
            template_problem = self._template_problem(body)
            if template_problem:
                return _graph_error(*template_problem)
        else:
            with self._sent_lock:
                wrote = self.last_inbound.get((phone_number_id, to))
            if wrote is not None and self.clock() - wrote > WINDOW_SECONDS:
                return _graph_error(
                    131047,
                    "Re-engagement message: more than 24 hours have passed since the recipient last replied",
                )
            problem = limits_problem(body)
            if problem:
                return _graph_error(100, f"Invalid parameter: {problem}")
        message_id = f"wamid.SIM{next(self._ids):08d}"
        with self._sent_lock:
            self.sent.append(SentMessage(phone_number_id, to, body, message_id))
        return Reply(
            200,
            {
                "messaging_product": "whatsapp",
                "contacts": [{"input": to, "wa_id": to}],
                "messages": [{"id": message_id}],
            },
        )
