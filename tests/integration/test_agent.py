"""The agent function: signed webhooks -> moto SQS FIFO -> Lambda SQS events -> the engine -> the Graph
API simulator over HTTP. Asserts what a customer would see: which number got which reply, once."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.chat import conversations_for
from tests.conftest import BOTO, SHOP, Clock
from tests.integration.test_webhook import (
    SALON_NUMBER,
    SECRET,
    TOKEN,
    api_event,
    meta_payload,
    signed,
    text_message,
    value,
)
from tulia.channel.graph_api import WhatsAppSender
from tulia.local.simulators.graph import GraphSimulator
from tulia.nlu.rules import RulesEngine
from tulia.pipeline import agent_app
from tulia.pipeline.agent import AgentService
from tulia.pipeline.webhook import WebhookService
from tulia.pipeline.webhook_app import handle as webhook
from tulia.services import Services
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, InboundQueue, create_queues

SHOP_PHONE, SALON_PHONE = "254712345678", "254722000111"


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphSimulator]:
    with GraphSimulator() as sim:
        yield sim


@dataclass
class Pipeline:
    webhook: WebhookService
    agent: AgentService
    sqs: Any
    url: str
    graph: GraphSimulator

    def customer_sends(self, *values: dict[str, Any]) -> None:
        body = meta_payload(*values)
        assert webhook(api_event("POST", body=body, headers=signed(body)), self.webhook)["statusCode"] == 200

    def lambda_event(self) -> dict[str, Any]:
        """What the SQS event source mapping hands the agent: up to 10 records, with their attributes."""
        got = self.sqs.receive_message(
            QueueUrl=self.url, MaxNumberOfMessages=10, MessageSystemAttributeNames=["All"], WaitTimeSeconds=0
        ).get("Messages", [])
        return {
            "Records": [
                {
                    "messageId": m["MessageId"],
                    "receiptHandle": m["ReceiptHandle"],
                    "body": m["Body"],
                    "attributes": m["Attributes"],
                    "messageAttributes": {},
                    "md5OfBody": m["MD5OfBody"],
                    "eventSource": "aws:sqs",
                    "eventSourceARN": "arn:aws:sqs:eu-west-1:123456789012:test-inbound.fifo",
                    "awsRegion": "eu-west-1",
                }
                for m in got
            ]
        }

    def run_agent(self, event: dict[str, Any] | None = None) -> dict[str, Any]:
        event = event if event is not None else self.lambda_event()
        result = agent_app.handle(event, self.agent)
        failed = {f["itemIdentifier"] for f in result["batchItemFailures"]}
        for record in event["Records"]:  # Lambda deletes what succeeded
            if record["messageId"] not in failed:
                self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=record["receiptHandle"])
        return result

    def replies_to(self, phone: str) -> list[str]:
        out = []
        for sent in self.graph.messages_to(phone):
            p = sent.payload
            if p["type"] == "image":
                out.append(f"[picture] {p['image']['caption']}")
            else:
                out.append(p["text"]["body"] if p["type"] == "text" else p["interactive"]["body"]["text"])
        return out


@pytest.fixture
def pipeline(seeded: Services, clock: Clock, graph: GraphSimulator) -> Iterator[Pipeline]:
    graph.sent.clear()
    graph.read.clear()
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
    with httpx.Client(timeout=5) as http:
        agent = AgentService(
            services=seeded,
            conversations=conversations_for(seeded, RulesEngine()),
            messages=MessageRepo(seeded.db),
            sender=WhatsAppSender(http, graph.base_url, backoff_seconds=0.0),
            default_token="test-graph-token",
            clock=clock,
        )
        yield Pipeline(hook, agent, sqs, url, graph)
    graph.clear_failures()


def test_a_customer_message_is_answered_on_whatsapp_from_the_shops_number(pipeline: Pipeline) -> None:
    pipeline.customer_sends(value(text_message("Nataka simu ya Samsung", mid="wamid.s1")))
    assert pipeline.run_agent() == {"batchItemFailures": []}
    [reply] = pipeline.graph.messages_to(SHOP_PHONE)
    assert reply.phone_number_id == "106540352242922"
    assert reply.payload["type"] == "interactive"
    assert reply.payload["interactive"]["type"] == "list"
    rows = [r["title"] for s in reply.payload["interactive"]["action"]["sections"] for r in s["rows"]]
    assert "Samsung Galaxy A15" in rows
    assert ("106540352242922", "wamid.s1") in pipeline.graph.read


def test_quick_messages_of_one_customer_are_answered_as_one_turn(pipeline: Pipeline) -> None:
    pipeline.customer_sends(
        value(text_message("Habari", mid="wamid.q1")),
        value(text_message("nataka simu", mid="wamid.q2")),
        value(text_message("ya Samsung", mid="wamid.q3")),
    )
    pipeline.run_agent()
    replies = pipeline.replies_to(SHOP_PHONE)
    assert len(replies) == 1  # one shortlist, not a greeting, a question and a shortlist
    assert "Hivi ndivyo nimepata" in replies[0]
    outbox = MessageRepo(pipeline.agent.services.db).get_outbox(SHOP, "wamid.q3")
    assert outbox is not None
    assert outbox["covers"] == ["wamid.q1", "wamid.q2", "wamid.q3"]


def test_a_retried_record_resends_stored_replies_without_running_the_graph_again(pipeline: Pipeline) -> None:
    pipeline.customer_sends(value(text_message("any offers?", mid="wamid.r1")))
    event = pipeline.lambda_event()
    pipeline.graph.fail_next(503, {"error": {"code": 131000, "message": "Something went wrong"}}, times=20)
    try:
        first = pipeline.run_agent(event)
    finally:
        pipeline.graph.clear_failures()
    assert first["batchItemFailures"] == [{"itemIdentifier": event["Records"][0]["messageId"]}]
    assert pipeline.replies_to(SHOP_PHONE) == []
    state_before = pipeline.agent.conversations.graph.get_state(
        {"configurable": {"thread_id": _thread(pipeline, SHOP, "+" + SHOP_PHONE)}}
    ).values["turn_count"]
    second = pipeline.run_agent(event)  # SQS redelivers the same record
    assert second == {"batchItemFailures": []}
    [offers] = pipeline.replies_to(SHOP_PHONE)
    assert "WELCOME10" in offers
    state_after = pipeline.agent.conversations.graph.get_state(
        {"configurable": {"thread_id": _thread(pipeline, SHOP, "+" + SHOP_PHONE)}}
    ).values["turn_count"]
    assert state_after == state_before == 1  # the graph ran once
    pipeline.run_agent(event)  # and a third delivery sends nothing more
    assert len(pipeline.replies_to(SHOP_PHONE)) == 1


def test_a_cart_from_the_whatsapp_catalog_becomes_an_order_and_goes_on_to_payment(
    pipeline: Pipeline, seeded: Services
) -> None:
    cart = {
        "from": SHOP_PHONE,
        "id": "wamid.cart1",
        "timestamp": "1795428000",
        "type": "order",
        "order": {
            "catalog_id": "CAT1",
            "text": "",
            "product_items": [
                {"product_retailer_id": "CH-002", "quantity": "2", "item_price": 10, "currency": "KES"},
            ],
        },
    }
    pipeline.customer_sends(value(cart, wa_id=SHOP_PHONE))
    pipeline.run_agent()
    assert "pick it up" in pipeline.replies_to(SHOP_PHONE)[-1]
    pipeline.customer_sends(value(text_message("pickup", mid="wamid.cart2", sender=SHOP_PHONE), wa_id=SHOP_PHONE))
    pipeline.run_agent()
    replies = pipeline.replies_to(SHOP_PHONE)
    customer_id = seeded.customers.find_id_by_phone(SHOP, "+" + SHOP_PHONE)
    [order] = seeded.orders.list_for_customer(SHOP, str(customer_id)).items
    assert [(line.item_id, line.quantity, line.unit_price) for line in order.lines] == [("CH-002", 2, 1_900)]
    assert any(f"Order {order.order_id}" in r for r in replies)
    assert "How would you like to pay" in replies[-1]


def test_two_tenants_and_several_customers_each_get_their_own_replies(pipeline: Pipeline) -> None:
    pipeline.customer_sends(
        value(text_message("oraimo power bank", mid="wamid.m1")),
        value(
            text_message("nataka kusukwa", mid="wamid.m2", sender=SALON_PHONE),
            number=SALON_NUMBER,
            wa_id=SALON_PHONE,
        ),
        value(text_message("where is my order?", mid="wamid.m3", sender="254733000222"), wa_id="254733000222"),
    )
    pipeline.run_agent()
    shop = pipeline.graph.messages_to(SHOP_PHONE)
    salon = pipeline.graph.messages_to(SALON_PHONE)
    other = pipeline.graph.messages_to("254733000222")
    assert {m.phone_number_id for m in shop + other} == {"106540352242922"}
    assert {m.phone_number_id for m in salon} == {SALON_NUMBER}
    assert "Oraimo Traveler" in json.dumps(shop[0].payload)  # the shop's power banks (list titles are cut at 24)
    assert "Braids" in json.dumps(salon[0].payload)
    assert "can't find any orders" in pipeline.replies_to("254733000222")[0]


def test_a_failing_turn_holds_back_only_its_own_group(pipeline: Pipeline) -> None:
    pipeline.customer_sends(value(text_message("hi", mid="wamid.g1")))
    good = pipeline.lambda_event()
    broken = json.loads(json.dumps(good))
    record = broken["Records"][0]
    record["messageId"], record["attributes"]["MessageGroupId"] = "rec-broken", "ghost-tenant.abc"
    body = json.loads(record["body"])
    body["tenant_id"] = "ghost-tenant"  # a tenant removed while its message waited: this turn fails
    body["message"]["message_id"] = "wamid.ghost"
    record["body"] = json.dumps(body)
    later = json.loads(json.dumps(record))
    later["messageId"] = "rec-broken-later"
    event = {"Records": [record, later, *good["Records"]]}
    result = pipeline.run_agent(event)
    assert result["batchItemFailures"] == [{"itemIdentifier": "rec-broken"}, {"itemIdentifier": "rec-broken-later"}]
    assert len(pipeline.replies_to(SHOP_PHONE)) == 2  # the healthy group was answered (welcome + menu)


def test_an_undeliverable_reply_is_recorded_not_retried_forever(pipeline: Pipeline) -> None:
    pipeline.graph.undeliverable.add(SHOP_PHONE)
    try:
        pipeline.customer_sends(value(text_message("any offers?", mid="wamid.u1")))
        assert pipeline.run_agent() == {"batchItemFailures": []}
    finally:
        pipeline.graph.undeliverable.discard(SHOP_PHONE)
    outbox = MessageRepo(pipeline.agent.services.db).get_outbox(SHOP, "wamid.u1")
    assert outbox is not None
    assert outbox["sent"] == ["failed:131026"]


BSUID = "KE.1502576394655843"


def _username_says(pipeline: Pipeline, words: str, mid: str, phone: str | None = None) -> None:
    """A WhatsApp user with a username: Meta sends the business-scoped user id, the phone only if allowed."""
    pipeline.customer_sends(value(text_message(words, mid=mid, sender=phone), wa_id=phone, user_id=BSUID))
    assert pipeline.run_agent() == {"batchItemFailures": []}


def _texts(pipeline: Pipeline, to: str) -> list[str]:
    out = []
    for sent in pipeline.graph.messages_to(to):
        p = sent.payload
        out.append(p["text"]["body"] if p["type"] == "text" else p["interactive"]["body"]["text"])
    return out


def test_a_customer_without_a_phone_number_shops_and_is_asked_for_the_mpesa_number(
    pipeline: Pipeline, seeded: Services
) -> None:
    _username_says(pipeline, "do you have oraimo power banks?", "wamid.b1")
    [shortlist] = pipeline.graph.messages_to(BSUID)
    assert shortlist.payload["recipient"] == BSUID  # addressed by user id: Meta withheld the phone
    assert "to" not in shortlist.payload
    customer_id = seeded.customers.find_id_by_wa_user(SHOP, BSUID)
    assert customer_id is not None
    assert seeded.customers.get(SHOP, customer_id).phone_e164 is None
    for n, words in enumerate(["1", "black", "1", "pickup", "M-Pesa prompt"], start=2):
        _username_says(pipeline, words, f"wamid.b{n}")
    assert "M-Pesa number" in _texts(pipeline, BSUID)[-1]  # an STK push needs a phone: asked, not guessed
    _username_says(pipeline, "0722 123 456", "wamid.b9")
    assert "+254 7** *** 456" in _texts(pipeline, BSUID)[-1]
    [order] = seeded.orders.list_for_customer(SHOP, customer_id).items
    assert order.customer_id == customer_id


def test_one_person_seen_first_by_user_id_then_with_a_phone_stays_one_customer(
    pipeline: Pipeline, seeded: Services
) -> None:
    _username_says(pipeline, "habari", "wamid.u1")
    first = seeded.customers.find_id_by_wa_user(SHOP, BSUID)
    _username_says(pipeline, "any offers?", "wamid.u2", phone="254733000111")
    assert seeded.customers.find_id_by_phone(SHOP, "+254733000111") == first
    customer = seeded.customers.get(SHOP, str(first))
    assert (customer.phone_e164, customer.wa_user_id) == ("+254733000111", BSUID)
    assert pipeline.graph.messages_to("254733000111")[-1].payload["to"] == "254733000111"  # the phone wins


def test_a_phone_customer_who_later_shows_a_user_id_keeps_both(pipeline: Pipeline, seeded: Services) -> None:
    pipeline.customer_sends(value(text_message("hi", mid="wamid.p1", sender="254733000222"), wa_id="254733000222"))
    pipeline.run_agent()
    _username_says(pipeline, "any offers?", "wamid.p2", phone="254733000222")
    customer_id = seeded.customers.find_id_by_phone(SHOP, "+254733000222")
    assert seeded.customers.find_id_by_wa_user(SHOP, BSUID) == customer_id


def _thread(pipeline: Pipeline, tenant_id: str, phone: str) -> str:
    from tulia.graph.nodes import conversation_id_for

    return conversation_id_for(tenant_id, phone)


def test_an_unreadable_queued_record_goes_to_the_dead_letter_queue_not_the_bin(pipeline: Pipeline) -> None:
    pipeline.customer_sends(value(text_message("any offers?", mid="wamid.u-ok")))
    [good] = pipeline.lambda_event()["Records"]
    event = {
        "Records": [
            {"messageId": "bad-1", "body": "{not json", "attributes": {"MessageGroupId": "g"}},
            {"messageId": "after-1", "body": good["body"], "attributes": {"MessageGroupId": "g"}},
            good,  # another customer's group goes on
        ]
    }
    result = agent_app.handle(event, pipeline.agent)
    assert result == {"batchItemFailures": [{"itemIdentifier": "bad-1"}, {"itemIdentifier": "after-1"}]}
    assert len(pipeline.replies_to(SHOP_PHONE)) == 1
    # SQS moves a record reported failed five times to the dead-letter queue (as in AWS; the alarm watches it)
    attributes = pipeline.sqs.get_queue_attributes(QueueUrl=pipeline.url, AttributeNames=["RedrivePolicy"])
    redrive = json.loads(attributes["Attributes"]["RedrivePolicy"])
    assert redrive["maxReceiveCount"] in (8, "8")  # 5 failures, and 3 waits for quick messages
    assert redrive["deadLetterTargetArn"].endswith("test-inbound-dlq.fifo")


def test_the_agent_function_needs_the_graph_api_base(monkeypatch: pytest.MonkeyPatch) -> None:
    from tulia.config import get_settings

    monkeypatch.delenv("TULIA_WHATSAPP_API_BASE", raising=False)
    get_settings.cache_clear()
    agent_app.service.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="TULIA_WHATSAPP_API_BASE"):
            agent_app.service()
    finally:
        get_settings.cache_clear()
        agent_app.service.cache_clear()


class Recorded:
    """What the functions published as business metrics, per call."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict[str, float], str | None]] = []

    def __call__(self, counts: Any, *, tenant_id: str | None = None) -> None:
        self.calls.append((dict(counts), tenant_id))

    def total(self, name: str) -> float:
        return sum(counts.get(name, 0) for counts, _ in self.calls)


