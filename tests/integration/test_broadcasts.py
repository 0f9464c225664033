"""Broadcasts to the customers who asked for offers, and the one reminder of an unpaid order: the admin
function, the outreach worker (the agent function's second event source) fed from moto's SQS, the Graph
API simulator, the webhook for delivery statuses, the agent for the STOPs that follow. The clock is
moved by hand (marketing hours, reminder delays)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from tests.chat import Chat
from tests.conftest import BOTO, SALON, SHOP, Caller, Clock
from tests.integration.test_agent import Pipeline
from tests.integration.test_reaching_customers import Admin, shown
from tests.integration.test_webhook import SECRET, TOKEN, api_event, meta_payload, signed, text_message, value
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.admin.handoffs import WhatsAppAccess
from tulia.pipeline import agent_app
from tulia.pipeline.webhook import WebhookService
from tulia.pipeline.webhook_app import handle as webhook
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.broadcast_statuses import BroadcastStatuses
from tulia.store.broadcasts import BroadcastRepo
from tulia.store.messages import MessageRepo
from tulia.store.queues import OUTREACH, InboundQueue, OutreachQueue, create_queues

OFFER = {"template": "weekly_offer", "parameters": ["{name}", "Duka Bora", "20% off all chargers"]}


class Outreach:
    """The outreach queue as the agent function's event source would deliver it (delays honoured by
    the test: it runs what is due once the clock has moved)."""

    def __init__(self, sqs: Any, url: str, pipe: Pipeline) -> None:
        self.sqs, self.url, self.pipe = sqs, url, pipe

    def run(self, rounds: int = 1) -> list[dict[str, Any]]:
        """Deliver what is in the queue now (delays ignored: the test's clock says time has passed)."""
        done = []
        for _ in range(rounds):
            got = self.sqs.receive_message(QueueUrl=self.url, MaxNumberOfMessages=1, WaitTimeSeconds=0)
            if not got.get("Messages"):
                # a delayed message: make it visible now (the test moved its clock past the delay)
                self._release_delayed()
                got = self.sqs.receive_message(QueueUrl=self.url, MaxNumberOfMessages=1, WaitTimeSeconds=0)
            for m in got.get("Messages", []):
                event = {
                    "Records": [
                        {
                            "messageId": m["MessageId"],
                            "receiptHandle": m["ReceiptHandle"],
                            "body": m["Body"],
                            "attributes": {},
                            "eventSource": "aws:sqs",
                            "eventSourceARN": f"arn:aws:sqs:eu-west-1:123456789012:test-{OUTREACH.logical_name}",
                        }
                    ]
                }
                result = agent_app.handle(event, self.pipe.agent)
                assert result == {"batchItemFailures": []}
                self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=m["ReceiptHandle"])
                done.append(json.loads(m["Body"]))
        return done

    def _release_delayed(self) -> None:
        from moto.core import DEFAULT_ACCOUNT_ID
        from moto.sqs.models import sqs_backends

        queue = sqs_backends[DEFAULT_ACCOUNT_ID]["eu-west-1"].queues[f"test-{OUTREACH.logical_name}"]
        for message in queue._messages:
            message.delayed_until = 0  # the test's clock is past the delay: deliverable now


@pytest.fixture
def world(seeded: Services, setup: dict[str, Any], clock: Clock) -> dict[str, Any]:
    import httpx

    pipe: Pipeline = setup["pipe"]
    sqs = BOTO.client("sqs")
    urls = create_queues(sqs, "test-")
    outreach_queue = OutreachQueue(sqs, urls[OUTREACH.logical_name])
    pipe.agent.outreach = outreach_queue
    pipe.agent.broadcasts = BroadcastRepo(seeded.db)
    pipe.webhook = WebhookService(
        app_secret=SECRET,
        verify_token=TOKEN,
        tenant_for_phone_number_id=seeded.tenants.tenant_for_phone_number_id,
        messages=MessageRepo(seeded.db),
        queue=InboundQueue(sqs, pipe.url),
        clock=seeded.clock,
        broadcasts=BroadcastStatuses(seeded.db),
    )
    deps = AdminDeps(
        services=seeded,
        audit=AuditRepo(seeded.db),
        whatsapp=WhatsAppAccess(httpx.Client(timeout=5), pipe.graph.base_url, "test-graph-token"),
        notify=InboundQueue(sqs, pipe.url),
        outreach=outreach_queue,
    )
    api = build_admin_api(deps)
    shop, salon = Admin(api), Admin(api, SALON)
    assert shop("POST", "/admin/templates/sync")[0] == 200
    assert salon("POST", "/admin/templates/sync")[0] == 200
    clock.now = clock.now.replace(hour=9)  # 12:00 in Nairobi: inside marketing hours
    return {"shop": shop, "salon": salon, "pipe": pipe, "outreach": Outreach(sqs, urls[OUTREACH.logical_name], pipe)}


