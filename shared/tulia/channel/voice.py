"""Voice notes become words (issue 35, part 2): Amazon Transcribe's batch jobs in AWS.

A job is started by the agent on the file it kept in the media bucket, with language identification between
English and Swahili (Transcribe's codes ``en-US`` and ``sw-KE``: there is no Kenyan English code; the test of this
module checks both against the service model botocore ships). Its transcript is written back beside the voice note
(under the shop's prefix: erased with the customer). Transcribe's completion event (EventBridge) names the job;
the job's name carries the shop and a digest of the message id, never the customer's number.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

LANGUAGE_OPTIONS = ("en-US", "sw-KE")  # Transcribe's codes: language identification chooses between them
MEDIA_FORMATS = {  # WhatsApp's audio types -> Transcribe's MediaFormat
    "audio/ogg": "ogg",
    "audio/opus": "ogg",
    "audio/mpeg": "mp3",
    "audio/amr": "amr",
    "audio/mp4": "mp4",
    "audio/aac": "m4a",
    "audio/webm": "webm",
}
_JOB = re.compile(r"^(?P<tenant>[a-z0-9][a-z0-9-]{1,47})\.(?P<digest>[0-9a-f]{40})$")


def message_digest(message_id: str) -> str:
    return hashlib.sha256(message_id.encode()).hexdigest()[:40]


def job_name(prefix: str, tenant_id: str, message_id: str) -> str:
    """The job of one voice note: the stage's prefix (the EventBridge rule's filter), the shop, a digest."""
    return f"{prefix}{tenant_id}.{message_digest(message_id)}"


def job_parts(prefix: str, name: str) -> tuple[str, str] | None:
    """(tenant_id, digest) of one of our jobs; None for a job of another stage or app."""
    if not name.startswith(prefix):
        return None
    m = _JOB.match(name[len(prefix) :])
    return (m.group("tenant"), m.group("digest")) if m else None


@dataclass(frozen=True)
class VoiceJob:
    name: str
    tenant_id: str
    media_key: str  # where the voice note is kept (store/media)
    output_key: str  # where its transcript is written
    mime_type: str


def transcript_of(document: bytes) -> tuple[str, str | None]:
    """The words and the identified language code of Transcribe's output JSON."""
    try:
        data = json.loads(document)
        words = " ".join(str(t.get("transcript") or "") for t in data["results"]["transcripts"]).strip()
    except (ValueError, KeyError, TypeError, AttributeError):
        return "", None
    language = data.get("results", {}).get("language_code") or data.get("language_code")
    return words, (str(language) if language else None)


class Transcriber(Protocol):
    name: str

    def start(self, job: VoiceJob, audio: bytes) -> None: ...


@dataclass
class AwsTranscriber:
    """Amazon Transcribe's batch job on the kept voice note; the transcript goes back to the media bucket. The job
    is started with the shop's own media session (``client_for(tenant_id)``): Transcribe reads and writes with the
    caller's rights, so it reaches that shop's prefix only."""

    client_for: Callable[[str], Any]  # tenant_id -> boto3's transcribe client
    bucket: str
    name: str = "transcribe"

    def start(self, job: VoiceJob, audio: bytes) -> None:
        from botocore.exceptions import ClientError

        try:
            self.client_for(job.tenant_id).start_transcription_job(
                TranscriptionJobName=job.name,
                Media={"MediaFileUri": f"s3://{self.bucket}/{job.media_key}"},
                MediaFormat=MEDIA_FORMATS.get(job.mime_type, "ogg"),
                IdentifyLanguage=True,
                LanguageOptions=list(LANGUAGE_OPTIONS),
                OutputBucketName=self.bucket,
                OutputKey=job.output_key,
            )
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "ConflictException":
                raise  # a redelivered turn finds its job already started: nothing to do
