"""Alerts for the shop's staff, through the real parts: a customer's message through the webhook and the agent, M-Pesa
confirmations through the payments function, the outreach worker (the agent function's second event source, fed
from moto's SQS) delivering each alert to a Web Push service stand-in that verifies the VAPID signature and
decrypts the message as a device would (``tulia.local.simulators.push``), and to the owner's own WhatsApp number
on the Graph API simulator; the admin API for what each person chose, their devices and their unread badges."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.conftest import BOTO, SHOP, Clock
from tests.integration.test_broadcasts import world  # noqa: F401 - the fixture
from tests.integration.test_payments_callbacks import c2b, c2b_body
from tests.integration.test_reaching_customers import Admin, shown
from tests.integration.test_webhook import text_message, value
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.channel.webpush import VapidKey, WebPushSender
from tulia.domain.common import NAIROBI
from tulia.local.simulators.push import PushService
from tulia.pipeline import agent_app
from tulia.pipeline.alerts import AlertDelivery
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.queues import OutreachQueue
from tulia.store.staff import StaffMember, StaffRepo

CONSOLE = "https://console.duka.example/"
OWNER_WHATSAPP = "254722000111"


class Office:
    """The shop's staff as the alerts meet them: their admin API, their devices, the outreach worker."""

    def __init__(self, scene: dict[str, Any], seeded: Services, push: PushService, key: VapidKey) -> None:
        self.pipe, self.push, self.seeded = scene["pipe"], push, seeded
        self.sqs, self.url = BOTO.client("sqs"), scene["outreach"].url
        seeded.alerts.deliver = OutreachQueue(self.sqs, self.url).send
        self.worker = agent_app.outreach_of(
            self.pipe.agent,
            AlertDelivery(
                services=seeded,
                sender=self.pipe.agent.sender,
                default_token="test-graph-token",
                push=WebPushSender(httpx.Client(timeout=5), key, ("127.0.0.1",)),
                console_url=CONSOLE,
                clock=seeded.clock,
            ),
        )
        deps = AdminDeps(
            services=seeded, audit=AuditRepo(seeded.db), push_key=key.public_key, push_hosts=("127.0.0.1",)
        )
        self.admin = Admin(build_admin_api(deps))
        for role in ("owner", "agent"):
            member = StaffMember(email=f"{role}@shop.example", role=role, invited_at=seeded.clock())  # type: ignore[arg-type]
            StaffRepo(seeded.db).save(SHOP, member)

    def device(self, role: str) -> dict[str, Any]:
        """A browser of this person turns alerts on (what the console posts from ``pushManager.subscribe``)."""
        subscription = self.push.subscribe()
        status, answer = self.admin("POST", "/admin/alerts/devices", {**subscription, "label": "Phone"}, role=role)
        assert status == 200, answer
        return subscription

    def deliver(self) -> list[str]:
        """Run the outreach queue's staff alerts as the agent function would; what the worker said of each."""
        outcomes = []
        while True:
            got = self.sqs.receive_message(QueueUrl=self.url, MaxNumberOfMessages=10, WaitTimeSeconds=0)
            messages = [m for m in got.get("Messages", []) if json.loads(m["Body"])["kind"] == "staff_alert"]
            if not got.get("Messages"):
                return outcomes
            for m in messages:
                outcomes.append(self.worker.run(json.loads(m["Body"])))
            for m in got["Messages"]:
                self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=m["ReceiptHandle"])

    def whatsapp_alerts(self) -> list[str]:
        graph = self.pipe.graph
        return [shown(graph, m.payload) for m in graph.messages_to(OWNER_WHATSAPP)]


@pytest.fixture
def office(world: dict[str, Any], seeded: Services, clock: Clock) -> Iterator[Office]:  # noqa: F811
    with PushService() as push:
        yield Office(world, seeded, push, VapidKey.generate())


def ask_for_a_person(office: Office, phone: str = "254712345678", name: str = "Wanjiku") -> None:
    asked = text_message("I want to talk to a person", mid=f"wamid.p{phone}", sender=phone)
    office.pipe.customer_sends(value(asked, wa_id=phone, name=name))
    office.pipe.run_agent()


