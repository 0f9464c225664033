"""Fair use (spec 8.4): messages per customer and per shop each minute, and the shop's model budget
per day. Signed webhooks -> moto SQS FIFO -> the agent's Lambda handler -> the Graph API simulator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.chat import conversations_for
from tests.conftest import BOTO, SALON, SHOP, Clock, scripted_llm_engine
from tests.integration.test_agent import Pipeline
from tests.integration.test_webhook import SALON_NUMBER, SECRET, TOKEN, text_message, value
from tests.model_answers import reading
from tulia.channel.graph_api import WhatsAppSender
from tulia.llm.scripted import ScriptedChatModel
from tulia.local.simulators.graph import GraphSimulator
from tulia.nlu.rules import RulesEngine
from tulia.pipeline.agent import AgentService
from tulia.pipeline.webhook import WebhookService
from tulia.services import Services
from tulia.store.limits import LimitCounters
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, InboundQueue, create_queues
from tulia.store.stats import StatsRepo

FLOODER, CALM = "254711000001", "254711000002"


def pipeline_with(seeded: Services, clock: Clock, graph: GraphSimulator, engine: Any, http: httpx.Client) -> Pipeline:
    graph.sent.clear()
    sqs = BOTO.client("sqs")
    url = create_queues(sqs, "test-")[INBOUND.logical_name]
    hook = WebhookService(
        app_secret=SECRET,
        verify_token=TOKEN,
        tenant_for_phone_number_id=seeded.tenants.tenant_for_phone_number_id,
        messages=MessageRepo(seeded.db),
        queue=InboundQueue(sqs, url),
        clock=clock,
    )
    agent = AgentService(
        services=seeded,
        conversations=conversations_for(seeded, engine),
        messages=MessageRepo(seeded.db),
        sender=WhatsAppSender(http, graph.base_url, backoff_seconds=0.0),
        default_token="test-graph-token",
        clock=clock,
        limits=LimitCounters(seeded.db),
        stats=StatsRepo(seeded.db),
        record=lambda counts, **_: recorded.append(counts),
    )
    return Pipeline(hook, agent, sqs, url, graph)


recorded: list[dict[str, float]] = []


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=5) as client:
        yield client


@pytest.fixture
def pipe(seeded: Services, clock: Clock, graph: GraphSimulator, http: httpx.Client) -> Pipeline:
    recorded.clear()
    return pipeline_with(seeded, clock, graph, RulesEngine(), http)


def engine_ran(seeded: Services, tenant_id: str, message_id: str) -> bool:
    """Whether the message's turn went through the conversation engine (not only a fair-use check)."""
    outbox = MessageRepo(seeded.db).get_outbox(tenant_id, message_id)
    assert outbox is not None, message_id
    return not any(e.get("kind") == "limit" for e in outbox.get("trace") or [])


def test_thirty_messages_in_a_minute_get_one_slow_down_message_and_the_engine_runs_at_most_twenty(
    pipe: Pipeline, seeded: Services
) -> None:
    for n in range(30):
        pipe.customer_sends(value(text_message(f"hi {n}", mid=f"wamid.flood{n}", sender=FLOODER), wa_id=FLOODER))
        assert pipe.run_agent() == {"batchItemFailures": []}
    ran = [engine_ran(seeded, SHOP, f"wamid.flood{n}") for n in range(30)]
    assert ran == [True] * 20 + [False] * 10  # the shop's default: 20 messages a minute per customer
    replies = pipe.replies_to(FLOODER)
    slow_down = [r for r in replies if "faster than I can answer" in r]
    assert len(slow_down) == 1
    assert replies[-1] == slow_down[0]  # nothing after it that minute
    assert all(pipe.graph.was_read("106540352242922", f"wamid.flood{n}") for n in range(30))  # acknowledged
    assert sum(c.get("RateLimited", 0) for c in recorded) == 10
    # another customer of the same shop, and a customer of another shop, are answered as usual
    pipe.customer_sends(value(text_message("hello", mid="wamid.calm1", sender=CALM), wa_id=CALM))
    pipe.customer_sends(
        value(text_message("Habari", mid="wamid.salon1", sender=FLOODER), number=SALON_NUMBER, wa_id=FLOODER)
    )
    pipe.run_agent()
    assert engine_ran(seeded, SHOP, "wamid.calm1")
    assert engine_ran(seeded, SALON, "wamid.salon1")
    assert "faster than I can answer" not in " ".join(pipe.replies_to(CALM))


