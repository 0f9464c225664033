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

import hashlib
import itertools
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tulia.channel.needed_templates import NEEDED_TEMPLATES, template
from tulia.local.simulators.base import Recorded, Reply, Route, SimulatorServer

_PATH = re.compile(r"^/(?:v\d+\.\d+/)?([0-9A-Za-z_-]+)/messages$")
_TEMPLATES_PATH = re.compile(r"^/(?:v\d+\.\d+/)?([0-9A-Za-z_-]+)/message_templates$")
_OAUTH_PATH = re.compile(r"^/(?:v\d+\.\d+/)?oauth/access_token$")
_SUBSCRIBE_PATH = re.compile(r"^/(?:v\d+\.\d+/)?([0-9A-Za-z_-]+)/subscribed_apps$")
_REGISTER_PATH = re.compile(r"^/(?:v\d+\.\d+/)?([0-9A-Za-z_-]+)/register$")
_NODE_PATH = re.compile(r"^/(?:v\d+\.\d+/)?([0-9]+)$")
_MEDIA_DOWNLOAD = re.compile(r"^/media-download/([0-9]+)$")  # where a media node's short-lived url points
SIGNUP_DIALOG = "/dialog/embedded-signup"  # the stand-in of Meta's Embedded Signup popup (not a Graph path)
_PLACEHOLDER = re.compile(r"\{\{\s*(\d{1,2})\s*\}\}")
WINDOW_SECONDS = 24 * 3600


