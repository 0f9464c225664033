"""`tulia dev` driven over HTTP as an outside checker drives it: signed Meta payloads in, our own Graph API and
Daraja recorders behind TULIA_WHATSAPP_API_BASE and TULIA_MPESA_API_BASE, ID tokens from the stack's user pool.
The admin API and local stack modules share one such stack (``recorded_stack`` in ``conftest.py``; their
customers have phones of distinct ranges)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import ROOT
from tests.integration.test_webhook import meta_payload, text_message, value
from tulia.channel.whatsapp import sign
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.graph import GraphSimulator

SECRET = "e2e-app-secret"
VERIFY = "e2e-verify-token"


@dataclass
class Stack:
    url: str
    graph: GraphSimulator
    daraja: DarajaSimulator

    def say(self, phone: str, words: str) -> str:
        """The customer sends a message (to the demo shop's number) and gets the bot's answer: every reply of the
        turn, once the agent's outbox says all of them were sent."""
        before = len(self.texts_to(phone))
        mid = f"wamid.say-{phone}-{before}-{time.monotonic_ns()}"
        assert (
            self.post(meta_payload(value(text_message(words, mid=mid, sender=phone), wa_id=phone))).status_code == 200
        )
        self.answered(mid)
        return "\n".join(self.texts_to(phone)[before:])

    def answered(self, message_id: str, tenant_id: str = "demo-shop") -> dict[str, Any]:
        """Wait until the turn answering a message has sent all its replies (the chat page API reads the agent's
        outbox), and return where it stands."""

        def turn() -> dict[str, Any] | None:
            got = httpx.get(
                f"{self.url}/dev/turn", params={"tenant_id": tenant_id, "message_id": message_id}, timeout=10
            )
            assert got.status_code == 200, got.text
            return None if got.json()["pending"] else dict(got.json())

        return dict(wait_for(turn))

    def post(self, body: bytes, signature: str | None = None) -> httpx.Response:
        headers = {"content-type": "application/json", "x-hub-signature-256": signature or sign(body, SECRET)}
        return httpx.post(f"{self.url}/webhooks/whatsapp", content=body, headers=headers, timeout=10)

    def texts_to(self, phone: str) -> list[str]:
        out = []
        for m in self.graph.messages_to(phone):
            p = m.payload
            body = p["text"]["body"] if p["type"] == "text" else p["interactive"]["body"]["text"]
            if p["type"] == "interactive" and p["interactive"]["type"] == "list":
                body += "\n" + "\n".join(r["title"] for s in p["interactive"]["action"]["sections"] for r in s["rows"])
            out.append(body)
        return out


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


@dataclass
class Admin(Stack):
    """The stack as the admin API's callers meet it: with tokens from its user pool."""

    state_dir: Path

    def token(self, tenant_id: str, role: str = "owner") -> str:
        out = subprocess.run(
            [
                *(sys.executable, "-m", "tulia.cli", "admin-token", "--tenant-id", tenant_id, "--role", role),
                *("--port", self.url.rsplit(":", 1)[1]),  # the stack this test means
            ],
            cwd=ROOT,
            env={**os.environ, "TULIA_STATE_DIR": str(self.state_dir)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    def call(self, method: str, path: str, token: str | None, **kw: object) -> httpx.Response:
        headers = dict(kw.pop("headers", {}) or {})  # type: ignore[call-overload]
        if token:
            headers["authorization"] = f"Bearer {token}"
        return httpx.request(method, f"{self.url}{path}", headers=headers, timeout=20, **kw)  # type: ignore[arg-type]
