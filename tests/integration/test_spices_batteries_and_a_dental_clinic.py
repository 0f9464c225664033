"""What the eleventh development conversations found (eval/goals/dev11.yaml: a battery and lubricants shop, a dental
clinic that books and sells oral care, a Swahili-default spice and dry-fish shop), each as a test of what the customer
sees: a matatu is a minibus, not three; "the JKIA pickup" of her story is no pickup from the shop; an oil's grade
("15W-40") is no count; "Dr." said with a dentist's name searches nothing; a time asked that is taken is said so; the
sentences of her story are no search words; two kilos of a spice sold in 100g to 1kg packs are two 1kg packs; "gramu
mia moja" is 100g; "vizima", "ya unga" and "vijiti" name Whole, Ground and Sticks; "pilau for 25" cooks for 25
people; the floor of her building is no count; the count after a thing in a clause of her story is its count; "6
panes each 2ft by 1.5ft" is 18 square feet of the glass before it; "inchi moja na nusu" is 1.5 inch."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chat import Chat
from tests.conftest import chat_at_pack
from tulia.nlu.basket_words import count_of
from tulia.nlu.frame_extract import extract_mode, measures_in_digits, named_option
from tulia.search.measures import packs_of_an_option
from tulia.services import Services

EVAL_PACKS = Path(__file__).resolve().parents[2] / "eval" / "packs"


@pytest.fixture
def batteries(seeded: Services) -> Chat:
    return chat_at_pack(seeded, EVAL_PACKS / "betri-bora", "+254711001101")


@pytest.fixture
def dentist(seeded: Services) -> Chat:
    return chat_at_pack(seeded, EVAL_PACKS / "tabasamu-dental", "+254711001102")


@pytest.fixture
def spices(seeded: Services) -> Chat:
    return chat_at_pack(seeded, EVAL_PACKS / "viungo-pwani", "+254711001103")


@pytest.fixture
def yard(seeded: Services) -> Chat:
    return chat_at_pack(seeded, EVAL_PACKS / "mbao-timber", "+254711001104")


@pytest.mark.parametrize(
    ("said", "count"),
    [
        ("nina matatu mbili za route ya kayole", 2),  # the minibuses' own count, never three
        ("a matatu guy gave me a jump and 2 cables", 2),  # the cables', never 3
        ("nataka mayai matatu", 3),  # three of the "ma-" class, after its noun
        ("oil ya diesel 15w-40 ile ndoo ya lita 20", None),  # an oil's grade and its tin: no count
    ],
)
def test_a_matatu_is_a_minibus_and_an_oil_grade_is_no_count(said: str, count: int | None) -> None:
    assert count_of(said) == count


def test_the_pickup_of_her_ride_is_no_collection_from_the_shop(batteries: Chat) -> None:
    reply = batteries.send(
        "Evening! Uber driver here 🚗 my Axio refused to start at the JKIA pickup today, had to beg a matatu guy for a "
        "jump 😤 I need a new battery, the N50, maintenance free so I stop buying battery water. Also the terminals "
        "are rotten, give me the brass pair"
    )

    basket = batteries.basket()
    assert "Portable Jump Starter" not in basket  # "a matatu guy for a jump": three of nothing
    assert "Car Battery" in basket
    assert basket["Battery Terminals (Pair)"] == (1, {"material": "Brass"})
    assert batteries.state["frame"].fulfilment.mode != "pickup"
    assert "Pickup at the shop" not in reply


@pytest.mark.parametrize(
    ("said", "mode"),
    [
        ("my car died at the jkia pickup today", None),
        ("after the school pickup i need oil", None),
        ("i will do the pickup myself", "pickup"),
        ("nitakuja na pickup yangu kuchukua", "pickup"),
    ],
)
def test_a_pickup_of_something_else_is_no_way_to_get_her_order(said: str, mode: str | None) -> None:
    assert extract_mode(said)[0] == mode


def test_a_dentist_named_with_her_title_and_the_sentences_of_her_story_find_the_one_service(dentist: Chat) -> None:
    reply = dentist.send(
        "Good evening, I haven't seen a dentist in like 6 years 😬 and something feels off at the back on the right. "
        "I want a full check-up with the full mouth X-ray. Can Dr. Omondi see me Friday at 6pm after work?"
    )

    held = dentist.state["booking"]
    assert (held.name, held.variant_selection) == (
        "Dental Check-up and Consultation",
        {"xray": "With Full Mouth X-ray"},
    )
    assert "at 18:00 with Dr. Omondi" in reply


def test_a_time_asked_that_is_taken_is_said_before_the_nearest_free_times(seeded: Services) -> None:
    first = chat_at_pack(seeded, EVAL_PACKS / "tabasamu-dental", "+254711001105")
    first.send("nataka wisdom tooth removal, impacted, na Dr. Omondi friday saa kumi na moja jioni")
    assert first.state["pending"] == "booking_confirm"  # 17:00 with Dr. Omondi, held
    second = Chat(first.conversations, tenant_id=first.tenant_id, phone="+254711001106")  # the same shop's diary

    reply = second.send("I want a check-up with the full mouth X-ray with Dr. Omondi on Friday at 6pm")

    assert "at 18:00 with Dr. Omondi is not free. The nearest free times:" in reply
    assert second.state["pending"] == "booking_slot"


def test_two_kilos_of_a_spice_in_packs_of_several_weights_are_packs_of_the_largest_and_hundreds_said_in_words(
    spices: Chat,
) -> None:
    spices.send(
        "Habari za jioni. Jumamosi ni ruracio ya binti yangu hapa Kayole, tunapika pilau ya wageni 300 🎉 nataka pilau "
        "masala ya viungo vizima kilo mbili, na iliki nzima gramu mia moja"
    )

    assert spices.basket() == {
        "Pilau Masala": (2, {"form": "Whole", "weight": "1kg"}),  # no 300 of her guests
        "Cardamom (Iliki)": (1, {"form": "Whole", "weight": "100g"}),
    }


def test_the_thing_of_each_part_is_its_own_and_ya_unga_is_ground(spices: Chat) -> None:
    spices.send(
        "Habari. Mimi ni mama lishe Industrial Area, wateja wangu wa kibanda wanapenda mchuzi wenye pilipili 🌶️ nipe "
        "curry powder ile hot kilo mbili, na pilipili manga ya unga robo kilo"
    )

    assert spices.basket() == {
        "Curry Powder (Mchuzi Mix)": (2, {"heat": "Hot", "weight": "1kg"}),
        "Black Pepper (Pilipili Manga)": (1, {"form": "Ground", "weight": "250g"}),
    }


@pytest.mark.parametrize(
    "said",
    [
        "i m making pilau for 25 please send 500g of ground pilau masala",
        "ng ombe zangu tatu zinakula sana nipe sprinkler",
        "tunapika pilau ya wageni 300 nataka pilau masala",
    ],
)
def test_the_people_she_cooks_for_and_her_animals_are_no_count_of_a_thing(said: str) -> None:
    assert count_of(said) is None


def test_an_option_typed_in_swahili_is_chosen(spices: Chat) -> None:
    spices.send("nipe pilipili manga nzima nusu kilo, na mdalasini gramu 250")
    assert spices.state["pending"] == "variant"

    spices.send("vijiti")

    assert spices.basket() == {
        "Black Pepper (Pilipili Manga)": (1, {"form": "Whole", "weight": "500g"}),
        "Cinnamon (Mdalasini)": (1, {"weight": "250g", "form": "Sticks"}),
    }


@pytest.mark.parametrize(
    ("said", "options", "chosen"),
    [
        ("ya unga", ["Whole", "Ground"], "Ground"),
        ("ya unga", ["Whole", "Crushed", "Powder"], "Powder"),
        ("viungo vizima", ["Ground", "Whole"], "Whole"),
        ("ile ya kawaida tu", ["Ordinary", "Cleaned"], "Ordinary"),
        ("skrubu za inchi moja na nusu box mbili", ["1 Inch", "1.5 Inch", "2 Inch"], "1.5 Inch"),
        ("one and a half inch", ["1 Inch", "1.5 Inch", "2 Inch"], "1.5 Inch"),
    ],
)
def test_options_said_in_the_words_customers_use(said: str, options: list[str], chosen: str) -> None:
    assert named_option(said, options) == chosen


@pytest.mark.parametrize(
    ("said", "packed"),
    [
        ("2 kilo", ("1kg", 2)),
        ("750g", ("250g", 3)),
        ("1 kilo", None),  # one of its options: that option
        ("5 litres", None),  # no measure of its kind
    ],
)
def test_a_measure_said_is_packs_of_the_largest_option_that_makes_it_whole(
    said: str, packed: tuple[str, int] | None
) -> None:
    assert packs_of_an_option(said, ["100g", "250g", "500g", "1kg"]) == packed


def test_hundreds_and_halves_of_a_measure_in_words_are_digits() -> None:
    assert measures_in_digits("gramu mia moja") == "100 gramu"
    assert measures_in_digits("inchi moja na nusu") == "1.5 inchi"
    assert measures_in_digits("bei ni mia tano") == "bei ni mia tano"  # no measure: a price, as it is


def test_pieces_each_of_a_size_said_after_the_glass_are_its_square_feet(yard: Chat) -> None:
    yard.send(
        "Good evening. I own a plot of 6 units in South B and every single bathroom window pane has cracked over the "
        "years 🙈 tenants keep complaining. I need the obscure glass with the small dots, 6 panes each 2ft by 1.5ft, "
        "and 2kg of putty to fix them"
    )

    assert yard.basket() == {
        "Frosted Glass Cut to Size (per sq ft)": (18, {}),
        "Window Putty (1kg)": (2, {}),
    }


def test_the_count_after_a_thing_in_a_clause_of_her_story_is_its_count(yard: Chat) -> None:
    yard.send(
        "Habari. Nimenunua robo eka Kitengela na mbuzi za jirani zinaingia kila siku 🐐 nataka kuweka fence kwanza "
        "kabla ya kujenga. Nipe nguzo za fence zilizotibiwa 40, za futi nane, na dawa ya mbao ya brown lita 4 ya "
        "kupaka juu pale zitakatwa"
    )

    counts = {ln.name: ln.quantity for ln in yard.state["frame"].lines}
    assert counts["Treated Fencing Post"] == 40


@pytest.mark.parametrize(
    ("said", "options", "chosen"),
    [
        ("isiyorandwa, rough", ["Rough", "Planed"], "Rough"),  # "not planed": never the Planed it names
        ("isiyorandwa", ["Rough", "Planed"], "Rough"),
        ("iliyorandwa", ["Rough", "Planed"], "Planed"),
        ("isiyopakwa rangi", ["Painted", "Unpainted"], "Unpainted"),
    ],
)
def test_a_swahili_word_that_carries_its_own_not(said: str, options: list[str], chosen: str) -> None:
    assert named_option(said, options) == chosen


def test_the_person_to_ask_for_at_her_address_is_no_thing_to_buy(yard: Chat) -> None:
    yard.send("Nipe mirunda nane za futi 12, pine ya 2 by 3 isiyorandwa futi 60, na misumari ya inchi tatu kilo mbili")
    assert yard.state["pending"] == "fulfilment"

    yard.send("Gikomba, karibu na soko la mitumba upande wa mto, uliza kibanda cha Mama Atieno")

    assert yard.basket() == {
        "Blue Gum Poles (Mirunda)": (8, {"length": "12ft"}),
        "Pine Timber (per foot)": (60, {"size": "2x3", "finish": "Rough"}),
        "Wire Nails (per kg)": (2, {"size": "3 Inch"}),
    }
    assert yard.state["frame"].fulfilment.zone == "CBD & Gikomba"


def test_two_sizes_of_one_thing_sold_by_the_kilo_are_two_lines_each_with_its_kilos(yard: Chat) -> None:
    yard.send(
        "sema mzee 🐔 najenga kibanda ya kuku 50 Mathare North. nipe misumari ya inch 3 kilo 5, ya inch 4 kilo 3, na "
        "hinges za mlango pair mbili za inch 4, zile za steel tu"
    )

    lines = [(ln.name, ln.quantity, dict(ln.variant_selection)) for ln in yard.state["frame"].lines]
    assert lines == [
        ("Wire Nails (per kg)", 5, {"size": "3 Inch"}),
        ("Wire Nails (per kg)", 3, {"size": "4 Inch"}),
        ("Butt Hinges (Pair)", 2, {"size": "4 Inch", "finish": "Steel"}),
    ]


def test_of_two_dates_said_the_one_that_falls_on_the_weekday_she_asks_for_is_booked(dentist: Chat) -> None:
    reply = dentist.send(
        "Hellooo 👰🏾‍♀️ my wedding is on 19th December and years of chai and coffee have made my teeth yellowish. I'd "
        "love the in-clinic whitening with Dr. Hassan, is next Tuesday the 8th at 11am possible?"
    )

    assert dentist.state["booking"].name == "Teeth Whitening"
    assert "Tue 8 Dec at 11:00 with Dr. Hassan" in reply  # the 8th, a Tuesday: not her wedding's Saturday the 19th


def test_fractions_of_an_inch_at_a_shop_that_books_are_sizes_not_days(seeded: Services) -> None:
    farm = chat_at_pack(seeded, EVAL_PACKS / "shamba-drip", "+254711001107")

    farm.send("nipe sprinkler mbili za 1/2 inch na hosepipe ya 30m ile ya 3/4")

    basket = farm.basket()
    assert basket["Impact Sprinkler"] == (2, {"size": "1/2 Inch"})  # no 1 February
    assert basket["Garden Hose Pipe (30m)"] == (1, {"size": "3/4 Inch"})


def test_what_she_tops_her_car_up_with_is_the_thing_not_her_car(batteries: Chat) -> None:
    batteries.send(
        "Hi, my Probox has been overheating in the CBD jam every evening 🥵 mechanic says top up with the pink "
        "coolant, 4 litres, and also get 2 bottles of brake fluid, DOT 4, the 500ml ones"
    )

    assert batteries.basket() == {
        "Coolant": (1, {"colour": "Pink", "size": "4 Litres"}),  # no battery "for the Probox"
        "Brake Fluid": (2, {"type": "DOT 4", "size": "500ml"}),
    }


@pytest.mark.parametrize(
    "said",
    [
        "I need 4 litres of 10W-40, an oil filter and an air filter for it",
        "Hey, I'm doing my own service this weekend for the first time, YouTube mechanic level 😅 Fielder 2012, 1500cc "
        "petrol. I need 4 litres of 10W-40, an oil filter and an air filter for it",
    ],
)
def test_an_oil_named_by_its_grade_and_tin_beside_things_named_by_name(batteries: Chat, said: str) -> None:
    batteries.send(said)

    basket = batteries.basket()
    assert basket["Petrol Engine Oil"] == (1, {"grade": "10W-40", "size": "4 Litres"})  # no "1500cc petrol" search
    assert set(basket) == {"Petrol Engine Oil", "Oil Filter", "Air Filter"}


def test_the_floor_of_her_address_said_where_to_deliver_counts_nothing(spices: Chat) -> None:
    spices.send("nipe pilipili manga nzima nusu kilo, na mdalasini wa vijiti gramu 250")
    assert spices.state["pending"] == "fulfilment"

    spices.send("Eastleigh Section 3, 12th Street, Amana apartments ghorofa ya tatu")  # the third floor: no three

    assert spices.basket() == {
        "Black Pepper (Pilipili Manga)": (1, {"form": "Whole", "weight": "500g"}),
        "Cinnamon (Mdalasini)": (1, {"form": "Sticks", "weight": "250g"}),
    }
    assert spices.state["frame"].fulfilment.zone == "Eastleigh & Pangani"
