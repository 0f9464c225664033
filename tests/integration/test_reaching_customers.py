"""Reaching a customer after WhatsApp's 24-hour window: the shop's templates (synchronised from the
Graph API simulator's WhatsApp Business Account), staff replies from the inbox, order updates staff
make, payment receipts. Real handlers (admin function, payments function, agent) behind real event
shapes, moto, the Graph API simulator over HTTP; the clock is moved by hand."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest

from tests.chat import Chat
from tests.conftest import BOTO, SALON, SHOP, Clock
from tests.integration.test_agent import Pipeline
from tests.integration.test_launch_checklist import buy_a_power_bank_for_pickup, start_stk
from tests.integration.test_payments_callbacks import PHONE, c2b, c2b_body
from tests.integration.test_webhook import api_event
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.admin.handoffs import WhatsAppAccess
from tulia.channel.graph_api import SendFailed, WhatsAppSender
from tulia.channel.window import TemplateCall, plan
from tulia.domain.templates import MessageTemplate
from tulia.local.simulators.graph import GraphSimulator
from tulia.nlg.messages import text
from tulia.pipeline import admin_app
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.messages import MessageRepo
from tulia.store.queues import InboundQueue

SHOP_NUMBER = "106540352242922"
CUSTOMER = "+254712345678"


class Admin:
    def __init__(self, api: Any, tenant_id: str = SHOP) -> None:
        self.api, self.tenant_id = api, tenant_id

    def __call__(
        self, method: str, path: str, body: Any = None, role: str = "owner", email: str | None = None
    ) -> tuple[int, Any]:
        raw = json.dumps(body).encode() if body is not None else None
        path, _, query = path.partition("?")
        params = dict(parse_qsl(query)) or None
        event = api_event(method, path=path, body=raw, headers={"content-type": "application/json"}, params=params)
        claims = {
            "sub": f"u-{role}",
            "email": email or f"{role}@shop.example",
            "custom:tenant_id": self.tenant_id,
            "cognito:groups": f"[{role}]",
        }
        event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
        response = admin_app.handle(event, self.api)
        return response["statusCode"], json.loads(response["body"])


@pytest.fixture
def world(seeded: Services, setup: dict[str, Any], http_client: httpx.Client) -> dict[str, Any]:
    pipe: Pipeline = setup["pipe"]
    pipe.graph.last_inbound.clear()
    deps = AdminDeps(
        services=seeded,
        audit=AuditRepo(seeded.db),
        whatsapp=WhatsAppAccess(http_client, pipe.graph.base_url, "test-graph-token"),
        notify=InboundQueue(BOTO.client("sqs"), pipe.url),
    )
    api = build_admin_api(deps)
    return {"admin": Admin(api), "salon_admin": Admin(api, SALON), "pipe": pipe, "seeded": seeded}


@pytest.fixture
def http_client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=5) as client:
        yield client


def customer_wrote(seeded: Services, at: Any, phone: str = CUSTOMER) -> None:
    """What the webhook records for every message a customer sends."""
    MessageRepo(seeded.db).note_inbound(SHOP, phone, at=at)


def sent_to(graph: GraphSimulator, phone: str = PHONE) -> list[dict[str, Any]]:
    return [m.payload for m in graph.messages_to(phone)]


def shown(graph: GraphSimulator, payload: dict[str, Any]) -> str:
    if payload["type"] == "template":
        return graph.template_text(payload)
    return str(payload["text"]["body"] if payload["type"] == "text" else payload["interactive"]["body"]["text"])


def paid_order(chat: Chat, seeded: Services, setup: dict[str, Any], trans_id: str) -> str:
    ref = buy_a_power_bank_for_pickup(chat)
    due = seeded.orders.get(SHOP, ref).amount_due
    assert c2b(setup, seeded, "confirmation", c2b_body(ref, f"{due}.00", trans_id=trans_id))["ResultCode"] == 0
    assert seeded.orders.get(SHOP, ref).status == "paid"
    return ref


# the rule ----------------------------------------------------------------------------------------
TEMPLATES = [
    MessageTemplate(name="staff_reply", language="en", category="utility", status="approved", body="Hi {{1}}: {{2}}"),
    MessageTemplate(
        name="staff_reply", language="sw", category="utility", status="pending", body="Habari {{1}}: {{2}}"
    ),
    MessageTemplate(name="weekly_offer", language="en", category="marketing", status="approved", body="{{1}}"),
]


def _plan(minutes_since: float | None, call: TemplateCall | None, clock: Clock, lang: str = "en") -> Any:
    now = clock()
    last = None if minutes_since is None else now - timedelta(minutes=minutes_since)
    return plan(
        last_inbound_at=last,
        now=now,
        free_form=[text("Your answer").to_whatsapp(to=CUSTOMER)],
        template=call,
        templates=lambda: TEMPLATES,
        lang=lang,
        default_lang="en",
        to={"to": CUSTOMER},
    )


def test_the_window_rule_free_form_until_24_hours_then_the_approved_template(clock: Clock) -> None:
    call = TemplateCall("staff_reply", ["Wanjiku", "Your answer"])
    inside = _plan(23 * 60 + 59, call, clock)
    assert (inside.mode, inside.payloads[0]["text"]["body"]) == ("free_form", "Your answer")
    outside = _plan(24 * 60 + 1, call, clock)
    assert outside.mode == "template"
    assert outside.payloads[0]["template"] == {
        "name": "staff_reply",
        "language": {"code": "en"},
        "components": [
            {
                "type": "body",
                "parameters": [{"type": "text", "text": "Wanjiku"}, {"type": "text", "text": "Your answer"}],
            }
        ],
    }
    assert outside.preview == "Hi Wanjiku: Your answer"
    # a Swahili speaker: the Swahili template is still pending, so the approved English one goes
    assert _plan(24 * 60 + 1, call, clock, lang="sw").payloads[0]["template"]["language"] == {"code": "en"}
    never_wrote = _plan(None, call, clock)
    assert never_wrote.mode == "template"


def test_a_missing_or_unfit_template_is_a_structured_refusal(clock: Clock) -> None:
    missing = _plan(25 * 60, TemplateCall("order_update", ["Wanjiku", "ORD-1", "is on its way"]), clock)
    assert missing.mode == "refused"
    assert missing.payloads == []
    assert (missing.refusal["code"], missing.refusal["template"]) == ("template_missing", "order_update")
    marketing = _plan(25 * 60, TemplateCall("weekly_offer", ["x"], marketing=False), clock)
    assert marketing.refusal["code"] == "template_category"
    wrong_count = _plan(25 * 60, TemplateCall("staff_reply", ["only one"]), clock)
    assert wrong_count.refusal["code"] == "template_parameters"
    assert _plan(25 * 60, None, clock).refusal["code"] == "outside_window"


# the Graph API simulator behaves like Meta ------------------------------------------------------
def test_the_simulator_refuses_free_form_after_24_hours_like_meta(graph: GraphSimulator) -> None:
    sender = WhatsAppSender(httpx.Client(timeout=5), graph.base_url, backoff_seconds=0.0)
    late, recent = "254700555001", "254700555002"
    graph.note_inbound(SHOP_NUMBER, late, time.time() - 24 * 3600 - 60)
    graph.note_inbound(SHOP_NUMBER, recent, time.time() - 23 * 3600)
    with pytest.raises(SendFailed) as refused:
        sender.send(SHOP_NUMBER, "test-graph-token", text("Hello again").to_whatsapp(to=late))
    assert (refused.value.code, refused.value.retryable) == (131047, False)
    assert sender.send(SHOP_NUMBER, "test-graph-token", text("Hello").to_whatsapp(to=recent)).startswith("wamid.")
    template = {
        "messaging_product": "whatsapp",
        "to": late,
        "type": "template",
        "template": {
            "name": "order_update",
            "language": {"code": "en"},
            "components": [
                {
                    "type": "body",
                    "parameters": [{"type": "text", "text": t} for t in ("Wanjiku", "ORD-1", "is on its way")],
                }
            ],
        },
    }
    sender.send(SHOP_NUMBER, "test-graph-token", template)
    [delivered] = [m.payload for m in graph.messages_to(late)]
    assert (
        graph.template_text(delivered)
        == "Hello Wanjiku, your order ORD-1 is on its way. Reply here if you have a question."
    )
    with pytest.raises(SendFailed) as unknown:
        sender.send(SHOP_NUMBER, "test-graph-token", {**template, "template": {**template["template"], "name": "nope"}})
    assert unknown.value.code == 132001
    short = {**template["template"], "components": [{"type": "body", "parameters": []}]}
    with pytest.raises(SendFailed) as wrong:
        sender.send(SHOP_NUMBER, "test-graph-token", {**template, "template": short})
    assert wrong.value.code == 132000


# templates in the admin API --------------------------------------------------------------------
def test_templates_are_synchronised_submitted_and_deleted_through_the_admin_api(world: dict[str, Any]) -> None:
    admin = world["admin"]
    assert admin("GET", "/admin/templates") == (200, {"items": [], "cursor": None})
    status, synced = admin("POST", "/admin/templates/sync")
    assert status == 200, synced
    names = {(t["name"], t["language"], t["status"]) for t in synced["templates"]}
    assert ("order_update", "sw", "approved") in names
    assert ("weekly_offer", "en", "approved") in names
    assert synced["added"] == len(names)
    status, created = admin(
        "POST",
        "/admin/templates",
        {"name": "back_in_stock", "language": "en", "category": "marketing", "body": "{{1}} is back: {{2}}"},
    )
    assert (status, created["status"]) == (200, "pending")
    assert (
        admin("POST", "/admin/templates", {"name": "Bad Name", "language": "en", "category": "utility", "body": "x"})[0]
        == 422
    )
    status, again = admin("POST", "/admin/templates/sync")  # Meta's review is done: approved now
    assert (again["added"], again["changed"]) == (0, 1)
    assert {(t["name"], t["status"]) for t in again["templates"] if t["name"] == "back_in_stock"} == {
        ("back_in_stock", "approved")
    }
    assert admin("DELETE", "/admin/templates/back_in_stock")[0] == 200
    assert "back_in_stock" not in {t["name"] for t in admin("GET", "/admin/templates")[1]["items"]}
    assert admin("DELETE", "/admin/templates/back_in_stock")[0] == 404
    assert admin("POST", "/admin/templates/sync", role="agent")[0] == 403
    assert world["salon_admin"]("GET", "/admin/templates")[1]["items"] == []  # the salon has its own list


# staff replies from the inbox -------------------------------------------------------------------
def _ticket(chat: Chat, seeded: Services) -> str:
    chat.send("I want to talk to a person")
    customer = seeded.customers.get(SHOP, chat.state["customer_id"])
    assert customer.handoff_ticket_id
    return str(customer.handoff_ticket_id)


def test_a_staff_reply_at_23h59_is_free_form_and_at_24h01_the_staff_reply_template(
    world: dict[str, Any], chat: Chat, clock: Clock
) -> None:
    admin, seeded, graph = world["admin"], world["seeded"], world["pipe"].graph
    admin("POST", "/admin/templates/sync")
    ticket = _ticket(chat, seeded)
    customer_wrote(seeded, clock.now)
    clock.advance(hours=23, minutes=59)
    status, after = admin("POST", f"/admin/handoffs/{ticket}/reply", {"text": "Your phone is ready."}, role="agent")
    assert status == 200, after
    assert [shown(graph, p) for p in sent_to(graph)] == ["Your phone is ready."]
    clock.advance(minutes=2)
    status, after = admin("POST", f"/admin/handoffs/{ticket}/reply", {"text": "We close at 6 pm."}, role="agent")
    assert status == 200, after
    last = sent_to(graph)[-1]
    assert (last["type"], last["template"]["name"]) == ("template", "staff_reply")
    shop_name = seeded.tenants.get(SHOP).name
    assert shown(graph, last) == f"Hello there, {shop_name} has replied to your request: We close at 6 pm."
    assert after["transcript"][-1]["text"] == shown(graph, last)  # the shop sees what the customer read


def test_outside_the_window_without_the_template_a_reply_is_refused_and_nothing_is_sent(
    world: dict[str, Any], chat: Chat, clock: Clock
) -> None:
    admin, seeded, graph = world["admin"], world["seeded"], world["pipe"].graph
    ticket = _ticket(chat, seeded)  # no template synchronised
    customer_wrote(seeded, clock.now)
    clock.advance(hours=24, minutes=1)
    status, refused = admin("POST", f"/admin/handoffs/{ticket}/reply", {"text": "Hello?"})
    assert status == 422
    assert (refused["code"], refused["details"]["template"]) == ("template_missing", "staff_reply")
    assert "staff_reply" in refused["message"]
    assert sent_to(graph) == []


def test_when_meta_says_the_window_closed_the_reply_goes_as_the_template(
    world: dict[str, Any], chat: Chat, clock: Clock
) -> None:
    admin, seeded, graph = world["admin"], world["seeded"], world["pipe"].graph
    admin("POST", "/admin/templates/sync")
    ticket = _ticket(chat, seeded)
    customer_wrote(seeded, clock.now)  # our record says the window is open...
    graph.note_inbound(SHOP_NUMBER, PHONE, time.time() - 30 * 3600)  # ...Meta's says it closed
    status, after = admin("POST", f"/admin/handoffs/{ticket}/reply", {"text": "Still there?"})
    assert status == 200, after
    [payload] = sent_to(graph)
    assert payload["template"]["name"] == "staff_reply"


# order updates -----------------------------------------------------------------------------------
def test_order_updates_reach_the_customer_in_english_at_each_step(
    world: dict[str, Any], chat: Chat, setup: dict[str, Any], clock: Clock
) -> None:
    admin, seeded, pipe = world["admin"], world["seeded"], world["pipe"]
    ref = paid_order(chat, seeded, setup, "TUPD000001")
    customer_wrote(seeded, clock.now)
    pipe.run_agent()  # the receipt
    before = len(sent_to(pipe.graph))
    status, detail = admin("POST", f"/admin/orders/{ref}/confirm", role="agent")
    assert (status, detail["order"]["fulfilment_status"]) == (200, "processing")
    assert admin("POST", f"/admin/orders/{ref}/dispatch")[0] == 422  # a pickup order is not dispatched
    assert admin("POST", f"/admin/orders/{ref}/ready")[1]["order"]["fulfilment_status"] == "ready_for_pickup"
    status, detail = admin("POST", f"/admin/orders/{ref}/deliver")
    assert (detail["order"]["status"], detail["order"]["fulfilment_status"]) == ("fulfilled", "delivered")
    assert admin("POST", f"/admin/orders/{ref}/deliver")[0] == 200  # asking again is fine...
    pipe.run_agent()
    told = [shown(pipe.graph, p) for p in sent_to(pipe.graph)[before:]]
    tenant = seeded.tenants.get(SHOP)
    address = tenant.text(tenant.pickup.address, "en")
    assert told == [  # ...and the customer hears each step once, in order
        f"Your order {ref} is confirmed and being prepared. We'll tell you when it's ready.",
        f"Your order {ref} is ready for pickup at {address}. Bring the order number with you.",
        f"Your order {ref} has been delivered. Thank you for shopping with {tenant.name}!",
    ]
    assert world["salon_admin"]("POST", f"/admin/orders/{ref}/confirm")[0] == 404


def test_a_swahili_customer_gets_order_updates_in_swahili_and_a_template_after_24_hours(
    world: dict[str, Any], seeded: Services, setup: dict[str, Any], clock: Clock
) -> None:
    admin, pipe = world["admin"], world["pipe"]
    admin("POST", "/admin/templates/sync")
    chat = Chat(setup["pipe"].agent.conversations)
    ref = paid_order(chat, seeded, setup, "TUPD000002")
    assert ref in chat.send("Habari, oda yangu iko wapi?")  # the conversation is in Swahili now
    customer_wrote(seeded, clock.now)
    pipe.run_agent()
    before = len(sent_to(pipe.graph))
    admin("POST", f"/admin/orders/{ref}/confirm")
    pipe.run_agent()
    clock.advance(hours=25)
    admin("POST", f"/admin/orders/{ref}/ready")
    pipe.run_agent()
    confirmed, ready = sent_to(pipe.graph)[before:]
    assert shown(pipe.graph, confirmed) == f"Oda yako {ref} imethibitishwa na inaandaliwa. Tutakujulisha ikiwa tayari."
    assert (ready["type"], ready["template"]["name"], ready["template"]["language"]) == (
        "template",
        "order_update",
        {"code": "sw"},
    )
    assert shown(pipe.graph, ready) == f"Habari mteja, oda yako {ref} iko tayari kuchukuliwa. Jibu hapa kama una swali."


def test_without_the_preference_only_a_cancellation_is_sent(
    world: dict[str, Any], chat: Chat, setup: dict[str, Any], clock: Clock
) -> None:
    admin, seeded, pipe = world["admin"], world["seeded"], world["pipe"]
    ref = paid_order(chat, seeded, setup, "TUPD000003")
    chat.send("stop sending order updates")
    assert not seeded.customers.get(SHOP, chat.state["customer_id"]).notification_prefs.order_updates_whatsapp
    customer_wrote(seeded, clock.now)
    pipe.run_agent()
    before = len(sent_to(pipe.graph))
    admin("POST", f"/admin/orders/{ref}/confirm")
    pipe.run_agent()
    assert sent_to(pipe.graph)[before:] == []  # the agent has run: nothing went
    unpaid = buy_a_power_bank_for_pickup(chat)
    admin("POST", f"/admin/orders/{unpaid}/cancel")
    pipe.run_agent()
    [cancelled] = sent_to(pipe.graph)[before:]
    assert shown(pipe.graph, cancelled) == f"Your order {unpaid} has been cancelled. Reply here if you have a question."


def test_a_paybill_payment_days_later_gets_the_receipt_template(
    world: dict[str, Any], chat: Chat, setup: dict[str, Any], clock: Clock
) -> None:
    admin, seeded, pipe = world["admin"], world["seeded"], world["pipe"]
    admin("POST", "/admin/templates/sync")
    ref = buy_a_power_bank_for_pickup(chat)
    customer_wrote(seeded, clock.now)
    clock.advance(days=3)
    due = seeded.orders.get(SHOP, ref).amount_due
    assert c2b(setup, seeded, "confirmation", c2b_body(ref, f"{due}.00", trans_id="TLATE00001"))["ResultCode"] == 0
    pipe.run_agent()
    [receipt] = sent_to(pipe.graph)
    assert receipt["template"]["name"] == "payment_receipt"
    assert shown(pipe.graph, receipt) == (
        f"Hello there, we received KES {due:,} for order {ref}. Thank you! Receipt: TLATE00001."
    )


def test_an_order_update_meta_refuses_as_late_goes_again_as_the_template(
    world: dict[str, Any], chat: Chat, setup: dict[str, Any], clock: Clock
) -> None:
    admin, seeded, pipe = world["admin"], world["seeded"], world["pipe"]
    admin("POST", "/admin/templates/sync")
    ref = paid_order(chat, seeded, setup, "TUPD000004")
    customer_wrote(seeded, clock.now)
    pipe.run_agent()
    before = len(sent_to(pipe.graph))
    pipe.graph.note_inbound(SHOP_NUMBER, PHONE, time.time() - 26 * 3600)  # Meta counts from an older message
    admin("POST", f"/admin/orders/{ref}/confirm")
    assert pipe.run_agent() == {"batchItemFailures": []}
    [update] = sent_to(pipe.graph)[before:]
    assert shown(pipe.graph, update) == (
        f"Hello there, your order {ref} is confirmed and being prepared. Reply here if you have a question."
    )
    outbox = MessageRepo(seeded.db).get_outbox(SHOP, f"upd-{ref}-confirmed")
    assert outbox is not None
    assert outbox["sent"][0].startswith("template:wamid.")


def test_an_erased_customer_leaves_the_books_their_sale_without_number_address_or_words(
    world: dict[str, Any], chat: Chat, setup: dict[str, Any]
) -> None:
    from tulia.store.orders import OrderRepo
    from tulia.store.tables import ORDERS

    admin, seeded = world["admin"], world["seeded"]
    ref = start_stk(chat)  # an M-Pesa prompt to the customer's number: the payment holds the number
    order = seeded.orders.get(SHOP, ref)
    where = order.delivery.model_copy(update={"address_text": "Hse 4, Ngong Rd", "location_hint": "blue gate"})
    seeded.db.put(ORDERS, OrderRepo.to_item(order.model_copy(update={"delivery": where, "notes": "call me"})))
    ticket = _ticket(chat, seeded)
    chat.send("I live at Hse 4, Ngong Rd, call me on 0712345678")  # the customer's own words on the ticket
    assert seeded.handoffs.get(SHOP, ticket).transcript
    customer_id = chat.state["customer_id"]
    _order, payments = seeded.orders.get_with_payments(SHOP, ref)
    assert any(p.msisdn for p in payments)  # the payer's number is on the books before
    number = seeded.customers.get(SHOP, customer_id).phone_e164
    assert number is not None
    assert seeded.customers.find_id_by_phone(SHOP, number) == customer_id

    status, erased = admin("POST", f"/admin/customers/{customer_id}/erase", {"confirm": True})
    assert status == 200, erased
    kept, payments = seeded.orders.get_with_payments(SHOP, ref)
    assert (kept.status, kept.totals) == (order.status, order.totals)  # the sale stays on the books
    assert (kept.delivery.address_text, kept.delivery.location_hint, kept.notes) == (None, None, None)
    assert payments
    assert all(p.msisdn is None for p in payments)
    words = {e.text for e in seeded.handoffs.get(SHOP, ticket).transcript}
    assert words == {"[erased]"}
    assert seeded.customers.find_id_by_phone(SHOP, number) is None  # nothing finds them by their number
    assert admin("GET", f"/admin/customers/{customer_id}")[0] == 404


def test_money_given_back_is_told_to_the_customer_once(
    world: dict[str, Any], chat: Chat, setup: dict[str, Any], clock: Clock
) -> None:
    """Issue 33 part 6: recording a refund did not tell the customer."""
    admin, seeded, pipe = world["admin"], world["seeded"], world["pipe"]
    ref = paid_order(chat, seeded, setup, "TREF000001")
    due = seeded.orders.get(SHOP, ref).totals.total
    # the customer pays again by Paybill: money owed back, for the owner to give back
    assert c2b(setup, seeded, "confirmation", c2b_body(ref, f"{due}.00", trans_id="TREF000002"))["ResultCode"] == 0
    customer_wrote(seeded, clock.now)
    pipe.run_agent()  # the receipts
    [owed] = seeded.payments.open_owed_back_of(SHOP, ref)
    before = len(sent_to(pipe.graph))
    path = f"/admin/payments/overpayments/{owed.method}/{owed.provider_ref}/close"
    assert admin("POST", path, {"outcome": "refunded", "note": "M-Pesa reversal"})[0] == 200
    assert admin("POST", path, {"outcome": "refunded", "note": "M-Pesa reversal"})[0] == 200  # asked again: once
    pipe.run_agent()
    told = [shown(pipe.graph, p) for p in sent_to(pipe.graph)[before:]]
    assert told == [f"We have sent back KES {due:,} for your order {ref}. Reply here if you have a question."]
