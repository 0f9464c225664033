"""What the seventeenth session found in the development conversations (eval/goals/dev8.yaml, dev10.yaml), each as
a test of what the customer sees: one thing said once and then in parts of its options with their counts ("loop
bands, mbili za medium na moja ya heavy") is two lines, each with its count; a width said as the option and a length
as the amount of a thing sold by the metre ("polythene ya upana wa mita 8, mita 30") is 30 metres of the 8m."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.nlu.frame_extract import measures_in_digits
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def physio(seeded: Services) -> Chat:
    """A customer of a physiotherapy clinic that also sells supports and exercise things."""
    return chat_at_pack(seeded, EVAL_PACKS / "afya-physio", "+254711000971")


@pytest.fixture
def irrigation(seeded: Services) -> Chat:
    """A customer of an irrigation and greenhouse supplier: polythene by the metre, 8m or 10m wide."""
    return chat_at_pack(seeded, EVAL_PACKS / "shamba-drip", "+254711000972")


@pytest.mark.parametrize(
    "said",
    [
        "nipe loop bands, mbili za medium na moja ya heavy, na ile foam roller ya textured",
        "I need loop bands, two of the medium and one heavy, plus the textured foam roller",
    ],
)
def test_one_thing_said_in_parts_of_its_options_with_counts_is_a_line_for_each(physio: Chat, said: str) -> None:
    reply = physio.send(said)

    lines = [(ln.name, ln.quantity, dict(ln.variant_selection)) for ln in physio.state["frame"].lines]
    assert lines == [
        ("Resistance Loop Band", 2, {"strength": "Medium"}),
        ("Resistance Loop Band", 1, {"strength": "Heavy"}),
        ("Foam Roller", 1, {"type": "Textured"}),
    ]
    assert "2 x Resistance Loop Band (Medium)" in reply


def test_a_width_and_a_length_of_a_thing_sold_by_the_metre_are_its_option_and_its_amount(irrigation: Chat) -> None:
    reply = irrigation.send("nataka polythene ya upana wa mita 8, mita 30, na kamba za trellising roll mbili")

    assert irrigation.basket() == {
        "Greenhouse Polythene (per metre)": (30, {"width": "8m"}),
        "Trellising Twine (2kg Roll)": (2, {}),
    }
    assert "30 x Greenhouse Polythene (per metre) (8m)" in reply


@pytest.mark.parametrize(
    ("said", "in_digits"),
    [
        ("mita 8 mita 30", "8 mita 30 mita"),  # each measure its own number
        ("sukari 5 kilo 2", "sukari 5 kilo 2"),  # five kilos, then a count: the 2 is no measure
        ("lita tatu na kilo mbili", "3 lita na 2 kilo"),
    ],
)
def test_measures_said_the_swahili_way_are_read_with_their_own_numbers(said: str, in_digits: str) -> None:
    assert measures_in_digits(said) == in_digits
