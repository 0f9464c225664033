"""Try the bot (issue 34, part 5): the owner chats with her shop's own engine from the console as a test customer.
The replies and the turn's trace come back to her; nothing is sent on WhatsApp; an M-Pesa prompt is simulated and
said so (Daraja is never called) while the order is the shop's real one; the shop need not be live. Through the
real admin function, the conversation graph with the rules engine, and moto."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from tests.conftest import SHOP
from tests.integration.test_signup import NEW_SHOP, Person
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.graph.conversation import checkpoint_serde
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.nlu.rules import RulesEngine
from tulia.packs.transfer import export_pack, load_pack_files, read_into
from tulia.pipeline.trial import TrialChats, trial_phone
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.stats import StatsRepo


@pytest.fixture
def api(seeded: Services) -> Any:
    saver = InMemorySaver(serde=checkpoint_serde())
    trial = TrialChats(seeded, RulesEngine, lambda: saver)
    stats = StatsRepo(seeded.db)
    return build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db), trial=trial, stats=stats))


def said(answer: dict[str, Any]) -> str:
    """The replies as a phone shows them: each body, then its buttons or rows (a row with its description)."""
    return "\n".join(
        "\n".join([r["body"], *(" - ".join(filter(None, (c["title"], c["description"]))) for c in r["choices"])])
        for r in answer["replies"]
    )


@pytest.fixture
def owner(api: Any) -> Person:
    person = Person(api, "sub-owner", "owner@duka.example", tenant_id=SHOP)
    person.groups = ["owner"]
    return person


def test_the_owner_tries_a_sale_to_the_m_pesa_prompt_which_is_simulated(
    seeded: Services, owner: Person, daraja: DarajaSimulator
) -> None:
    prompts_before = len(daraja.calls("/mpesa/stkpush/v1/processrequest"))
    status, found = owner("POST", "/admin/try", {"text": "I want an oraimo 20000mAh power bank"})
    assert status == 200, found
    assert "Oraimo Traveler 20000mAh Power Bank - KES 2,900" in said(found)
    assert found["customer"] == trial_phone("sub-owner")
    assert found["customer"].startswith("+999")
    tools = [e["tool"] for e in found["trace"] if e.get("kind") == "tool"]
    assert "catalog_search" in tools  # the turn's trace, as the chat page shows it
    owner("POST", "/admin/try", {"text": "black"})
    owner("POST", "/admin/try", {"text": "1"})
    ordered = owner("POST", "/admin/try", {"text": "pickup"})[1]
    [ref] = re.findall(r"ORD-[0-9A-Z]{5}", said(ordered))[:1]
    asked = said(owner("POST", "/admin/try", {"text": "M-Pesa prompt"})[1])
    assert "Which M-Pesa number" in asked  # the test customer's +999 number is not an M-Pesa number
    confirm = said(owner("POST", "/admin/try", {"text": "0712345678"})[1])
    assert f"Please confirm: send an M-Pesa prompt for KES 2,610 (order {ref})" in confirm
    status, sent = owner("POST", "/admin/try", {"text": "yes"})
    assert "I've sent an M-Pesa prompt for KES 2,610" in said(sent)
    assert sent["simulated"] == [
        f"M-Pesa prompt of KES 2,610 for {ref.replace('-', '')}: simulated, nothing was sent to a phone."
    ]
    assert len(daraja.calls("/mpesa/stkpush/v1/processrequest")) == prompts_before  # Safaricom never called
    order = seeded.orders.get(SHOP, ref)
    assert (order.payment_status, order.totals.total) == ("pending", 2_610)
    customer = seeded.customers.get(SHOP, order.customer_id)
    assert (customer.phone_e164, customer.display_name) == (trial_phone("sub-owner"), "Test customer")
    # seven trial turns counted as such; the shop's customer figures (conversations, messages, orders) untouched
    [today] = StatsRepo(seeded.db).days(SHOP, seeded.clock().date(), seeded.clock().date())
    assert today.get("TrialTurns") == 7
    assert (today.get("Conversations", 0), today.get("Messages", 0)) == (0, 0)


def test_a_shop_in_setup_answers_its_owners_trial(seeded: Services, api: Any) -> None:
    njeri = Person(api, "sub-njeri", "njeri@example.co.ke")
    njeri("POST", "/admin/signup/shop", NEW_SHOP)
    njeri.signs_in_again(seeded)
    read_into(seeded, "mama-njeri-beauty", load_pack_files(export_pack(seeded, "demo-grocer")))
    assert seeded.tenants.get("mama-njeri-beauty").status == "setup"  # customers would be told it is closed
    status, answer = njeri("POST", "/admin/try", {"text": "nataka sukari"})
    assert status == 200, answer
    assert "Kabras Sugar 1kg - KES 170" in said(answer), said(answer)
    # the other shop's test customer is another person: the demo grocer's catalog answered in her shop only
    assert seeded.customers.find_id_by_phone("demo-grocer", trial_phone("sub-njeri")) is None
    assert seeded.customers.find_id_by_phone("mama-njeri-beauty", trial_phone("sub-njeri")) is not None


def test_a_tap_is_answered_and_starting_over_forgets_the_chat(owner: Person) -> None:
    answer = owner("POST", "/admin/try", {"text": "I want an oraimo 20000mAh power bank"})[1]
    tappable = [r for r in answer["replies"] if r["choices"]]
    assert tappable, answer
    choice = tappable[0]["choices"][0]
    status, tapped = owner("POST", "/admin/try", {"reply_id": choice["id"], "reply_title": choice["title"]})
    assert status == 200, tapped
    assert said(tapped)
    assert owner("DELETE", "/admin/try")[1] == {"forgotten": True}
    fresh = said(owner("POST", "/admin/try", {"text": "1"})[1])
    assert "Oraimo" not in fresh  # "1" means nothing in a new chat


def test_bad_input_the_agent_and_a_server_without_trials_are_refused(seeded: Services, api: Any) -> None:
    owner = Person(api, "sub-owner", "owner@duka.example", tenant_id=SHOP)
    owner.groups = ["owner"]
    for body in ({}, {"text": ""}, {"text": "hi", "reply_id": "x", "reply_title": "X"}, {"reply_id": "x"}):
        status, error = owner("POST", "/admin/try", body)
        assert (status, error["code"]) == (422, "invalid_input"), body
    agent = Person(api, "sub-agent", "agent@duka.example", tenant_id=SHOP)
    agent.groups = ["agent"]
    assert agent("POST", "/admin/try", {"text": "hi"})[0] == 403
    bare = Person(build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db))), "s", "o@d.example")
    bare.tenant_id, bare.groups = SHOP, ["owner"]
    status, error = bare("POST", "/admin/try", {"text": "hi"})
    assert (status, error["code"]) == (503, "trial_off")


def test_a_trial_turns_model_calls_count_in_the_days_model_cost_and_nothing_else(seeded: Services) -> None:
    stats = StatsRepo(seeded.db)
    now = seeded.clock()
    trace = [
        {"kind": "llm", "node": "intent_classify", "model": "nova-micro", "input_tokens": 900, "output_tokens": 40,
         "cost_usd": 0.0012, "ok": True},
        {"kind": "tool", "tool": "catalog_search", "ok": True, "latency_ms": 12},
        {"kind": "tool", "tool": "order_create", "ok": False, "error": "x", "latency_ms": 3},
    ]  # fmt: skip
    stats.record_trial(SHOP, at=now, trace=trace)
    assert stats.model_cost_usd(SHOP, now) == pytest.approx(0.0012)
    [today] = stats.days(SHOP, now.date(), now.date())
    assert (today.get("TrialTurns"), today.get("LlmInputTokens"), today.get("Searches", 0)) == (1, 900, 0)
    assert today.get("ToolErrors", 0) == 0  # a trial's tool errors are not the shop's (the operator's "last error")