# Approved examples every simulated WhatsApp Business Account has: the templates Tulia needs, and an offer to
# broadcast. (An account made through the Embedded Signup stand-in starts with none: Tulia submits what it needs.)
EXAMPLE_TEMPLATES: tuple[dict[str, Any], ...] = (
    *NEEDED_TEMPLATES,
    template(
        "weekly_offer",
        "en",
        "MARKETING",
        "Hello {{1}}! This week at {{2}}: {{3}}. Reply to order, or STOP to stop offers.",
    ),
    template(
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
    if kind == "image":
        image = payload.get("image") or {}
        link, caption = str(image.get("link") or ""), str(image.get("caption") or "")
        if not (image.get("id") or link.startswith(("https://", "http://"))):
            return "image needs an id or an http(s) link"
        return None if len(caption) <= 1024 else "image caption of at most 1024 characters"
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
        # Embedded Signup: codes not yet exchanged (-> account), business tokens (-> account), numbers made there
        self.codes: dict[str, str] = {}
        self.business_tokens: dict[str, str] = {}
        self.numbers: dict[str, dict[str, Any]] = {}
        self.subscribed: set[str] = set()
        # media customers sent (what GET /{media-id} describes and its url serves), and what was downloaded
        self.media: dict[str, tuple[bytes, str]] = {}
        self.media_sizes: dict[str, int] = {}  # a size Meta reports that differs from the bytes (a test's lie)
        self.unreachable_pictures: set[str] = set()  # picture links Meta cannot fetch (refused with 131053)
        self.media_digests: dict[str, str] = {}  # a sha256 Meta reports that differs (bytes damaged on the way)
        self.downloads: list[str] = []
        self._ids = itertools.count(1)
        self._sent_lock = threading.Lock()
        self.clock = time.time

    def route_for(self, rec: Recorded) -> Route | None:
        if rec.path == SIGNUP_DIALOG and rec.method == "GET":
            return lambda r: Reply(200, SIGNUP_PAGE, content_type="text/html; charset=utf-8")
        if rec.path == SIGNUP_DIALOG + "/finish" and rec.method == "POST":
            return self._signup_finished
        if _OAUTH_PATH.match(rec.path) and rec.method == "GET":
            return self._exchange_code
        subscribe = _SUBSCRIBE_PATH.match(rec.path)
        if subscribe is not None and rec.method == "POST":
            return lambda r: self._subscribe(r, subscribe.group(1))
        register = _REGISTER_PATH.match(rec.path)
        if register is not None and rec.method == "POST":
            return lambda r: self._register(r, register.group(1))
        node = _NODE_PATH.match(rec.path)
        if node is not None and rec.method == "GET" and node.group(1) in self.numbers:
            return lambda r: self._number(r, node.group(1))
        if node is not None and rec.method == "GET" and node.group(1) in self.media:
            return lambda r: self._media_node(r, node.group(1))
        download = _MEDIA_DOWNLOAD.match(rec.path)
        if download is not None and rec.method == "GET":
            return lambda r: self._media_download(r, download.group(1))
        account = _TEMPLATES_PATH.match(rec.path)
        if account is not None and rec.method in ("GET", "POST", "DELETE"):
            waba_id = account.group(1)
            return lambda r: self._templates(r, waba_id)
        match = _PATH.match(rec.path)
        if rec.method != "POST" or match is None:
            return None
        return lambda r: self._messages(r, match.group(1))

    # media a customer sent: described by its node, downloaded from its url, both with a token ------------------
    def add_media(self, data: bytes, mime_type: str) -> str:
        """What a customer's phone uploads to Meta with a message: its media id."""
        media_id = str(9_000_000_000 + next(self._ids))
        with self._sent_lock:
            self.media[media_id] = (data, mime_type)
        return media_id

    def _media_node(self, rec: Recorded, media_id: str) -> Reply:
        if not rec.headers.get("authorization", "").startswith("Bearer ") or len(rec.headers["authorization"]) < 10:
            return _graph_error(190, "Invalid OAuth access token.", 401)
        data, mime_type = self.media[media_id]
        return Reply(
            200,
            {
                "messaging_product": "whatsapp",
                "url": f"{self.base_url}/media-download/{media_id}",
                "mime_type": mime_type,
                "sha256": self.media_digests.get(media_id, hashlib.sha256(data).hexdigest()),
                "file_size": self.media_sizes.get(media_id, len(data)),
                "id": media_id,
            },
        )

    def _media_download(self, rec: Recorded, media_id: str) -> Reply:
        if not rec.headers.get("authorization", "").startswith("Bearer ") or len(rec.headers["authorization"]) < 10:
            return _graph_error(190, "Invalid OAuth access token.", 401)
        if media_id not in self.media:
            return _graph_error(100, "Media not found", 404)
        data, mime_type = self.media[media_id]
        with self._sent_lock:
            self.downloads.append(media_id)
        return Reply(200, data, content_type=mime_type)

    # Embedded Signup (the popup, then the calls the server makes with the code) ---------------------------------
    def _signup_finished(self, rec: Recorded) -> Reply:
        """The stand-in popup's "Connect": a new WhatsApp Business Account and number, and a code for them."""
        body = rec.body if isinstance(rec.body, dict) else {}
        display = re.sub(r"[^0-9+ ]", "", str(body.get("display_phone_number") or ""))[:20].strip()
        name = str(body.get("business_name") or "").strip()[:80]
        if len(re.sub(r"\D", "", display)) < 9 or not name:
            return _graph_error(100, "A business name and a phone number are needed")
        with self._sent_lock:
            n = next(self._ids)
            waba_id, phone_number_id, code = f"90{n:013d}", f"10{n:013d}", f"sim-code-{n}-{time.time_ns() % 10**9}"
            self.templates[waba_id] = []  # a new account: none of Tulia's templates yet
            self.numbers[phone_number_id] = {
                "display_phone_number": display,
                "verified_name": name,
                "waba_id": waba_id,
                "registered": False,
            }
            self.codes[code] = waba_id
        return Reply(200, {"code": code, "waba_id": waba_id, "phone_number_id": phone_number_id})

    def _exchange_code(self, rec: Recorded) -> Reply:
        code = rec.query.get("code", "")
        if not (rec.query.get("client_id") and rec.query.get("client_secret")):
            return _graph_error(101, "Missing client_id or client_secret")
        with self._sent_lock:
            waba_id = self.codes.pop(code, None)  # a code is used once
            if waba_id is None:
                return _graph_error(100, "Invalid verification code format.", 400)
            token = f"EAAsim{next(self._ids)}{waba_id[-6:]}"
            self.business_tokens[token] = waba_id
        return Reply(200, {"access_token": token, "token_type": "bearer"})

    def _business_of(self, rec: Recorded) -> str | None:
        token = rec.headers.get("authorization", "").removeprefix("Bearer ").strip()
        return self.business_tokens.get(token)

    def _subscribe(self, rec: Recorded, waba_id: str) -> Reply:
        if self._business_of(rec) != waba_id:
            return _graph_error(200, "Permissions error", 403)
        self.subscribed.add(waba_id)
        return Reply(200, {"success": True})

    def _register(self, rec: Recorded, phone_number_id: str) -> Reply:
        number = self.numbers.get(phone_number_id)
        if number is None or self._business_of(rec) != number["waba_id"]:
            return _graph_error(200, "Permissions error", 403)
        body = rec.body if isinstance(rec.body, dict) else {}
        if body.get("messaging_product") != "whatsapp" or not re.fullmatch(r"\d{6}", str(body.get("pin") or "")):
            return _graph_error(100, "Invalid parameter: messaging_product and a 6-digit pin")
        number["registered"], number["pin"] = True, str(body["pin"])
        return Reply(200, {"success": True})

    def _number(self, rec: Recorded, phone_number_id: str) -> Reply:
        number = self.numbers[phone_number_id]
        if self._business_of(rec) != number["waba_id"]:
            return _graph_error(200, "Permissions error", 403)
        return Reply(
            200,
            {
                "id": phone_number_id,
                "display_phone_number": number["display_phone_number"],
                "verified_name": number["verified_name"],
                "code_verification_status": "VERIFIED",
                "quality_rating": "GREEN",
                "platform_type": "CLOUD_API" if number["registered"] else "NOT_APPLICABLE",
            },
        )

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
            submitted = {
                "id": f"{waba_id}-{next(self._ids)}",
                "name": name,
                "language": language,
                "category": category,
                "status": "PENDING",
                "components": [
                    {k: v for k, v in c.items() if k != "example"}
                    for c in body.get("components") or []
                    if isinstance(c, dict) and str(c.get("type")).upper() in ("BODY", "BUTTONS")
                ],
            }
            account.append(submitted)
        return Reply(200, {"id": submitted["id"], "status": "PENDING", "category": category})

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
            if body.get("type") == "image" and (body.get("image") or {}).get("link") in self.unreachable_pictures:
                return _graph_error(131053, "Media upload error: the picture could not be downloaded")
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


# The stand-in of Meta's Embedded Signup popup: the owner names her business and number (Meta would have her log in
# to Facebook, pick or make the business and verify the number by SMS), then the page tells the console what the
# Facebook SDK tells it in AWS: the session's ids by a WA_EMBEDDED_SIGNUP message, the code as FB.login's answer.
SIGNUP_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>WhatsApp Business (simulated)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;max-width:26rem;margin:1.5rem auto;padding:0 1rem}label{display:block;margin:.8rem 0}
input{width:100%;padding:.4rem;box-sizing:border-box}button{margin:.6rem .4rem 0 0;padding:.5rem 1rem}
.note{color:#555;font-size:.85rem}</style></head><body>
<h1>Connect WhatsApp</h1>
<p class="note">Local stand-in of Meta's Embedded Signup: no Facebook account, no SMS. The number is made in the
Graph API simulator.</p>
<label>Business name <input id="business" autocomplete="organization"></label>
<label>WhatsApp number <input id="number" placeholder="+254 7XX XXX XXX" inputmode="tel"></label>
<button id="connect">Connect</button><button id="cancel">Cancel</button>
<p id="problem" role="alert"></p>
<script>
const say = (message) => window.opener && window.opener.postMessage(JSON.stringify(message), "*");
document.getElementById("cancel").onclick = () => {
  say({type: "WA_EMBEDDED_SIGNUP", event: "CANCEL", version: 3, data: {current_step: "PHONE_NUMBER_SETUP"}});
  window.close();
};
document.getElementById("connect").onclick = async () => {
  const form = {business_name: document.getElementById("business").value,
                display_phone_number: document.getElementById("number").value};
  const answer = await fetch(location.pathname + "/finish", {method: "POST",
    headers: {"content-type": "application/json"}, body: JSON.stringify(form)});
  const body = await answer.json();
  if (!answer.ok) { document.getElementById("problem").textContent = body.error.message; return; }
  say({type: "WA_EMBEDDED_SIGNUP", event: "FINISH", version: 3,
       data: {phone_number_id: body.phone_number_id, waba_id: body.waba_id}});
  say({type: "TULIA_SIMULATED_LOGIN", authResponse: {code: body.code}});
  window.close();
};
</script></body></html>
"""
