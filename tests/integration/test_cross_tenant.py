"""Tenant isolation, tool by tool: a request in the salon's trusted context can neither read nor change
the shop's data, whatever ids it passes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import SALON, SHOP, Caller, new_customer
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.services import Services
from tulia.tools.registry import TOOLS, call_tool

A15 = {"item_id": "PH-SAM-002", "quantity": 1, "variant_selection": {"colour": "Blue", "storage": "128GB"}}


@pytest.fixture
def shop_data(shop: Caller) -> dict[str, Any]:
    customer_id = new_customer(shop, "0711000222")
    shop.customer_id = customer_id
    order = shop.ok("order_create", customer_id=customer_id, items=[A15], delivery={"mode": "pickup"})
    return {"customer_id": customer_id, "order_id": order["order_id"], "order_ref": order["order_ref"]}


def args_for(tool: str, d: dict[str, Any]) -> dict[str, Any]:
    """Arguments that name the shop's customer, order and items."""
    cid, oid = d["customer_id"], d["order_id"]
    return {
        "tenant_get_context": {},
        "customer_get_or_create": {"phone_e164": "0711000222"},
        "customer_update_preferences": {
            "customer_id": cid,
            "updates": {"marketing_opt_in": True},
            "consent_source": "user_message",
        },
        "catalog_search": {"query": "samsung galaxy a15", "limit": 10},
        "catalog_get_item": {"item_id": "PH-SAM-002"},
        "order_create": {"customer_id": cid, "items": [A15], "delivery": {"mode": "pickup"}},
        "offers_get_applicable": {"customer_id": cid, "order_id": oid},
        "order_apply_coupon": {"customer_id": cid, "order_id": oid, "coupon_code": "WELCOME10"},
        "payment_get_methods": {"order_id": oid},
        "payment_get_c2b_instructions": {"order_id": oid},
        "payment_initiate_stk_push": {"order_id": oid, "phone_e164": "0711000222", "amount": 21500},
        "payment_create_pesapal_checkout": {"order_id": oid},
        "order_get_status": {"customer_id": cid, "order_ref": d["order_ref"]},
        "kb_retrieve": {"query": "how do I return a faulty phone for a refund", "top_k": 8},
        "handoff_create_ticket": {"customer_id": cid, "reason": "x", "priority": "low", "context_snapshot": {}},
    }[tool]


def assert_shop_untouched(seeded: Services, d: dict[str, Any]) -> None:
    order, payments = seeded.orders.get_with_payments(SHOP, d["order_id"])
    assert (order.status, order.payment_status, order.offer, payments) == ("draft", "none", None, [])
    customer = seeded.customers.get(SHOP, d["customer_id"])
    assert (customer.marketing_opt_in, customer.handoff_ticket_id) == (None, None)
    assert seeded.customers.consent_events(SHOP, d["customer_id"]) == []
    assert seeded.orders.list_for_customer(SHOP, d["customer_id"]).items[0].order_id == d["order_id"]
    assert len(seeded.orders.list_for_customer(SHOP, d["customer_id"]).items) == 1


def test_the_matrix_covers_every_tool() -> None:
    assert len(TOOLS) == 15


@pytest.mark.parametrize("tool", [t.name for t in TOOLS])
def test_naming_another_tenant_is_refused(seeded: Services, shop_data: dict[str, Any], tool: str) -> None:
    salon = Caller(seeded, SALON)
    ctx = salon.ctx()
    result = call_tool(
        tool,
        {"tenant_id": SHOP, "request_id": ctx.request_id, "conversation_id": "c", **args_for(tool, shop_data)},
        ctx,
    )
    assert result == {
        "ok": False,
        "error": {
            "code": "tenant_mismatch",
            "field": "tenant_id",
            "message": "tenant_id does not match the conversation's tenant.",
        },
    }
    assert_shop_untouched(seeded, shop_data)


@pytest.mark.parametrize("tool", [t.name for t in TOOLS])
def test_shop_ids_in_the_salons_own_context_reach_nothing(
    seeded: Services, shop_data: dict[str, Any], daraja: DarajaSimulator, tool: str
) -> None:
    salon = Caller(seeded, SALON)
    pushes = len(daraja.calls("/mpesa/stkpush/v1/processrequest"))
    result = salon(tool, **args_for(tool, shop_data))
    if result["ok"]:
        data = str(result["data"])
        # whatever succeeds must be the salon's own data, with nothing of the shop in it
        assert "PH-SAM" not in data
        assert "Duka Bora" not in data
        assert shop_data["customer_id"] not in data
        assert "policy-returns-policy" not in data
        assert tool in {"tenant_get_context", "customer_get_or_create", "catalog_search", "kb_retrieve"}
    else:
        assert result["error"]["code"] == "not_found", result
    assert len(daraja.calls("/mpesa/stkpush/v1/processrequest")) == pushes
    assert_shop_untouched(seeded, shop_data)


def test_the_same_phone_at_the_salon_is_a_different_customer(seeded: Services, shop_data: dict[str, Any]) -> None:
    salon = Caller(seeded, SALON)
    out = salon.ok("customer_get_or_create", phone_e164="0711000222")
    assert out["customer_id"] != shop_data["customer_id"]
    assert out["created"] is True


def test_search_and_knowledge_stay_inside_their_tenant(seeded: Services) -> None:
    salon, shop = Caller(seeded, SALON), Caller(seeded, SHOP)
    assert salon.ok("catalog_search", query="samsung phone", limit=10)["results"] == []
    assert shop.ok("catalog_search", query="knotless braids", limit=10)["results"] == []
    salon_docs = {s["doc_id"] for s in salon.ok("kb_retrieve", query="booking deposit cancel", top_k=8)["snippets"]}
    assert salon_docs == {"salon-faq"}
    shop_docs = {s["doc_id"] for s in shop.ok("kb_retrieve", query="booking deposit cancel", top_k=8)["snippets"]}
    assert "salon-faq" not in shop_docs
