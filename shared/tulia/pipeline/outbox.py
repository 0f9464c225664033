"""A turn's replies are stored before they are sent, then sent in order, each once: a redelivered turn
finds what it stored and sends only what is not sent yet. News sent unasked that Meta refuses as outside
the 24-hour window (131047) goes as its template instead."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tulia.channel.graph_api import SendFailed, WhatsAppSender
from tulia.channel.outbound import refusal_of
from tulia.channel.window import OUTSIDE_WINDOW_CODE, Delivery
from tulia.observability import logger as log
from tulia.store.messages import MessageRepo


@dataclass
class Outbox:
    messages: MessageRepo
    sender: WhatsAppSender
    clock: Callable[[], datetime]

    def store(
        self,
        tenant_id: str,
        key: str,
        phone_number_id: str,
        payloads: list[dict[str, Any]],
        covers: list[str],
        trace: list[dict[str, Any]],
    ) -> dict[str, Any]:
        """Put a turn's replies in the outbox before sending; if another delivery stored them
        first, send what that one stored."""
        now = self.clock()
        stored = self.messages.save_outbox(
            tenant_id,
            key,
            phone_number_id=phone_number_id,
            replies=payloads,
            covers=covers,
            trace=trace,
            now=now,
        )
        earlier = None if stored else self.messages.get_outbox(tenant_id, key)
        return earlier or {
            "phone_number_id": phone_number_id,
            "replies": payloads,
            "sent": [None] * len(payloads),
            "trace": trace,
            "created_at": now.isoformat(),
        }

    def send(
        self,
        tenant_id: str,
        key: str,
        outbox: dict[str, Any],
        token: str,
        outside_window: Callable[[], Delivery] | None = None,
    ) -> None:
        """Send what is not sent yet, in order. News sent unasked (``outside_window`` gives its template
        form) that Meta refuses as outside the 24-hour window (131047) goes as its template instead."""
        replies = outbox["replies"]
        for index, payload in enumerate(replies):
            if outbox["sent"][index]:
                continue
            try:
                wamid = self.sender.send(outbox["phone_number_id"], token, payload)
            except SendFailed as exc:
                if exc.retryable:
                    raise
                if exc.code == OUTSIDE_WINDOW_CODE and outside_window is not None:
                    self._send_template_instead(tenant_id, key, outbox, token, index, outside_window())
                    return
                if payload.get("type") == "image":  # a picture Meta will not send: its caption, as text
                    log.warning("picture not sent: its caption goes as text", extra={"code": exc.code})
                    wamid = "text:" + self.sender.send(outbox["phone_number_id"], token, caption_of(payload))
                    self.messages.mark_sent(tenant_id, key, index, wamid)
                    continue
                log.error(
                    "reply not deliverable", extra={"tenant_id": tenant_id, "code": exc.code, "status": exc.status}
                )
                wamid = f"failed:{exc.code or exc.status}"
            self.messages.mark_sent(tenant_id, key, index, wamid)

    def _send_template_instead(
        self, tenant_id: str, key: str, outbox: dict[str, Any], token: str, index: int, delivery: Delivery
    ) -> None:
        result = f"failed:{OUTSIDE_WINDOW_CODE}"
        if delivery.mode == "template":
            wamids = [self.sender.send(outbox["phone_number_id"], token, p) for p in delivery.payloads]
            result = f"template:{wamids[0]}"
        else:
            log.error(
                "news not sent: outside the 24-hour window and no template",
                extra={"tenant_id": tenant_id, "code": refusal_of(delivery).get("code")},
            )
        self.messages.mark_sent(tenant_id, key, index, result)
        for later in range(index + 1, len(outbox["replies"])):
            if not outbox["sent"][later]:
                self.messages.mark_sent(tenant_id, key, later, "skipped:outside_window")


def caption_of(payload: dict[str, Any]) -> dict[str, Any]:
    """A picture's message as text: its caption, to the same customer."""
    envelope = {k: v for k, v in payload.items() if k not in ("type", "image")}
    caption = str((payload.get("image") or {}).get("caption") or "")
    return {**envelope, "type": "text", "text": {"preview_url": False, "body": caption}}
