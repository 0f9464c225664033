"""Fixtures of the payments function's tests: the Graph API simulator and the payments pipeline
(callbacks -> SQS -> the agent -> the Graph API), shared by the callback and money-ledger suites; and the customers of
the evaluation shops that several conversation suites talk to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.chat import Chat, conversations_for
from tests.conftest import BOTO, TLS, Clock, chat_at_pack, scripted_llm_engine
from tests.integration.test_agent import Pipeline
from tests.integration.test_webhook import SECRET, TOKEN, Pipe, text_message, value
from tulia.channel.graph_api import WhatsAppSender
from tulia.llm.scripted import ScriptedChatModel
from tulia.local.simulators.graph import GraphSimulator
from tulia.packs.loader import load_pack
from tulia.pipeline.agent import AgentService
from tulia.pipeline.payments import PaymentCallbacks
from tulia.pipeline.webhook import WebhookService
from tulia.search.catalog_index import CatalogIndex
from tulia.services import Services
from tulia.store.limits import LimitCounters
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, InboundQueue, create_queues

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def furniture(seeded: Services) -> Chat:
    """A customer of a furniture and mattress showroom on Thika Road that delivers across Nairobi."""
    return chat_at_pack(seeded, EVAL_PACKS / "starehe-furniture", "+254711000660")


@pytest.fixture
def driving(seeded: Services) -> Chat:
    """A customer of a driving school that books lessons with its instructors and sells handbooks and learner gear."""
    return chat_at_pack(seeded, EVAL_PACKS / "usukani-driving", "+254711000661")


@pytest.fixture
def party(seeded: Services) -> Chat:
    """A customer of a party-supplies shop that sells balloons and costumes and books hire and set-up."""
    return chat_at_pack(seeded, EVAL_PACKS / "sherehe-party", "+254711000642")


@pytest.fixture
def paints(seeded: Services) -> Chat:
    """A customer of a paint and decor shop in Kariakor that sells by brand, colour and tin size, in Swahili first."""
    return chat_at_pack(seeded, EVAL_PACKS / "rangi-paints", "+254711000680")


@pytest.fixture
def tailor(seeded: Services) -> Chat:
    """A customer of a tailor on Moi Avenue that books fittings and sells ready-to-wear clothes by size and print."""
    return chat_at_pack(seeded, EVAL_PACKS / "mshono-tailors", "+254711000691")


@pytest.fixture
def garage(seeded: Services) -> Chat:
    """A customer of a garage in Industrial Area that books mechanics and sells parts."""
    return chat_at_pack(seeded, EVAL_PACKS / "fundi-motors", "+254711000692")


@pytest.fixture
def bathrooms(seeded: Services) -> Chat:
    """A customer of a sanitary-ware and tiles shop on Kirinyaga Road that sells by size, colour and finish."""
    return chat_at_pack(seeded, EVAL_PACKS / "bafu-bora", "+254711000693")


@pytest.fixture
def computers(seeded: Services) -> Chat:
    """A customer of a computer shop on Moi Avenue that books repairs with its technicians and sells laptops."""
    return chat_at_pack(seeded, EVAL_PACKS / "tarakilishi-tech", "+254711000694")


@pytest.fixture
def vets(seeded: Services) -> Chat:
    """A customer of a vet clinic on Kiambu Road that books its vets and sells pet and livestock medicines."""
    return chat_at_pack(seeded, EVAL_PACKS / "tiba-vet", "+254711000695")


@pytest.fixture(scope="module")
def paint_index() -> CatalogIndex:
    """The paint shop's catalog index."""
    pack = load_pack(EVAL_PACKS / "rangi-paints")
    return CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphSimulator]:
    with GraphSimulator() as sim:
        yield sim


@pytest.fixture
def setup(seeded: Services, clock: Clock, graph: GraphSimulator, chat: Chat) -> Iterator[dict[str, Any]]:
    graph.sent.clear()
    sqs = BOTO.client("sqs")
    url = create_queues(sqs, "test-")[INBOUND.logical_name]
    callbacks = PaymentCallbacks(services=seeded, queue=InboundQueue(sqs, url), clock=clock)
    with httpx.Client(timeout=5, verify=TLS) as http:
        agent = AgentService(
            services=seeded,
            conversations=chat.conversations,
            messages=MessageRepo(seeded.db),
            sender=WhatsAppSender(http, graph.base_url, backoff_seconds=0.0),
            default_token="test-graph-token",
            clock=clock,
        )
        yield {"callbacks": callbacks, "pipe": Pipeline(None, agent, sqs, url, graph)}  # type: ignore[arg-type]


@pytest.fixture
def pipe(seeded: Services, clock: Clock) -> Pipe:
    sqs = BOTO.client("sqs")
    url = create_queues(sqs, "test-")[INBOUND.logical_name]
    service = WebhookService(
        app_secret=SECRET,
        verify_token=TOKEN,
        tenant_for_phone_number_id=seeded.tenants.tenant_for_phone_number_id,
        messages=MessageRepo(seeded.db),
        queue=InboundQueue(sqs, url),
        clock=clock,
    )
    return Pipe(service, sqs, url, seeded)


# a shop's pipeline with fair use counted and the bedrock engine on a scripted model with no answers (a call to it
# fails the turn: what never calls a model is proven so); the customer's number and what they are told
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
    with httpx.Client(timeout=5, verify=TLS) as http:
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


def says(pipe: Pipeline, text: str, mid: str) -> list[str]:
    before = len(pipe.replies_to(CUSTOMER))
    pipe.customer_sends(value(text_message(text, mid=mid, sender=CUSTOMER)))
    assert pipe.run_agent() == {"batchItemFailures": []}
    return pipe.replies_to(CUSTOMER)[before:]
