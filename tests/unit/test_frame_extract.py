"""The order frame's extractors: what a message says about a sale, in English, Swahili and Sheng."""

from __future__ import annotations

import pytest

from tulia.graph.frame import FrameLine, Fulfilment, OrderFrame, ShopOptions, VariantChoice, next_step, settle
from tulia.nlu.frame_extract import extract_coupon, extract_delta, extract_phone, extract_quantity, residual_words

ZONES = [("Nairobi CBD", ["CBD", "town"]), ("Nairobi West", ["Westlands", "Kilimani"]), ("Eastlands", ["Buruburu"])]
ALL_METHODS = ["mpesa_stk", "mpesa_c2b", "pesapal"]


@pytest.mark.parametrize(
    ("text", "quantity", "edit"),
    [
        ("I need 3 oraimo earbuds", 3, "set"),
        ("3 bags of rice", 3, "set"),
        ("x3", 3, "set"),
        ("pcs 5", 5, "set"),
        ("5 pcs", 5, "set"),
        ("a dozen eggs", 12, "set"),
        ("half a dozen eggs", 6, "set"),
        ("nataka earbuds mbili", 2, "set"),
        ("nipe tatu", 3, "set"),
        ("viatu viwili", 2, "set"),
        ("make it 3", 3, "set"),
        ("ongeza moja", 1, "add"),
        ("one more", 1, "add"),
        ("add 2 more", 2, "add"),
        ("I'll take two", 2, "set"),
        ("qty: 4", 4, "set"),
    ],
)
def test_quantities_in_digits_and_words(text: str, quantity: int, edit: str) -> None:
    said, _spans = extract_quantity(text.lower())
    assert said is not None
    assert (said.value, said.edit) == (quantity, edit)


@pytest.mark.parametrize(
    "text",
    [
        "iphone 15",
        "oraimo 20000mah power bank",
        "samsung galaxy a15 256gb",
        "hisense 55 inch tv",
        "the black one",
        "sugar 2kg",
        "njoo saa tatu asubuhi",
    ],
)
def test_model_numbers_measures_and_times_are_not_quantities(text: str) -> None:
    said, _spans = extract_quantity(text)
    assert said is None


def test_a_bare_number_is_a_quantity_only_when_the_quantity_was_asked() -> None:
    assert extract_quantity("4")[0] is None
    said = extract_quantity("4", bare_number_is_quantity=True)[0]
    assert said is not None
    assert said.value == 4


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0712 345 678", "+254712345678"),
        ("0712345678", "+254712345678"),
        ("+254 712 345 678", "+254712345678"),
        ("254712345678", "+254712345678"),
        ("712345678", "+254712345678"),
        ("(+254) 722-123-456", "+254722123456"),
        ("pay with 0110 123 456 please", "+254110123456"),
        ("0712.345.678", "+254712345678"),
    ],
)
def test_kenyan_phone_numbers_in_every_common_form(text: str, expected: str) -> None:
    assert extract_phone(text)[0] == expected


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("I have a coupon code: WELCOME10", "WELCOME10"),
        ("use code SAVE20", "SAVE20"),
        ("kuponi yangu ni KARIBU15", "KARIBU15"),
        ("promo code welcome10 please", "WELCOME10"),
        ("my voucher is VIP500", "VIP500"),
        ("do you have a promo code?", None),
        ("I have a coupon code", None),
        ("any promotions on flour?", None),  # a code word inside a longer word is not a code word
        ("discounts for students?", None),
        ("vouchers za krismasi", None),
    ],
)
def test_coupon_codes_after_code_words(text: str, code: str | None) -> None:
    assert extract_coupon(text)[0] == code


@pytest.mark.parametrize(
    ("text", "method"),
    [
        ("I'll pay with M-Pesa", "mpesa_stk"),
        ("send me the mpesa prompt", "mpesa_stk"),
        ("lipa na mpesa", "mpesa_stk"),
        ("nitalipa kwa paybill", "mpesa_c2b"),
        ("till number please", "mpesa_c2b"),
        ("buy goods", "mpesa_c2b"),
        ("pay by card", "pesapal"),
        ("kadi", "pesapal"),
    ],
)
def test_payment_method_words(text: str, method: str) -> None:
    assert extract_delta(text, zones=[], enabled_methods=ALL_METHODS).method == method


def test_mpesa_at_a_shop_without_prompts_is_its_paybill_or_till_and_card_at_a_shop_without_card_is_said_back() -> None:
    till_only = extract_delta("I'll pay with M-Pesa", zones=[], enabled_methods=["mpesa_c2b"])
    assert till_only.method == "mpesa_c2b"
    no_card = extract_delta("can I pay by card?", zones=[], enabled_methods=["mpesa_stk"])
    assert (no_card.method, no_card.method_words) == (None, "card")


