"""Issue 34, part 6: a shop answers customers only when it is live. Paused by its owner (or getting ready, or
suspended), a customer is told once, with the shop's contact, and no model is called; STOP still goes through.
A shop made in the console goes live only with its checklist complete. Through the webhook, the queue, the
agent and the admin function (moto), with the bedrock engine on a scripted model that counts its calls."""

from __future__ import annotations

import pytest

from tests.conftest import SHOP
from tests.integration.conftest import CUSTOMER, says
from tests.integration.test_agent import Pipeline
from tests.integration.test_reaching_customers import Admin
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.llm.scripted import ScriptedChatModel
from tulia.services import Services
from tulia.store.audit import AuditRepo


@pytest.fixture
def owner(seeded: Services) -> Admin:
    return Admin(build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db))))


def test_a_paused_shop_tells_a_customer_once_with_its_contact_and_calls_no_model(
    shop_pipeline: Pipeline, owner: Admin, seeded: Services, model: ScriptedChatModel
) -> None:
    status, paused = owner("POST", "/admin/shop/pause", {"reason": "stock-taking"})
    assert (status, paused["status"]) == (200, "paused")
    [told] = says(shop_pipeline, "Nataka simu ya Samsung", "wamid.p1")
    assert told == (
        "Thank you for your message. Duka Bora Electronics is not answering on WhatsApp right now. To reach us: "
        "call us on 0700 000 001 or visit us on Moi Avenue"  # the shop's own contact words
    )
    assert says(shop_pipeline, "hello?", "wamid.p2") == []  # told once, not at every message
    assert model.calls == []  # no model was asked anything
    # STOP goes through while paused: the opt-out is recorded and confirmed
    [stopped] = says(shop_pipeline, "STOP", "wamid.p3")
    assert stopped.startswith("You're unsubscribed: you won't get offers or marketing messages from Duka Bora")
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
