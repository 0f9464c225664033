"""What the eighth and ninth development conversations still found (eval/goals/dev8.yaml, dev9.yaml: a textbook shop
whose books come by grade and form, a tyre centre that books fitters, a honey and beekeeping shop), each as a test of
what the customer sees: the class her child goes into is an option of her story, never a count ("niko form 4", "vya
gredi 8"); a title listed beside others is a book of its own, though the study guide's options are titles too, while
an option said in a part of its own ("ghee, 250g") is still the option of the thing before; of the books her words
fit, the one in the grade she said; pickup said as delivery said away ("No delivery needed") or as coming to the
shop's bay; an answer naming the option asked, with her car's model beside it, answers the booking's question; a title
naming a language is the book, not a request to switch language; her reason and then "ghairi tafadhali" at the
payment question cancels the order, a reason with "cancelled" in it and then pickup does not; "isiyopakwa rangi" (not
painted) is the unpainted option; a tool "za kufungua mizinga" (for opening hives) is the tool, not a hive."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def books(seeded: Services) -> Chat:
    """A customer of a textbook shop whose books come by grade (Grade 4 to 9) and form."""
    return chat_at_pack(seeded, EVAL_PACKS / "soma-bookshop", "+254711000951")


@pytest.fixture
def bees(seeded: Services) -> Chat:
    """A customer of a honey and beekeeping shop that sells hives, tools and protective gear."""
    return chat_at_pack(seeded, EVAL_PACKS / "nyuki-asali", "+254711000953")


@pytest.fixture
def tyres(seeded: Services) -> Chat:
    """A customer of a tyre and battery centre that sells tyres and books alignments with its fitters."""
    return chat_at_pack(seeded, EVAL_PACKS / "gurudumu-tyres", "+254711000952")


def counts(chat: Chat) -> dict[str, int | None]:
    return {name: line[0] for name, line in chat.basket().items()}


def test_the_form_she_is_in_is_no_count_of_her_book(books: Chat) -> None:
    books.send("oya, niko form 4 next year na maths inanichapa vibaya 😂 nataka top mark ya maths moja")

    assert books.basket() == {"Top Mark KCSE Revision Book": (1, {"subject": "Mathematics"})}


def test_the_grade_of_her_books_is_their_option_not_their_count(books: Chat) -> None:
    reply = books.send(
        "Habari, binti yangu anaingia gredi 8 Januari. Nataka kitabu cha hesabu cha Longhorn, vya gredi 8, pamoja na "
        "madaftari dazeni mbili"
    )

    assert "8 x" not in reply
    assert books.basket()["Longhorn Mathematics Learner's Book (Junior School)"] == (1, {"grade": "Grade 8"})
    assert counts(books)["Exercise Books (Dozen)"] == 2


def test_of_the_books_her_words_fit_the_one_in_the_grade_she_said(books: Chat) -> None:
    # Spotlight's Science and Technology is Grade 4 to 6 only
    books.send(
        "mwanangu anaingia gredi 8. nataka kitabu cha hesabu cha Longhorn na cha sayansi cha Spotlight, vya gredi 8"
    )

    assert books.basket() == {
        "Longhorn Mathematics Learner's Book (Junior School)": (1, {"grade": "Grade 8"}),
        "Spotlight Integrated Science Learner's Book": (1, {"grade": "Grade 8"}),
    }


def test_titles_listed_together_are_each_a_book_though_a_guides_options_are_titles(books: Chat) -> None:
    books.send(
        "Mwanangu anaingia form 4 Januari. Nahitaji Fathers of Nations, The Samaritan, Bembea ya Maisha na Nguu za "
        "Jadi, kimoja kimoja"
    )

    assert counts(books) == {
        "Fathers of Nations (Paul B. Vitta)": 1,
        "The Samaritan (John Lara)": 1,
        "Bembea ya Maisha (Timothy Arege)": 1,
        "Nguu za Jadi (Clara Momanyi)": 1,
    }


@pytest.mark.parametrize(
    ("pack", "said", "expected"),
    [
        ("dairy", "ghee, 250g, mala 2", {"Ghee": (1, {"size": "250g"}), "Mala": (2, {})}),
        ("bakery", "cupcakes, red velvet, mandazi dozen 1", {"Cupcakes (box of 6)": (1, {"flavour": "Red Velvet"})}),
    ],
)
def test_an_option_said_in_a_part_of_its_own_is_the_option_of_the_thing_before(
    seeded: Services, pack: str, said: str, expected: dict[str, tuple[int, dict[str, str]]]
) -> None:
    shop = chat_at_pack(seeded, EVAL_PACKS / pack, "+254711000954")

    shop.send(said)

    basket = shop.basket()
    assert {name: basket[name] for name in expected} == expected


def test_delivery_said_away_at_the_payment_question_is_pickup(books: Chat) -> None:
    books.send("I need two copies of A Silent Song and Other Stories. Please deliver to Kilimani")
    assert books.state["frame"].fulfilment.mode == "delivery"

    reply = books.send("Oh wait, I'll just pick them up from your shop instead. No delivery needed")

    assert books.state["frame"].fulfilment.mode == "pickup"
    assert "Pickup at the shop: free" in reply
    assert "Delivery" not in reply


def test_driving_in_to_the_shops_bay_is_pickup(tyres: Chat) -> None:
    tyres.send("I'd like four Bridgestone Ecopia, size 185/65 R15")
    if tyres.state["pending"] == "item_selection":
        tyres.send("Bridgestone Ecopia EP150 Tyre", reply_id="item:GT-TY-01")
    assert tyres.state["pending"] == "fulfilment"

    tyres.send("I'll drive in and have them fitted at your bay")

    assert tyres.state["frame"].fulfilment.mode == "pickup"
    assert tyres.state["pending"] == "payment_method"


def test_her_answer_to_the_vehicle_question_with_her_cars_model_picks_the_option(tyres: Chat) -> None:
    tyres.send("Hi, can Kamau do an alignment on Saturday at 10?")
    if tyres.state["pending"] == "item_selection":
        tyres.send("Computerised Wheel Alignment", reply_id="item:GT-SV-01")
    assert tyres.state["pending"] == "booking_variant"

    reply = tyres.send("it's an SUV, a RAV4")  # "RAV4" is also a word of a tyre for SUVs

    booking = tyres.state["booking"]
    assert (booking.name, booking.variant_selection.get("vehicle")) == ("Computerised Wheel Alignment", "SUV or 4x4")
    assert "with Kamau" in reply


def test_a_books_title_naming_a_language_is_the_book_not_a_request_to_switch_language(books: Chat) -> None:
    books.send("habari, nataka vitabu vya gredi 5")

    reply = books.send("Oxford English Activities")  # a title typed from the list, in a Swahili conversation

    assert "Oxford English Activities (Upper Primary) (Grade 5)" in reply
    assert "Ungependa ngapi?" in reply
    assert books.state["response_language"] == "sw"


def test_her_reason_with_a_word_for_cancelled_and_then_pickup_keeps_the_order(books: Chat, seeded: Services) -> None:
    books.send("I need two copies of A Silent Song and Other Stories. Please deliver to Kilimani")
    assert books.state["frame"].order is not None

    reply = books.send("The school trip got cancelled, so I'll come for them myself")

    order = books.state["frame"].order  # the order again, for pickup
    assert order is not None
    assert seeded.orders.get(books.tenant_id, order.order_id).status != "cancelled"
    assert "Pickup at the shop: free" in reply
    assert books.state["pending"] == "payment_method"


@pytest.mark.parametrize(
    "said",
    [
        "samahani, nimeona ujumbe wa shule sasa hivi, wanasema watawauzia wanafunzi past papers shuleni kwa bei ya "
        "chini. ghairi tafadhali",
        "ghairi tafadhali",  # read as a booking's cancellation as much as an order's: at this checkout, the order's
    ],
)
def test_her_reason_and_then_cancel_at_the_payment_question_cancels_the_order(
    books: Chat, seeded: Services, said: str
) -> None:
    books.send("Nataka vitabu viwili vya KCSE past papers vyenye marking schemes")
    if books.state["pending"] == "item_selection":
        books.send("KCSE Past Papers with Marking Schemes 2016-2025", reply_id="item:SB-RV-04")
    books.send("nitachukua dukani")
    order = books.state["frame"].order
    assert order is not None
    assert books.state["pending"] == "payment_method"

    reply = books.send(said)

    assert "imefutwa" in reply
    assert seeded.orders.get(books.tenant_id, order.order_id).status == "cancelled"


def test_not_painted_said_in_swahili_is_the_unpainted_hive(bees: Chat) -> None:
    bees.send("nataka mizinga ya Langstroth mitatu")
    assert bees.state["pending"] == "variant"

    bees.send("isiyopakwa rangi")  # which is not painted

    assert bees.basket() == {"Langstroth Hive (Complete)": (3, {"finish": "Unpainted"})}


def test_a_tool_for_opening_hives_is_the_tool_not_a_hive(bees: Chat) -> None:
    bees.send("Nataka glovu za ngozi pair mbili, saizi M, na hive tool mbili za kufungua mizinga")

    assert {name: line[0] for name, line in bees.basket().items()} == {
        "Leather Beekeeping Gloves (Pair)": 2,
        "J-Hook Hive Tool": 2,
    }