def test_business_metrics_count_each_message_turn_and_order_once(pipeline: Pipeline) -> None:
    recorded = Recorded()
    pipeline.webhook.record = pipeline.agent.record = recorded
    cart = {
        "from": SHOP_PHONE,
        "id": "wamid.m1",
        "timestamp": "1795428000",
        "type": "order",
        "order": {"catalog_id": "C", "product_items": [{"product_retailer_id": "CH-002", "quantity": "1"}]},
    }
    pipeline.customer_sends(value(cart, wa_id=SHOP_PHONE))
    pipeline.customer_sends(value(cart, wa_id=SHOP_PHONE))  # Meta delivers the same message twice
    pipeline.run_agent()
    pipeline.customer_sends(value(text_message("pickup", mid="wamid.m2", sender=SHOP_PHONE), wa_id=SHOP_PHONE))
    event = pipeline.lambda_event()
    pipeline.run_agent(event)
    pipeline.run_agent(event)  # SQS redelivers: the stored turn is not counted again
    assert recorded.total("InboundMessages") == 2
    assert recorded.total("DuplicateDeliveries") == 1
    assert recorded.total("Turns") == 2
    assert recorded.total("OrdersCreated") == 1
    assert {tenant for counts, tenant in recorded.calls if "Turns" in counts} == {SHOP}


