"""Issue 31, part 1: a Paybill or Till is one shop's, and a new one is told to customers only once Daraja
sends its confirmations to us (the owner could set another shop's Till, and a changed number was never
registered: its money was confirmed to the old URLs and recorded nowhere)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GROCER, HARDWARE, SHOP, Caller
from tests.integration.test_reaching_customers import Admin
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.payments.setup import register_provider_urls
from tulia.services import Services
from tulia.store.audit import AuditRepo


@pytest.fixture
def grocer_admin(seeded: Services) -> Admin:
    return Admin(build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db))), GROCER)


def methods_offered(seeded: Services) -> list[str]:
    """The grocer's ways to pay an order, as the payment tools tell the conversation."""
    grocer = Caller(seeded, GROCER)
    customer = grocer.ok("customer_get_or_create", phone_e164="+254711000901")["customer_id"]
    order = grocer.ok(
        "order_create",
        customer_id=customer,
        items=[{"item_id": "GR-UNG-01", "quantity": 1}],
        delivery={"mode": "delivery", "address_text": "Mwiki, Kasarani"},
    )
    return [m["method"] for m in grocer.ok("payment_get_methods", order_id=order["order_id"])["methods"]]


def test_another_shops_paybill_is_refused_with_409_and_nothing_changes(grocer_admin: Admin, seeded: Services) -> None:
    status, body = grocer_admin(
        "PATCH", "/admin/tenant", {"payments": {"mpesa_c2b": {"paybill": "522522", "till": None}}}
    )
    assert status == 409  # the hardware store's Paybill
    assert "522522 is another shop's" in body["message"]
    assert seeded.tenants.get(GROCER).payments.mpesa_c2b.till == "7012345"  # type: ignore[union-attr]
    assert seeded.tenants.c2b_shortcode_users("522522") == [HARDWARE]


def test_a_new_till_is_registered_with_daraja_and_then_offered(
    grocer_admin: Admin, seeded: Services, daraja: DarajaSimulator
) -> None:
    assert "mpesa_c2b" in methods_offered(seeded)
    status, body = grocer_admin("PATCH", "/admin/tenant", {"payments": {"mpesa_c2b": {"till": "7099999"}}})
    assert status == 200
    assert body["c2b_urls_for"] == "7099999"
    [registered] = [r for r in daraja.c2b_registrations if str(r["ShortCode"]) == "7099999"]
    assert registered["ConfirmationURL"].endswith("/confirmation")
    assert "mpesa_c2b" in methods_offered(seeded)
    assert seeded.tenants.c2b_shortcode_users("7099999") == [GROCER]
    assert seeded.tenants.c2b_shortcode_users("7012345") == []  # the old number is free for its new owner


def test_a_till_daraja_refused_is_not_offered_until_registered(
    grocer_admin: Admin, seeded: Services, daraja: DarajaSimulator
) -> None:
    refusal: Any = {"requestId": "r1", "errorCode": "400.003.02", "errorMessage": "Bad Request - Invalid ShortCode"}
    daraja.fail_next(400, refusal, times=3)
    status, body = grocer_admin("PATCH", "/admin/tenant", {"payments": {"mpesa_c2b": {"till": "7088888"}}})
    assert status == 200  # the setting is kept
    assert body["c2b_urls_for"] == "7012345"  # still the old number's URLs
    assert "mpesa_c2b" not in methods_offered(seeded)  # customers are never told to pay 7088888 yet
    daraja.clear_failures()
    assert register_provider_urls(seeded, GROCER).failed == []  # `tulia register-urls`
    assert "mpesa_c2b" in methods_offered(seeded)
    assert SHOP not in seeded.tenants.c2b_shortcode_users("7088888")


def test_in_aws_the_payments_function_registers_a_changed_till_from_its_queue(
    seeded: Services, setup: dict[str, Any], daraja: DarajaSimulator
) -> None:
    """The admin function holds no Daraja keys: it queues the registration on the payment checks queue,
    and the payments function (which does) registers it; customers are told the new Till after that."""
    import json

    from tests.conftest import BOTO
    from tulia.store.queues import PAYMENT_CHECKS, PaymentCheckQueue, create_queues

    sqs = BOTO.client("sqs")
    url = create_queues(sqs, "test-")[PAYMENT_CHECKS.logical_name]
    deps = AdminDeps(services=seeded, audit=AuditRepo(seeded.db), checks=PaymentCheckQueue(sqs, url))
    admin = Admin(build_admin_api(deps), GROCER)
    status, body = admin("PATCH", "/admin/tenant", {"payments": {"mpesa_c2b": {"till": "7077777"}}})
    assert (status, body["c2b_urls_for"]) == (200, "7012345")
    assert "mpesa_c2b" not in methods_offered(seeded)  # not yet registered
    [queued] = sqs.receive_message(QueueUrl=url)["Messages"]
    assert setup["callbacks"].run_queued(json.loads(queued["Body"])) == "registered"
    assert any(str(r["ShortCode"]) == "7077777" for r in daraja.c2b_registrations)
    assert "mpesa_c2b" in methods_offered(seeded)
