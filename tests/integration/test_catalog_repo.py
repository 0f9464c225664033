"""The catalog repository's reads that the admin API relies on, over moto's DynamoDB."""

from __future__ import annotations

from tests.conftest import SHOP
from tulia.services import Services


def test_whether_customers_are_shown_an_item_is_read_past_pages_of_hidden_ones(seeded: Services) -> None:
    items = sorted(seeded.catalog.iter_all(SHOP), key=lambda i: i.item_id)
    assert len(items) > 120  # many of has_active's reads of ten items
    assert seeded.catalog.has_active(SHOP)
    seeded.catalog.put_many([i.model_copy(update={"active": False}) for i in items])  # hidden, as examples are
    assert not seeded.catalog.has_active(SHOP)
    seeded.catalog.put_many([items[-1].model_copy(update={"active": True})])  # the last item, pages away
    assert seeded.catalog.has_active(SHOP)
