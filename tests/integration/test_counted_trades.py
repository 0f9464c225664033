"""A takeaway kitchen, a shoe shop, a printing cyber, a poultry farm shop and a phone repair shop (issue 30,
fifth session), the tuning packs of ``eval/tuning/trades-4.txt`` and ``trades-5.txt``: each test a miss of
those sets' first runs, fixed by a general rule and checked here on the basket a customer builds through the
whole conversation."""

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
    return seed_packs_beside_the_demo_packs(
        seeded, *(PACKS / name for name in ("eatery", "shoes", "printing", "poultry", "phonefix"))
    )


def customer(services: Services, tenant_id: str) -> Chat:
    return Chat(conversations_for(services, RulesEngine()), tenant_id=tenant_id, phone="+254711000742")


def lines(chat: Chat) -> dict[str, tuple[int | None, dict[str, str]]]:
    return {line.item_id: (line.quantity, dict(line.variant_selection)) for line in chat.state["frame"].lines}


def test_a_plural_the_stemmer_keeps_and_an_item_named_with_and_are_two_lines(shops: Services) -> None:
    chat = customer(shops, "jiko-safi")
    chat.send("five chapatis, two beans and rice")
    assert lines(chat) == {"JS-CHP-01": (5, {}), "JS-BNS-01": (2, {"side": "Rice"})}


def test_a_counted_option_word_after_plus_is_its_own_item(shops: Services) -> None:
    chat = customer(shops, "jiko-safi")
    chat.send("chips large plus a fanta")
    assert lines(chat) == {"JS-CHI-01": (1, {"size": "Large"}), "JS-SOD-01": (1, {"flavour": "Fanta"})}


def test_a_list_after_a_heading_keeps_every_count(shops: Services) -> None:
    chat = customer(shops, "jiko-safi")
    reply = chat.send("breakfast: 2 chapati, 2 mandazi, 2 tea")
    assert {k: q for k, (q, _o) in lines(chat).items()} == {"JS-CHP-01": 2, "JS-MND-01": 2, "JS-TEA-01": 2}
    assert "2 x Chapati" in reply


def test_plates_are_counted(shops: Services) -> None:
    chat = customer(shops, "jiko-safi")
    chat.send("beans with chapati, 2 plates")
    assert lines(chat) == {"JS-BNS-01": (2, {"side": "Chapati"})}


def test_a_shoe_size_is_the_size_and_the_pairs_are_the_count(shops: Services) -> None:
    chat = customer(shops, "viatu-halisi")
    reply = chat.send("nataka viatu vya shule size 36 jozi mbili")
    assert lines(chat) == {"VH-SCH-01": (2, {"size": "36"})}
    assert "36 x" not in reply


def test_pages_are_copies_not_the_binding_option_that_names_the_same_number(shops: Services) -> None:
    chat = customer(shops, "chapa-cyber")
    chat.send("photocopy 200 pages, deliver to hall 12")
    assert lines(chat) == {"CC-PHC-01": (200, {})}
    assert chat.state["frame"].fulfilment.zone == "Campus"


def test_a_loanword_and_a_swahili_count_of_envelopes(shops: Services) -> None:
    chat = customer(shops, "chapa-cyber")
    chat.send("bahasha tano na folda moja")
    assert lines(chat) == {"CC-ENV-01": (5, {}), "CC-FLD-01": (1, {})}


def test_a_count_anywhere_among_the_words_of_an_item(shops: Services) -> None:
    chat = customer(shops, "jiko-safi")
    chat.send("i would love 4 mandazi")
    assert lines(chat) == {"JS-MND-01": (4, {})}


@pytest.mark.parametrize(
    "message", ["2 chapati 3 mandazi", "chapati mbili mandazi tatu", "chapati 2 mandazi 3", "chapati x2 mandazi x3"]
)
def test_a_list_without_commas_or_and_is_one_line_each(shops: Services, message: str) -> None:
    chat = customer(shops, "jiko-safi")
    chat.send(message)
    assert lines(chat) == {"JS-CHP-01": (2, {}), "JS-MND-01": (3, {})}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("broiler wanne waliochinjwa", {"KB-BRL-01": (4, {"state": "Dressed"})}),  # a verb of slaughtering
        ("kuku mmoja wa kienyeji akiwa hai", {"KB-CHK-01": (1, {"state": "Live"})}),
        ("vifaranga 30 vya kienyeji improved", {"KB-CKS-01": (30, {"breed": "Kienyeji Improved"})}),
    ],
)
def test_a_poultry_order_in_swahili_names_its_count_and_option(
    shops: Services, message: str, expected: dict[str, tuple[int, dict[str, str]]]
) -> None:
    chat = customer(shops, "kuku-bora")
    chat.send(message)
    assert lines(chat) == expected


def test_cases_for_a_phone_are_cases_with_that_model_not_its_screen(shops: Services) -> None:
    chat = customer(shops, "simu-doctor")
    chat.send("2 clear cases for samsung a14")
    assert lines(chat) == {"SD-CAS-01": (2, {"model": "Samsung A14", "colour": "Clear"})}


def test_a_glass_for_a_phone_is_its_screen_protector(shops: Services) -> None:
    chat = customer(shops, "simu-doctor")
    chat.send("chaja ya iphone na glass ya iphone 11")
    assert lines(chat) == {"SD-CHG-02": (1, {}), "SD-GLS-01": (1, {"model": "iPhone 11"})}


@pytest.mark.parametrize(
    "message",
    ["trei mbili za mayai ya layers na moja ya kienyeji", "2 trays of layers eggs and one of kienyeji"],
)
def test_one_of_the_other_is_of_the_kind_the_part_before_named(shops: Services, message: str) -> None:
    chat = customer(shops, "kuku-bora")
    chat.send(message)
    assert {k: q for k, (q, _o) in lines(chat).items()} == {"KB-EGG-02": 2, "KB-EGG-01": 1}
