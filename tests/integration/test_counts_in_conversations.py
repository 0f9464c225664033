"""Counts said the ways a grammar of counts and measures over every tuning shop says them
(``eval/generated/quantities.txt``, ``scripts/make_quantity_grammar.py``; issue 30, seventh session): each test a
shape its first run read wrong, fixed by a general rule and checked on the basket the conversation builds and what
the customer is told."""

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
        seeded, *(PACKS / name for name in ("drinks", "dairy", "cereals", "cosmetics"))
    )


def customer(services: Services, tenant_id: str) -> Chat:
    return Chat(conversations_for(services, RulesEngine()), tenant_id=tenant_id, phone="+254711000744")


def lines(chat: Chat) -> dict[str, int | None]:
    return {line.item_id: line.quantity for line in chat.state["frame"].lines}


@pytest.mark.parametrize(
    ("tenant", "message", "expected"),
    [
        ("maziwa-safi", "eggs 60", {"MS-EGG-01": 2}),  # sixty eggs: two trays of 30, not sixty trays
        ("maziwa-safi", "nipe mayai sitini", {"MS-EGG-01": 2}),
        ("maziwa-safi", "3 trays of eggs", {"MS-EGG-01": 3}),  # trays said: trays
        ("kinywaji", "2 dozen stoney", {"KD-SOD-05": 2}),  # two dozen bottles: two packs of 12
        ("kinywaji", "a dozen afia juice", {"KD-JUI-02": 1}),
    ],
)
def test_pieces_that_fill_packs_are_that_many_packs(
    shops: Services, tenant: str, message: str, expected: dict[str, int]
) -> None:
    chat = customer(shops, tenant)
    chat.send(message)
    assert lines(chat) == expected


def test_pieces_that_fill_no_whole_pack_are_asked_not_taken_as_packs(shops: Services) -> None:
    chat = customer(shops, "maziwa-safi")
    reply = chat.send("a dozen eggs")
    assert lines(chat) == {"MS-EGG-01": None}  # not twelve trays (KES 5,400)
    assert "5,400" not in reply
    assert "how many" in reply.casefold()


def test_a_count_after_a_measure_with_its_amount_counts_packs(shops: Services) -> None:
    chat = customer(shops, "baraka-cereals")
    chat.send("nipe millet flour ya 1 kg nne")
    assert lines(chat) == {"BC-MTA-01": 4}


def test_a_bag_and_its_weight_are_not_a_count(shops: Services) -> None:
    chat = customer(shops, "baraka-cereals")
    reply = chat.send("dry maize bag 90 kg x5")
    assert lines(chat) == {"BC-MZE-03": 5}  # five 90kg bags, not ninety
    assert "Dry Maize Bag (90kg)" in reply


def test_one_before_a_noun_is_one_and_nipatie_is_asking(shops: Services) -> None:
    chat = customer(shops, "urembo-cosmetics")
    chat.send("one hair food")
    assert lines(chat) == {"UC-HRF-01": 1}
    chat = customer(shops, "baraka-cereals")
    chat.send("boss nipatie 3 sindano rice")
    assert list(lines(chat).values()) == [3]