def customer(caller: Caller, phone: str, *, offers: bool, language: str | None = None, name: str = "") -> str:
    customer_id = str(caller.ok("customer_get_or_create", phone_e164=phone, display_name=name or None)["customer_id"])
    updates: dict[str, Any] = {"marketing_opt_in": offers, "offers_whatsapp": offers}
    if language:
        updates["language_preference"] = language
    caller.ok("customer_update_preferences", customer_id=customer_id, updates=updates, consent_source="user_message")
    return customer_id


def test_a_dry_run_counts_only_this_shops_opted_in_customers_and_sending_reaches_exactly_them(
    world: dict[str, Any], shop: Caller, salon: Caller
) -> None:
    admin, pipe = world["shop"], world["pipe"]
    customer(shop, "+254700100001", offers=True, name="Amina Otieno")
    customer(shop, "+254700100002", offers=True, language="sw", name="Baraka")
    customer(shop, "+254700100003", offers=False)
    customer(salon, "+254700100004", offers=True)  # the salon's customer: never in the shop's segment
    status, dry = admin("POST", "/admin/broadcasts/dry-run", OFFER)
    assert (status, dry["recipients"], dry["sends_now"]) == (200, 2, True)
    assert (
        dry["preview"]
        == "Hello Wanjiku! This week at Duka Bora: 20% off all chargers. Reply to order, or STOP to stop offers."
    )
    swahili = admin("POST", "/admin/broadcasts/dry-run", {**OFFER, "segment": {"language": "sw"}})[1]
    assert swahili["recipients"] == 1
    status, broadcast = admin("POST", "/admin/broadcasts", OFFER)
    assert (status, broadcast["recipients"], broadcast["status"]) == (200, 2, "sending")
    world["outreach"].run()
    got = {m.to: shown(pipe.graph, m.payload) for m in pipe.graph.sent if m.payload.get("type") == "template"}
    assert got == {
        "254700100001": "Hello Amina! This week at Duka Bora: 20% off all chargers. Reply to order, or STOP to "
        "stop offers.",
        "254700100002": "Habari Baraka! Wiki hii Duka Bora: 20% off all chargers. Jibu kuagiza, au STOP "
        "kusimamisha ofa.",
    }
    detail = admin("GET", f"/admin/broadcasts/{broadcast['broadcast_id']}")[1]
    assert (detail["broadcast"]["status"], detail["broadcast"]["counts"]) == ("done", {"sent": 2})
    assert world["salon"]("GET", f"/admin/broadcasts/{broadcast['broadcast_id']}")[0] == 404


def test_a_customer_who_opted_out_after_the_dry_run_gets_nothing(world: dict[str, Any], shop: Caller) -> None:
    admin, pipe = world["shop"], world["pipe"]
    stays = customer(shop, "+254700100011", offers=True)
    leaves = customer(shop, "+254700100012", offers=True)
    assert admin("POST", "/admin/broadcasts/dry-run", OFFER)[1]["recipients"] == 2
    broadcast = admin("POST", "/admin/broadcasts", OFFER)[1]
    # before the batch goes out, the second customer says STOP
    shop.ok(
        "customer_update_preferences",
        customer_id=leaves,
        updates={"marketing_opt_in": False},
        consent_source="user_message",
    )
    world["outreach"].run()
    assert [m.to for m in pipe.graph.sent] == ["254700100011"]
    detail = admin("GET", f"/admin/broadcasts/{broadcast['broadcast_id']}")[1]
    assert {r["customer_id"]: (r["status"], r.get("why")) for r in detail["recipients"]} == {
        stays: ("sent", None),
        leaves: ("skipped", "no longer opted in to offers"),
    }


def test_outside_marketing_hours_the_broadcast_waits_until_they_open(
    world: dict[str, Any], shop: Caller, clock: Clock
) -> None:
    admin, pipe = world["shop"], world["pipe"]
    customer(shop, "+254700100021", offers=True)
    clock.now = clock.now.replace(hour=18)  # 21:00 in Nairobi
    dry = admin("POST", "/admin/broadcasts/dry-run", OFFER)[1]
    assert (dry["sends_now"], dry["opens_at"][11:16]) == (False, "08:00")
    admin("POST", "/admin/broadcasts", OFFER)
    [waited] = world["outreach"].run()
    assert waited["kind"] == "broadcast"
    assert pipe.graph.sent == []  # nothing at night
    clock.now = clock.now.replace(hour=5, minute=1) + timedelta(days=1)  # 08:01 the next day in Nairobi
    world["outreach"].run()
    assert [m.to for m in pipe.graph.sent] == ["254700100021"]


