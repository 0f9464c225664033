"""The local stack's mailbox: the emails Cognito would send (a sign-up's verification code), kept in memory and
shown at ``/dev/mailbox`` of ``tulia dev`` (a page, or JSON for tests), newest first. Nothing leaves the machine."""

from __future__ import annotations

import html
import secrets
import threading
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str
    at: str


class DevMailbox:
    def __init__(self) -> None:
        self._mails: list[Mail] = []
        self._codes: dict[str, str] = {}
        self._lock = threading.Lock()

    def send(self, to: str, subject: str, body: str) -> None:
        with self._lock:
            self._mails.append(Mail(to.strip().lower(), subject, body, datetime.now(UTC).isoformat()))

    def new_code(self, to: str) -> str:
        """A fresh six-digit verification code for this address (the one before it no longer works), mailed."""
        code = f"{secrets.randbelow(1_000_000):06d}"
        with self._lock:
            self._codes[to.strip().lower()] = code
        self.send(to, "Your Tulia verification code", f"Your verification code is {code}")
        return code

    def code_matches(self, to: str, code: str) -> bool:
        with self._lock:
            expected = self._codes.get(to.strip().lower())
        return expected is not None and secrets.compare_digest(expected, code.strip())

    def used(self, to: str) -> None:
        with self._lock:
            self._codes.pop(to.strip().lower(), None)

    def mails(self, to: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            found = [m for m in self._mails if to is None or m.to == to.strip().lower()]
        return [asdict(m) for m in reversed(found)]

    def page(self) -> str:
        rows = "".join(
            f"<article><h2>{html.escape(m['subject'])}</h2><p class=meta>to {html.escape(m['to'])} at "
            f"{html.escape(m['at'][:19])}</p><p data-testid=mail-body>{html.escape(m['body'])}</p></article>"
            for m in self.mails()
        )
        return (
            "<!doctype html><meta charset=utf-8><title>Tulia dev mailbox</title>"
            "<style>body{font-family:sans-serif;max-width:40rem;margin:2rem auto}article{border-bottom:1px solid #ddd}"
            ".meta{color:#666}</style><h1>Dev mailbox</h1><p>The emails the local stack would have sent, newest first."
            f"</p>{rows or '<p>No mail yet.</p>'}"
        )
