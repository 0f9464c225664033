"""Voice notes (issue 35, part 2), through the signed webhook and the agent, the Graph simulator serving the real
OGG/Opus demo files, moto's S3 keeping them, and the transcriber stand-in completing through the handler
Transcribe's EventBridge rule targets:

- a Swahili voice note ("nataka unga pakiti mbili") builds the same sale as the same words typed;
- nothing is answered for the voice note itself; "listening…" only when the transcript is slower than the check,
  never after the answer;
- a voice note nothing usable is heard in asks the customer to type it, in the language heard;
- the job's events of another stage are ignored, a repeated event makes one turn, erasure removes the voice note
  and its transcript; the language codes are Transcribe's own.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import botocore.session
import httpx
import pytest

from tests.chat import Chat
from tests.conftest import BOTO, GROCER, Clock
from tests.integration.test_agent import Pipeline
from tests.integration.test_webhook import SECRET, TOKEN, text_message, value
from tulia.admin.customer_data import erase_customer
from tulia.channel.graph_api import WhatsAppSender
from tulia.channel.media import MediaClient
from tulia.channel.voice import LANGUAGE_OPTIONS, MEDIA_FORMATS, VoiceJob
from tulia.channel.whatsapp import conversation_id_for
from tulia.local.simulators.graph import GraphSimulator
from tulia.local.voice import LocalTranscriber, demo_voice_notes
from tulia.pipeline import agent_app
from tulia.pipeline.agent import AgentService
from tulia.pipeline.media import MediaIntake
from tulia.pipeline.outreach import OutreachService
from tulia.pipeline.voice import VoiceNotes
from tulia.pipeline.webhook import WebhookService
from tulia.services import Services
from tulia.store.broadcasts import BroadcastRepo
from tulia.store.media import MediaStore, create_media_bucket
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, OUTREACH, InboundQueue, OutreachQueue, create_queues
from tulia.store.voice import VoiceJobs

GROCER_NUMBER = "307654321098765"
VOICE, TYPED = "254711000441", "254711000442"
BUCKET = "test-voice-media"


def note(name: str) -> bytes:
    return next(n.audio for n in demo_voice_notes() if n.name == name)


@dataclass
class HeldTranscriber:
    """Transcribe taking its time: jobs wait until the test completes them (as the EventBridge rule would)."""

    media: MediaStore
    name: str = "held"
    jobs: list[VoiceJob] = field(default_factory=list)

    def start(self, job: VoiceJob, audio: bytes) -> None:
        self.jobs.append(job)

    def finish(self, voice: VoiceNotes, words: str, language: str | None, status: str = "COMPLETED") -> str:
        job = self.jobs.pop(0)
        out = {"results": {"transcripts": [{"transcript": words}], "language_code": language}}
        self.media.put_object(job.output_key, json.dumps(out).encode(), "application/json")
        return voice.completed(event(job.name, status))


def event(job: str, status: str = "COMPLETED") -> dict[str, Any]:
    """Transcribe's job-state change as EventBridge delivers it to a Lambda target."""
    return {
        "version": "0",
        "id": f"evt-{job[-8:]}",
        "detail-type": "Transcribe Job State Change",
        "source": "aws.transcribe",
        "account": "123456789012",
        "region": "eu-west-1",
        "resources": [],
        "detail": {"TranscriptionJobName": job, "TranscriptionJobStatus": status},
    }


@dataclass
class VoicePipe:
    pipe: Pipeline
    voice: VoiceNotes
    media: MediaStore
    outreach_url: str


@pytest.fixture
def media(seeded: Services) -> Iterator[MediaStore]:
    s3 = BOTO.client("s3")
    create_media_bucket(s3, BUCKET, "eu-west-1")
    store = MediaStore(BUCKET, lambda: s3)
    seeded.media_files = store
    yield store
    seeded.media_files = None


