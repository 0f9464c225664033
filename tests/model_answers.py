"""Hand-written answers of the ``bedrock`` engine's one structured call per turn (``classify_turn``:
the three classifier outputs and the sale's slots), written the way a model answers the prompt for
each customer message of the conversation tests. They are not produced by the rules engine: where a
model reads a message differently ("a couple of bags" is 2), the answer says what the model says."""

from __future__ import annotations

from typing import Any

SALES = "sales_discovery"


def reading(
    intent: str,
    confidence: float = 0.9,
    language: str = "en",
    language_confidence: float = 0.9,
    *,
    governor: str = "business",
    notes: str = "",
    **sale: Any,
) -> dict[str, Any]:
    """One model answer: the classifier objects of Appendix B plus the ``sale`` reading."""
    journey = {
        "sales_discovery": "sales", "product_question": "sales", "payment_help": "sales",
        "support_question": "support", "order_status": "orders", "discounts_offers": "offers",
        "preferences_consent": "prefs", "human_request": "governance", "spam_casual": "governance",
    }.get(intent, "unknown")  # fmt: skip
    return {
        "intent_classify": {"intent": intent, "confidence": confidence, "notes": notes, "suggested_journey": journey},
        "language_policy": {
            "response_language": language,
            "confidence": language_confidence,
            "should_ask_language_question": False,
        },
        "governor_spam_casual": {
            "classification": governor,
            "confidence": 0.95,
            "recommended_action": "proceed" if governor == "business" else "redirect",
        },
        "sale": sale,
    }