def test_the_send_rate_is_a_batch_a_minute(world: dict[str, Any], shop: Caller, seeded: Services) -> None:
    admin, pipe = world["shop"], world["pipe"]
    tenant = seeded.tenants.get(SHOP)
    messaging = tenant.messaging.model_copy(update={"broadcast_per_minute": 2})
    seeded.tenants.save(tenant.model_copy(update={"messaging": messaging}))
    for n in range(5):
        customer(shop, f"+25470010003{n}", offers=True)
    admin("POST", "/admin/broadcasts", OFFER)
    sent_per_batch = []
    outreach = world["outreach"]
    for _ in range(3):
        before = len(pipe.graph.sent)
        outreach.run()
        sent_per_batch.append(len(pipe.graph.sent) - before)
        waiting = outreach.sqs.receive_message(QueueUrl=outreach.url, WaitTimeSeconds=0).get("Messages")
        assert not waiting  # the next batch is a minute away (an SQS delay)
    assert sent_per_batch == [2, 2, 1]


def test_statuses_and_stops_that_follow_are_counted_on_the_broadcast(
    world: dict[str, Any], shop: Caller, seeded: Services
) -> None:
    admin, pipe = world["shop"], world["pipe"]
    customer(shop, "+254712345678", offers=True)
    customer(shop, "+254700100041", offers=True)
    broadcast = admin("POST", "/admin/broadcasts", OFFER)[1]
    world["outreach"].run()
    wamids = {m.to: m.message_id for m in pipe.graph.sent}

    def status(to: str, what: str) -> None:
        statuses = [{"id": wamids[to], "status": what, "timestamp": "1795428000", "recipient_id": to}]
        body = meta_payload(value(statuses=statuses))
        assert webhook(api_event("POST", body=body, headers=signed(body)), pipe.webhook)["statusCode"] == 200

    status("254712345678", "delivered")
    status("254712345678", "read")
    status("254712345678", "delivered")  # late: changes nothing
    status("254700100041", "failed")
    pipe.customer_sends(value(text_message("STOP", mid="wamid.stop-after-offer")))
    pipe.run_agent()
    counts = admin("GET", f"/admin/broadcasts/{broadcast['broadcast_id']}")[1]["broadcast"]["counts"]
    assert counts == {"sent": 2, "delivered": 1, "read": 1, "failed": 1, "stopped": 1}


def test_the_shops_broadcasts_are_listed_newest_first(world: dict[str, Any], shop: Caller, clock: Clock) -> None:
    admin = world["shop"]
    customer(shop, "+254700100061", offers=True)
    made = []
    for _ in range(3):
        made.append(admin("POST", "/admin/broadcasts", OFFER)[1]["broadcast_id"])
        clock.advance(minutes=5)
    assert [b["broadcast_id"] for b in admin("GET", "/admin/broadcasts")[1]["items"]] == made[::-1]


def test_a_bad_broadcast_is_refused_and_sends_nothing(world: dict[str, Any]) -> None:
    admin = world["shop"]
    missing = admin("POST", "/admin/broadcasts", {**OFFER, "template": "no_such"})
    assert (missing[0], missing[1]["code"]) == (422, "template_missing")
    utility = admin("POST", "/admin/broadcasts", {"template": "order_update", "parameters": ["a", "b", "c"]})
    assert (utility[0], utility[1]["code"]) == (422, "template_category")
    short = admin("POST", "/admin/broadcasts", {**OFFER, "parameters": ["{name}"]})
    assert (short[0], short[1]["code"]) == (422, "template_parameters")
    assert admin("POST", "/admin/broadcasts", OFFER, role="agent")[0] == 403
    assert admin("GET", "/admin/broadcasts")[1]["items"] == []
    assert world["outreach"].run() == []


def test_an_unpaid_order_gets_one_reminder_after_the_delay_if_the_customer_asked_for_offers(
    world: dict[str, Any], clock: Clock, seeded: Services
) -> None:
    pipe = world["pipe"]
    for n, words in enumerate(("send me offers", "I want an oraimo 20000mAh power bank", "black", "1", "pickup")):
        pipe.customer_sends(value(text_message(words, mid=f"wamid.rem{n}")))
        pipe.run_agent()
    [order] = seeded.orders.list_for_tenant(SHOP, limit=5).items
    before = len(pipe.graph.sent)
    assert world["outreach"].run()[0]["kind"] == "unpaid_reminder"  # six hours later, by default: not yet
    assert len(pipe.graph.sent) == before
    clock.advance(hours=6, minutes=1)
    world["outreach"].run(rounds=3)
    reminders = [shown(pipe.graph, m.payload) for m in pipe.graph.sent[before:]]
    assert reminders == [  # inside the 24-hour window: a free-form message
        f"Your order {order.order_id} of KES {order.amount_due:,} is still waiting for payment. Reply PAY to pay "
        "now, or STOP to stop these messages."
    ]
    world["outreach"].run(rounds=3)  # whatever else was queued for this order: never twice
    assert len(pipe.graph.sent) == before + 1


