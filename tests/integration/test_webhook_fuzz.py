"""Generated webhook payloads (Hypothesis): signed or not, well-formed or not, the webhook answers a
clear 4xx or acknowledges and records what it cannot use; never a 500, never a crash, and nothing is
queued or written for a payload it refuses."""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.test_webhook import SECRET, Pipe, meta_payload, signed, text_message, value
from tulia.channel.whatsapp import sign

CASES = 150  # per property; the figures are in BENCHMARKS.md

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=True), st.text(max_size=40)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)),
    max_leaves=20,
)
odd_ids = st.one_of(st.text(max_size=30), st.just("wamid.#x"), st.just(""), st.integers(), st.none())


@st.composite
def near_meta_payloads(draw: st.DrawFn) -> bytes:
    """Meta's shape with one part replaced by something odd: the payloads an attacker with the app
    secret, or a buggy proxy, could send."""
    message = dict(text_message("hello", mid=draw(st.text(min_size=1, max_size=20))))
    part = draw(st.sampled_from(["message", "type", "text", "from", "id", "order", "interactive", "value", "entry"]))
    odd = draw(json_values)
    payload: dict[str, Any] = json.loads(meta_payload(value(message)))
    change = payload["entry"][0]["changes"][0]
    if part == "message":
        change["value"]["messages"] = [odd]
    elif part == "type":
        message["type"] = draw(st.sampled_from(["text", "interactive", "order", "button", "image", "x"]))
        change["value"]["messages"] = [message]
    elif part in ("text", "interactive", "order"):
        message["type"] = part
        message[part] = odd  # e.g. an order whose product_items is a string
        change["value"]["messages"] = [message]
    elif part in ("from", "id"):
        message[part] = draw(odd_ids)
        change["value"]["messages"] = [message]
    elif part == "value":
        change["value"] = odd
    else:
        payload["entry"] = odd
    return json.dumps(payload, allow_nan=True).encode()


def _answer(pipe: Pipe, body: bytes, headers: dict[str, str]) -> dict[str, Any]:
    response = pipe.post(body, headers=headers, base64_body=True)  # as API Gateway passes any body
    assert response["statusCode"] < 500, response
    return response


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v, allow_nan=True).encode()))
def test_any_unsigned_or_wrongly_signed_body_is_a_401_and_queues_nothing(pipe: Pipe, body: bytes) -> None:
    assert _answer(pipe, body, {})["statusCode"] == 401
    assert _answer(pipe, body, {"x-hub-signature-256": sign(body, "not-" + SECRET)})["statusCode"] == 401
    assert pipe.queued() == []


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=near_meta_payloads())
def test_signed_payloads_of_any_shape_are_answered_without_a_server_error(pipe: Pipe, body: bytes) -> None:
    response = _answer(pipe, body, signed(body))
    assert response["statusCode"] == 200  # signed by Meta: acknowledged, so Meta stops retrying
    for queued in pipe.queued():  # whatever was queued is a message the agent can read
        assert queued["body"]["kind"] == "message"
        assert isinstance(queued["body"]["message"]["message_id"], str)


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v, allow_nan=True).encode()))
def test_signed_bodies_that_are_not_a_webhook_are_acknowledged_and_kept_for_inspection(pipe: Pipe, body: bytes) -> None:
    response = _answer(pipe, body, signed(body))
    assert response["statusCode"] == 200
    if json.loads(response["body"]).get("ignored") == "malformed":
        [newest] = pipe.service.messages.malformed_webhooks(limit=1)
        assert base64.b64decode(newest["body"]) == body  # kept as it came, for a person to inspect
    assert all(q["body"]["kind"] == "message" for q in pipe.queued())
