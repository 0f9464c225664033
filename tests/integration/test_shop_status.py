"""Issue 34, part 6: a shop answers customers only when it is live. Paused by its owner (or getting ready, or
suspended), a customer is told once, with the shop's contact, and no model is called; STOP still goes through.
A shop made in the console goes live only with its checklist complete. Through the webhook, the queue, the
agent and the admin function (moto), with the bedrock engine on a scripted model that counts its calls."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.chat import conversations_for
from tests.conftest import BOTO, SHOP, Clock, scripted_llm_engine
from tests.integration.test_agent import Pipeline
from tests.integration.test_reaching_customers import Admin
from tests.integration.test_webhook import SECRET, TOKEN, text_message, value
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.channel.graph_api import WhatsAppSender
from tulia.llm.scripted import ScriptedChatModel
from tulia.local.simulators.graph import GraphSimulator
from tulia.pipeline.agent import AgentService
from tulia.pipeline.webhook import WebhookService
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.limits import LimitCounters
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, InboundQueue, create_queues

CUSTOMER = "254712345678"


@pytest.fixture
def model() -> ScriptedChatModel:
    return ScriptedChatModel()  # no answers: a call to it fails the turn


@pytest.fixture
def shop_pipeline(
    seeded: Services, clock: Clock, graph: GraphSimulator, model: ScriptedChatModel
) -> Iterator[Pipeline]:
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
    with httpx.Client(timeout=5) as http:
        agent = AgentService(
            services=seeded,
            conversations=conversations_for(seeded, scripted_llm_engine(model, reader_threshold=0.70)),
            messages=MessageRepo(seeded.db),
            sender=WhatsAppSender(http, graph.base_url, backoff_seconds=0.0),
            default_token="test-graph-token",
            clock=clock,
            limits=LimitCounters(seeded.db),
        )
        yield Pipeline(hook, agent, sqs, url, graph)


@pytest.fixture
def owner(seeded: Services) -> Admin:
    return Admin(build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db))))


def says(pipe: Pipeline, text: str, mid: str) -> list[str]:
    before = len(pipe.replies_to(CUSTOMER))
    pipe.customer_sends(value(text_message(text, mid=mid, sender=CUSTOMER)))
    assert pipe.run_agent() == {"batchItemFailures": []}
    return pipe.replies_to(CUSTOMER)[before:]


def test_a_paused_shop_tells_a_customer_once_with_its_contact_and_calls_no_model(
    shop_pipeline: Pipeline, owner: Admin, seeded: Services, model: ScriptedChatModel
) -> None:
    status, paused = owner("POST", "/admin/shop/pause", {"reason": "stock-taking"})
    assert (status, paused["status"]) == (200, "paused")
    [told] = says(shop_pipeline, "Nataka simu ya Samsung", "wamid.p1")
    assert "Duka Bora Electronics is not answering on WhatsApp right now" in told
    number = seeded.tenants.get(SHOP).whatsapp.display_phone_number
    assert "To reach us:" in told
    assert number in told or "Moi Avenue" in told
    assert says(shop_pipeline, "hello?", "wamid.p2") == []  # told once, not at every message
    assert model.calls == []  # no model was asked anything
    # STOP goes through while paused: the opt-out is recorded and confirmed
    [stopped] = says(shop_pipeline, "STOP", "wamid.p3")
    assert "unsubscribed" in stopped.lower() or "stop" in stopped.lower()
    customer_id = seeded.customers.find_id_by_phone(SHOP, "+" + CUSTOMER)
    assert customer_id is not None
    assert seeded.customers.get(SHOP, customer_id).marketing_opt_in is False
    assert model.calls == []

    assert owner("POST", "/admin/shop/resume")[1]["status"] == "live"
    [answered] = says(shop_pipeline, "Nataka simu ya Samsung", "wamid.p4")  # the message reader is sure of it
    assert answered.startswith("Hivi ndivyo nimepata")  # the shortlist, in the customer's Swahili


def test_pause_and_resume_are_the_owners_audited_and_only_from_the_right_state(owner: Admin, seeded: Services) -> None:
    status, error = owner("POST", "/admin/shop/resume")
    assert status == 409, error  # live: nothing to resume
    assert owner("POST", "/admin/shop/pause", {}, role="agent")[0] == 403
    assert owner("POST", "/admin/shop/pause", {})[0] == 200
    assert owner("POST", "/admin/shop/pause", {})[0] == 409  # paused already
    status, error = owner("POST", "/admin/shop/go-live")
    assert (status, error["code"]) == (422, "not_in_setup")
    actions = [e.action for e in AuditRepo(seeded.db).list(SHOP).items]
    assert "shop.pause" in actions