def build(
    seeded: Services, clock: Clock, graph: GraphSimulator, chat: Chat, media: MediaStore, transcriber: Any
) -> Any:
    graph.sent.clear()
    sqs = BOTO.client("sqs")
    urls = create_queues(sqs, "test-")
    url = urls[INBOUND.logical_name]
    hook = WebhookService(
        app_secret=SECRET,
        verify_token=TOKEN,
        tenant_for_phone_number_id=seeded.tenants.tenant_for_phone_number_id,
        messages=MessageRepo(seeded.db),
        queue=InboundQueue(sqs, url),
        clock=clock,
    )
    http = httpx.Client(timeout=30)
    sender = WhatsAppSender(http, graph.base_url, backoff_seconds=0.0)
    voice = VoiceNotes(
        services=seeded,
        jobs=VoiceJobs(seeded.db),
        transcriber=transcriber,
        media=media,
        inbound=InboundQueue(sqs, url),
        clock=clock,
        job_prefix="test-",
        outreach=OutreachQueue(sqs, urls[OUTREACH.logical_name]),
        listening_after_seconds=0,  # the check is visible at once: the test runs it when it means to
        sender=sender,
        default_token="test-graph-token",
        language_of=chat.conversations.language_of,
    )
    agent = AgentService(
        services=seeded,
        conversations=chat.conversations,
        messages=MessageRepo(seeded.db),
        sender=sender,
        default_token="test-graph-token",
        clock=clock,
        media=MediaIntake(MediaClient(http, graph.base_url), media, None, voice),
    )
    return VoicePipe(Pipeline(hook, agent, sqs, url, graph), voice, media, urls[OUTREACH.logical_name]), http


@pytest.fixture
def local(seeded: Services, clock: Clock, graph: GraphSimulator, chat: Chat, media: MediaStore) -> Iterator[VoicePipe]:
    """The local stack's stand-in: the demo voice notes' words, completed at once."""
    transcriber = LocalTranscriber(media)
    built, http = build(seeded, clock, graph, chat, media, transcriber)
    transcriber.complete = built.voice.completed
    with http:
        yield built


@pytest.fixture
def held(
    seeded: Services, clock: Clock, graph: GraphSimulator, chat: Chat, media: MediaStore
) -> Iterator[tuple[VoicePipe, HeldTranscriber]]:
    transcriber = HeldTranscriber(media)
    built, http = build(seeded, clock, graph, chat, media, transcriber)
    with http:
        yield built, transcriber


def voice_note(graph: GraphSimulator, audio: bytes, mid: str, sender: str) -> dict[str, Any]:
    media_id = graph.add_media(audio, "audio/ogg; codecs=opus")
    node = {"id": media_id, "mime_type": "audio/ogg; codecs=opus", "voice": True}
    return {"id": mid, "timestamp": str(int(time.time())), "type": "audio", "audio": node, "from": sender}


def deliver(vp: VoicePipe, message: dict[str, Any]) -> None:
    vp.pipe.customer_sends(value(message, number=GROCER_NUMBER, wa_id=message["from"]))


def drain(vp: VoicePipe) -> None:
    """The agent takes what is queued until nothing is (a transcript queues the customer's next turn)."""
    while (event_ := vp.pipe.lambda_event())["Records"]:
        assert vp.pipe.run_agent(event_) == {"batchItemFailures": []}


def said_to(vp: VoicePipe, phone: str) -> list[str]:
    return vp.pipe.replies_to(phone)


def outreach_work(vp: VoicePipe) -> list[dict[str, Any]]:
    got = vp.pipe.sqs.receive_message(QueueUrl=vp.outreach_url, MaxNumberOfMessages=10, WaitTimeSeconds=0)
    return [json.loads(m["Body"]) for m in got.get("Messages", [])]