# The customer messages of tests/integration/test_order_frame.py, each with the model's answer.
ORDER_FRAME: dict[str, dict[str, Any]] = {
    # everything in the first message
    "Hi, I need 3 Oraimo FreePods Lite Earbuds delivered to Westlands. I'll pay with M-Pesa": reading(
        SALES,
        0.96,
        product="Oraimo FreePods Lite Earbuds",
        quantity=3,
        fulfilment="delivery",
        zone="Nairobi West",
        place="Westlands",
        payment_method="mpesa_stk",
    ),
    "Black": reading(SALES, 0.7, options=["Black"]),
    "nataka earbuds mbili za Oraimo FreePods Lite, niletee Kilimani, nitalipa kwa paybill": reading(
        SALES,
        0.95,
        "sw",
        0.92,
        product="Oraimo FreePods Lite earbuds",
        quantity=2,
        fulfilment="delivery",
        zone="Nairobi West",
        place="Kilimani",
        payment_method="mpesa_c2b",
    ),
    "niaje msee, nipe jbl flip 6 mbili, nitakuja dukani": reading(
        SALES,
        0.93,
        "sheng",
        0.88,
        product="JBL Flip 6",
        quantity=2,
        fulfilment="pickup",
    ),
    "blue": reading(SALES, 0.6, options=["Blue"]),
    # slots given late
    "oraimo freepods lite": reading(SALES, 0.9, product="Oraimo FreePods Lite"),
    "Delivery": reading(SALES, 0.7, fulfilment="delivery"),
    "white": reading(SALES, 0.6, options=["White"]),
    "tatu": reading(SALES, 0.6, "sw", 0.7, quantity=3),
    "Kilimani near Yaya Centre": reading(
        SALES, 0.7, fulfilment="delivery", zone="Nairobi West", place="Kilimani near Yaya Centre"
    ),
    "samsung galaxy a05": reading(SALES, 0.9, product="Samsung Galaxy A05"),
    "black": reading(SALES, 0.6, options=["Black"]),
    "64GB": reading(SALES, 0.6, options=["64GB"]),
    "pickup": reading(SALES, 0.7, fulfilment="pickup"),
    "samsung galaxy a15": reading(SALES, 0.9, product="Samsung Galaxy A15"),
    "256GB": reading(SALES, 0.6, options=["256GB"]),
    "oraimo charger": reading(SALES, 0.9, product="Oraimo charger"),
    # coupons
    "I have a coupon code: WELCOME10": reading("discounts_offers", 0.92, coupon_code="WELCOME10"),
    "I need 2 Oraimo FreePods Lite Earbuds, I'll pick them up": reading(
        SALES, 0.95, product="Oraimo FreePods Lite Earbuds", quantity=2, fulfilment="pickup"
    ),
    "nataka jbl flip 6 moja, nitachukua": reading(
        SALES, 0.93, "sw", 0.9, product="JBL Flip 6", quantity=1, fulfilment="pickup"
    ),
    "nina kuponi WELCOME10": reading("discounts_offers", 0.9, "sw", 0.85, coupon_code="WELCOME10"),
    # edits
    "I want 1 JBL Flip 6 speaker delivered to Kilimani": reading(
        SALES,
        0.95,
        product="JBL Flip 6 speaker",
        quantity=1,
        fulfilment="delivery",
        zone="Nairobi West",
        place="Kilimani",
    ),
    "make it 3": reading(SALES, 0.8, quantity=3),
    "change to pickup": reading(SALES, 0.8, fulfilment="pickup"),
    "ongeza moja": reading(SALES, 0.8, "sw", 0.8, quantity=1, quantity_change="add"),
    "M-Pesa prompt": reading("payment_help", 0.85, payment_method="mpesa_stk", wants_to_pay=True),
    "make it 5": reading(SALES, 0.8, quantity=5),
    "I want 1 JBL Flip 6, I will pick it up": reading(
        SALES, 0.95, product="JBL Flip 6", quantity=1, fulfilment="pickup"
    ),
    "add a charger": reading(SALES, 0.9, product="charger", add_item=True),
    "remove the charger": reading(SALES, 0.85, remove_item="charger"),
    "1 jbl flip 6 to Westlands": reading(
        SALES, 0.93, product="jbl flip 6", quantity=1, fulfilment="delivery", zone="Nairobi West", place="Westlands"
    ),
    "deliver to Buruburu instead": reading(SALES, 0.85, fulfilment="delivery", zone="Eastlands", place="Buruburu"),
    # side questions and paying
    "I want 1 JBL Flip 6, pickup": reading(SALES, 0.95, product="JBL Flip 6", quantity=1, fulfilment="pickup"),
    "what is your return policy?": reading("support_question", 0.93),
    "make it 2": reading(SALES, 0.8, quantity=2),
    "what time do you open?": reading("support_question", 0.9),
    "nataka kulipa": reading("payment_help", 0.9, "sw", 0.9, wants_to_pay=True),
    "do you have offers?": reading("discounts_offers", 0.92),
    "I want to pay with mpesa now": reading("payment_help", 0.92, payment_method="mpesa_stk", wants_to_pay=True),
    "hi": reading("spam_casual", 0.9, governor="casual"),
    "I want 1 JBL Flip 6, pickup, mpesa": reading(
        SALES, 0.95, product="JBL Flip 6", quantity=1, fulfilment="pickup", payment_method="mpesa_stk"
    ),
    "I want an oraimo freepods lite": reading(SALES, 0.9, product="Oraimo FreePods Lite"),
    # the grocer
    "Nataka Mumias sugar 2kg mbili, niletee Mwiki. Nitalipa na till": reading(
        SALES,
        0.95,
        "sw",
        0.9,
        product="Mumias sugar 2kg",
        quantity=2,
        fulfilment="delivery",
        zone="Kasarani",
        place="Mwiki",
        payment_method="mpesa_c2b",
    ),
    "nataka Jogoo maize flour 2kg tatu": reading(SALES, 0.93, "sw", 0.88, product="Jogoo maize flour 2kg", quantity=3),
    "nitachukua dukani": reading(SALES, 0.75, "sw", 0.9, fulfilment="pickup"),
    "Zimmerman": reading(SALES, 0.6, fulfilment="delivery", zone="Roysambu", place="Zimmerman"),
    "I want 2 Pishori rice 5kg": reading(SALES, 0.94, product="Pishori rice", quantity=2, options=["5kg"]),
    "Mombasa": reading(SALES, 0.6, fulfilment="delivery", place="Mombasa"),
    "a dozen Fresh Fri cooking oil to Kimbo": reading(
        SALES, 0.9, product="Fresh Fri cooking oil", quantity=12, fulfilment="delivery", zone="Ruiru", place="Kimbo"
    ),
    "1L": reading(SALES, 0.6, options=["1L"]),
    "K-Gas refill 6kg to Hunters": reading(
        SALES, 0.92, product="K-Gas refill 6kg", fulfilment="delivery", zone="Kasarani", place="Hunters"
    ),
    "nataka spika ya jbl flip 6": reading(SALES, 0.92, "sw", 0.85, product="JBL Flip 6 speaker"),
    "tukuletee": reading(SALES, 0.7, "sw", 0.9, fulfilment="delivery"),
    "nyeusi": reading(SALES, 0.6, "sw", 0.9, options=["Black"]),
    "mbili": reading(SALES, 0.6, "sw", 0.8, quantity=2),
    "Buruburu": reading(SALES, 0.6, "sw", 0.5, fulfilment="delivery", zone="Eastlands", place="Buruburu"),
    # where a model reads what the words alone do not
    "nipe a couple of Mumias sugar 2kg, leta Hunters": reading(
        SALES,
        0.9,
        "sheng",
        0.8,
        product="Mumias sugar 2kg",
        quantity=2,
        fulfilment="delivery",
        zone="Kasarani",
        place="Hunters",
    ),
    "I'd like something to keep my phone charged on a long safari, pick up": reading(
        SALES, 0.85, product="power bank", fulfilment="pickup", notes="wants a power bank"
    ),
}