def test_no_reminder_without_consent_or_once_the_order_is_paid(
    world: dict[str, Any], chat: Chat, clock: Clock, seeded: Services, setup: dict[str, Any]
) -> None:
    from tests.integration.test_payments_callbacks import c2b, c2b_body

    pipe = world["pipe"]
    for n, words in enumerate(("I want an oraimo 20000mAh power bank", "black", "1", "pickup")):
        pipe.customer_sends(value(text_message(words, mid=f"wamid.noc{n}")))
        pipe.run_agent()
    clock.advance(hours=7)
    world["outreach"].run(rounds=3)
    assert [m.payload["type"] for m in pipe.graph.sent if "waiting for payment" in str(m.payload)] == []
    # a customer who asked for offers, but paid before the reminder was due
    other = "254700100055"
    for n, words in enumerate(("send me offers", "I want an oraimo 20000mAh power bank", "black", "1", "pickup")):
        pipe.customer_sends(value(text_message(words, mid=f"wamid.paid{n}", sender=other), wa_id=other))
        pipe.run_agent()
    customer_id = seeded.customers.find_id_by_phone(SHOP, f"+{other}")
    [order] = seeded.orders.list_for_customer(SHOP, str(customer_id), limit=1).items
    c2b(setup, seeded, "confirmation", c2b_body(order.order_id, f"{order.amount_due}.00", trans_id="TREMPAID01"))
    clock.advance(hours=7)
    world["outreach"].run(rounds=3)
    assert not [m for m in pipe.graph.messages_to(other) if "waiting for payment" in str(m.payload)]


def test_an_outreach_record_that_fails_alone_is_reported_for_retry_and_the_others_are_done(
    world: dict[str, Any],
) -> None:
    """Powertools' batch processor: the one record that cannot be done comes back in batchItemFailures (SQS
    retries it, then its dead-letter queue); the good record of the same batch is done once."""
    pipe: Pipeline = world["pipe"]
    arn = f"arn:aws:sqs:eu-west-1:123456789012:test-{OUTREACH.logical_name}"

    def record(message_id: str, body: str) -> dict[str, Any]:
        return {"messageId": message_id, "receiptHandle": message_id, "body": body, "attributes": {},
                "eventSource": "aws:sqs", "eventSourceARN": arn}  # fmt: skip

    good = json.dumps({"kind": "no_such_work", "tenant_id": SHOP})  # unknown work is logged and dropped: done
    result = agent_app.handle({"Records": [record("m-bad", "{not json"), record("m-good", good)]}, pipe.agent)
    assert result == {"batchItemFailures": [{"itemIdentifier": "m-bad"}]}


def test_a_customer_who_never_chose_a_language_gets_the_broadcast_in_the_one_they_last_wrote_in(
    world: dict[str, Any], shop: Caller
) -> None:
    """Issue 33 part 5: broadcasts reached Swahili speakers in English when they never set a preference."""
    admin, pipe = world["shop"], world["pipe"]
    phone = "254700100061"
    pipe.customer_sends(
        value(text_message("Habari, naomba ofa zenu za wiki hii", mid="wamid.sw1", sender=phone), wa_id=phone)
    )
    pipe.run_agent()
    customer_id = str(shop.ok("customer_get_or_create", phone_e164=f"+{phone}")["customer_id"])
    shop.ok(
        "customer_update_preferences",
        customer_id=customer_id,
        updates={"marketing_opt_in": True, "offers_whatsapp": True},
        consent_source="user_message",
    )
    assert world["pipe"].agent.services.customers.get(SHOP, customer_id).language_preference is None
    before = len(pipe.graph.sent)
    assert admin("POST", "/admin/broadcasts", OFFER)[0] == 200
    world["outreach"].run()
    [offer] = [m for m in pipe.graph.sent[before:] if m.to == phone]
    assert offer.payload["template"]["language"] == {"code": "sw"}
    assert shown(pipe.graph, offer.payload).startswith("Habari Wanjiku! Wiki hii Duka Bora")