def test_metrics_are_published_as_embedded_metric_format_with_the_tenant(capsys: pytest.CaptureFixture[str]) -> None:
    from tulia.observability.metrics import MetricsRecorder

    MetricsRecorder()({"Turns": 1, "OrdersCreated": 1}, tenant_id=SHOP)
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    (directive,) = record["_aws"]["CloudWatchMetrics"]
    assert {m["Name"] for m in directive["Metrics"]} == {"Turns", "OrdersCreated"}
    assert (record["Turns"], record["OrdersCreated"], record["tenant_id"]) == ([1.0], [1.0], SHOP)


def test_replies_stored_during_an_outage_are_sent_first_when_the_customer_wrote_again(pipeline: Pipeline) -> None:
    pipeline.customer_sends(value(text_message("any offers?", mid="wamid.o1")))
    first = pipeline.lambda_event()
    pipeline.graph.fail_next(503, {"error": {"code": 131000, "message": "Something went wrong"}}, times=20)
    try:
        assert pipeline.run_agent(first)["batchItemFailures"]  # stored in the outbox, not sent
    finally:
        pipeline.graph.clear_failures()
    [failed] = first["Records"]
    pipeline.sqs.change_message_visibility(  # its visibility timeout ends: SQS will deliver it again
        QueueUrl=pipeline.url, ReceiptHandle=failed["receiptHandle"], VisibilityTimeout=0
    )
    pipeline.customer_sends(value(text_message("where is my order?", mid="wamid.o2")))
    retried = pipeline.lambda_event()  # the failed record and the new one: one batch, one group, in order
    assert len(retried["Records"]) == 2
    assert pipeline.run_agent(retried) == {"batchItemFailures": []}
    replies = pipeline.replies_to(SHOP_PHONE)
    assert len(replies) == 2
    assert "WELCOME10" in replies[0]  # the stored answer to the first message, first
    assert "can't find any orders" in replies[1]
    pipeline.run_agent(retried)  # another delivery sends nothing more
    assert len(pipeline.replies_to(SHOP_PHONE)) == 2


