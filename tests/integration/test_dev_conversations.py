"""What the development conversations (eval/goals/dev.yaml, on three shops a helper wrote from pack files) found, each
as a test at a shop that books and sells (a gym) and one that only books (a photo studio): an appointment said with a
person, a day and a time is one wish; a Sheng verb made of an English word names the service; a question asked while
choosing is answered and the choice shown again; an option changed during a sale is the basket's, not a booking's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def gym(seeded: Services) -> Chat:
    """A gym that books coaches (Kevin, Achieng, Juma, Mercy) and sells supplements and gear."""
    return chat_at_pack(seeded, EVAL_PACKS / "nguvu-fitness", "+254711000630")


@pytest.fixture
def studio(seeded: Services) -> Chat:
    """A photo studio that only books shoots with its photographers."""
    return chat_at_pack(seeded, EVAL_PACKS / "picha-poa-studio", "+254711000631")


def test_a_service_with_a_person_a_day_and_a_time_said_in_two_parts_is_one_booking(gym: Chat) -> None:
    # "na Mercy" is "with Mercy", and "meal plan" the same service's words: never a second thing to find
    reply = gym.send("nataka nutrition consultation na mercy jumanne saa nane mchana, nipate meal plan")
    booking = gym.state["booking"]
    assert booking.item_id == "NF-NT-01"
    assert booking.chosen is not None
    assert booking.chosen.staff_id == "mercy"
    assert booking.chosen.start.startswith("2026-11-24T14:00")  # the Tuesday after the test clock's Monday
    assert "hatuuzi" not in reply


def test_a_sheng_verb_of_an_english_word_names_the_service(gym: Chat) -> None:
    reply = gym.send("msee kevin anaweza kuja kunitrain home syokimau friday saa moja asubuhi")
    assert "Home Personal Training" in reply  # "kunitrain": to train me
    assert "Unatafuta nini" not in reply  # not the categories


def test_how_long_asked_at_the_shoots_summary_is_answered_and_the_summary_kept(studio: Chat) -> None:
    # family photos at her home with Faith: the shop's one home family shoot (since the eleventh session's fixes
    # of what her story is: a shortlist of shoots before)
    studio.send("hi can faith come to our home in karen for family photos sunday at 3pm")
    assert studio.state["pending"] == "booking_confirm"
    booking = studio.state["booking"]
    assert (booking.item_id, booking.staff_id) == ("PP-FM-04", "faith")
    reply = studio.send("how long before we get the photos?")
    assert "studio sessions in 3 working days" in reply  # the shop's own answer
    assert "Home Family Shoot" in reply.split("studio sessions in 3 working days")[1]  # the summary again, after it
    assert studio.state["pending"] == "booking_confirm"


def test_changing_an_option_during_a_sale_edits_the_line_at_a_shop_that_also_books(gym: Chat) -> None:
    gym.send("nataka gym gloves nyeusi size L")
    gym.send("1")
    gym.send("niletee south b")
    before = gym.state["order_id"]
    reply = gym.send("samahani badilisha iwe XL badala ya L")
    assert "Huna booking" not in reply
    [line] = gym.state["frame"].lines
    assert line.variant_selection == {"size": "XL", "colour": "Black"}
    assert gym.state["order_id"] != before  # the order made again with the new size


@pytest.fixture
def uniforms(seeded: Services) -> Chat:
    """A school uniform shop: colours and sizes, delivery by zone."""
    return chat_at_pack(seeded, EVAL_PACKS / "sare-bora-uniforms", "+254711000632")


def test_one_colour_instead_of_another_edits_the_line_and_finds_or_drops_nothing(uniforms: Chat) -> None:
    uniforms.send("I need four games tshirts red size M")
    uniforms.send("South C")
    reply = uniforms.send("sorry the house colour changed, blue instead of red")
    [line] = uniforms.state["frame"].lines
    assert (line.quantity, line.variant_selection) == (4, {"colour": "Blue", "size": "M"})
    assert "Removed" not in reply
    assert "Which blue" not in reply  # not a search for the words of the change
    assert "4 x Games T-shirt (Blue, M): KES 1,600" in reply


def test_an_option_tapped_for_the_second_line_of_one_item_goes_to_that_line(uniforms: Chat) -> None:
    # the colour asked for the second T-shirt line went to the first (already red), and was asked again for ever
    uniforms.send("I need 2 games tshirts red size M and 1 games tshirt")
    uniforms.send("Blue")  # a button's title typed: its tap
    uniforms.send("S")
    lines = [(ln.quantity, ln.variant_selection) for ln in uniforms.state["frame"].lines]
    assert lines == [(2, {"colour": "Red", "size": "M"}), (1, {"colour": "Blue", "size": "S"})]


def test_a_line_taken_out_by_its_swahili_tag_name_at_the_payment_choice(uniforms: Chat) -> None:
    uniforms.send("habari mko na blazer ya navy blue size 32 na tai ya navy")
    uniforms.send("tuma Nakuru kwa courier")
    reply = uniforms.send("ondoa tai, nitanunua shuleni")  # "tai" is the tie's tag, not a word of its name
    assert [line.item_id for line in uniforms.state["frame"].lines] == ["SB-BZ-01"]
    assert "Nimeondoa School Tie." in reply
    assert "Jumla: KES 3,600" in reply


def test_the_kind_of_an_option_said_with_a_thing_does_not_hide_the_thing(uniforms: Chat) -> None:
    # "shati nyeupe size 13": "size" names no item, and the shirts were said not to be sold
    reply = uniforms.send("nataka shati nyeupe size 13 tatu na longi grey size 26 mbili")
    assert "hatuuzi" not in reply
    assert "School Shirt" in reply


def test_one_name_of_the_shops_among_chatter_is_searched_when_she_surely_buys(uniforms: Chat) -> None:
    reply = uniforms.send("msee nataka toughees size 38 za boy wangu anajoin form one")
    assert "Bata Toughees School Shoes" in reply  # not the categories
    assert "Unatafuta nini" not in reply


def test_the_option_already_chosen_said_again_at_the_bookings_summary_shows_it_as_it_stands(studio: Chat) -> None:
    studio.send("book a studio portrait session for me with lilian sunday 1pm")
    studio.send("2")  # Couple
    held = studio.state["booking"].held
    assert held is not None
    reply = studio.send("oh wait my sister is joining, make it couple instead of solo")
    assert "Studio Portrait Session (Couple)" in reply
    assert "didn't quite get that" not in reply
    assert studio.state["booking"].held == held  # the same time still held
