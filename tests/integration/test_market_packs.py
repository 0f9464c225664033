"""Shops that sell by the tray, the bunch, the crate, the debe and the bag (issue 30, third session): a
vegetable stall, a cereals shop and a drinks wholesaler, the tuning packs of ``eval/tuning/trades-2.txt``.
Each test is a miss found on that tuning set, fixed by a general rule: containers are counting words, a
container the shop's names use is kept in the search ("a crate of coke" is the crate, not the bottle), a
measure said in words is a measure ("mahindi kilo tano" is five of the 1kg), "one tray" and "a crate of" are
one, a count alone after a comma is the count of the item before it, English plurals in -oes, "large" after
a count is a size, a word that names one of the shop's items keeps its own meaning beside its translation."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat, conversations_for
from tests.conftest import seed_packs_beside_the_demo_packs
from tulia.nlu.rules import RulesEngine
from tulia.services import Services

PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def shops(seeded: Services) -> Services:
    return seed_packs_beside_the_demo_packs(seeded, *(PACKS / name for name in ("greengrocer", "cereals", "drinks")))


def customer(services: Services, tenant_id: str, phone: str = "+254711000741") -> Chat:
    return Chat(conversations_for(services, RulesEngine()), tenant_id=tenant_id, phone=phone)


def lines(chat: Chat) -> dict[str, tuple[int | None, dict[str, str]]]:
    return {line.item_id: (line.quantity, dict(line.variant_selection)) for line in chat.state["frame"].lines}


def test_crates_counted_are_the_crate_of_24_not_the_2_litre_bottle(shops: Services) -> None:
    chat = customer(shops, "kinywaji")
    reply = chat.send("two crates of coke and one of fanta orange")
    assert lines(chat) == {"KD-SOD-01": (2, {}), "KD-SOD-02": (1, {"flavour": "Orange"})}
    assert "Coca-Cola 2 Litres" not in reply


def test_a_crate_of_each_in_swahili_and_english_is_one_line_each(shops: Services) -> None:
    chat = customer(shops, "kinywaji")
    chat.send("crate moja ya coke na maziwa pakiti sita")
    assert lines(chat) == {"KD-SOD-01": (1, {}), "KD-MLK-01": (6, {})}


def test_kilos_said_in_words_count_packs_of_a_kilo_not_a_debe_or_a_bag(shops: Services) -> None:
    chat = customer(shops, "baraka-cereals")
    chat.send("mahindi kilo tano na maharagwe ya nyayo kilo mbili")
    assert lines(chat) == {"BC-MZE-01": (5, {}), "BC-BNS-02": (2, {})}


def test_gorogoros_are_counted_and_searched_and_maize_is_not_the_githeri_mix(shops: Services) -> None:
    chat = customer(shops, "baraka-cereals")
    chat.send("2 gorogoros of rosecoco and 3kg of maize")
    assert lines(chat) == {"BC-BNS-03": (2, {}), "BC-MZE-01": (3, {})}


def test_debes_in_swahili_are_a_count(shops: Services) -> None:
    chat = customer(shops, "baraka-cereals")
    reply = chat.send("debe mbili za mahindi")
    assert lines(chat) == {"BC-MZE-02": (2, {})}
    assert "Dry Maize Debe (16kg)" in reply


def test_one_tray_after_a_comma_is_one_of_the_item_before_it(shops: Services) -> None:
    chat = customer(shops, "mboga-fresh")
    chat.send("kienyeji eggs, one tray")
    assert lines(chat) == {"MF-EGG-02": (1, {})}


def test_a_bunch_a_count_of_mangoes_and_a_pack_are_three_lines(shops: Services) -> None:
    chat = customer(shops, "mboga-fresh")
    chat.send("a bunch of bananas, 4 mangoes and a pack of oranges")
    assert lines(chat) == {"MF-BAN-01": (1, {}), "MF-MAN-01": (4, {}), "MF-ORA-01": (1, {})}


def test_five_large_avocados_are_five_of_the_large_not_five_litres(shops: Services) -> None:
    chat = customer(shops, "mboga-fresh")
    chat.send("5 large avocados")
    assert lines(chat) == {"MF-AVO-01": (5, {"size": "Large"})}


def test_the_price_of_a_tray_orders_nothing(shops: Services) -> None:
    chat = customer(shops, "mboga-fresh")
    reply = chat.send("how much is a tray of eggs")
    assert "KES 450" in reply
    assert "How many would you like?" in reply  # the tray was asked about, not counted
    assert lines(chat) == {"MF-EGG-01": (None, {})}


def test_mala_is_the_fermented_milk_the_shop_sells_beside_fresh_milk(shops: Services) -> None:
    chat = customer(shops, "kinywaji")
    reply = chat.send("is mala sold per packet?")
    assert "Mala 500ml" in reply
    assert "KES 90" in reply