def outreach(vp: VoicePipe, seeded: Services, clock: Clock) -> OutreachService:
    return OutreachService(
        services=seeded,
        broadcasts=BroadcastRepo(seeded.db),
        outbound=vp.pipe.agent.outbound,
        sender=vp.pipe.agent.sender,
        default_token="test-graph-token",
        queue=OutreachQueue(vp.pipe.sqs, vp.outreach_url),
        clock=clock,
        voice=vp.voice,
    )


def test_a_swahili_voice_note_builds_the_same_sale_as_the_words_typed(
    local: VoicePipe, graph: GraphSimulator, seeded: Services, chat: Chat
) -> None:
    deliver(local, voice_note(graph, note("nataka-unga-pakiti-mbili"), "wamid.v1", VOICE))
    drain(local)
    deliver(local, text_message("nataka unga pakiti mbili", mid="wamid.t1", sender=TYPED))
    drain(local)
    spoken, typed = said_to(local, VOICE), said_to(local, TYPED)
    assert spoken == typed == ["Hivi ndivyo nimepata:"]  # in Swahili, as typed
    lists = [graph.messages_to(p)[-1].payload["interactive"]["action"]["sections"] for p in (VOICE, TYPED)]
    assert lists[0] == lists[1]
    rows = [r["title"] for section in lists[0] for r in section["rows"]]
    assert "Jogoo Maize Flour 2kg" in rows  # the shop's flours, to choose from
    frames = [
        chat.conversations.graph.get_state(
            {"configurable": {"thread_id": conversation_id_for(GROCER, f"+{p}")}}
        ).values["frame"]
        for p in (VOICE, TYPED)
    ]
    assert frames[0] is not None
    assert frames[0].model_dump(mode="json") == frames[1].model_dump(mode="json")  # the same sale under way
    customer_id = seeded.customers.find_id_by_phone(GROCER, f"+{VOICE}")
    assert customer_id is not None
    read = [e["text"] for e in seeded.threads.everything(GROCER, customer_id)["entries"] if e["role"] == "customer"]
    assert read == ["🎤 nataka unga pakiti mbili"]  # as the shop's people read the conversation: what was said


def test_nothing_is_said_for_the_voice_note_and_listening_only_when_the_transcript_is_slow(
    held: tuple[VoicePipe, HeldTranscriber], graph: GraphSimulator, seeded: Services, clock: Clock
) -> None:
    vp, transcriber = held
    deliver(vp, voice_note(graph, note("nataka-unga-pakiti-mbili"), "wamid.h1", VOICE))
    drain(vp)
    assert said_to(vp, VOICE) == []  # the voice note itself is not answered
    [check] = outreach_work(vp)
    assert check["kind"] == "voice_listening"
    worker = outreach(vp, seeded, clock)
    assert worker.run(check) == "told listening"  # the transcript has not come: the customer is told
    assert said_to(vp, VOICE) == ["🎧 Ninasikiliza ujumbe wako wa sauti…"]  # the grocer's Swahili
    assert worker.run(check) == "already answered"  # told once
    assert transcriber.finish(vp.voice, "nataka unga pakiti mbili", "sw-KE") == "turned"
    drain(vp)
    answer = said_to(vp, VOICE)[1:]
    assert answer
    assert "Ninasikiliza" not in " ".join(answer)
    # a second voice note whose transcript comes before the check: no "listening…" at all
    deliver(vp, voice_note(graph, note("mnafunga-saa-ngapi"), "wamid.h2", VOICE))
    drain(vp)
    assert transcriber.finish(vp.voice, "mnafunga saa ngapi leo", "sw-KE") == "turned"
    drain(vp)
    before = len(said_to(vp, VOICE))
    late = [w for w in outreach_work(vp) if w["kind"] == "voice_listening"]
    assert [worker.run(w) for w in late][-1] == "already answered"
    assert len(said_to(vp, VOICE)) == before


