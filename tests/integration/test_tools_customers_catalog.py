"""customer_get_or_create, customer_update_preferences, catalog_search, catalog_get_item, tenant_get_context."""

from __future__ import annotations

import pytest

from tests.conftest import SHOP, Caller, new_customer
from tulia.services import Services


def test_tenant_context_gives_persona_languages_and_enabled_methods_but_no_secrets(shop: Caller) -> None:
    ctx = shop.ok("tenant_get_context")
    assert (ctx["bot_name"], ctx["default_language"], ctx["allowed_languages"]) == ("Bora", "en", ["en", "sw", "sheng"])
    assert ctx["payments_enabled"] == {"mpesa_stk": True, "mpesa_c2b": True, "pesapal": True}
    assert {z["name"]: z["fee"] for z in ctx["delivery_zones"]}["Nairobi CBD"] == 150
    assert "passkey" not in str(ctx)
    assert "bfb279f9" not in str(ctx)


def test_unknown_tenant_is_not_found(seeded: Services) -> None:
    assert Caller(seeded, "ghost-shop").err("tenant_get_context")["code"] == "not_found"


@pytest.mark.parametrize("phone", ["0712345678", "712345678", "254712345678", "+254 712 345 678"])
def test_every_phone_form_is_one_customer(shop: Caller, phone: str) -> None:
    first = shop.ok("customer_get_or_create", phone_e164="0712345678", display_name="Wanjiku")
    again = shop.ok("customer_get_or_create", phone_e164=phone)
    assert again["customer_id"] == first["customer_id"]
    assert again["phone_e164"] == "+254712345678"
    assert again["created"] is False
    assert again["display_name"] == "Wanjiku"


def test_new_customer_starts_with_strict_consent(shop: Caller) -> None:
    c = shop.ok("customer_get_or_create", phone_e164="0722000111")
    assert c["created"] is True
    assert c["marketing_opt_in"] is None
    assert c["notification_prefs"] == {"offers_whatsapp": False, "order_updates_whatsapp": True}


@pytest.mark.parametrize("phone", ["", "abc", "0712", "+254 7123", "254812345678"])
def test_bad_phone_is_invalid_input_and_creates_nobody(shop: Caller, seeded: Services, phone: str) -> None:
    err = shop.err("customer_get_or_create", phone_e164=phone)
    assert (err["code"], err["field"]) == ("invalid_input", "phone_e164")


def test_opt_out_records_consent_events_with_source_time_and_request(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    shop.ok(
        "customer_update_preferences",
        customer_id=cid,
        updates={"marketing_opt_in": True},
        consent_source="user_message",
    )
    out = shop.ok(
        "customer_update_preferences",
        customer_id=cid,
        updates={"marketing_opt_in": False},
        consent_source="user_message",
    )
    assert out["marketing_opt_in"] is False
    assert out["notification_prefs"]["offers_whatsapp"] is False
    assert set(out["changed"]) == {"marketing_opt_in", "offers_whatsapp"}
    events = seeded.customers.consent_events(SHOP, cid)
    assert {(e.field, e.new_value) for e in events} == {
        ("marketing_opt_in", True),
        ("offers_whatsapp", True),
        ("marketing_opt_in", False),
        ("offers_whatsapp", False),
    }
    assert all(e.source == "user_message" and e.request_id.startswith("req-") for e in events)


def test_unchanged_preferences_record_no_event(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    out = shop.ok(
        "customer_update_preferences", customer_id=cid, updates={"order_updates_whatsapp": True}, consent_source="admin"
    )
    assert out["changed"] == []
    assert seeded.customers.consent_events(SHOP, cid) == []


def test_language_preference_is_saved_without_a_consent_event(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    out = shop.ok(
        "customer_update_preferences",
        customer_id=cid,
        updates={"language_preference": "sw"},
        consent_source="user_message",
    )
    assert out["language_preference"] == "sw"
    assert seeded.customers.consent_events(SHOP, cid) == []


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"updates": {"marketing_opt_in": "maybe"}}, "updates.marketing_opt_in"),
        ({"updates": {"language_preference": "fr"}}, "updates.language_preference"),
        ({"updates": {"shoe_size": 42}}, "updates.shoe_size"),
        ({"updates": {}, "consent_source": "sms"}, "consent_source"),
    ],
)
def test_invalid_preference_updates_change_nothing(shop: Caller, seeded: Services, args: dict, field: str) -> None:
    cid = new_customer(shop)
    err = shop.err("customer_update_preferences", customer_id=cid, **{"consent_source": "user_message", **args})
    assert (err["code"], err["field"]) == ("invalid_input", field)
    assert seeded.customers.get(SHOP, cid).marketing_opt_in is None


