"""A location pin instead of an address (issue 35, part 5): through the webhook and the agent, a pin inside one of
the shop's delivery zones (drawn on the map in its pack) becomes the order's delivery place, with the zone's fee
from the tool; a pin outside every zone is told so with the zones offered; a pin without coordinates is the polite
"could not read that"."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.chat import Chat
from tests.conftest import BOTO, Clock
from tests.integration.test_agent import Pipeline
from tests.integration.test_webhook import SECRET, TOKEN, text_message, value
from tulia.channel.graph_api import WhatsAppSender
from tulia.local.simulators.graph import GraphSimulator
from tulia.pipeline.agent import AgentService
from tulia.pipeline.webhook import WebhookService
from tulia.services import Services
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, InboundQueue, create_queues

CUSTOMER = "254712345678"


def pin(lat: float, lon: float, mid: str, name: str | None = None, address: str | None = None) -> dict[str, Any]:
    location: dict[str, Any] = {"latitude": lat, "longitude": lon}
    if name:
        location["name"] = name
    if address:
        location["address"] = address
    return {"id": mid, "timestamp": str(int(time.time())), "type": "location", "location": location, "from": CUSTOMER}


def sends(pipe: Pipeline, message: dict[str, Any]) -> list[str]:
    before = len(pipe.replies_to(CUSTOMER))
    pipe.customer_sends(value(message))
    assert pipe.run_agent() == {"batchItemFailures": []}
    return pipe.replies_to(CUSTOMER)[before:]


@pytest.fixture
def pipe(seeded: Services, clock: Clock, graph: GraphSimulator, chat: Chat) -> Iterator[Pipeline]:
    """Signed webhooks in, the agent with the rules engine, replies at the Graph simulator."""
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
            conversations=chat.conversations,
            messages=MessageRepo(seeded.db),
            sender=WhatsAppSender(http, graph.base_url, backoff_seconds=0.0),
            default_token="test-graph-token",
            clock=clock,
        )
        yield Pipeline(hook, agent, sqs, url, graph)


def says(pipe: Pipeline, words: str, mid: str) -> list[str]:
    return sends(pipe, text_message(words, mid=mid, sender=CUSTOMER))


def basket_asking_delivery(pipe: Pipeline) -> None:
    says(pipe, "I want an oraimo 20000mAh power bank", "wamid.t1")
    says(pipe, "black", "wamid.t2")
    asked = says(pipe, "1", "wamid.t3")
    assert asked[-1] == "Would you like delivery or will you pick it up at our shop?"


def test_a_pin_inside_a_zone_is_the_orders_delivery_place_with_the_zones_fee(pipe: Pipeline, seeded: Services) -> None:
    basket_asking_delivery(pipe)
    summary, ask_payment = sends(
        pipe, pin(-1.2925, 36.7880, "wamid.pin", name="Yaya Centre", address="Argwings Kodhek Rd")
    )
    assert "Delivery (Nairobi West, same day or next morning): KES 300" in summary
    assert ask_payment == "How would you like to pay KES 2,910?"
    ref = summary.split()[1]
    order = seeded.orders.get("demo-shop", ref)
    assert (order.delivery.mode, order.delivery.zone, order.delivery.fee) == ("delivery", "Nairobi West", 300)
    assert order.delivery.address_text == "Yaya Centre, Argwings Kodhek Rd (-1.29250, 36.78800)"


def test_a_pin_sent_before_anything_is_chosen_is_where_the_order_goes(pipe: Pipeline, seeded: Services) -> None:
    assert sends(pipe, pin(-1.2860, 36.8230, "wamid.pin", name="Hilton")) == [
        "Got it, we deliver there (Nairobi CBD): your order will come to the place you pinned.",
        "Sure! What are you looking for?",
    ]
    says(pipe, "I want an oraimo 20000mAh power bank", "wamid.t1")
    says(pipe, "black", "wamid.t2")
    summary = says(pipe, "1", "wamid.t3")[0]
    assert "Delivery (Nairobi CBD, same day if paid before 4pm): KES 150" in summary  # not asked again


def test_a_pin_outside_every_zone_is_told_so_and_the_zones_are_offered(pipe: Pipeline, seeded: Services) -> None:
    basket_asking_delivery(pipe)
    told, asked = sends(pipe, pin(0.3476, 32.5825, "wamid.pin", name="Kampala Road"))
    assert told == 'Sorry, we don\'t deliver to "Kampala Road". These are the areas we deliver to:'
    assert asked == "Where should we deliver? Choose your area, or send it with a landmark."
    [zones] = [s.payload for s in pipe.graph.messages_to(CUSTOMER) if s.payload["type"] == "interactive"][-1:]
    rows = [r["title"] for r in zones["interactive"]["action"]["sections"][0]["rows"]]
    assert rows[:2] == ["Nairobi CBD", "Nairobi West"]
    # a pin inside a zone then answers the question
    summary = sends(pipe, pin(-1.2850, 36.8790, "wamid.pin2", name="Buruburu Phase 1"))[0]
    assert "Delivery (Eastlands, next day): KES 350" in summary


def test_a_pin_without_coordinates_is_the_polite_could_not_read(pipe: Pipeline) -> None:
    broken = {"id": "wamid.bad", "timestamp": "1", "type": "location", "location": {"latitude": "x"}, "from": CUSTOMER}
    assert sends(pipe, broken) == [
        "I can read text, photos and voice notes, but not this kind of file. Please type what you need."
    ]
