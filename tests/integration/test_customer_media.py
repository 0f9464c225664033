"""A customer's file fetched from the Graph API (issue 35, part 1), against the Graph simulator over HTTP: a photo
and a voice note are fetched with the shop's token and checked; a file of another type, one larger than WhatsApp's
limit for it (refused before its download when Meta says so, during it when Meta's size was wrong), one whose bytes
are not what Meta described, or one Meta will not give, is refused with its reason. The webhook keeps the media id
and what Meta says of the file, and never the file."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

import httpx
import pytest

from tests.integration.test_webhook import value
from tulia.channel.media import MediaClient, MediaRefused
from tulia.channel.whatsapp import parse
from tulia.local.simulators.graph import GraphSimulator

TOKEN = "shop-token-123456"
JPEG = b"\xff\xd8\xff\xe0" + b"photo-bytes" * 100
OGG = b"OggS" + b"voice-note" * 200


@pytest.fixture
def media(graph: GraphSimulator) -> Iterator[MediaClient]:
    graph.downloads.clear()
    with httpx.Client(timeout=5) as http:
        yield MediaClient(http, graph.base_url)


def test_a_photo_and_a_voice_note_are_fetched_with_the_shops_token(media: MediaClient, graph: GraphSimulator) -> None:
    photo = media.fetch(graph.add_media(JPEG, "image/jpeg"), TOKEN, "image")
    assert (photo.data, photo.mime_type, photo.extension) == (JPEG, "image/jpeg", "jpg")
    assert photo.sha256 == hashlib.sha256(JPEG).hexdigest()
    voice = media.fetch(graph.add_media(OGG, "audio/ogg; codecs=opus"), TOKEN, "audio")
    assert (voice.data, voice.mime_type, voice.extension) == (OGG, "audio/ogg", "ogg")


def test_a_file_of_another_type_or_over_the_limit_is_refused_before_its_download(
    media: MediaClient, graph: GraphSimulator
) -> None:
    pdf = graph.add_media(b"%PDF-1.7 ...", "application/pdf")
    with pytest.raises(MediaRefused) as refused:
        media.fetch(pdf, TOKEN, "image")
    assert refused.value.reason == "type"
    video_as_voice = graph.add_media(b"\x00\x00\x00\x18ftypmp42", "video/mp4")
    with pytest.raises(MediaRefused) as refused:
        media.fetch(video_as_voice, TOKEN, "audio")
    assert refused.value.reason == "type"
    big = graph.add_media(JPEG, "image/jpeg")
    graph.media_sizes[big] = 5 * 1024 * 1024 + 1  # Meta says 5 MB and a byte
    with pytest.raises(MediaRefused) as refused:
        media.fetch(big, TOKEN, "image")
    assert refused.value.reason == "size"
    assert graph.downloads == []  # none of these was downloaded


def test_a_file_larger_than_meta_said_is_cut_off_and_refused(media: MediaClient, graph: GraphSimulator) -> None:
    large = b"\xff\xd8" + b"x" * (5 * 1024 * 1024)
    lied = graph.add_media(large, "image/jpeg")
    graph.media_sizes[lied] = 1000
    with pytest.raises(MediaRefused) as refused:
        media.fetch(lied, TOKEN, "image")
    assert refused.value.reason == "size"


def test_bytes_that_are_not_the_file_described_or_a_file_meta_will_not_give_are_refused(
    media: MediaClient, graph: GraphSimulator
) -> None:
    damaged = graph.add_media(JPEG, "image/jpeg")
    graph.media_digests[damaged] = hashlib.sha256(b"the photo the customer took").hexdigest()
    with pytest.raises(MediaRefused) as refused:
        media.fetch(damaged, TOKEN, "image")
    assert refused.value.reason == "damaged"
    with pytest.raises(MediaRefused) as refused:
        media.fetch("1234", TOKEN, "image")  # no such media
    assert refused.value.reason == "unavailable"
    with pytest.raises(MediaRefused) as refused:
        media.fetch(graph.add_media(JPEG, "image/jpeg"), "", "image")  # no token
    assert refused.value.reason == "unavailable"


def test_the_webhook_keeps_the_media_id_and_what_meta_says_never_the_file() -> None:
    voice = {
        "id": "wamid.v1",
        "timestamp": "1",
        "from": "254712345678",
        "type": "audio",
        "audio": {"id": "9000000001", "mime_type": "audio/ogg; codecs=opus", "sha256": "ab" * 32, "voice": True},
    }
    photo = {
        "id": "wamid.p1",
        "timestamp": "1",
        "from": "254712345678",
        "type": "image",
        "image": {"id": "9000000002", "mime_type": "image/jpeg", "caption": "mko na hii?"},
    }
    broken = {"id": "wamid.b1", "timestamp": "1", "from": "254712345678", "type": "image", "image": {"caption": "x"}}
    payload = {"object": "whatsapp_business_account", "entry": [{"id": "x", "changes": [
        {"field": "messages", "value": value(voice)}, {"field": "messages", "value": value(photo)},
        {"field": "messages", "value": value(broken)}]}]}  # fmt: skip
    messages = parse(json.loads(json.dumps(payload))).messages
    assert [(m.kind, m.text, m.media) for m in messages] == [
        ("audio", "", {"id": "9000000001", "mime_type": "audio/ogg; codecs=opus", "sha256": "ab" * 32, "voice": True}),
        ("image", "mko na hii?", {"id": "9000000002", "mime_type": "image/jpeg"}),
        ("image", "x", None),
    ]