def _poison_ahead_of_hello(pipeline: Pipeline) -> dict[str, Any]:
    """A queued record the agent cannot process (not a message at all), in a customer's FIFO group just
    before their next message; returns the batch the event source hands the agent."""
    pipeline.customer_sends(value(text_message("first", mid="wamid.first")))
    [queued] = pipeline.sqs.receive_message(QueueUrl=pipeline.url, MessageSystemAttributeNames=["All"])["Messages"]
    pipeline.sqs.delete_message(QueueUrl=pipeline.url, ReceiptHandle=queued["ReceiptHandle"])
    broken = {"kind": "message", "tenant_id": SHOP, "message": ["not", "a", "message"]}
    pipeline.sqs.send_message(
        QueueUrl=pipeline.url,
        MessageBody=json.dumps(broken),
        MessageGroupId=queued["Attributes"]["MessageGroupId"],
        MessageDeduplicationId="poison-1",
    )
    pipeline.customer_sends(value(text_message("hello", mid="wamid.after")))
    event = pipeline.lambda_event()
    assert len(event["Records"]) == 2  # the poison first, the customer's next message behind it
    return event


def test_a_record_that_fails_every_delivery_is_set_aside_and_the_customer_goes_on(pipeline: Pipeline) -> None:
    """Issue 31, part 4: a record the agent could never process held the customer's FIFO group (later
    messages waited 4-16 minutes or got no answer). Retried at first; on its third delivery it goes to
    the dead-letter queue with why, and the customer's next message is answered in the same batch."""
    from tulia.store.queues import dead_letter_url, set_aside_to

    pipeline.agent.set_aside = set_aside_to(pipeline.sqs, pipeline.url)
    event = _poison_ahead_of_hello(pipeline)
    first = agent_app.handle(copy.deepcopy(event), pipeline.agent)["batchItemFailures"]
    assert [f["itemIdentifier"] for f in first] == [r["messageId"] for r in event["Records"]]  # retried, in order
    assert pipeline.replies_to(SHOP_PHONE) == []
    event["Records"][0]["attributes"]["ApproximateReceiveCount"] = "3"  # its third delivery
    assert pipeline.run_agent(event) == {"batchItemFailures": []}
    assert pipeline.replies_to(SHOP_PHONE)[0].startswith("Hi Wanjiku!")  # "hello" answered at once
    [kept] = [
        json.loads(m["Body"]) for m in pipeline.sqs.receive_message(QueueUrl=dead_letter_url(pipeline.url))["Messages"]
    ]
    assert kept["record"]["message"] == ["not", "a", "message"]
    assert "not a message" in kept["why"]
    assert pipeline.sqs.receive_message(QueueUrl=pipeline.url).get("Messages", []) == []


