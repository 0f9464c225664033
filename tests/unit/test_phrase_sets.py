"""The labelled phrase sets are what issue 18's figures stand on: well formed, large enough, over four
trades and three languages, with a held-out share of at least 30%, and every acceptable item a real
item of its pack."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from tests.conftest import PACKS
from tulia.evaluation import INTENTS, LANGUAGES, SETS, SLOT_KEYS, load_phrases

EVAL = PACKS.parent / "eval"
PHRASES = {name: load_phrases(EVAL / "phrases" / f"{name}.txt") for name in SETS}


def skus(pack: str) -> set[str]:
    with (PACKS / pack / "catalog.csv").open(encoding="utf-8") as f:
        return {row["sku"] for row in csv.DictReader(f)}


def test_the_sets_are_large_enough_with_a_held_out_share() -> None:
    total = sum(len(p) for p in PHRASES.values())
    assert total >= 400
    assert len(PHRASES["heldout"]) / total >= 0.30


@pytest.mark.parametrize("name", SETS)
def test_every_line_is_labelled_with_known_values(name: str) -> None:
    for phrase in PHRASES[name]:
        where = f"{name}:{phrase.line}"
        assert phrase.intent in INTENTS, where
        assert phrase.lang in LANGUAGES, where
        assert set(phrase.slots) <= SLOT_KEYS, where
        assert phrase.text, where
        if phrase.intent == "sales_discovery":
            assert phrase.items, where  # a search is scored on the items that would do
        assert set(phrase.items) <= skus(phrase.pack), (where, set(phrase.items) - skus(phrase.pack))


@pytest.mark.parametrize("name", SETS)
def test_each_set_covers_four_trades_and_three_languages(name: str) -> None:
    packs = Counter(p.pack for p in PHRASES[name])
    languages = Counter(p.lang for p in PHRASES[name])
    assert set(packs) == {"demo-shop", "demo-salon", "demo-grocer", "demo-hardware"}
    assert set(languages) == LANGUAGES
    assert min(packs.values()) >= 20


def test_no_held_out_message_is_in_the_tuning_set() -> None:
    """Not even in another shop: tuning on a message would tune on its held-out twin."""
    held = {p.text.casefold().strip(" ?!.") for p in PHRASES["heldout"]}
    assert [p.text for p in PHRASES["tuning"] if p.text.casefold().strip(" ?!.") in held] == []
