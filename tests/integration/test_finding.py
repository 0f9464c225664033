"""Issue 18's search examples as conversations: the kind of thing asked for before accessories that
mention it, budgets, brands, negation, names, and a sold-out item said so (rules engine)."""

from __future__ import annotations

import re

import pytest

from tests.chat import Chat
from tests.conftest import HARDWARE
from tulia.services import Services

ROW = re.compile(r"^\d+\. (.+) - KES ([\d,]+)", re.M)


def rows(reply: str) -> list[tuple[str, int]]:
    """The shortlist as the customer reads it: (name, price) in order."""
    return [(name, int(price.replace(",", ""))) for name, price in ROW.findall(reply)]


def category_of(services: Services, tenant_id: str, name: str) -> str:
    return categories(services, tenant_id)[name]


def categories(services: Services, tenant_id: str) -> dict[str, str]:
    """Each item's category by its name, read once per shop per test (a scan of the catalog through moto is slow)."""
    if tenant_id not in _read:
        _read[tenant_id] = {i.name: i.category for i in services.catalog.iter_all(tenant_id)}
    return _read[tenant_id]


_read: dict[str, dict[str, str]] = {}


@pytest.fixture(autouse=True)
def _catalog_read_afresh() -> None:
    _read.clear()


def test_samsung_phones_under_20k_are_samsung_phones_within_the_budget(chat: Chat, seeded: Services) -> None:
    reply = chat.send("hi do you have samsung phones under 20k")
    listed = rows(reply)
    assert all(name.startswith("Samsung Galaxy") and price <= 20_000 for name, price in listed)
    assert {category_of(seeded, "demo-shop", name) for name, _ in listed} == {"Smartphones"}
    assert listed == [("Samsung Galaxy A05", 13_500)]  # the one Samsung phone under 20k in stock
    assert "Reply 1 to choose it" in reply  # not "Reply with the number (1-1)"


def test_iphone_15_is_the_phone_not_four_accessories_first(chat: Chat) -> None:
    reply = chat.send("iphone 15")
    assert "Apple iPhone 15" in reply
    assert "Case" not in reply
    assert [line.item_id for line in chat.state["frame"].lines] == ["PH-APP-021"]


def test_a_misspelt_samsung_phone_under_15k_in_sheng_lists_phones_not_screen_protectors(
    chat: Chat, seeded: Services
) -> None:
    listed = rows(chat.send("samsang fone chini ya 15k"))
    assert listed
    assert all(price <= 15_000 for _, price in listed)
    assert {category_of(seeded, "demo-shop", name) for name, _ in listed} == {"Smartphones"}


def test_a_type_c_charger_in_swahili_puts_chargers_first(chat: Chat, seeded: Services) -> None:
    listed = rows(chat.send("nataka chaja ya type c"))
    assert {category_of(seeded, "demo-shop", name) for name, _ in listed} == {"Chargers & Cables"}
    assert "Charger" in listed[0][0]


def test_chargers_not_earphones_excludes_earphones(chat: Chat, seeded: Services) -> None:
    listed = rows(chat.send("hapana, nataka chaja sio earphones"))
    assert listed
    assert {category_of(seeded, "demo-shop", name) for name, _ in listed} == {"Chargers & Cables"}


def test_i_want_a_phone_lists_phones_not_a_phone_stand(chat: Chat, seeded: Services) -> None:
    listed = rows(chat.send("I want a phone"))
    assert listed
    assert all(category_of(seeded, "demo-shop", name) in ("Smartphones", "Feature Phones") for name, _ in listed)


def test_a_phone_not_a_case_lists_no_cases(chat: Chat, seeded: Services) -> None:
    listed = rows(chat.send("I want a phone not a case"))
    assert listed
    assert not any(category_of(seeded, "demo-shop", name) == "Phone Cases & Covers" for name, _ in listed)


def test_cheap_tv_starts_with_the_cheapest_tv(chat: Chat, seeded: Services) -> None:
    listed = rows(chat.send("cheap tv"))
    assert {category_of(seeded, "demo-shop", name) for name, _ in listed} == {"Televisions"}
    assert [p for _, p in listed] == sorted(p for _, p in listed)
    in_stock_tvs = [i.price for i in seeded.catalog.iter_all("demo-shop") if i.category == "Televisions" and i.in_stock]
    assert listed[0][1] == min(in_stock_tvs)


