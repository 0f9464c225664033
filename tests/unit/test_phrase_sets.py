"""The labelled phrase sets (tuning data since issue 30; the blind held-out set is eval/blind/): well
formed, large enough, over four trades and three languages, and every acceptable item a real item of
its pack."""

from __future__ import annotations

import csv
from collections import Counter

import pytest

from tests.conftest import PACKS
from tulia.evaluation import INTENTS, LANGUAGES, PHRASE_SETS, SLOT_KEYS
from tulia.nlu.labelled_sets import load_phrases

EVAL = PACKS.parent / "eval"
PHRASES = {name: load_phrases(EVAL / "phrases" / f"{name}.txt") for name in PHRASE_SETS}


def skus(pack: str) -> set[str]:
    with (PACKS / pack / "catalog.csv").open(encoding="utf-8") as f:
        return {row["sku"] for row in csv.DictReader(f)}


def test_the_sets_are_large_enough() -> None:
    assert sum(len(p) for p in PHRASES.values()) >= 400


@pytest.mark.parametrize("name", PHRASE_SETS)
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


@pytest.mark.parametrize("name", PHRASE_SETS)
def test_each_set_covers_four_trades_and_three_languages(name: str) -> None:
    packs = Counter(p.pack for p in PHRASES[name])
    languages = Counter(p.lang for p in PHRASES[name])
    assert set(packs) == {"demo-shop", "demo-salon", "demo-grocer", "demo-hardware"}
    assert set(languages) == LANGUAGES
    assert min(packs.values()) >= 20