def test_a_turn_failing_for_an_outage_is_never_set_aside(pipeline: Pipeline) -> None:
    """Stored replies survive a Graph API outage: a turn that fails because WhatsApp is down stays in the
    queue, however often it is delivered, and is sent when it clears."""
    from tulia.store.queues import dead_letter_url, set_aside_to

    pipeline.agent.set_aside = set_aside_to(pipeline.sqs, pipeline.url)
    pipeline.customer_sends(value(text_message("hello", mid="wamid.outage")))
    event = pipeline.lambda_event()
    event["Records"][0]["attributes"]["ApproximateReceiveCount"] = "9"
    pipeline.graph.fail_next(503, {"error": {"message": "down", "code": 2}}, times=50)
    result = pipeline.run_agent(event)
    assert result == {"batchItemFailures": [{"itemIdentifier": event["Records"][0]["messageId"]}]}
    assert pipeline.sqs.receive_message(QueueUrl=dead_letter_url(pipeline.url)).get("Messages", []) == []


def test_a_customer_whose_message_was_set_aside_is_told_once(pipeline: Pipeline) -> None:
    """A message the agent fails on every delivery (here a cart queued with a quantity that is no number,
    as an older webhook could have queued it) is set aside on its third delivery and its customer is told
    once, in the shop's language, instead of waiting for an answer that never comes."""
    from tulia.store.queues import dead_letter_url, set_aside_to

    pipeline.agent.set_aside = set_aside_to(pipeline.sqs, pipeline.url)
    pipeline.customer_sends(value(text_message("first", mid="wamid.cart")))
    [queued] = pipeline.sqs.receive_message(QueueUrl=pipeline.url, MessageSystemAttributeNames=["All"])["Messages"]
    pipeline.sqs.delete_message(QueueUrl=pipeline.url, ReceiptHandle=queued["ReceiptHandle"])
    body = json.loads(queued["Body"])
    body["message"] |= {
        "kind": "order",
        "text": "",
        "order_items": [{"product_retailer_id": "CH-002", "quantity": "x"}],
    }
    pipeline.sqs.send_message(
        QueueUrl=pipeline.url,
        MessageBody=json.dumps(body),
        MessageGroupId=queued["Attributes"]["MessageGroupId"],
        MessageDeduplicationId="cart-1",
    )
    event = pipeline.lambda_event()
    event["Records"][0]["attributes"]["ApproximateReceiveCount"] = "3"
    assert pipeline.run_agent(event) == {"batchItemFailures": []}
    assert pipeline.replies_to(SHOP_PHONE) == [
        "Sorry, I couldn't handle your last message. Please send it again in other words, or ask for a person."
    ]
    assert len(pipeline.sqs.receive_message(QueueUrl=dead_letter_url(pipeline.url))["Messages"]) == 1