def test_a_new_minute_is_answered_again_and_stop_always_goes_through(
    pipe: Pipeline, seeded: Services, clock: Clock
) -> None:
    for n in range(22):
        pipe.customer_sends(value(text_message(f"hi {n}", mid=f"wamid.f{n}", sender=FLOODER), wa_id=FLOODER))
        pipe.run_agent()
    pipe.customer_sends(value(text_message("STOP", mid="wamid.stop", sender=FLOODER), wa_id=FLOODER))
    pipe.run_agent()
    assert engine_ran(seeded, SHOP, "wamid.stop")  # consent is never held back
    customer_id = seeded.customers.find_id_by_phone(SHOP, f"+{FLOODER}")
    assert customer_id is not None
    assert seeded.customers.get(SHOP, customer_id).marketing_opt_in is False
    clock.advance(minutes=1)
    pipe.customer_sends(value(text_message("hello again", mid="wamid.later", sender=FLOODER), wa_id=FLOODER))
    pipe.run_agent()
    assert engine_ran(seeded, SHOP, "wamid.later")


def test_past_the_shops_messages_per_minute_customers_are_asked_to_write_again(
    pipe: Pipeline, seeded: Services
) -> None:
    salon = seeded.tenants.get(SALON)
    seeded.tenants.save(
        salon.model_copy(update={"limits": salon.limits.model_copy(update={"tenant_messages_per_minute": 10})})
    )
    phones = [f"2547220001{n:02d}" for n in range(12)]
    for n, phone in enumerate(phones):
        pipe.customer_sends(
            value(text_message("Habari", mid=f"wamid.busy{n}", sender=phone), number=SALON_NUMBER, wa_id=phone)
        )
        pipe.run_agent()
    assert [engine_ran(seeded, SALON, f"wamid.busy{n}") for n in range(12)] == [True] * 10 + [False] * 2
    assert "Tunapokea jumbe nyingi sasa hivi" in pipe.replies_to(phones[-1])[0]  # the salon speaks Swahili
    pipe.customer_sends(value(text_message("hello", mid="wamid.shop1", sender=CALM), wa_id=CALM))
    pipe.run_agent()
    assert engine_ran(seeded, SHOP, "wamid.shop1")  # the other shop is not affected


def test_past_the_model_budget_of_the_day_the_rules_engine_answers(
    seeded: Services, clock: Clock, graph: GraphSimulator, http: httpx.Client
) -> None:
    recorded.clear()
    model = ScriptedChatModel()  # an unexpected model call fails the test
    pipe = pipeline_with(seeded, clock, graph, scripted_llm_engine(model), http)
    model.queue("classify_turn", reading("sales_discovery", 0.9, product="samsung phone"))
    pipe.customer_sends(value(text_message("I want a samsung phone", mid="wamid.b1", sender=CALM), wa_id=CALM))
    pipe.run_agent()
    assert len(model.calls) == 1  # within the budget: the model reads the message
    # the shop's turns today have cost USD 5 (KES 645): past the default budget of KES 500
    earlier_turns = [{"kind": "llm", "node": "classify_turn", "cost_usd": 5.0}]
    StatsRepo(seeded.db).record_turn(SHOP, at=clock.now, trace=earlier_turns, messages=40, customer="+254700000099")
    pipe.customer_sends(value(text_message("where is my order?", mid="wamid.b2", sender=CALM), wa_id=CALM))
    pipe.run_agent()
    assert len(model.calls) == 1  # no model call: the rules engine answered
    outbox = MessageRepo(seeded.db).get_outbox(SHOP, "wamid.b2")
    assert outbox is not None
    assert [e["engine"] for e in outbox["trace"] if e.get("kind") == "engine"] == ["rules"]
    assert "order" in pipe.replies_to(CALM)[-1].lower()
    assert sum(c.get("ModelBudgetExceeded", 0) for c in recorded) == 1
