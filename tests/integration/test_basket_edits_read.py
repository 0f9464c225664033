"""The token tagger's edit acts in whole conversations (issue 53, parts 2 and 3): a count said for an item asked about
sets its line, "iwe" sets a line, "X badala ya Y" replaces Y with X, "toa X na Y" takes both out, a place replaced is
the new place, and a count said while choosing is the count of the one chosen. Each is the issue's example at the
grocer (and the phone shop), checked on the basket and the delivery zone the customer would see."""

from __future__ import annotations

from tests.chat import Chat
from tests.conftest import GROCER

JOGOO, PEMBE, MUMIAS = "GR-UNG-01", "GR-UNG-02", "GR-SUG-01"


def grocer(chat: Chat, phone: str) -> Chat:
    return Chat(chat.conversations, tenant_id=GROCER, phone=phone)


def lines(chat: Chat) -> dict[str, int | None]:
    return {line.item_id: line.quantity for line in chat.state["frame"].lines}


def test_asking_about_items_then_ordering_them_sets_their_counts(chat: Chat) -> None:
    shop = grocer(chat, "+254711000701")
    shop.send("mna mumias sugar na jogoo?")
    assert lines(shop) == {MUMIAS: 1, JOGOO: 1}
    reply = shop.send("nataka mumias mbili na jogoo tatu")
    assert lines(shop) == {MUMIAS: 2, JOGOO: 3}  # the counts she said, not 3 and 4
    assert "2 x Mumias Sugar 2kg" in reply
    assert "3 x Jogoo Maize Flour 2kg" in reply


def test_ongeza_x_iwe_n_sets_the_line_and_ongeza_x_n_adds_to_it(chat: Chat) -> None:
    shop = grocer(chat, "+254711000702")
    shop.send("nataka mumias mbili na jogoo tatu")
    shop.send("ongeza mumias iwe tatu")  # "add sugar, let it be three": three, not five
    assert lines(shop) == {MUMIAS: 3, JOGOO: 3}
    shop.send("ongeza pia jogoo mbili")  # "also add two jogoo": five
    assert lines(shop) == {MUMIAS: 3, JOGOO: 5}


def test_x_badala_ya_y_replaces_the_line_with_its_count(chat: Chat) -> None:
    shop = grocer(chat, "+254711000703")
    shop.send("nataka mumias mbili na jogoo tatu")
    reply = shop.send("nataka pembe badala ya jogoo")
    assert lines(shop) == {MUMIAS: 2, PEMBE: 3}
    assert "Jogoo Maize Flour 2kg" in reply  # said taken out
    assert "3 x Pembe Maize Flour 2kg" in reply


def test_a_replaced_item_that_is_in_no_line_is_never_put_in_the_basket(chat: Chat) -> None:
    shop = grocer(chat, "+254711000704")
    shop.send("nataka mumias mbili na jogoo tatu")
    reply = shop.send("toa pembe na mumias")  # pembe is in no line: nothing of it is added
    assert lines(shop) == {JOGOO: 3}
    assert "Pembe Maize Flour 2kg haiko kwenye kikapu chako." in reply


def test_toa_x_na_y_takes_both_lines_out(chat: Chat) -> None:
    shop = grocer(chat, "+254711000705")
    shop.send("nataka mumias mbili, jogoo tatu na kensalt moja")
    reply = shop.send("toa jogoo na mumias")
    assert lines(shop) == {"GR-SAL-01": 1}
    assert "Jogoo Maize Flour 2kg" in reply
    assert "Mumias Sugar 2kg" in reply


def test_a_new_address_instead_of_the_old_one_is_the_new_zone(chat: Chat) -> None:
    shop = grocer(chat, "+254711000706")
    shop.send("nataka mumias mbili, niletee Mwiki")
    assert shop.state["frame"].fulfilment.zone == "Kasarani"  # Mwiki is in Kasarani
    reply = shop.send("nibadilishie address, niletee Juja badala ya Mwiki")
    assert shop.state["frame"].fulfilment.zone == "Ruiru"  # Juja is in Ruiru
    assert "Ruiru" in reply


def test_a_count_said_while_choosing_is_the_count_of_the_one_chosen(chat: Chat) -> None:
    asked = chat.send("I want oraimo power banks")
    assert "Oraimo Traveler 20000mAh Power Bank" in asked
    reply = chat.send("make the power banks 3")  # not a search for "power banks 3"
    assert "catalog_search" not in chat.tools()
    assert "Oraimo Traveler 20000mAh Power Bank" in reply  # the shortlist again
    chat.send("2")
    assert {line.item_id: line.quantity for line in chat.state["frame"].lines} == {"PB-002": 3}


def test_items_listed_without_a_count_and_then_counted_are_added_to(chat: Chat) -> None:
    shop = grocer(chat, "+254711000707")
    shop.send("nataka mumias na jogoo")  # a wish, not a question: one of each, counted
    assert lines(shop) == {MUMIAS: 1, JOGOO: 1}
    shop.send("ongeza pia mumias mbili na jogoo moja")
    assert lines(shop) == {MUMIAS: 3, JOGOO: 2}


def test_counts_said_after_their_items_stay_with_their_items_when_one_replaces_another(chat: Chat) -> None:
    shop = grocer(chat, "+254711000708")
    shop.send("nataka kensalt moja")
    shop.send("nataka jogoo 2 na mumias 3 badala ya kensalt")
    assert lines(shop) == {JOGOO: 2, MUMIAS: 3}


def test_a_replacement_said_after_a_comma_takes_the_replaced_lines_count(chat: Chat) -> None:
    shop = grocer(chat, "+254711000709")
    shop.send("nataka jogoo tatu")
    shop.send("pembe, badala ya jogoo")
    assert lines(shop) == {PEMBE: 3}


def test_taking_out_a_kind_the_basket_holds_twice_asks_which_and_takes_nothing(chat: Chat) -> None:
    shop = grocer(chat, "+254711000710")
    shop.send("nataka mumias moja na kabras moja na jogoo")
    reply = shop.send("toa sukari na jogoo")  # two sugars: which one?
    assert "Niondoe ipi?" in reply
    assert "Mumias Sugar 2kg - KES 330" in reply
    assert "Kabras Sugar 1kg - KES 170" in reply
    assert lines(shop) == {MUMIAS: 1, "GR-SUG-02": 1}  # the flour out, both sugars kept
    shop.send("kabras")  # the answer to "which one?", typed
    assert lines(shop) == {MUMIAS: 1}


def test_toa_sukari_with_two_sugars_asks_which_and_a_tapped_row_takes_that_one_out(chat: Chat) -> None:
    # it took the Mumias out without asking
    shop = grocer(chat, "+254711000711")
    shop.send("nataka mumias sugar mbili na kabras sugar moja na kensalt")
    shop.send("niletee Roysambu")
    asked = shop.send("toa sukari")
    assert "Niondoe ipi?" in asked
    assert lines(shop) == {MUMIAS: 2, "GR-SUG-02": 1, "GR-SAL-01": 1}  # nothing taken out yet
    [mumias_row] = [o for o in shop.state["pending_options"] if o["title"].startswith("Mumias")]
    summary = shop.send(reply_id=mumias_row["id"])
    assert lines(shop) == {"GR-SUG-02": 1, "GR-SAL-01": 1}
    assert "Jumla: KES 375" in summary  # 170 + 55 + Roysambu's 150