def test_a_customer_asking_for_a_person_reaches_every_device_and_the_owners_whatsapp_once(office: Office) -> None:
    owners_phone, agents_phone = office.device("owner"), office.device("agent")
    status, saved = office.admin(
        "PUT",
        "/admin/alerts/settings",
        {"push": ["handoff"], "whatsapp": ["handoff"], "whatsapp_number": "0722 000 111", "language": "en"},
    )
    assert (status, saved["whatsapp_number"], saved["quiet_hours"]) == (200, "+254722000111", None)

    ask_for_a_person(office)
    status, feed = office.admin("GET", "/admin/alerts")
    assert status == 200
    [alert] = feed["alerts"]
    assert (alert["kind"], alert["customer_name"], feed["unread"]["inbox"]) == ("handoff", "Wanjiku", 1)
    ticket_id = alert["subject"]
    assert ticket_id.startswith("HND-")

    assert office.deliver() == ["pushed 2, whatsapp 1, forgotten 0"]
    [to_owner] = office.push.messages_to(owners_phone)  # decrypted with the device's keys, signature verified
    assert to_owner["title"] == "Wanjiku is waiting for a person"
    assert to_owner["url"] == f"{CONSOLE}inbox/{ticket_id}"
    assert office.push.messages_to(agents_phone)[0]["tag"] == alert["alert_id"]
    assert office.push.refused == []
    [on_whatsapp] = office.whatsapp_alerts()
    assert on_whatsapp == (
        f"Tulia: Wanjiku is waiting for a person. Asked to talk to a person. Open the chat ({ticket_id}). "
        f"Open: {CONSOLE}inbox/{ticket_id}"
    )

    # the queue delivers the same work again (at least once): nobody is told twice
    assert office.worker.run({"kind": "staff_alert", "tenant_id": SHOP, "alert_id": alert["alert_id"]}) == (
        "delivered before"
    )
    assert len(office.push.received) == 2

    status, after = office.admin("POST", "/admin/alerts/seen", {"screen": "inbox"})
    assert (status, after["unread"]["inbox"]) == (200, 0)
    assert office.admin("GET", "/admin/alerts", role="agent")[1]["unread"]["inbox"] == 1  # her own badge


def test_a_screen_is_seen_up_to_what_it_showed_so_an_alert_raised_meanwhile_stays_unread(
    office: Office, clock: Clock
) -> None:
    ask_for_a_person(office, phone="254712000001", name="Akinyi")
    shown = office.admin("GET", "/admin/alerts")[1]
    assert shown["unread"]["inbox"] == 1
    clock.advance(seconds=30)
    ask_for_a_person(office, phone="254712000002", name="Baraka")  # while the console's mark is on its way
    clock.advance(seconds=30)
    status, after = office.admin("POST", "/admin/alerts/seen", {"screen": "inbox", "until": shown["newest"]["inbox"]})
    assert (status, after["unread"]["inbox"]) == (200, 1)  # Baraka is still waiting to be noticed
    late = {"screen": "inbox", "until": (clock.now - timedelta(hours=1)).isoformat()}
    assert office.admin("POST", "/admin/alerts/seen", late)[1]["unread"]["inbox"] == 1  # a late, older mark: no change
    assert office.admin("POST", "/admin/alerts/seen", {"screen": "inbox"})[1]["unread"]["inbox"] == 0


def test_quiet_hours_hold_whatsapp_but_not_the_devices_and_a_forgotten_device_is_dropped(
    office: Office, clock: Clock
) -> None:
    phone = office.device("owner")
    gone = office.device("owner")
    office.push.make_gone(gone)  # she unsubscribed in that browser
    settings = {"push": ["handoff"], "whatsapp": ["handoff"], "whatsapp_number": "+254722000111"}
    assert office.admin("PUT", "/admin/alerts/settings", {**settings, "quiet_hours": "21:00-07:00"})[0] == 200
    clock.now = datetime(2026, 11, 26, 23, 30, tzinfo=NAIROBI)

    ask_for_a_person(office)
    assert office.deliver() == ["pushed 1, whatsapp 0, forgotten 1"]
    assert office.push.messages_to(phone)[0]["title"] == "Wanjiku is waiting for a person"
    assert office.whatsapp_alerts() == []
    devices = office.admin("GET", "/admin/alerts/settings")[1]["devices"]
    assert len(devices) == 1  # the gone one is forgotten


