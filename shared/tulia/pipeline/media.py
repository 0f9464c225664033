"""A customer's file made into what the conversation reads (issue 35): fetched from the Graph API and checked
(``channel/media``), kept in the shop's prefix of the media bucket (``store/media``), then read:

- a picture of an M-Pesa confirmation (its text read by Textract or Tesseract, ``domain/mpesa_receipt``) becomes
  the code it shows, for the same matching as a typed code (``inbound["screenshot"]``);
- a picture that looks like one but whose code or amount cannot be read asks for the code as text;
- a voice note is sent to be transcribed (``pipeline/voice``): nothing is answered now, its transcript is the
  customer's next turn;
- any other photo is a search: the model's description of it when the shop's engine has a model, else its
  caption; with neither, the customer is asked what it is.

A file that cannot be taken (type, size, unavailable, damaged) is answered here, politely and in the customer's
language, without the engine. Nothing of a file is logged or kept in the conversation's state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tulia.channel.media import MediaClient, MediaKind, MediaRefused
from tulia.channel.reading import PictureReader, PictureUnread, TesseractReader, TextractReader
from tulia.channel.whatsapp import InboundMessage, conversation_id_for
from tulia.config import Settings
from tulia.domain.mpesa_receipt import looks_like_mpesa, read_receipt
from tulia.domain.tenant import Tenant
from tulia.llm.prompts import PromptContext
from tulia.observability import logger as log
from tulia.pipeline.voice import VoiceNotes
from tulia.store.media import MediaStore

TAKEN_KINDS: dict[str, MediaKind] = {"image": "image", "audio": "audio"}
REFUSAL_REPLIES = {
    "type": "media_unsupported",
    "size": "media_too_large",
    "unavailable": "media_unavailable",
    "damaged": "media_unavailable",
}


@dataclass
class Intake:
    """What a file adds to the turn: fields of its inbound, or a reply said instead of running the engine."""

    inbound: dict[str, Any] = field(default_factory=dict)
    reply_key: str | None = None
    hold: bool = False  # nothing to answer now (a voice note: its transcript is the turn)
    trace: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class MediaIntake:
    client: MediaClient
    store: MediaStore | None = None  # unset: files are read, never kept
    pictures: PictureReader | None = None  # unset: no screenshot is read (the customer types the code)
    voice: VoiceNotes | None = None  # unset: voice notes are not transcribed (the customer is asked to type)

    def take(self, tenant: Tenant, message: InboundMessage, token: str, engine: Any) -> Intake:
        kind = TAKEN_KINDS.get(message.kind)
        if kind is None or not message.media:
            return Intake()  # video, documents, stickers: the engine's polite "text, photos and voice notes"
        out = Intake()
        try:
            media = self.client.fetch(str(message.media["id"]), token, kind)
        except MediaRefused as refused:
            out.trace.append({"kind": "media", "media_kind": kind, "outcome": f"refused_{refused.reason}"})
            out.reply_key = REFUSAL_REPLIES[refused.reason]
            return out
        key = None
        if self.store is not None:
            conversation = conversation_id_for(tenant.tenant_id, message.customer_key)
            key = self.store.put(
                tenant.tenant_id,
                conversation,
                message.message_id,
                data=media.data,
                content_type=media.mime_type,
                extension=media.extension,
                kind=kind,
            )
        if kind == "audio":
            if self.voice is None or key is None:  # nothing to transcribe with: asked to type
                out.trace.append({"kind": "media", "media_kind": kind, "outcome": "voice_unavailable"})
                out.reply_key = "voice_unavailable"
                return out
            job = self.voice.start(
                tenant.tenant_id, message, media_key=key, mime_type=media.mime_type, audio=media.data
            )
            out.trace.append({"kind": "media", "media_kind": kind, "outcome": "transcribing", "job": job})
            out.hold = True  # the transcript comes back as the customer's next turn
            return out
        caption = message.text.strip()
        seen = self._read_text(media.data)
        receipt = read_receipt(seen) if seen else None
        if receipt is not None:
            out.inbound["screenshot"] = receipt.as_dict()
            out.trace.append({"kind": "media", "media_kind": kind, "outcome": "mpesa_screenshot"})
            return out
        if seen and looks_like_mpesa(seen) and not caption:
            out.inbound["screenshot_unread"] = True
            out.trace.append({"kind": "media", "media_kind": kind, "outcome": "mpesa_unread"})
            return out
        described = engine.describe_photo(
            media.data,
            media.mime_type,
            caption=caption,
            context=PromptContext(tenant_id=tenant.tenant_id, tenant_name=tenant.name),
        )
        if described is not None:
            out.trace.extend(described.calls)
        if described is not None and described.text:
            out.inbound["text"] = described.text  # the search's words (the model's, in English)
            out.inbound["caption"] = caption  # the customer's own words: the language they are answered in
            out.inbound["photo"] = "described"
        else:
            out.inbound["photo"] = "caption" if caption else "unknown"
        out.trace.append({"kind": "media", "media_kind": kind, "outcome": f"photo_{out.inbound['photo']}"})
        return out

    def _read_text(self, data: bytes) -> str:
        if self.pictures is None:
            return ""
        try:
            return self.pictures.read(data)
        except PictureUnread as exc:
            log.warning("a picture's text could not be read", extra={"reader": self.pictures.name, "why": str(exc)})
            return ""


def picture_reader_for(settings: Settings) -> PictureReader | None:
    """What reads a picture's text, as ``TULIA_PICTURE_READER`` says."""
    if settings.picture_reader == "tesseract":
        return TesseractReader()
    if settings.picture_reader == "textract":
        import boto3

        return TextractReader(boto3.client("textract", region_name=settings.aws_region))
    return None
