"""Outbound WhatsApp messages: plain text, reply buttons and lists, within the Cloud API's limits.

Anything that would break a limit (more than 3 buttons, more than 10 rows, titles too long) is sent
as a numbered plain-text message instead, which every WhatsApp client shows and a customer can
answer with a number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

TEXT_LIMIT = 4096
INTERACTIVE_BODY_LIMIT = 1024
MAX_BUTTONS = 3
BUTTON_TITLE_LIMIT = 20
MAX_LIST_ROWS = 10
ROW_TITLE_LIMIT = 24
ROW_DESCRIPTION_LIMIT = 72
LIST_BUTTON_LIMIT = 20
HEADER_LIMIT = 60


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class Choice(BaseModel):
    id: str = Field(max_length=200)
    title: str
    description: str | None = None


class OutboundMessage(BaseModel):
    kind: Literal["text", "buttons", "list", "image"] = "text"
    body: str  # an image's caption
    image_url: str | None = None  # kind "image": the picture's public https address (WhatsApp fetches it)
    choices: list[Choice] = Field(default_factory=list)
    list_button: str = "Choose"
    header: str | None = None
    footer: str | None = None

    def fits_interactive(self) -> bool:
        if self.kind == "buttons":
            titles = [c.title for c in self.choices]
            return (
                1 <= len(self.choices) <= MAX_BUTTONS
                and all(len(t) <= BUTTON_TITLE_LIMIT for t in titles)
                and len(set(titles)) == len(titles)
            )
        if self.kind == "list":
            return 1 <= len(self.choices) <= MAX_LIST_ROWS
        return True

    def plain_text(self) -> str:
        """The numbered text form of the message (the fallback, and what the chat log stores)."""
        parts = [self.header] if self.header else []
        parts.append(self.body)
        if self.choices:
            parts.append(
                "\n".join(
                    f"{n}. {c.title}" + (f" - {c.description}" if c.description else "")
                    for n, c in enumerate(self.choices, start=1)
                )
            )
        if self.footer:
            parts.append(self.footer)
        return clip("\n\n".join(parts), TEXT_LIMIT)

    def to_whatsapp(self, *, to: str | None = None, recipient: str | None = None) -> dict[str, Any]:
        """The Graph API body for ``POST /{phone_number_id}/messages``."""
        envelope: dict[str, Any] = {"messaging_product": "whatsapp", "recipient_type": "individual"}
        if to:
            envelope["to"] = to.lstrip("+")
        elif recipient:
            envelope["recipient"] = recipient
        if self.kind == "image" and self.image_url:
            return {**envelope, "type": "image", "image": {"link": self.image_url, "caption": clip(self.body, 1024)}}
        if self.kind in ("text", "image") or not self.fits_interactive():
            return {**envelope, "type": "text", "text": {"preview_url": False, "body": self.plain_text()}}
        interactive: dict[str, Any] = {"body": {"text": clip(self.body, INTERACTIVE_BODY_LIMIT)}}
        if self.header:
            interactive["header"] = {"type": "text", "text": clip(self.header, HEADER_LIMIT)}
        if self.footer:
            interactive["footer"] = {"text": clip(self.footer, HEADER_LIMIT)}
        if self.kind == "buttons":
            interactive["type"] = "button"
            interactive["action"] = {
                "buttons": [{"type": "reply", "reply": {"id": c.id[:256], "title": c.title}} for c in self.choices]
            }
        else:
            interactive["type"] = "list"
            interactive["action"] = {
                "button": clip(self.list_button, LIST_BUTTON_LIMIT),
                "sections": [
                    {
                        "title": clip(self.header or "Options", ROW_TITLE_LIMIT),
                        "rows": [
                            {
                                "id": c.id[:200],
                                "title": clip(c.title, ROW_TITLE_LIMIT),
                                **(
                                    {"description": clip(c.description, ROW_DESCRIPTION_LIMIT)} if c.description else {}
                                ),
                            }
                            for c in self.choices
                        ],
                    }
                ],
            }
        return {**envelope, "type": "interactive", "interactive": interactive}


def text(body: str) -> OutboundMessage:
    return OutboundMessage(kind="text", body=body)


def picture(url: str, caption: str) -> OutboundMessage:
    """A picture with its caption (its text form, the caption, is what a phone shows when it cannot be sent)."""
    return OutboundMessage(kind="image", body=caption, image_url=url)


def buttons(body: str, choices: Sequence[tuple[str, str]], *, footer: str | None = None) -> OutboundMessage:
    return OutboundMessage(
        kind="buttons", body=body, choices=[Choice(id=i, title=t) for i, t in choices], footer=footer
    )


def listing(
    body: str,
    rows: Sequence[tuple[str, str, str | None]],
    *,
    button: str,
    header: str | None = None,
    footer: str | None = None,
) -> OutboundMessage:
    return OutboundMessage(
        kind="list",
        body=body,
        list_button=button,
        header=header,
        footer=footer,
        choices=[Choice(id=i, title=t, description=d) for i, t, d in rows],
    )
