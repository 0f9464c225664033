"""A number of her story is no count (the ninth development conversations: "stung N times", "a group with N
hives", a height, each became the count of what she wanted): the token tagger reads the numbers a message says, and
a count the rules read from a number the tagger reads as no count is none; the count she gives her thing stands."""

from __future__ import annotations

import pytest

from tests.chat import Chat
from tests.conftest import GROCER
from tulia.graph.conversation import Conversations
from tulia.graph.journeys.sale_basket import counts_denied, without_denied_counts
from tulia.nlu.basket_words import ItemSaid
from tulia.nlu.tagger import Span


@pytest.fixture
def grocer(conversations: Conversations) -> Chat:
    return Chat(conversations, tenant_id=GROCER, phone="+254711000941")


def counts(chat: Chat) -> dict[str, int | None]:
    return {name: line[0] for name, line in chat.basket().items()}


def test_the_people_in_her_house_are_no_count_of_the_sugar(grocer: Chat) -> None:
    grocer.send("we are 6 people in the house, I need Mumias sugar 2")

    assert counts(grocer) == {"Mumias Sugar 2kg": 2}


def test_the_times_she_came_are_no_count_of_her_list(grocer: Chat) -> None:
    grocer.send("I came 3 times last week and you were closed. Two Festive bread and one Mumias sugar please")

    assert counts(grocer) == {"Festive White Bread 400g": 2, "Mumias Sugar 2kg": 1}


def test_the_age_of_her_son_is_no_count_of_the_bread(grocer: Chat) -> None:
    reply = grocer.send("mtoto wangu ana miaka kumi, nataka mkate Festive")

    assert counts(grocer) in ({"Festive White Bread 400g": None}, {"Festive White Bread 400g": 1})
    assert "10 x" not in reply


# the rule itself, over spans as the tagger gives them
STORY = "got stung 6 times. One bee suit"


def test_a_number_the_tagger_leaves_out_of_every_span_is_denied_unless_a_thing_she_wants_follows_in_its_clause() -> (
    None
):
    tags = [Span("ITEM", "add", "bee suit", 23, 31)]

    assert counts_denied(STORY, tags) == {6}  # "One" is the suit's: nothing but its words between
    assert counts_denied("we have 3 old hives", [Span("ITEM", "hers", "hives", 15, 20)]) == {3}
    assert counts_denied("we have 3, old hives", [Span("ITEM", "add", "hives", 16, 21)]) == {3}
    assert counts_denied("nipe mayai sitini", [Span("ITEM", "add", "mayai", 5, 10)]) == set()  # right after it
    assert counts_denied("my tank 3 days leaks", [Span("ITEM", "hers", "tank", 3, 7)]) == {3}
    assert counts_denied("tuko 5, maize bag 90 kg x5", [Span("ITEM", "add", "maize bag", 9, 18)]) == set()  # "x5"


def test_a_number_the_tagger_reads_as_a_count_anywhere_is_never_denied() -> None:
    tags = [Span("QTY", None, "One", 19, 22), Span("ITEM", "add", "bee suit", 23, 31)]

    assert counts_denied(STORY, tags) == {6}
    assert counts_denied("we are 2, send 2 loaves", [Span("QTY", None, "2", 15, 16)]) == set()


def test_an_hour_a_size_and_a_height_are_denied_and_nothing_is_without_the_taggers_reading() -> None:
    said = "I'm 5'2, size 12, at 4"
    tags = [Span("OPTION", None, "size 12", 9, 16), Span("TIME", None, "4", 21, 22)]

    assert counts_denied(said, tags) == {5, 12, 4}  # "5'2" is five feet (and two inches): one word
    assert counts_denied(said, []) == set()


def test_a_listed_count_that_is_denied_is_read_again_without_it() -> None:
    items = [ItemSaid("got stung 6 times one full bee suit", 6), ItemSaid("the gloves", None)]
    assert [i.quantity for i in without_denied_counts([ItemSaid("6 days 2 sugar", 6)], {6})] == [2]

    again = without_denied_counts(items, {6})

    assert [(i.text, i.quantity) for i in again] == [
        ("got stung 6 times one full bee suit", None),
        ("the gloves", None),
    ]
    assert without_denied_counts(items, set()) == items


def test_a_class_is_denied_and_a_number_right_before_options_is_their_things_count() -> None:
    said = "niko form 4, nataka top mark"
    tags = [Span("OPTION", None, "form 4", 5, 11), Span("ITEM", "add", "top mark", 20, 28)]

    assert counts_denied(said, tags) == {4}
    assert counts_denied("5 large avocados", [Span("OPTION", None, "large avocados", 2, 16)]) == set()


def test_a_part_left_without_its_count_that_says_only_options_describes_the_thing_before() -> None:
    items = [ItemSaid("robota la tops", None), ItemSaid("grade 1 la uk", 1), ItemSaid("hangers 5", 5)]

    again = without_denied_counts(items, {1}, describes=lambda part: part == "grade la uk")

    assert [(i.text, i.quantity) for i in again] == [("robota la tops grade 1 la uk", None), ("hangers 5", 5)]


def test_a_count_written_x2_stands_beside_the_same_number_of_her_story(grocer: Chat) -> None:
    grocer.send("niko na watoto 2, nipe mkate Festive x2")
    grocer.send("1")

    assert counts(grocer) == {"Festive White Bread 400g": 2}


def test_a_clause_that_describes_her_thing_is_searched(grocer: Chat) -> None:
    reply = grocer.send("I want eggs, free range")

    assert reply.index("Kienyeji Eggs Tray") < reply.index("Eggs Tray (30) - KES 450")