def test_search_returns_at_most_limit_with_prices_and_stock(shop: Caller) -> None:
    out = shop.ok("catalog_search", query="oraimo power bank", limit=3)
    assert 1 <= len(out["results"]) <= 3
    first = out["results"][0]
    assert "Power Bank" in first["name"]
    assert isinstance(first["price"], int)
    assert first["currency"] == "KES"
    assert out["catalog_link"].startswith("https://dukabora.example/catalog?q=")


def test_search_prices_come_from_the_store_not_the_index(shop: Caller, seeded: Services) -> None:
    from tulia.store import keys
    from tulia.store.tables import CATALOG

    seeded.db.update(
        CATALOG,
        keys.catalog_pk(SHOP),
        keys.catalog_item_sk("PB-002"),
        update="SET price = :p, stock = :s",
        values={":p": 2750, ":s": 0},
    )
    results = {
        r["item_id"]: r for r in shop.ok("catalog_search", query="oraimo 20000mAh power bank", limit=5)["results"]
    }
    assert results["PB-002"]["price"] == 2750
    assert results["PB-002"]["in_stock"] is False
    in_stock = shop.ok("catalog_search", query="oraimo 20000mAh power bank", limit=5, filters={"in_stock_only": True})[
        "results"
    ]
    assert "PB-002" not in {r["item_id"] for r in in_stock}


def test_search_filters_by_budget_and_category(shop: Caller) -> None:
    out = shop.ok(
        "catalog_search",
        query="samsung",
        limit=10,
        filters={"category": "Smartphones", "max_price": 30000, "type": "product"},
    )
    assert out["results"]
    assert all(r["category"] == "Smartphones" and r["price"] <= 30000 for r in out["results"])


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"limit": 11}, "limit"),
        ({"limit": 0}, "limit"),
        ({"limit": 5, "filters": {"colour": "red"}}, "filters.colour"),
        ({"limit": 5, "filters": {"type": "gadget"}}, "filters.type"),
        ({}, "limit"),
    ],
)
def test_search_rejects_bad_arguments(shop: Caller, args: dict, field: str) -> None:
    err = shop.err("catalog_search", query="phone", **args)
    assert (err["code"], err["field"]) == ("invalid_input", field)


def test_search_with_nothing_matching_is_empty_with_zero_confidence(shop: Caller) -> None:
    out = shop.ok("catalog_search", query="helicopter", limit=5)
    assert (out["results"], out["total_matches_estimate"], out["confidence"]) == ([], 0, 0.0)


def test_get_item_has_variants_with_price_deltas(shop: Caller) -> None:
    item = shop.ok("catalog_get_item", item_id="PH-SAM-002")
    assert item["name"] == "Samsung Galaxy A15"
    storage = next(v for v in item["variants"] if v["name"] == "storage")
    assert storage["options"] == ["128GB", "256GB"]
    assert storage["price_deltas"] == {"256GB": 3500}


def test_get_unknown_item_is_not_found(shop: Caller) -> None:
    err = shop.err("catalog_get_item", item_id="NOPE-1")
    assert (err["code"], err["field"]) == ("not_found", "item_id")


def test_category_filter_accepts_everyday_names_of_the_category(shop: Caller) -> None:
    out = shop.ok("catalog_search", query="samsung", limit=10, filters={"category": "phones"})
    assert {r["category"] for r in out["results"]} == {"Smartphones"}


def test_salon_services_are_found_in_swahili(salon: Caller) -> None:
    out = salon.ok("catalog_search", query="nataka kusuka knotless", limit=3)
    assert out["results"][0]["name"].startswith("Knotless Braids")
    assert out["results"][0]["type"] == "service"
    assert out["results"][0]["stock"] is None
    assert out["results"][0]["in_stock"] is True
