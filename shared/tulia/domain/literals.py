"""The closed sets of names the engine's layers share, each written once: what a message is about, which
journey answers it, what a sale or a booking asks and does next, how a customer pays and gets the goods,
and why a conversation goes to a person. The understanding layer, the model's schemas and the graph all
read them from here (the tuples beside them are the same sets, for checks at run time)."""

from __future__ import annotations

from typing import Literal, get_args

# what a customer message is about (spec section 4.1)
Intent = Literal[
    "sales_discovery",
    "product_question",
    "support_question",
    "order_status",
    "discounts_offers",
    "preferences_consent",
    "payment_help",
    "human_request",
    "spam_casual",
    "unknown",
]
INTENTS: tuple[Intent, ...] = get_args(Intent)

# which journey answers it
Journey = Literal["sales", "support", "orders", "offers", "prefs", "governance", "unknown"]
JOURNEYS: tuple[Journey, ...] = get_args(Journey)

# the language a message was read in ("mixed": English and Swahili in one message)
DetectedLang = Literal["en", "sw", "sheng", "mixed"]

# the conversation governor (spec section 4.4)
GovernorClass = Literal["business", "casual", "spam", "abuse"]
GovernorAction = Literal["proceed", "small_talk", "redirect", "disengage", "refuse", "escalate"]

# why a conversation is handed to a person (spec section 4.5)
EscalationReason = Literal[
    "human_requested",
    "payment_dispute",
    "refund_request",
    "delivery_complaint",
    "missing_information",
    "repeated_tool_errors",
    "clarification_loop",
    "sensitive_topic",
    "frustration_unresolved",
    "booking_change",  # a change only the shop's people may make (inside the notice period)
]

PaymentMethod = Literal["mpesa_stk", "mpesa_c2b", "pesapal"]
PAYMENT_METHODS: tuple[PaymentMethod, ...] = get_args(PaymentMethod)
FulfilmentMode = Literal["delivery", "pickup"]
PaymentStatus = Literal["none", "pending", "paid", "failed", "cancelled", "timeout"]

# What the bot may be waiting for in a sale: each has one handler that asks it.
SaleQuestion = Literal[
    "item_selection",
    "category",
    "variant",
    "quantity",
    "fulfilment",
    "zone",
    "payment_method",
    "payment_confirmation",
    "mpesa_number",
    "which_line",  # "toa sukari" with two sugars in the basket: which one
]
SALE_QUESTIONS: tuple[SaleQuestion, ...] = get_args(SaleQuestion)
# the questions of the checkout: under an order's total, before it is paid
CHECKOUT_QUESTIONS: tuple[SaleQuestion, ...] = ("payment_method", "payment_confirmation", "mpesa_number")

# What a sale does next, in order: the first slot still missing decides.
SaleStep = Literal[
    "take_items",
    "ask_item",
    "ask_variant",
    "ask_quantity",
    "ask_fulfilment",
    "ask_zone",
    "build_order",
    "apply_coupon",
    "ask_payment_method",
    "ask_mpesa_number",
    "confirm_payment",
    "start_payment",
    "payment_started",
]

# What a booking may be waiting for, and what it does next.
BookingQuestion = Literal["booking_variant", "booking_zone", "booking_slot", "booking_confirm", "booking_change"]
BOOKING_QUESTIONS: tuple[BookingQuestion, ...] = get_args(BookingQuestion)
BookingStep = Literal[
    "ask_service",  # which service (a search, as for products)
    "ask_variant",  # its options, when they change the price or the time
    "offer_slots",  # the nearest free times to what was said, as a list
    "ask_zone",  # where, for a service at the customer's place
    "hold_slot",  # the chosen time held while the customer confirms and pays
    "confirm_booking",  # the summary: service, day, time, staff, place, price, deposit
    "book",  # confirmed: the deposit order made (or the booking confirmed at once)
    "pay_deposit",  # the deposit through the payment router
    "booked",  # nothing left to ask
]

# A journey handing the rest of a turn to another (the sale's pick of a service to the booking, a deposit to
# the sale's payment nodes): the node of the other journey the turn goes on at.
SaleEntry = Literal["advance", "start_payment"]
BookingEntry = Literal["booking_advance", "booking_tap"]
Handover = Literal[SaleEntry, BookingEntry]
SALE_ENTRIES: tuple[SaleEntry, ...] = get_args(SaleEntry)
BOOKING_ENTRIES: tuple[BookingEntry, ...] = get_args(BookingEntry)

# The conversation's own questions, outside any frame: the menu, the one clarifying question, which order, a
# person offered, what to do with a booking already made. A frame's question is the frame's (``asking``).
ConversationQuestion = Literal["clarify_intent", "menu", "order_selection", "escalation_offer", "booking_change"]
CONVERSATION_QUESTIONS: tuple[ConversationQuestion, ...] = get_args(ConversationQuestion)

# What the bot is waiting for across journeys: the conversation's own question, else the open frame's. A reply
# that answers it fills the slot; anything else is read afresh.
Pending = Literal[ConversationQuestion, SaleQuestion, BookingQuestion]
PENDING: tuple[Pending, ...] = get_args(Pending)