def test_a_sold_out_phone_asked_by_name_is_said_sold_out_with_phones_in_stock(chat: Chat, seeded: Services) -> None:
    reply = chat.send("redmi note 13 pro")
    assert "Sorry, Xiaomi Redmi Note 13 Pro is out of stock right now" in reply
    listed = rows(reply)
    assert listed
    assert {category_of(seeded, "demo-shop", name) for name, _ in listed} == {"Smartphones"}
    assert listed[0][0].startswith("Xiaomi")  # its brand first


def test_a_budget_in_words_and_a_between_range(chat: Chat) -> None:
    listed = rows(chat.send("phones between 20k and 30k"))
    assert listed
    assert all(20_000 <= p <= 30_000 for _, p in listed)


def test_the_hardware_shop_finds_electric_wire_not_wire_nails(chat: Chat) -> None:
    hardware = Chat(chat.conversations, tenant_id=HARDWARE, phone="+254711000318")
    reply = hardware.send("waya ya stima")
    assert [name for name, _ in rows(reply)] == ["Twin and Earth Cable 2.5mm (100m)"]


def picked(chat: Chat) -> list[str]:
    return [line.name for line in chat.state["frame"].lines]


def test_the_second_one_picks_the_second_row(chat: Chat) -> None:
    listed = rows(chat.send("I want a phone"))
    chat.send("the second one")
    assert picked(chat) == [listed[1][0]]


def test_ya_pili_picks_the_second_row_in_swahili(chat: Chat) -> None:
    listed = rows(chat.send("nataka simu"))
    chat.send("nipe ya pili")
    assert picked(chat) == [listed[1][0]]


def test_hiyo_ya_samsung_picks_the_only_samsung_row(chat: Chat) -> None:
    listed = rows(chat.send("I want a phone"))
    [samsung] = [name for name, _ in listed if name.startswith("Samsung")]
    chat.send("hiyo ya samsung")
    assert picked(chat) == [samsung]


def test_the_cheaper_one_and_the_last_one(chat: Chat) -> None:
    listed = rows(chat.send("I want a phone"))
    chat.send("the cheaper one")
    assert picked(chat) == [min(listed, key=lambda row: row[1])[0]]
    other = Chat(chat.conversations, phone="+254711000555")
    listed = rows(other.send("I want a phone"))
    other.send("the last one")
    assert picked(other) == [listed[-1][0]]


def test_the_a15_leather_one_picks_the_row_its_words_name_best(chat: Chat) -> None:
    listed = [name for name, _ in rows(chat.send("samsung a15 case"))]
    assert "Samsung Galaxy A15 Leather Flip Cover" in listed
    assert "Samsung Galaxy A05 Leather Flip Cover" in listed  # "the leather one" alone would not say which
    chat.send("the a15 leather one")
    assert picked(chat) == ["Samsung Galaxy A15 Leather Flip Cover"]


def test_the_blue_one_picks_the_only_row_that_comes_in_blue_with_blue_chosen(chat: Chat) -> None:
    listed = [name for name, _ in rows(chat.send("earphones under 3k"))]
    assert "Oraimo FreePods Lite Earbuds" in listed  # Black, White or Blue; the others come in black or white
    chat.send("the blue one")
    assert picked(chat) == ["Oraimo FreePods Lite Earbuds"]
    assert chat.state["frame"].lines[0].variant_selection == {"colour": "Blue"}


def test_the_black_one_when_several_rows_come_in_black_asks_which_then_keeps_the_colour(chat: Chat) -> None:
    rows(chat.send("earphones under 3k"))
    reply = chat.send("the black one")
    assert reply.startswith('Several of these fit "Black". Which one would you like?')
    assert "Call of Duty" not in reply  # not a new search for "black"
    assert not chat.state["frame"].lines
    chat.send("2")
    assert picked(chat) == ["Samsung Type-C Wired Earphones"]
    assert chat.state["frame"].lines[0].variant_selection == {"colour": "Black"}


def test_hiyo_ya_oraimo_among_several_oraimo_rows_asks_which_of_them(chat: Chat) -> None:
    listed = [name for name, _ in rows(chat.send("nataka chaja ya type c"))]
    oraimo = [name for name in listed if name.startswith("Oraimo")]
    assert len(oraimo) > 1
    reply = chat.send("nipe hiyo ya oraimo")
    assert reply.startswith('Kadhaa kati ya hizi zinalingana na "oraimo". Ungependa ipi?')
    assert [name for name, _ in rows(reply)] == oraimo  # only the Oraimo rows, not a new search
    chat.send("2")
    assert picked(chat) == [oraimo[1]]
