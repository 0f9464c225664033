"""Voice notes (issue 35, part 2): a kept voice note is transcribed, and its transcript comes back into the
customer's FIFO group as a text turn marked as spoken; the customer hears "listening…" only if that takes longer
than a few seconds.

- ``start``: the agent, on a voice note it kept, records who sent it (``store/voice``), starts the job (Amazon
  Transcribe in AWS, the stand-in of ``tulia.local.voice`` on a laptop) and asks the outreach queue to check back
  in ``LISTENING_AFTER_SECONDS``;
- ``listening``: the outreach worker's check: still transcribing, the customer is told "listening…" (once);
- ``completed``: Transcribe's completion event (EventBridge, the agent function's third source; the stand-in calls
  it the same way): the transcript, or its absence, becomes the customer's next turn (once). A transcript the
  reader cannot use (nothing heard, the job failed) is a spoken turn with no words: the conversation asks the
  customer to type it, in the language Transcribe heard when it heard one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tulia.channel.graph_api import WhatsAppSender
from tulia.channel.voice import Transcriber, VoiceJob, job_name, job_parts, message_digest, transcript_of
from tulia.channel.whatsapp import InboundMessage, addressed_to
from tulia.nlg.messages import text
from tulia.nlg.templates import render
from tulia.observability import logger as log
from tulia.services import Services
from tulia.store.media import MediaStore
from tulia.store.queues import InboundQueue, OutreachQueue
from tulia.store.voice import VoiceJobs

LISTENING_AFTER_SECONDS = 4  # a transcript slower than this gets the customer a "listening…"
SENDER_FIELDS = ("phone_number_id", "phone_e164", "wa_user_id", "display_name", "username", "message_id", "timestamp")


@dataclass
class VoiceNotes:
    services: Services
    jobs: VoiceJobs
    transcriber: Transcriber
    media: MediaStore
    inbound: InboundQueue
    clock: Callable[[], datetime]
    job_prefix: str  # the stage's (its table prefix): the EventBridge rule matches it
    outreach: OutreachQueue | None = None  # where the "listening…" check waits (None: never told)
    listening_after_seconds: int = LISTENING_AFTER_SECONDS
    sender: WhatsAppSender | None = None
    default_token: str = ""
    # the language the customer last wrote in (tenant, phone, user id), for "listening…"
    language_of: Callable[[str, str | None, str | None], str | None] | None = None

    def start(self, tenant_id: str, message: InboundMessage, *, media_key: str, mime_type: str, audio: bytes) -> str:
        """Transcribe a kept voice note; returns the job's name."""
        name = job_name(self.job_prefix, tenant_id, message.message_id)
        digest = message_digest(message.message_id)
        output_key = media_key.rsplit(".", 1)[0] + ".transcript.json"  # beside the voice note: erased with it
        record = {k: getattr(message, k) for k in SENDER_FIELDS if getattr(message, k) is not None}
        if not self.jobs.start(tenant_id, digest, {**record, "output_key": output_key}, now=self.clock()):
            return name  # a redelivered turn: its job was started
        self.transcriber.start(VoiceJob(name, tenant_id, media_key, output_key, mime_type), audio)
        if self.outreach is not None:
            self.outreach.send(
                {"kind": "voice_listening", "tenant_id": tenant_id, "digest": digest},
                delay_seconds=self.listening_after_seconds,
            )
        log.info(
            "voice note sent to be transcribed", extra={"tenant_id": tenant_id, "transcriber": self.transcriber.name}
        )
        return name

    def listening(self, body: dict[str, Any]) -> str:
        """The outreach worker's check: the transcript has not come, so the customer is told "listening…"."""
        tenant_id, digest = str(body["tenant_id"]), str(body["digest"])
        job = self.jobs.get(tenant_id, digest)
        if job is None or self.sender is None or not self.jobs.acknowledge(tenant_id, digest, now=self.clock()):
            return "already answered"
        tenant = self.services.tenants.get(tenant_id)
        said_in = (
            self.language_of(tenant_id, job.get("phone_e164"), job.get("wa_user_id")) if self.language_of else None
        )
        lang = said_in or tenant.languages.default
        said = text(render("voice_listening", lang, tenant.languages.sheng_reply_language))
        token = tenant.wa.access_token or self.default_token
        to = addressed_to(job.get("phone_e164"), job.get("wa_user_id"))
        self.sender.send(str(job["phone_number_id"]), token, said.to_whatsapp(**to))
        return "told listening"

    def completed(self, event: dict[str, Any]) -> str:
        """Transcribe's job-state event (EventBridge): the transcript becomes the customer's turn."""
        detail = event.get("detail") or {}
        parts = job_parts(self.job_prefix, str(detail.get("TranscriptionJobName") or ""))
        if parts is None:
            log.info("a transcription event of another stage or app", extra={"job": str(detail)[:200]})
            return "not ours"
        tenant_id, digest = parts
        job = self.jobs.get(tenant_id, digest)
        if job is None:
            log.warning("a transcript for a voice note no longer known", extra={"tenant_id": tenant_id})
            return "unknown job"
        words, language = "", None
        if detail.get("TranscriptionJobStatus") == "COMPLETED":
            try:
                words, language = transcript_of(self.media.get(str(job["output_key"])))
            except Exception:  # noqa: BLE001 - a transcript that cannot be read is a voice note not understood
                log.exception("the transcript could not be read", extra={"tenant_id": tenant_id})
        else:
            log.info("a voice note could not be transcribed", extra={"tenant_id": tenant_id, "reason": "job failed"})
        if not self.jobs.finish(tenant_id, digest, now=self.clock()):
            return "already turned"
        heard = InboundMessage(
            phone_number_id=str(job["phone_number_id"]),
            message_id=f"{job['message_id']}.voice",
            timestamp=int(job.get("timestamp") or 0),
            kind="text",
            phone_e164=job.get("phone_e164"),
            wa_user_id=job.get("wa_user_id"),
            display_name=job.get("display_name"),
            username=job.get("username"),
            text=words[:4096],
            spoken=(language or "unknown").split("-")[0],
        )
        self.inbound.send(
            tenant_id=tenant_id,
            customer_key=heard.customer_key,
            dedup=heard.message_id,
            body={"kind": "message", "tenant_id": tenant_id, "message": heard.to_dict()},
        )
        return "turned" if words else "not understood"
