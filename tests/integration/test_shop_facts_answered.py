"""Questions the shop's settings answer, through the conversation (issue 53): in the customer's language, before any
document, without a "Sina taarifa hiyo" when the settings say it."""

from __future__ import annotations

from tests.chat import Chat


def test_duka_lenu_liko_wapi_is_answered_where_the_shop_is_in_swahili(chat: Chat) -> None:
    reply = chat.send("duka lenu liko wapi?")
    assert reply == "Tunapatikana Moi Avenue, mkabala na Kenya National Archives, Nairobi CBD."
    assert [e["fact"] for e in chat.last.trace if e.get("route") == "shop_fact"] == ["location"]


def test_asking_in_swahili_when_the_shop_opens_gets_its_opening_hours_in_swahili(chat: Chat) -> None:
    reply = chat.send("mnafungua saa ngapi jumapili?")
    assert "Jumapili saa 4 asubuhi hadi saa 10 jioni" in reply
    assert "delivery" not in reply.lower()
    assert [e["fact"] for e in chat.last.trace if e.get("route") == "shop_fact"] == ["hours"]


def test_the_same_question_in_english_is_answered_in_english(chat: Chat) -> None:
    assert chat.send("what time do you close on saturday?") == (
        "We're open Monday to Saturday 8:00 am to 7:00 pm, Sunday 10:00 am to 4:00 pm."
    )


def test_a_side_question_during_a_sale_is_answered_from_the_settings_and_the_sale_goes_on(chat: Chat) -> None:
    chat.send("habari, nataka spika ya jbl flip 6 tafadhali")
    reply = chat.send("mnapatikana wapi?")
    assert "Moi Avenue, mkabala na Kenya National Archives" in reply
    assert [line.item_id for line in chat.state["frame"].lines] == ["SP-002"]  # the speaker is still being bought


def test_a_question_the_settings_do_not_answer_still_goes_to_the_documents(chat: Chat) -> None:
    reply = chat.send("Do you accept trade in of an old iphone?")
    assert "(From our Trade-in, lay-by and help with a phone - Trade-in of old smartphones)" in reply
    assert not [e for e in chat.last.trace if e.get("route") == "shop_fact"]


def test_a_document_that_answers_more_of_the_question_than_a_fact_answers_it(chat: Chat) -> None:
    reply = chat.send("How are refunds paid?")  # "paid" is a word of paying, but the question is about refunds
    assert "(From our Returns and Refunds Policy - How refunds are paid)" in reply
    assert "Paybill" not in reply


def test_a_swahili_question_answered_by_an_english_document_says_so_in_swahili(chat: Chat) -> None:
    reply = chat.send("mnakubali trade in ya simu ya zamani?")
    source = "Trade-in, lay-by and help with a phone - Trade-in of old smartphones"
    assert reply.startswith(f"Hati yetu ({source}) imeandikwa kwa Kiingereza. Inasema:")
    assert "we accept trade-in of old smartphones" in reply  # the document's own words, never invented


def test_a_document_in_both_languages_answers_a_swahili_question_in_swahili_only(chat: Chat) -> None:
    salon = Chat(chat.conversations, tenant_id="demo-salon", phone="+254711000530")
    reply = salon.send("je, nikichelewa dakika ishirini mtahamisha booking yangu?")
    assert "Ukichelewa zaidi ya dakika 20, booking inaweza kuhamishwa." in reply  # the FAQ's Swahili sentence
    assert "If you are more than 20 minutes late" not in reply
    assert "(Chanzo: Glow Studio" in reply


def test_how_long_a_warranty_lasts_is_answered_by_the_periods_not_what_it_covers(chat: Chat) -> None:
    reply = chat.send("how long is the warranty on a laptop?")
    assert "12-month manufacturer warranty" in reply  # "Smartphones, tablets, laptops ... carry a 12-month ..."
    assert "Warranty periods" in reply


def test_a_swahili_how_long_question_gets_the_periods_and_never_a_title_alone(chat: Chat) -> None:
    reply = chat.send("warranty ni ya miezi ngapi?")
    assert "12-month manufacturer warranty" in reply
    assert reply.startswith("Hati yetu (Warranty Information - Warranty periods)")  # said in Swahili, from English


def test_how_long_repairs_take_is_the_passage_that_says_how_long_repairs_take(chat: Chat) -> None:
    assert "7 to 14 days" in chat.send("how long do warranty repairs take?")


def test_a_question_about_a_thing_the_documents_are_about_is_answered_from_them(chat: Chat) -> None:
    reply = chat.send("does the phone have a warranty?")
    assert "(From our Warranty Information - " in reply  # not a list of phones
    assert "catalog_search" not in chat.tools()


def test_a_question_about_things_no_document_is_about_stays_a_search(chat: Chat) -> None:
    reply = chat.send("do you have samsung phones?")
    assert "Samsung Galaxy A15" in reply
    assert "catalog_search" in chat.tools()


def test_a_question_for_the_documents_while_choosing_is_answered_and_the_choice_kept(chat: Chat) -> None:
    chat.send("do you have samsung phones?")
    reply = chat.send("je simu ina warranty?")  # "does the phone have a warranty?" while choosing a Samsung
    assert "(Warranty Information - " in reply  # answered from the documents, not a new list of phones
    assert "itel A70" not in reply
    chat.send("2")
    assert [line.item_id for line in chat.state["frame"].lines] == ["PH-SAM-002"]  # the Samsung shortlist's second


def test_how_long_delivery_takes_to_a_named_area_is_that_zones_fee_and_time_in_swahili(chat: Chat) -> None:
    reply = chat.send("mnaleta mpaka kilimani? inachukua muda gani kufika")
    assert "Nairobi West" in reply
    assert "KES 300, siku hiyo hiyo au kesho asubuhi" in reply
    assert "- Nairobi CBD" not in reply  # the zone she asked about, not every zone
    assert [e["fact"] for e in chat.last.trace if e.get("route") == "shop_fact"] == ["delivery"]
