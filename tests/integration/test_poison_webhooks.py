"""Issue 31, part 4: no signed webhook body can block a customer or answer 5xx. Each finding of the
attack on `tulia dev` is a test here (each failed on the code before): an escaped lone surrogate (503
on every retry: the queue could not encode it), a 3,000-character message or status id (500: DynamoDB's
key size), JSON nested 5,000 deep (500: RecursionError), and a Latin-1 body (the local front door
dropped the connection). Plus generated bodies of all of these (Hypothesis)."""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.test_webhook import Pipe, meta_payload, signed, text_message, value
from tulia.local.http import event_of


def malformed_kept(pipe: Pipe) -> list[dict[str, Any]]:
    return pipe.service.messages.malformed_webhooks(limit=10)


def test_an_escaped_lone_surrogate_is_queued_as_a_replacement_character(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("PLACEHOLDER", mid="wamid.sur1"))).replace(b"PLACEHOLDER", b"\\ud800 hi")
    response = pipe.post(body)
    assert response["statusCode"] == 200
    [queued] = pipe.queued()
    assert queued["body"]["message"]["text"] == "\ufffd hi"  # the customer's words, their group not blocked
    later = meta_payload(value(text_message("are you there?", mid="wamid.sur2")))
    assert pipe.post(later)["statusCode"] == 200
    assert [q["body"]["message"]["text"] for q in pipe.queued()] == ["are you there?"]


def test_a_valid_surrogate_pair_stays_an_emoji(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("PLACEHOLDER", mid="wamid.emoji"))).replace(
        b"PLACEHOLDER", b"\\ud83d\\ude00"
    )
    assert pipe.post(body)["statusCode"] == 200
    assert pipe.queued()[0]["body"]["message"]["text"] == "\U0001f600"


def test_a_message_id_longer_than_whatsapps_is_kept_as_malformed_and_not_queued(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("hello", mid="wamid." + "x" * 3000)))
    response = pipe.post(body)
    assert response["statusCode"] == 200
    assert pipe.queued() == []
    assert "message id longer than WhatsApp's" in malformed_kept(pipe)[0]["why"]


def test_a_status_id_longer_than_whatsapps_is_dropped_without_a_server_error(pipe: Pipe) -> None:
    status = {"id": "wamid." + "y" * 3000, "status": "read", "timestamp": "1795428200", "recipient_id": "254712345678"}
    assert pipe.post(meta_payload(value(statuses=[status])))["statusCode"] == 200


def test_json_nested_thousands_deep_is_refused_before_parsing_and_kept(pipe: Pipe) -> None:
    body = b'{"object": "whatsapp_business_account", "entry": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    response = pipe.post(body)
    assert response["statusCode"] == 200
    assert json.loads(response["body"]) == {"ignored": "malformed"}
    assert "nested more than 64 deep" in malformed_kept(pipe)[0]["why"]
    assert pipe.queued() == []


def test_a_latin_1_body_is_read_leniently(pipe: Pipe) -> None:
    body = meta_payload(value(text_message("PLACEHOLDER", mid="wamid.latin"))).replace(
        b"PLACEHOLDER", "café".encode("latin-1")
    )
    assert pipe.post(body, base64_body=True)["statusCode"] == 200
    assert pipe.queued()[0]["body"]["message"]["text"] == "caf\ufffd"


def test_the_local_front_door_passes_a_body_that_is_not_utf_8_as_bytes() -> None:
    raw = '{"t": "café"}'.encode("latin-1")
    event = event_of("POST", "/webhook", {"content-type": "application/json"}, raw, "127.0.0.1")
    assert event["isBase64Encoded"] is True
    assert base64.b64decode(event["body"]) == raw  # the signature is over these bytes


# generated bodies: surrogates, long ids, deep nesting, odd encodings -----------------------------------
surrogate_text = st.text(
    alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.characters(max_codepoint=0x7F),
    max_size=20,
)
poison_ids = st.one_of(st.text(min_size=257, max_size=4000), surrogate_text, st.just("wamid.ok"))


@st.composite
def poison_bodies(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["text", "id", "nesting", "encoding"]))
    message = text_message("hello", mid=draw(poison_ids) if kind == "id" else "wamid.gen")
    if kind == "text":
        message["text"] = {"body": draw(surrogate_text)}
    body = json.dumps(json.loads(meta_payload(value(message)))).encode()  # non-ASCII escaped, as Meta sends
    if kind == "nesting":
        depth = draw(st.integers(min_value=1, max_value=3000))
        body = body[:-1] + b', "x": ' + b"[" * depth + b"]" * depth + b"}"
    if kind == "encoding":
        codec = draw(st.sampled_from(["latin-1", "utf-16", "cp1252"]))
        body = (
            json.dumps(json.loads(body), ensure_ascii=False)
            .replace("hello", "habari yako, café")
            .encode(codec, errors="replace")
        )
    return body


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=poison_bodies())
def test_no_signed_poison_body_is_answered_with_a_server_error(pipe: Pipe, body: bytes) -> None:
    response = pipe.post(body, headers=signed(body), base64_body=True)
    assert response["statusCode"] == 200  # acknowledged: Meta never retries it for days
    for queued in pipe.queued():  # what was queued can be encoded and read back
        text = queued["body"]["message"].get("text") or ""
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in text)
        assert len(queued["body"]["message"]["message_id"]) <= 256


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=poison_bodies(), route=st.sampled_from(["stk", "c2b", "ipn"]))
def test_no_poison_provider_callback_is_a_server_error(
    seeded: Any, setup: dict[str, Any], body: bytes, route: str
) -> None:
    """The payments function's routes take the same poison: deep nesting, surrogates, odd encodings."""
    from tests.integration.test_webhook import api_event
    from tulia.pipeline import payments_app

    paths = {
        "stk": "/payments/daraja/stk/" + "a" * 32,
        "c2b": f"/payments/daraja/c2b/{seeded.tenants.c2b_token('demo-shop')}/confirmation",
        "ipn": "/payments/pesapal/ipn/demo-shop",
    }
    event = api_event("POST", path=paths[route], body=body, base64_body=True)
    response = payments_app.handle(event, setup["callbacks"])
    assert response["statusCode"] < 500, response
