from datetime import date

import pytest

from tulia.domain.offer import Offer, OfferCheck, evaluate_offer


def offer(**kw) -> Offer:
    base = {
        "tenant_id": "t",
        "offer_id": "O1",
        "title": "Offer",
        "kind": "percent",
        "value": 10,
        "valid_from": date(2026, 1, 1),
        "valid_to": date(2026, 12, 31),
    }
    return Offer(**{**base, **kw})


def check(**kw) -> OfferCheck:
    base = {
        "today": date(2026, 11, 23),
        "opted_in": False,
        "paid_orders": 0,
        "customer_redemptions": 0,
        "subtotal": 10_000,
    }
    return OfferCheck(**{**base, **kw})


def test_percent_offer_gives_its_share_of_the_subtotal() -> None:
    result = evaluate_offer(offer(), check())
    assert (result.eligible, result.discount) == (True, 1000)


def test_percent_discount_is_capped_by_max_discount() -> None:
    assert evaluate_offer(offer(max_discount=600), check()).discount == 600


def test_fixed_discount_never_exceeds_the_subtotal() -> None:
    assert evaluate_offer(offer(kind="fixed", value=5000), check(subtotal=3000)).discount == 3000


@pytest.mark.parametrize(
    ("offer_kw", "check_kw", "reason"),
    [
        ({"active": False}, {}, "inactive"),
        ({}, {"today": date(2025, 12, 31)}, "not_started"),
        ({}, {"today": date(2027, 1, 1)}, "expired"),
        ({"usage_limit": 5, "redemptions": 5}, {}, "usage_limit_reached"),
        ({}, {"customer_redemptions": 1}, "already_used"),
        ({"requires_opt_in": True}, {}, "requires_opt_in"),
        ({"first_order_only": True}, {"paid_orders": 1}, "first_order_only"),
        ({"min_order": 20_000}, {}, "below_min_order"),
        ({"days": ["tue", "wed"]}, {}, "not_today"),  # 2026-11-23 is a Monday
        ({"categories": ["Power Banks"]}, {"category_subtotals": {"Smartphones": 10_000}}, "no_eligible_items"),
    ],
)
def test_each_rule_refuses_with_its_reason(offer_kw: dict, check_kw: dict, reason: str) -> None:
    result = evaluate_offer(offer(**offer_kw), check(**check_kw))
    assert not result.eligible
    assert result.reason == reason


def test_validity_window_includes_both_end_days() -> None:
    assert evaluate_offer(offer(), check(today=date(2026, 1, 1))).eligible
    assert evaluate_offer(offer(), check(today=date(2026, 12, 31))).eligible


def test_minimum_order_is_inclusive() -> None:
    assert evaluate_offer(offer(min_order=10_000), check(subtotal=10_000)).eligible


def test_category_offer_discounts_only_its_categories() -> None:
    result = evaluate_offer(
        offer(categories=["power banks"]), check(category_subtotals={"Power Banks": 3000, "Smartphones": 7000})
    )
    assert result.discount == 300


def test_opted_in_customer_gets_opt_in_offer_and_second_order_gets_open_offer() -> None:
    assert evaluate_offer(offer(requires_opt_in=True), check(opted_in=True)).eligible
    assert evaluate_offer(offer(), check(paid_orders=3)).eligible


def test_without_an_order_eligibility_is_known_but_discount_is_not() -> None:
    result = evaluate_offer(offer(min_order=50_000), check(subtotal=None))
    assert (result.eligible, result.discount) == (True, None)


@pytest.mark.parametrize("bad", [{"kind": "percent", "value": 120}, {"valid_to": date(2025, 1, 1)}, {"value": 0}])
def test_inconsistent_offers_are_rejected(bad: dict) -> None:
    with pytest.raises(ValueError):
        offer(**bad)


def test_weekday_offer_applies_on_its_days() -> None:
    assert evaluate_offer(offer(days=["Monday"]), check()).eligible  # 2026-11-23 is a Monday
