"""Every conversation of the shop, as staff read it in the console: through the real parts (the signed webhook,
the agent function, the payments function, the admin API), the Graph API simulator over HTTP, moto. What the
customer wrote, what the bot and a person sent and the events between are kept in order, once; a person takes a
conversation over and hands it back; notes, quick replies, search, filters; an erasure takes it all."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.conftest import SHOP, Caller, Clock, new_customer
from tests.integration.test_broadcasts import world  # noqa: F401 - the fixture
from tests.integration.test_payments_callbacks import c2b, c2b_body
from tests.integration.test_reaching_customers import sent_to, shown
from tests.integration.test_webhook import text_message, value
from tulia.domain.thread import ThreadEntry
from tulia.services import Services


@pytest.fixture
def scene(world: dict[str, Any]) -> dict[str, Any]:  # noqa: F811 - the fixture imported above
    return world


WANJIKU, OTIENO = "254712345678", "254733111222"


def says(scene: dict[str, Any], words: str, mid: str, phone: str = WANJIKU, name: str = "Wanjiku") -> None:
    pipe = scene["pipe"]
    pipe.customer_sends(value(text_message(words, mid=mid, sender=phone), wa_id=phone, name=name))
    pipe.run_agent()


def conversation(scene: dict[str, Any], customer_id: str, role: str = "owner") -> dict[str, Any]:
    status, body = scene["shop"]("GET", f"/admin/conversations/{customer_id}", role=role)
    assert status == 200, body
    return body


def listed(scene: dict[str, Any], query: str = "") -> list[dict[str, Any]]:
    status, page = scene["shop"]("GET", f"/admin/conversations{'?' + query if query else ''}")
    assert status == 200, page
    return list(page["items"])


def customer_id_of(seeded: Services, phone: str = WANJIKU) -> str:
    found = seeded.customers.find_id_by_phone(SHOP, "+" + phone)
    assert found is not None
    return found


def lines(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["role"], e["event"] if e["role"] == "event" else e["text"]) for e in body["entries"]]


def buy_a_power_bank(scene: dict[str, Any]) -> None:
    says(scene, "I want an oraimo 20000mAh power bank", "wamid.b1")
    says(scene, "black", "wamid.b2")
    says(scene, "1", "wamid.b3")
    says(scene, "pickup", "wamid.b4")


def test_what_the_customer_wrote_and_the_bot_answered_is_one_conversation_in_order(
    scene: dict[str, Any], seeded: Services
) -> None:
    says(scene, "Hello, do you sell power banks?", "wamid.c1")
    says(scene, "I want an oraimo 20000mAh power bank", "wamid.c2")
    body = conversation(scene, customer_id_of(seeded))
    said = lines(body)
    assert [r for r, _ in said][:2] == ["customer", "bot"]
    assert said[0] == ("customer", "Hello, do you sell power banks?")
    second = said.index(("customer", "I want an oraimo 20000mAh power bank"))
    assert any("Oraimo Traveler 20000mAh Power Bank - KES 2,900" in t for r, t in said[second + 1 :] if r == "bot")
    sent = [shown(scene["pipe"].graph, p) for p in sent_to(scene["pipe"].graph, "+" + WANJIKU)]
    logged = [t for r, t in said if r == "bot"]
    assert len(logged) == len(sent)  # every message the customer got, none twice
    assert all(t.startswith(s) for t, s in zip(logged, sent, strict=True))  # a list's rows follow its words
    assert body["customer"] == {"customer_id": customer_id_of(seeded), "name": "Wanjiku", "phone": "+" + WANJIKU}
    assert body["consent"]["marketing_opt_in"] is None
    assert body["ticket"] is None


def test_the_list_is_newest_first_and_found_by_name_or_number(scene: dict[str, Any], seeded: Services) -> None:
    says(scene, "Hello", "wamid.l1")
    says(scene, "Habari", "wamid.l2", phone=OTIENO, name="Otieno")
    assert [c["customer"]["name"] for c in listed(scene)] == ["Otieno", "Wanjiku"]
    says(scene, "Are you open today?", "wamid.l3")
    everyone = listed(scene)
    assert [c["customer"]["name"] for c in everyone] == ["Wanjiku", "Otieno"]
    assert everyone[0]["last_role"] == "bot"
    assert [c["customer"]["name"] for c in listed(scene, "q=wanj")] == ["Wanjiku"]
    assert [c["customer"]["name"] for c in listed(scene, "q=0733111")] == ["Otieno"]
    assert [c["customer"]["name"] for c in listed(scene, "q=%2B254 712")] == ["Wanjiku"]
    assert listed(scene, "q=kamau") == []


def test_a_person_takes_the_conversation_over_replies_and_hands_it_back(
    scene: dict[str, Any], seeded: Services
) -> None:
    admin, graph = scene["shop"], scene["pipe"].graph
    says(scene, "Hello", "wamid.t1")
    customer_id = customer_id_of(seeded)
    assert listed(scene, "filter=waiting") == []

    status, ticket = admin("POST", f"/admin/conversations/{customer_id}/take", role="agent")
    assert status == 200, ticket
    assert (ticket["status"], ticket["assigned_to"], ticket["reason"]) == (
        "claimed",
        "agent@shop.example",
        "taken_over",
    )
    assert [c["customer"]["customer_id"] for c in listed(scene, "filter=waiting")] == [customer_id]
    status, again = admin("POST", f"/admin/conversations/{customer_id}/take", role="owner")
    assert status == 409, again  # somebody has it: the owner is told who

    before = len(sent_to(graph, "+" + WANJIKU))
    says(scene, "Is the black one in stock?", "wamid.t2")
    bot_words = [shown(graph, p) for p in sent_to(graph, "+" + WANJIKU)[before:]]
    assert len(bot_words) == 1
    assert "KES" not in bot_words[0]  # only "a person will answer": no sale goes on

    status, replied = admin(
        "POST", f"/admin/handoffs/{ticket['ticket_id']}/reply", {"text": "Yes, 3 left. Shall I keep one?"}, role="agent"
    )
    assert status == 200, replied
    assert shown(graph, sent_to(graph, "+" + WANJIKU)[-1]) == "Yes, 3 left. Shall I keep one?"
    status, done = admin("POST", f"/admin/handoffs/{ticket['ticket_id']}/resolve", {}, role="agent")
    assert status == 200, done

    body = conversation(scene, customer_id)
    said = lines(body)
    taken = said.index(("event", "taken_over"))
    assert said[taken + 1 : taken + 3] == [("customer", "Is the black one in stock?"), ("bot", bot_words[0])]
    assert ("staff", "Yes, 3 left. Shall I keep one?") in said[taken:]
    staff = next(e for e in body["entries"] if e["role"] == "staff")
    assert staff["by"] == "agent@shop.example"
    assert said.index(("event", "handed_back")) > said.index(("staff", "Yes, 3 left. Shall I keep one?"))
    assert said[-1][0] == "bot"  # the customer is told the bot answers again
    assert body["ticket"] is None
    assert listed(scene, "filter=waiting") == []


def test_a_payment_shows_as_an_event_with_its_facts_not_as_the_customers_words(
    scene: dict[str, Any], seeded: Services, setup: dict[str, Any]
) -> None:
    buy_a_power_bank(scene)
    customer_id = customer_id_of(seeded)
    [order] = seeded.orders.list_for_customer(SHOP, customer_id).items
    assert [c["customer"]["customer_id"] for c in listed(scene, "filter=unpaid")] == [customer_id]
    body = c2b_body(order.order_id, f"{order.amount_due}.00", trans_id="TCONV00001")
    assert c2b(setup, seeded, "confirmation", body)["ResultCode"] == 0
    scene["pipe"].run_agent()

    said = conversation(scene, customer_id)["entries"]
    created = next(e for e in said if e["event"] == "order_created")
    assert created["facts"] == {
        "order_id": order.order_id,
        "total": order.totals.total,
    }  # whole, however long the order
    paid = next(e for e in said if e["event"] == "payment")
    assert paid["facts"] == {
        "order_id": order.order_id, "status": "paid", "amount": order.amount_due, "method": "mpesa_c2b",
        "receipt": "TCONV00001",
    }  # fmt: skip
    after = said[said.index(paid) + 1 :]
    assert after[0]["role"] == "bot"
    assert "TCONV00001" in after[0]["text"]
    assert not any(e["role"] == "customer" and "payment" in e["text"] for e in said)
    assert listed(scene, "filter=unpaid") == []


def test_notes_are_private_and_kept_by_their_author_or_an_owner(scene: dict[str, Any], seeded: Services) -> None:
    admin = scene["shop"]
    says(scene, "Hello", "wamid.n1")
    customer_id = customer_id_of(seeded)
    status, note = admin(
        "POST", f"/admin/conversations/{customer_id}/notes", {"text": "Prefers pickup after 5pm"}, role="agent"
    )
    assert status == 200, note
    assert (note["text"], note["by"]) == ("Prefers pickup after 5pm", "agent@shop.example")
    assert [n["text"] for n in conversation(scene, customer_id)["notes"]] == ["Prefers pickup after 5pm"]
    assert not any("5pm" in shown(scene["pipe"].graph, p) for p in sent_to(scene["pipe"].graph, "+" + WANJIKU))
    path = f"/admin/conversations/{customer_id}/notes/{note['note_id']}"
    status, refused = admin("DELETE", path, role="agent", email="someone.else@shop.example")
    assert status == 403, refused
    assert admin("DELETE", path, role="owner")[0] == 200
    assert conversation(scene, customer_id)["notes"] == []
    assert admin("POST", f"/admin/conversations/{customer_id}/notes", {"text": ""})[0] == 422


def test_quick_replies_are_written_by_the_owner_and_read_by_everyone(scene: dict[str, Any]) -> None:
    admin = scene["shop"]
    replies = {"replies": [{"title": "Hours", "text": "We are open 8am to 6pm, Monday to Saturday."}]}
    assert admin("PUT", "/admin/quick-replies", replies, role="agent")[0] == 403
    assert admin("GET", "/admin/quick-replies", role="agent") == (200, {"replies": []})
    assert admin("PUT", "/admin/quick-replies", replies) == (200, replies)
    assert admin("GET", "/admin/quick-replies", role="agent") == (200, replies)
    assert admin("PUT", "/admin/quick-replies", {"replies": [{"title": "", "text": "x"}]})[0] == 422


def test_an_erasure_takes_the_conversation_and_its_notes(scene: dict[str, Any], seeded: Services) -> None:
    admin = scene["shop"]
    says(scene, "Hello, I am Wanjiku from Roysambu", "wamid.e1")
    customer_id = customer_id_of(seeded)
    admin("POST", f"/admin/conversations/{customer_id}/notes", {"text": "Lives in Roysambu"})
    status, exported = admin("GET", f"/admin/customers/{customer_id}/export")
    assert status == 200
    kept = exported["console_conversation"]
    assert kept["entries"][0]["text"] == "Hello, I am Wanjiku from Roysambu"
    assert [n["text"] for n in kept["notes"]] == ["Lives in Roysambu"]
    status, erased = admin("POST", f"/admin/customers/{customer_id}/erase", {"confirm": True})
    assert status == 200, erased
    assert erased["summary"]["conversation_log_items_deleted"] >= 4  # head, two entries at least, the note
    assert seeded.threads.everything(SHOP, customer_id) == {"entries": [], "notes": []}
    assert seeded.threads.head(SHOP, customer_id) is None
    assert listed(scene) == []


def test_an_entry_written_twice_is_kept_once_and_the_head_never_goes_back(seeded: Services, clock: Clock) -> None:
    customer_id = new_customer(Caller(seeded, SHOP))
    later = ThreadEntry(at=clock.now, role="customer", text="second", ref="wamid.2")
    earlier = ThreadEntry(at=clock.now - timedelta(minutes=1), role="customer", text="first", ref="wamid.1")
    seeded.threads.add(SHOP, customer_id, [later], name="Wanjiku", phone="+254712345678")
    seeded.threads.add(SHOP, customer_id, [later, earlier])  # a redelivery, with an older message found late
    assert [e.text for e in seeded.threads.entries(SHOP, customer_id).items] == ["first", "second"]
    head = seeded.threads.head(SHOP, customer_id)
    assert head is not None
    assert (head.last_text, head.name) == ("second", "Wanjiku")


def test_the_ticket_of_an_erased_customer_can_still_be_claimed_and_logs_nothing(
    scene: dict[str, Any], seeded: Services
) -> None:
    admin = scene["shop"]
    says(scene, "I want to talk to a person", "wamid.x1")
    customer_id = customer_id_of(seeded)
    [ticket] = seeded.handoffs.list_by_status(SHOP, "open").items
    assert admin("POST", f"/admin/customers/{customer_id}/erase", {"confirm": True})[0] == 200
    status, claimed = admin("POST", f"/admin/handoffs/{ticket.ticket_id}/claim", role="agent")
    assert (status, claimed["status"]) == (200, "claimed")
    assert seeded.threads.everything(SHOP, customer_id) == {"entries": [], "notes": []}


def test_an_mpesa_prompt_asked_for_shows_as_an_event_with_the_order_and_amount(
    scene: dict[str, Any], seeded: Services
) -> None:
    buy_a_power_bank(scene)
    says(scene, "pay with mpesa", "wamid.b5")
    says(scene, "yes, send it", "wamid.b6")
    customer_id = customer_id_of(seeded)
    [order] = seeded.orders.list_for_customer(SHOP, customer_id).items
    said = conversation(scene, customer_id)["entries"]
    asked = [e for e in said if e["event"] == "payment_requested"]
    assert [e["facts"] for e in asked] == [
        {"order_id": order.order_id, "amount": order.totals.total, "method": "mpesa_stk"}
    ]