@pytest.mark.parametrize(
    ("text", "zone", "mode"),
    [
        ("Hi, I need 3 earbuds delivered to Westlands", "Nairobi West", "delivery"),
        ("niletee Kilimani karibu na Yaya Centre", "Nairobi West", "delivery"),
        ("I'm in Buruburu phase 2", "Eastlands", "delivery"),
        ("to town please", "Nairobi CBD", "delivery"),
        ("I will pick it up", None, "pickup"),
        ("nitachukua dukani", None, "pickup"),
        ("deliver to Mombasa", None, "delivery"),
    ],
)
def test_zones_named_anywhere_from_the_shops_own_list(text: str, zone: str | None, mode: str) -> None:
    delta = extract_delta(text, zones=ZONES, enabled_methods=ALL_METHODS)
    assert (delta.zone, delta.mode) == (zone, mode)


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("I'll just pick them up from your shop instead. No delivery needed", "pickup"),
        ("sitaki delivery, nitakuja mwenyewe", "pickup"),
        ("don't deliver, I will come for it", "pickup"),
        ("I'll drive in and have them fitted at your bay", "pickup"),
        ("no, deliver it please", "delivery"),  # her "no" to the question, then the word
        ("deliver, not pickup", "delivery"),
        ("I will not collect it, bring it to Juja", "delivery"),
        ("No, delivery please", "delivery"),
        ("Niletee Juja, hakuna delivery charges?", "delivery"),  # its fee, not delivery said away
        ("don't deliver after 6pm", "delivery"),
        ("why not delivery?", "delivery"),
        ("Do they come in black?", None),
        ("Are they available at your shop?", None),
        ("nitakam kesho asubuhi na mkokoteni", "pickup"),  # Sheng: I will come
        ("anafaa kuchukua saizi moja juu", None),  # to take a size up: which one, not where from
        ("nitachukua ile kubwa", None),
    ],
)
def test_the_way_she_gets_it_said_away_is_the_other(text: str, mode: str | None) -> None:
    assert extract_delta(text, zones=ZONES, enabled_methods=ALL_METHODS).mode == mode


def test_everything_in_one_sentence_and_the_product_words_left() -> None:
    text = "Hi, I need 3 Oraimo FreePods Lite Earbuds delivered to Westlands. I'll pay with M-Pesa"
    delta = extract_delta(text, zones=ZONES, enabled_methods=ALL_METHODS)
    assert delta.quantity is not None
    assert (delta.quantity.value, delta.zone, delta.mode, delta.method) == (3, "Nairobi West", "delivery", "mpesa_stk")
    assert "oraimo freepods lite earbuds" in residual_words(text, delta)
    assert "westlands" not in residual_words(text, delta)


def test_a_leading_count_does_not_eat_the_product_name() -> None:
    delta = extract_delta("1 jbl flip 6 to Westlands", zones=ZONES, enabled_methods=ALL_METHODS)
    assert residual_words("1 jbl flip 6 to Westlands", delta).split()[:3] == ["jbl", "flip", "6"]


# the pure rules of the frame -------------------------------------------------------------------------
def line(**kw: object) -> FrameLine:
    base: dict[str, object] = {"item_id": "X-1", "name": "Thing", "price": 100}
    return FrameLine.model_validate(base | kw)


def shop(modes: list[str], methods: list[str] | None = None) -> ShopOptions:
    return ShopOptions.model_validate(
        {"modes": modes, "zones": ZONES if "delivery" in modes else [], "methods": methods or ALL_METHODS}
    )


def test_the_first_missing_slot_decides_the_question() -> None:
    frame = OrderFrame(lines=[line(variants=[VariantChoice(name="colour", options=["Black", "Blue"])])])
    assert next_step(frame, can_prompt_phone=True) == "ask_variant"
    frame.lines[0].choose("colour", "Blue")
    assert next_step(frame, can_prompt_phone=True) == "ask_quantity"
    frame.lines[0].quantity = 2
    assert next_step(frame, can_prompt_phone=True) == "ask_fulfilment"
    frame.fulfilment = Fulfilment(mode="delivery")
    assert next_step(frame, can_prompt_phone=True) == "ask_zone"
    frame.fulfilment = Fulfilment(mode="delivery", zone="Nairobi West")
    assert next_step(frame, can_prompt_phone=True) == "build_order"


def test_a_shop_without_pickup_refuses_it_and_delivers() -> None:
    frame = OrderFrame(lines=[line(quantity=1)], fulfilment=Fulfilment(mode="pickup"))
    assert settle(frame, shop(["delivery"])) == ["pickup"]
    assert frame.fulfilment.mode == "delivery"  # the only mode the shop has
    assert next_step(frame, can_prompt_phone=True) == "ask_zone"


def test_one_option_and_one_per_order_are_never_asked() -> None:
    frame = OrderFrame(
        lines=[line(variants=[VariantChoice(name="size", options=["6kg"])], max_per_order=1)],
        fulfilment=Fulfilment(mode="pickup"),
    )
    settle(frame, shop(["pickup"]))
    assert (frame.lines[0].variant_selection, frame.lines[0].quantity) == ({"size": "6kg"}, 1)
    assert next_step(frame, can_prompt_phone=True) == "build_order"


def test_a_method_the_shop_lacks_is_dropped() -> None:
    frame = OrderFrame(lines=[line(quantity=1)], fulfilment=Fulfilment(mode="pickup"), payment_method="pesapal")
    assert settle(frame, shop(["pickup"], ["mpesa_stk"])) == ["method"]
    assert frame.payment_method is None


def test_payment_details_that_are_not_the_shops_are_dropped_sentence_by_sentence() -> None:
    from tulia.nlg.payment_guard import guard_payment_details

    own = {"600984", "0700000001"}
    clean = "Pay with Paybill 600984, account ORD-7F3K2. Call us on 0700 000 001."
    assert guard_payment_details(clean, own) == (clean, [])
    said, foreign = guard_payment_details("Deposits go to till no. 5123456. Delivery takes a day.", own)
    assert (said, foreign) == ("Delivery takes a day.", ["5123456"])
    said, foreign = guard_payment_details("Lipa kwa namba ya biashara 999999, akaunti 123456.", own)
    assert said == ""
    assert foreign == ["999999", "123456"]
    assert guard_payment_details("M-Pesa 0733 999 888 for refunds.", own)[1] == ["+254733999888"]
