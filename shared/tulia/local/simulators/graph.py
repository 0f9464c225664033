"""A WhatsApp Cloud API (Graph API) simulator: ``POST /{phone_number_id}/messages``.

It checks what Meta checks that matters to us (a bearer token, the envelope, WhatsApp's limits on
buttons and lists), answers like Meta, and keeps every message sent so the chat page and tests can
read them. ``undeliverable`` numbers get Meta's error 131026.
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
        self._ids = itertools.count(1)
        self._sent_lock = threading.Lock()

    def route_for(self, rec: Recorded) -> Route | None:
        match = _PATH.match(rec.path)
        if rec.method != "POST" or match is None:
            return None
        return lambda r: self._messages(r, match.group(1))

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
