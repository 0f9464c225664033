"""What the eighth development conversations found (eval/goals/dev8.yaml; a pest-control company that also sells
products), each as a test of the basket the customer sees: several things in one message beside her story and her
place ("... kwa duka langu Kayole 😩 nipe ..."), the clause of her place ending where a thing she wants begins or at an
emoji; a thing said "of" another ("glue board za storm", "nets for 4 by 6 beds") searched with it; "5 by 6" a size,
never the hour "by 6"; the thing of her story in the part of her wish is not searched with it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.nlu.when import read_when
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def pests(seeded: Services) -> Chat:
    """A customer of a pest-control company on Jogoo Road that books technicians and sells products."""
    return chat_at_pack(seeded, EVAL_PACKS / "dudu-safi-pest", "+254711000871")


def test_things_after_her_place_and_an_emoji_are_in_the_basket(pests: Chat) -> None:
    pests.send("sasa, panya wamenisumbua kwa duka langu Kayole 😩 nipe glue board tatu na snap trap moja")
    assert {name: line[0] for name, line in pests.basket().items()} == {"Rat Glue Board": 3, "Metal Snap Rat Trap": 1}


def test_a_size_said_for_a_thing_is_its_option_not_an_hour(pests: Chat) -> None:
    reply = pests.send("I'd like three of the treated nets for 4 by 6 beds and one box of mosquito coils")
    assert {name: line[0] for name, line in pests.basket().items()} == {
        "Treated Mosquito Net": 3,
        "Mosquito Coils (Box of 10)": 1,
    }
    assert pests.basket()["Treated Mosquito Net"][1].get("size") == "4x6"
    assert "Which size" not in reply


@pytest.mark.parametrize(("said", "is_an_hour"), [("covers for 5 by 6 beds", False), ("can he come by 6", True)])
def test_by_between_two_numbers_is_a_size(said: str, is_an_hour: bool) -> None:
    when = read_when(said, datetime(2026, 11, 29, 17, 0, tzinfo=UTC))
    assert (when.at is not None) is is_an_hour
