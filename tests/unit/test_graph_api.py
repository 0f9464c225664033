"""The Graph API sender against the simulator over HTTP: retries on throttling, permanent errors."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tulia.channel.graph_api import SendFailed, WhatsAppSender
from tulia.local.simulators.base import Reply
from tulia.local.simulators.graph import GraphSimulator, limits_problem
from tulia.nlg.messages import buttons, text

PNID = "106540352242922"


@pytest.fixture
def graph() -> Iterator[GraphSimulator]:
    with GraphSimulator() as sim:
        yield sim


@pytest.fixture
def sender(graph: GraphSimulator) -> Iterator[WhatsAppSender]:
    with httpx.Client(timeout=5) as http:
        yield WhatsAppSender(http, graph.base_url, max_retries=2, backoff_seconds=0.0)


def test_a_message_is_sent_with_the_bearer_token_and_gets_a_wamid(
    graph: GraphSimulator, sender: WhatsAppSender
) -> None:
    wamid = sender.send(PNID, "tenant-token", text("Habari!").to_whatsapp(to="+254712345678"))
    assert wamid.startswith("wamid.SIM")
    [call] = graph.requests
    assert call.path == f"/{PNID}/messages"
    assert call.headers["authorization"] == "Bearer tenant-token"
    assert graph.messages_to("254712345678")[0].payload["text"]["body"] == "Habari!"


def test_throttling_is_retried_a_bounded_number_of_times(graph: GraphSimulator, sender: WhatsAppSender) -> None:
    graph.fail_next(429, {"error": {"code": 130429, "message": "Rate limit hit"}}, times=2)
    assert sender.send(PNID, "tenant-token", text("ok").to_whatsapp(to="254712345678"))
    assert len(graph.requests) == 3
    graph.fail_next(503, {"error": {"code": 131000, "message": "Something went wrong"}}, times=5)
    with pytest.raises(SendFailed) as failed:
        sender.send(PNID, "tenant-token", text("ok").to_whatsapp(to="254712345678"))
    assert failed.value.retryable
    assert len(graph.requests) == 6  # 1 + 2 retries
    graph.clear_failures()


def test_permanent_errors_are_not_retried(graph: GraphSimulator, sender: WhatsAppSender) -> None:
    graph.undeliverable.add("254700000000")
    with pytest.raises(SendFailed) as failed:
        sender.send(PNID, "tenant-token", text("hi").to_whatsapp(to="254700000000"))
    assert (failed.value.code, failed.value.retryable) == (131026, False)
    assert len(graph.requests) == 1


def test_the_simulator_refuses_what_meta_refuses() -> None:
    too_many = buttons("Pick", [(f"b{i}", f"Option {i}") for i in range(3)]).to_whatsapp(to="1")
    too_many["interactive"]["action"]["buttons"].append({"type": "reply", "reply": {"id": "x", "title": "Four"}})
    assert limits_problem(too_many) is not None
    assert limits_problem(buttons("Pick", [("a", "One"), ("b", "Two")]).to_whatsapp(to="1")) is None
    assert limits_problem({"type": "text", "text": {"body": "x" * 4097}}) is not None


def test_a_2xx_with_an_odd_body_is_a_sent_message_not_a_retry(graph: GraphSimulator, sender: WhatsAppSender) -> None:
    graph.forced.append(Reply(200, "<html>OK</html>", content_type="text/html"))
    assert sender.send(PNID, "tenant-token", text("ok").to_whatsapp(to="254712345678")) == "sent:no-message-id"
    assert len(graph.requests) == 1


def test_a_timeout_after_sending_is_not_resent_by_the_client(graph: GraphSimulator) -> None:
    graph.slow_next(1.0)
    with httpx.Client(timeout=0.3) as http:
        slow_sender = WhatsAppSender(http, graph.base_url, max_retries=2, backoff_seconds=0.0)
        with pytest.raises(SendFailed) as failed:
            slow_sender.send(PNID, "tenant-token", text("once").to_whatsapp(to="254712345678"))
    assert failed.value.retryable  # the queue may retry it: at most one duplicate
    assert len(graph.messages_to("254712345678")) == 1  # Meta got it once; the client did not send it again
