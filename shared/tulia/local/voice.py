"""The local stand-in for Amazon Transcribe (issue 35, part 2): the demo voice notes beside this module are real
OGG/Opus files (spoken by espeak-ng), each with its transcript in a ``.txt`` of the same name and its language in
the name (``sw-KE.nataka-unga-pakiti-mbili.ogg``). A job on one of them writes Transcribe's output JSON where the
job says and sends the completion event the EventBridge rule would; a voice note it does not know (one recorded or
picked on the chat page) is transcribed as nothing heard: the customer is asked to type it, as with a real voice
note Transcribe could not make out. Offline, and as fast as a file read."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from tulia.channel.voice import VoiceJob
from tulia.store.media import MediaStore


@dataclass(frozen=True)
class DemoVoiceNote:
    name: str  # e.g. "nataka-unga-pakiti-mbili"
    language_code: str  # Transcribe's, e.g. "sw-KE"
    transcript: str
    audio: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.audio).hexdigest()


@lru_cache(maxsize=1)
def demo_voice_notes() -> tuple[DemoVoiceNote, ...]:
    folder = resources.files("tulia.local") / "voice"
    notes = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".ogg"):
            continue
        stem = entry.name[: -len(".ogg")]
        language, _, name = stem.partition(".")
        transcript = (folder / f"{stem}.txt").read_text(encoding="utf-8").strip()
        notes.append(DemoVoiceNote(name, language, transcript, entry.read_bytes()))
    return tuple(notes)


@dataclass
class LocalTranscriber:
    media: MediaStore
    complete: Callable[[dict[str, Any]], Any] | None = None  # what the EventBridge rule targets (VoiceNotes)
    name: str = "local"
    jobs: list[str] = field(default_factory=list)

    def start(self, job: VoiceJob, audio: bytes) -> None:
        digest = hashlib.sha256(audio).hexdigest()
        known = next((n for n in demo_voice_notes() if n.sha256 == digest), None)
        output = {
            "jobName": job.name,
            "results": {
                "transcripts": [{"transcript": known.transcript if known else ""}],
                "language_code": known.language_code if known else None,
            },
            "status": "COMPLETED",
        }
        self.media.put_object(job.output_key, json.dumps(output).encode(), "application/json")
        self.jobs.append(job.name)
        if self.complete is not None:
            self.complete(
                {
                    "source": "aws.transcribe",
                    "detail-type": "Transcribe Job State Change",
                    "detail": {"TranscriptionJobName": job.name, "TranscriptionJobStatus": "COMPLETED"},
                }
            )