# The customer messages of tests/integration/test_booking_conversations.py that reach the model (taps,
# numbers, yes/no, answers to the booking's own questions and "I can't make it" never do). The day and
# time are read by the same deterministic reader on both engines, so the answers carry none.
BOOKING: dict[str, dict[str, Any]] = {
    "Hi, I want knotless braids on Saturday at 10am": reading(SALES, 0.94, product="knotless braids"),
    "Habari, nataka kufanyiwa pedicure kesho saa nne asubuhi": reading(SALES, 0.93, "sw", 0.93, product="pedicure"),
    "M-Pesa prompt": reading("payment_help", 0.7, "sw", 0.5, payment_method="mpesa_stk", wants_to_pay=True),
    "niaje, nataka manicure red fraide jioni": reading(
        SALES, 0.9, "sheng", 0.9, product="gel manicure", options=["Red"]
    ),
    "I would like bridal makeup at my place on 5th December, in the morning": reading(
        SALES, 0.93, product="bridal makeup"
    ),
    "Can I get Fulani braids on Saturday?": reading(SALES, 0.92, product="Fulani braids"),
    "Can I book a pedicure next Monday?": reading(SALES, 0.92, product="pedicure"),
    "I'd like a silk press with Akinyi tomorrow please": reading(SALES, 0.93, product="silk press"),
    "A pedicure with Wanjiru tomorrow please": reading(SALES, 0.92, product="pedicure"),
    "I'd like a silk press on Saturday": reading(SALES, 0.93, product="silk press"),
    "do you have parking?": reading("support_question", 0.9),
    "A kids haircut tomorrow at 3pm please": reading(SALES, 0.93, product="kids haircut"),
    "A pedicure on Saturday at 10am please": reading(SALES, 0.93, product="pedicure", quantity=1),
    "actually, a pedicure on Sunday at 11am instead": reading(SALES, 0.9, product="pedicure"),
    # where a model reads what the words alone do not: "my wedding" is the bridal makeup
    "can someone do my makeup for my wedding on 5th December at 9am": reading(
        SALES, 0.9, product="bridal makeup", notes="makeup for her own wedding"
    ),
}


# several items in one message and edits of one line (tests/integration/test_basket.py): a model gives one
# product and one count for the whole message, which the sale does not apply to the lines of a list
BASKET: dict[str, dict[str, Any]] = {
    "nataka Jogoo unga 2kg tatu": reading(SALES, 0.95, "sw", product="Jogoo unga 2kg", quantity=3),
    "ongeza pia sukari Mumias moja na chumvi Kensalt mbili": reading(
        SALES, 0.9, "sw", product="Mumias sugar", quantity=1, add_item=True
    ),
    "Jogoo ziwe tatu sio moja": reading(SALES, 0.9, "sw", product="Jogoo", quantity=3),
}