def test_a_voice_note_nothing_usable_is_heard_in_asks_for_it_typed_in_the_language_heard(
    held: tuple[VoicePipe, HeldTranscriber], graph: GraphSimulator
) -> None:
    vp, transcriber = held  # the grocer answers in Swahili unless the customer speaks English
    deliver(vp, voice_note(graph, note("mumbled"), "wamid.u1", VOICE))
    drain(vp)
    assert transcriber.finish(vp.voice, "", "en-US") == "not understood"  # English heard, no words made out
    drain(vp)
    assert said_to(vp, VOICE) == ["Sorry, I couldn't make out your voice note. Could you type it for me?"]
    deliver(vp, voice_note(graph, note("mumbled"), "wamid.u2", TYPED))
    drain(vp)
    assert transcriber.finish(vp.voice, "", "sw-KE") == "not understood"
    drain(vp)
    swahili = ["Samahani, sikuweza kusikia vizuri ujumbe wako wa sauti. Unaweza kuniandikia?"]
    assert said_to(vp, TYPED) == swahili
    deliver(vp, voice_note(graph, note("mumbled"), "wamid.u3", "254711000443"))
    drain(vp)
    assert transcriber.finish(vp.voice, "", None, status="FAILED") == "not understood"  # the job failed
    drain(vp)
    assert said_to(vp, "254711000443") == swahili  # nothing heard at all: the shop's language


def test_a_voice_note_the_stand_in_does_not_know_is_heard_as_nothing(local: VoicePipe, graph: GraphSimulator) -> None:
    deliver(local, voice_note(graph, b"OggS" + b"\x00" * 400, "wamid.x1", VOICE))  # recorded on the page, say
    drain(local)
    assert said_to(local, VOICE) == ["Samahani, sikuweza kusikia vizuri ujumbe wako wa sauti. Unaweza kuniandikia?"]


def test_events_of_another_stage_are_ignored_and_a_repeated_event_makes_one_turn(
    held: tuple[VoicePipe, HeldTranscriber], graph: GraphSimulator
) -> None:
    vp, transcriber = held
    assert agent_app.handle(event("tulia-prod-demo-grocer." + "0" * 40), vp.pipe.agent) == {"outcome": "not ours"}
    deliver(vp, voice_note(graph, note("where-is-my-order"), "wamid.r1", VOICE))
    drain(vp)
    job = transcriber.jobs[0].name
    transcriber.finish(vp.voice, "where is my order", "en-US")
    assert agent_app.handle(event(job), vp.pipe.agent) == {"outcome": "already turned"}  # EventBridge retried it
    drain(vp)
    assert len(said_to(vp, VOICE)) == 1  # one answer to the one voice note


def test_the_voice_note_and_its_transcript_are_kept_under_the_shop_and_erased_with_the_customer(
    local: VoicePipe, graph: GraphSimulator, seeded: Services, media: MediaStore
) -> None:
    deliver(local, voice_note(graph, note("nataka-unga-pakiti-mbili"), "wamid.e1", VOICE))
    drain(local)
    conversation = conversation_id_for(GROCER, "+" + VOICE)
    kept = sorted(f["key"] for f in media.list_for(GROCER, conversation))
    assert kept == [
        f"{GROCER}/{conversation}/wamid.e1.ogg",
        f"{GROCER}/{conversation}/wamid.e1.transcript.json",
    ]
    customer_id = seeded.customers.find_id_by_phone(GROCER, "+" + VOICE)
    assert customer_id is not None
    summary = erase_customer(seeded, seeded.customers.get(GROCER, customer_id), None)
    assert summary["media_files_deleted"] == 2
    assert media.list_for(GROCER, conversation) == []


def test_the_language_codes_and_formats_are_transcribes_own() -> None:
    model = botocore.session.get_session().get_service_model("transcribe")
    assert set(LANGUAGE_OPTIONS) <= set(model.shape_for("LanguageCode").enum)
    assert set(MEDIA_FORMATS.values()) <= set(model.shape_for("MediaFormat").enum)
    assert {"en", "sw"} == {code.split("-")[0] for code in LANGUAGE_OPTIONS}
