"""Every trade's starter reads cleanly: its words are a vocabulary, its example items are valid, hidden, named
"(example)" and hold no stock, and a trade that books sells services with a duration."""

from __future__ import annotations

import pytest

from tulia.domain.tenant import Vocabulary
from tulia.packs.starters import STARTERS, Starter, starter


@pytest.mark.parametrize("start", STARTERS, ids=lambda s: s.trade)
def test_every_starter_reads(start: Starter) -> None:
    Vocabulary.model_validate(start.vocabulary)
    items = start.catalog("a-new-shop")
    if start.trade == "other":
        assert items == []
        return
    assert len(items) >= 4
    for item in items:
        assert (item.tenant_id, item.active) == ("a-new-shop", False)
        assert item.name.endswith("(example)")
        assert item.stock in (0, None)
        if start.books:
            assert item.type == "service"
            assert item.duration_minutes
        else:
            assert item.type == "product"
            assert item.stock == 0
    faq = start.faq("Duka la Mama")
    assert "Duka la Mama" in faq
    assert "{shop}" not in faq


def test_an_unknown_trade_has_no_starter() -> None:
    assert starter("fireworks") is None