def test_money_in_is_told_and_money_matching_no_order_only_to_owners(
    office: Office, setup: dict[str, Any], seeded: Services
) -> None:
    from tests.integration.test_webhook import SHOP_NUMBER

    owner, agent = office.device("owner"), office.device("agent")
    for n, words in enumerate(("I want an oraimo 20000mAh power bank", "black", "1", "pickup")):
        office.pipe.customer_sends(value(text_message(words, mid=f"wamid.buy{n}"), number=SHOP_NUMBER))
        office.pipe.run_agent()
    customer_id = str(seeded.customers.find_id_by_phone(SHOP, "+254712345678"))
    [order] = seeded.orders.list_for_customer(SHOP, customer_id, limit=1).items
    c2b(setup, seeded, "confirmation", c2b_body(order.order_id, f"{order.amount_due}.00", trans_id="TALERT0001"))
    c2b(setup, seeded, "confirmation", c2b_body("ORD-ZZZZZ", "750.00", trans_id="TALERT0002"))
    office.deliver()

    owners = {m["kind"]: m for m in office.push.messages_to(owner)}
    assert owners["payment"]["title"] == f"Payment: KES {order.amount_due:,}"
    assert owners["payment"]["url"] == f"{CONSOLE}orders/{order.order_id}"
    assert owners["unmatched_payment"]["body"] == "KES 750 came in that matched no order (TALERT0002). See Money."
    assert {m["kind"] for m in office.push.messages_to(agent)} == {"payment"}  # the money screen is the owner's
    assert office.admin("GET", "/admin/alerts", role="agent")[1]["unread"]["money"] == 0
    assert office.admin("GET", "/admin/alerts")[1]["unread"] == {"inbox": 0, "orders": 1, "money": 1, "bookings": 0}


def test_alert_choices_are_checked_and_a_device_must_be_a_push_service(office: Office) -> None:
    bad_hours = {"push": [], "whatsapp": [], "quiet_hours": "late"}
    status, refused = office.admin("PUT", "/admin/alerts/settings", bad_hours)
    assert status == 422, refused
    status, refused = office.admin(
        "PUT", "/admin/alerts/settings", {"push": [], "whatsapp": [], "whatsapp_number": "x"}
    )
    assert status == 422, refused
    elsewhere = {**office.push.subscribe(), "endpoint": "http://169.254.169.254/latest/meta-data"}
    status, refused = office.admin("POST", "/admin/alerts/devices", elsewhere)
    assert (status, refused["field"]) == (422, "endpoint")
    assert office.admin("GET", "/admin/alerts/settings")[1]["devices"] == []
    # in Swahili, and nothing of what the owner turned off
    phone = office.device("owner")
    assert office.admin("PUT", "/admin/alerts/settings", {"push": ["handoff"], "whatsapp": [], "language": "sw"})[
        0
    ] == (200)
    ask_for_a_person(office, name="Baraka")
    office.deliver()
    assert [m["title"] for m in office.push.messages_to(phone)] == ["Baraka anasubiri mtu"]


def test_the_feed_finds_alerts_by_the_moment_whatever_the_offset_of_the_clock(seeded: Services) -> None:
    """The feed's keys are times that sort as strings: written and read in UTC, a question asked in the shop's
    time (+03:00) still finds an alert written in UTC."""
    from datetime import UTC

    from tulia.domain.alerts import handoff_alert
    from tulia.store.alerts import AlertRepo

    repo = AlertRepo(seeded.db)
    assert repo.record(handoff_alert(SHOP, "HND-TZ001", None, datetime(2026, 11, 27, 20, 30, tzinfo=UTC)))
    assert not repo.record(handoff_alert(SHOP, "HND-TZ001", None, datetime(2026, 11, 27, 20, 31, tzinfo=UTC)))
    since_ten_in_nairobi = datetime(2026, 11, 27, 22, 0, tzinfo=NAIROBI)  # 19:00 UTC: before the alert
    assert [a.subject for a in repo.since(SHOP, since_ten_in_nairobi)] == ["HND-TZ001"]
    assert repo.since(SHOP, datetime(2026, 11, 27, 23, 45, tzinfo=NAIROBI)) == []  # 20:45 UTC: after it
