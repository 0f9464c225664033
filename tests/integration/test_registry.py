"""The registry's own guarantees: every failure is structured, nothing crashes, nothing is written."""

from __future__ import annotations

import pytest

from tests.conftest import SHOP, Caller, new_customer
from tulia.domain.payment import PAYMENT_TRANSITIONS
from tulia.errors import StateConflict
from tulia.services import Services
from tulia.store import keys
from tulia.store.tables import CATALOG
from tulia.tools.registry import call_tool


def test_an_unknown_tool_is_invalid_input(shop: Caller) -> None:
    result = call_tool("delete_everything", {"tenant_id": SHOP}, shop.ctx())
    assert result["error"]["code"] == "invalid_input"
    assert result["error"]["field"] == "name"


@pytest.mark.parametrize("raw", [None, [], "catalog_search", 42])
def test_arguments_that_are_not_an_object_are_invalid_input(shop: Caller, raw: object) -> None:
    assert call_tool("catalog_search", raw, shop.ctx())["error"]["code"] == "invalid_input"


def test_missing_and_extra_arguments_name_the_field(shop: Caller) -> None:
    ctx = shop.ctx()
    missing = call_tool("catalog_get_item", {"tenant_id": SHOP, "request_id": "r", "conversation_id": "c"}, ctx)
    assert (missing["error"]["code"], missing["error"]["field"]) == ("invalid_input", "item_id")
    extra = call_tool(
        "tenant_get_context", {"tenant_id": SHOP, "request_id": "r", "conversation_id": "c", "debug": True}, ctx
    )
    assert (extra["error"]["code"], extra["error"]["field"]) == ("invalid_input", "debug")


def test_corrupt_stored_data_is_an_internal_error_not_a_crash(shop: Caller, seeded: Services) -> None:
    seeded.db.update(
        CATALOG, keys.catalog_pk(SHOP), keys.catalog_item_sk("CB-001"), update="SET price = :p", values={":p": "free"}
    )
    err = shop.err("catalog_get_item", item_id="CB-001")
    assert err == {"code": "internal_error", "message": "The tool failed; try again or ask a person."}


def test_an_unreachable_store_is_provider_unavailable(shop: Caller, dynamodb) -> None:
    dynamodb.delete_table(TableName="test-tenants")
    err = shop.err("tenant_get_context")
    assert err["code"] == "provider_unavailable"


@pytest.mark.parametrize(
    ("start", "target"),
    [(s, t) for s in PAYMENT_TRANSITIONS for t in ("paid", "failed", "cancelled", "timeout")],
)
def test_payment_state_machine_edges(shop: Caller, seeded: Services, start: str, target: str) -> None:
    shop.customer_id = new_customer(shop)
    order = shop.ok(
        "order_create",
        customer_id=shop.customer_id,
        items=[{"item_id": "CB-002", "quantity": 1}],
        delivery={"mode": "pickup"},
    )
    stk = shop.ok(
        "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
    )
    payment = seeded.payments.get(SHOP, order["order_id"], stk["payment_request_id"])
    if start != "pending":
        payment, _ = seeded.payments.settle(payment, to=start, now=seeded.clock())
    allowed = target in PAYMENT_TRANSITIONS[start]
    if allowed:
        settled, order_after = seeded.payments.settle(payment, to=target, now=seeded.clock())
        assert settled.status == target
        assert order_after.status == ("paid" if target == "paid" else "payment_failed")
    else:
        before = seeded.orders.get_with_payments(SHOP, order["order_id"])
        with pytest.raises(StateConflict):
            seeded.payments.settle(payment, to=target, now=seeded.clock())
        assert seeded.orders.get_with_payments(SHOP, order["order_id"]) == before
