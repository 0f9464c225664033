"""A customer's quick messages are one turn, with SQS FIFO as the event source (which has no batching
window): the agent's Lambda handler hands a young turn back to the queue until the customer's quiet
time is over. moto's SQS FIFO (visibility timeouts honoured), the local poller feeding the handler as
Lambda's event source mapping would, the Graph API simulator. The customer's pauses are not slept: the
agent's wall clock is moved on (SQS's timestamps are real, the agent reads their age on its clock)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.chat import conversations_for
from tests.conftest import BOTO, SHOP
from tests.e2e.stack import wait_for
from tests.integration.test_agent import Pipeline
from tests.integration.test_webhook import SECRET, TOKEN, text_message, value
from tulia.channel.graph_api import WhatsAppSender
from tulia.local.poller import QueuePoller
from tulia.local.simulators.graph import GraphSimulator
from tulia.nlu.rules import RulesEngine
from tulia.pipeline import agent_app
from tulia.pipeline.agent import RETRY_BASE_SECONDS, AgentService
from tulia.pipeline.webhook import WebhookService
from tulia.services import Services
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, InboundQueue, create_queues, requeue_to

PHONE = "254733000777"


class Wall:
    """The agent's wall clock: real time plus the pauses the test says the customer took."""

    def __init__(self) -> None:
        self.paused = 0.0

    def __call__(self) -> float:
        return time.time() + self.paused

    def wait(self, seconds: float) -> None:
        self.paused += seconds


@pytest.fixture
def wall() -> Wall:
    return Wall()


@pytest.fixture
def handed_back() -> list[tuple[str, int]]:
    return []


@pytest.fixture
def live(seeded: Services, graph: GraphSimulator, wall: Wall, handed_back: list[tuple[str, int]]) -> Iterator[Pipeline]:
    """The pipeline with the agent polled continuously, on the wall clock (SQS's own)."""
    graph.sent.clear()
    sqs = BOTO.client("sqs")
    url = create_queues(sqs, "test-")[INBOUND.logical_name]
    hook = WebhookService(
        app_secret=SECRET,
        verify_token=TOKEN,
        tenant_for_phone_number_id=seeded.tenants.tenant_for_phone_number_id,
        messages=MessageRepo(seeded.db),
        queue=InboundQueue(sqs, url),
        clock=seeded.clock,
    )
    requeue = requeue_to(sqs, url)

    def recorded_requeue(record: Any, seconds: int) -> None:  # when the agent asks a record back
        handed_back.append((record.record_id, seconds))
        requeue(record, seconds)

    with httpx.Client(timeout=5) as http:
        agent = AgentService(
            services=seeded,
            conversations=conversations_for(seeded, RulesEngine()),
            messages=MessageRepo(seeded.db),
            sender=WhatsAppSender(http, graph.base_url, backoff_seconds=0.0),
            default_token="test-graph-token",
            clock=seeded.clock,
            merge_quiet_seconds=2.0,  # the defaults of TULIA_AGENT_BATCH_WINDOW_SECONDS and ..._MAX_WAIT_SECONDS
            merge_max_wait_seconds=3.0,
            requeue=recorded_requeue,
            wall=wall,
        )
        poller = QueuePoller(
            sqs, url, lambda event: agent_app.handle(event, agent), window_seconds=0.2, retry_seconds=None
        ).start()
        try:
            yield Pipeline(hook, agent, sqs, url, graph)
        finally:
            poller.stop()


def turns_answered(seeded: Services, mids: list[str]) -> list[list[str]]:
    """Which messages each turn answered (from the outboxes the agent wrote)."""
    messages = MessageRepo(seeded.db)
    turns = []
    for mid in mids:
        outbox = messages.get_outbox(SHOP, mid)
        if outbox is not None and "covers" in outbox:
            turns.append(list(outbox["covers"]))
    return turns


def test_three_messages_a_second_apart_are_one_turn(live: Pipeline, seeded: Services, wall: Wall) -> None:
    mids = ["wamid.qm1", "wamid.qm2", "wamid.qm3"]
    for n, (mid, words) in enumerate(zip(mids, ["Habari", "nataka simu", "ya Samsung"], strict=True)):
        if n:
            wall.wait(1.0)  # the customer types the next message a second later
        live.customer_sends(value(text_message(words, mid=mid, sender=PHONE), wa_id=PHONE))
    wall.wait(2.0)  # then stops: the quiet time runs out
    wait_for(lambda: turns_answered(seeded, mids), timeout=30)
    assert turns_answered(seeded, mids) == [mids]  # one turn, answering all three
    # the outbox is written before its replies are sent: wait on the simulator's log for the send (a fresh
    # clone on a busy machine read it in between)
    wait_for(lambda: live.graph.messages_to(PHONE), timeout=30)
    [answer] = [m.payload for m in live.graph.messages_to(PHONE)]
    assert "Samsung Galaxy A15" in str(answer)  # the three messages read together: a Samsung phone


def test_three_messages_ten_seconds_apart_are_three_turns(live: Pipeline, seeded: Services, wall: Wall) -> None:
    mids = ["wamid.slow1", "wamid.slow2", "wamid.slow3"]
    for n, (mid, words) in enumerate(zip(mids, ["Habari", "nataka simu", "ya Samsung"], strict=True)):
        live.customer_sends(value(text_message(words, mid=mid, sender=PHONE), wa_id=PHONE))
        wall.wait(10.0)  # the customer writes again ten seconds later
        wait_for(lambda n=n: len(turns_answered(seeded, mids)) == n + 1, timeout=30)
    assert turns_answered(seeded, mids) == [[mid] for mid in mids]


def test_a_turn_that_failed_comes_back_after_seconds_and_is_answered_once(
    live: Pipeline, seeded: Services, wall: Wall, handed_back: list[tuple[str, int]]
) -> None:
    live.graph.fail_next(503, times=4)  # WhatsApp is down for the first delivery (the sender retries 3 times)
    wall.wait(3.0)  # no quick messages follow (it is past its quiet time when read): only the failure holds it
    live.customer_sends(value(text_message("Habari", mid="wamid.retry1", sender=PHONE), wa_id=PHONE))
    messages = MessageRepo(seeded.db)

    def all_sent() -> bool:
        outbox = messages.get_outbox(SHOP, "wamid.retry1")
        return outbox is not None and all(outbox["sent"])

    wait_for(all_sent, timeout=30)  # the turn's replies all sent and recorded
    # handed back for the first retry's backoff (5 s), not left to the queue's 6-minute visibility timeout
    assert [seconds for _record, seconds in handed_back] == [RETRY_BASE_SECONDS]
    outbox = messages.get_outbox(SHOP, "wamid.retry1")
    assert outbox is not None
    assert all(str(s).startswith("wamid.") for s in outbox["sent"])  # every reply sent, once
    assert len(live.graph.messages_to(PHONE)) == len(outbox["replies"])
