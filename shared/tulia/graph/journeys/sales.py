"""The sales journey (spec Appendix C) over one order frame.

Every customer message in a sale runs the frame extractors (quantities, variants, fulfilment, zone,
payment method, payer number, coupon, edits) and fills every slot it can; then the first slot still
missing decides the one question asked (``frame.next_step``). Each question has one node that asks
it; buttons and list rows carry their own action and the order reference, so a tap is understood
whatever was said since. Prices, totals and payment facts come only from this turn's tools.

    sales_start ─┬─ payment_event / catalog_order / payment_status
                 ├─ tap ──────────────┐
                 └─ fill_frame ─ search ─┤
                                      advance ─┬─ ask_item / ask_variant / ask_quantity / ask_fulfilment / ask_zone
                                               ├─ build_order ─ advance
                                               ├─ ask_payment_method / ask_mpesa_number / confirm_payment
                                               └─ start_payment

The payment nodes are in :mod:`sale_payments`, what the nodes share in :mod:`sale_common`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command
from rapidfuzz import fuzz, process

from tulia.domain.customer import may_market
from tulia.domain.geo import pin_of, pin_place
from tulia.domain.literals import PAYMENT_METHODS, SALE_ENTRIES, SALE_QUESTIONS
from tulia.domain.tenant import zone_at
from tulia.errors import StateConflict
from tulia.graph.booking_frame import BookingFrame
from tulia.graph.buttons import SALE_TAPS, parse_tap, tap_id
from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.frame import (
    BuiltOrder,
    FrameLine,
    Fulfilment,
    ItemWish,
    OrderFrame,
    ShopOptions,
    next_step,
    settle,
)
from tulia.graph.journeys.booking.nodes import begin_booking, remind_booking
from tulia.graph.journeys.sale_basket import (
    HERS,
    OF_WORDS,
    basket_text,
    counts_denied,
    idle_words,
    line_named,
    listed_items,
    names_one_thing,
    only_sentences_of_things,
    take_items,
    the_count_not_denied,
    without_her_story,
)
from tulia.graph.journeys.sale_common import (
    MAX_CART_LINES,
    ask_sale,
    ask_which_line,
    can_prompt,
    count_for,
    count_in_words,
    echo_words,
    frame_of,
    line_from_item,
    named_back,
    one_clear_match,
    order_summary,
    recount,
    say_option_question,
    settle_sale_question,
    shop_codes,
    shop_of,
    shop_options,
    variant_title,
    wanted_words,
)
from tulia.graph.journeys.sale_payments import (
    ask_mpesa_number,
    ask_payment_method,
    confirm_payment,
    payment_code,
    payment_event,
    payment_help,
    payment_status,
    say_confirmation,
    say_payment_methods,
    start_payment,
)
from tulia.graph.journeys.support import answer_beside
from tulia.graph.nodes import (
    inbound_text,
    menu,
    shop_index,
    shop_places,
    t,
    tagged,
    the_documents_answer,
    without_appointment_words,
)
from tulia.graph.routing import MAX_SHORTLIST_ITEMS, should_show_catalog_link
from tulia.graph.state import ConversationState, Scratch
from tulia.graph.subgraph import as_node, command_journey
from tulia.graph.wording import prompt_context
from tulia.llm.schemas import SaleReading
from tulia.nlg.guard import unsupported_facts
from tulia.nlg.messages import buttons, listing, picture, text
from tulia.nlg.templates import COUPON_REASONS, money, word
from tulia.nlu import basket_words
from tulia.nlu.booking_words import staff_named
from tulia.nlu.fastpath import detect_choice
from tulia.nlu.frame_extract import (
    FrameDelta,
    QuantitySaid,
    extract_delta,
    extract_method,
    extract_mode,
    extract_order_ref,
    extract_quantity,
    extract_zone,
    may_name_code,
    named_option,
    option_words,
    residual_words,
    says_removal,
)
from tulia.nlu.lexicon import any_phrase, normalize
from tulia.nlu.reader import SURE, message_reader
from tulia.nlu.rules import catalog_evidence, product_query
from tulia.nlu.tagger import Span
from tulia.nlu.when import read_when, when_words, without_when
from tulia.rag.embedded import kinds_asked
from tulia.rag.shop_facts import answer_from_facts
from tulia.search.catalog_index import CHEAP, CatalogIndex

# "I want to pay", "nataka kulipa", "pay for ORD-...": resume the payment of the open order
PAY_WISH = (
    "i want to pay", "want to pay", "i wanna pay", "let me pay", "ready to pay", "pay now", "pay for", "pay it",
    "pay the order", "how do i pay", "how can i pay", "how to pay", "nataka kulipa", "ninataka kulipa", "nilipe",
    "nilipe aje", "nilipe vipi", "lipa sasa", "nataka kulipia", "niko tayari kulipa", "nitalipa", "niko ready kulipa",
    "nataka kulipa sasa", "pay with", "lipa na", "lipa kwa", "send the prompt", "send me the prompt", "tuma prompt",
    "nitumie prompt", "resend", "send again",
)  # fmt: skip
StartTarget = Literal[
    "payment_event", "catalog_order", "tap", "payment_status", "payment_code", "fill_frame", "advance", "start_payment",
    "__end__",
]  # fmt: skip
AdvanceTarget = Literal[
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
    "__end__",
]


# helpers -------------------------------------------------------------------------------------------


# entry ---------------------------------------------------------------------------------------------
def sales_start(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[StartTarget]:
    """A payment outcome, a cart, a tap, "did it go through?", or words for the frame."""
    turn = Turn(state, runtime, "sales_start")
    if state.handover in SALE_ENTRIES:  # the booking handed its deposit to the sale's payment nodes
        entry = state.handover
        turn.set(handover=None)
        return turn.goto("start_payment" if entry == "start_payment" else "advance")
    tap = parse_tap(state.inbound.get("reply_id"))
    if state.route == "payment_event":
        return turn.goto("payment_event")
    if state.route == "catalog_order":
        return turn.goto("catalog_order")
    if state.route == "payment_code":
        return turn.goto("payment_code")
    if tap is not None and tap.booking:  # the orchestrator sends a booking's taps to the booking: never lost
        turn.hand_over("booking_tap")
        return turn.goto(END)
    if tap is not None and tap.kind in SALE_TAPS:
        return turn.goto("tap")
    plain = normalize(inbound_text(state))
    answering = state.route in ("answer", "maybe_answer") and state.pending in SALE_QUESTIONS
    if not answering and state.intent == "payment_help" and not any_phrase(plain, PAY_WISH):
        slots = state.understanding.get("slots", {})
        if not (slots.get("coupon_code") or _method_said(turn, plain)):
            return turn.goto("payment_status")
    return turn.goto("fill_frame")


def _method_said(turn: Turn, plain: str) -> bool:
    method, _words, _spans = extract_method(plain, ["mpesa_stk", "mpesa_c2b", "pesapal"])
    return method is not None


# filling the frame ----------------------------------------------------------------------------------
FillTarget = Literal["search", "take_items", "advance", "ask_item", "start_payment", "__end__"]


def _an_option_asked_named(state: ConversationState, body: str) -> bool:
    """Whether the message names an option of the one the sale asks for."""
    frame = state.frame
    if state.pending != "variant" or frame is None or frame.asking_line is None:
        return False
    if frame.asking_line >= len(frame.lines) or (missing := frame.lines[frame.asking_line].missing_variant()) is None:
        return False
    return named_option(body, missing.options, frame.lines[frame.asking_line].name) is not None


def fill_frame(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[FillTarget]:
    """Read everything the message says about the sale into the frame."""
    turn = Turn(state, runtime, "fill_frame")
    body = message = inbound_text(state)
    if (
        shop_index(turn).books
        and (when_said := read_when(body, turn.ctx.services.clock())).said
        and not _an_option_asked_named(state, body)  # "3/4" of a 3/4 inch sprinkler is no 3 April
    ):
        body = without_when(body, when_said)  # "at 10", "kesho saa nne" are the booking's, not a count or a product
    shop = shop_options(turn)
    # her questions beside her wish ("... a 3/4 valve. Do you deliver that far?"): answered, and never read as things
    # (a place she asks about is still where she wants it: "do you deliver to rongai?")
    whole, beside = body, _questions_beside(turn, body, shop_index(turn))
    body = _without_sentences(body, [q for q in beside if extract_zone(normalize(q), shop.zones)[0] is None])
    plain = normalize(body)
    frame = frame_of(turn)
    answering = state.route in ("answer", "maybe_answer") and state.pending in SALE_QUESTIONS
    pending = state.pending if answering else None
    if frame.payment_started is None and frame.order is None and not frame.lines and not answering:
        frame = OrderFrame(coupon_code=frame.coupon_code)  # a new sale: nothing of an old one is assumed
    tags = tagged(turn, body)  # what each word is, and what she does with her items and her place
    delta = extract_delta(
        without_old_places(body, tags, shop_places(turn)),  # "niletee Juja badala ya Mwiki": Juja
        zones=shop.zones,
        enabled_methods=list(shop.methods),
        bare_number_is_quantity=pending == "quantity",
        shop_codes=shop_codes(turn) if may_name_code(body) else (),
    )
    if delta.zone is not None and _place_in_a_things_name(delta.place, tags, plain, shop_index(turn)):
        delta.zone = delta.place = delta.mode = None  # "mna scrub ya kahawa?": the coffee scrub, not Kahawa West
    pin_outside = _read_pin(turn, delta)  # a location pin: its zone on the shop's map, and the place it names
    choice = state.understanding.get("choice") if answering else None
    fast = state.understanding.get("fast") if answering else None
    index = shop_index(turn)
    recount(delta, body, index)  # "nywele brown 30 pakiti tatu": three of the colour Brown 30
    # "got stung 6 times, i need a bee suit": a number of her story, as the tagger reads it, is no count
    denied = counts_denied(body, tags, index) if pending != "quantity" else set()
    if delta.quantity is not None and delta.quantity.value in denied:
        # "mabeshte wangu wawili ... weka tatu": her story's number first, then the one count the tagger reads
        delta.quantity = QuantitySaid(left) if (left := the_count_not_denied(tags, denied)) is not None else None
    if pending == "variant" and delta.quantity is not None and _an_option_asked(frame, delta.quantity.value):
        delta.quantity = None  # "120, medium" to "which grit?": the grit 120, not 120 packs
    # "if the suit is too tight, can I swap it?": a question the reader reads, no line taken out ("bila mkate?" is one)
    asked = "?" in body and message_reader().read(body).label in ("support_question", "product_question")
    tagged_out = None if delta.add else _line_taken_out(frame, tags, index, plain, asked)
    if tagged_out is not None:
        delta.remove = True  # "ondoa tai, nitanunua shuleni": the tagger's act, a line of the basket the proof
    # Till or Paybill steps lock nothing: until money arrives the order can change (a new order, its
    # amount and reference said again; the old one is cancelled when the new one is built)
    if (
        frame.payment_started == "mpesa_c2b"
        and frame.order is not None
        and _changes_basket(delta)
        and _unpaid(turn, frame.order.order_id)
    ):
        frame.payment_started = None
    basket = [line.name for line in frame.lines]
    things = _words_of_things(body, tags, delta)  # without her address or where she collects
    listed = listed_items(things, index, tags, basket, denied) if frame.payment_started is None else []
    if pending == "variant" and not all(
        catalog_evidence(item.text, index) and (item.named or names_one_thing(item.text, index)) for item in listed
    ):
        # "2 black and 1 white" answers the option asked; "maclick 3, dairy meal 2" are more items; "short, the walls
        # are smooth" answers it with her reason (no thing named in it, only words of the shop's descriptions)
        listed = []
    # "three panes of 4 by 2, so 24 square feet" asked how many of a glass sold by the square foot: her count in its
    # measure, though its words are the shop's words for things too ("square feet" is a word of every glass)
    measured_answer = pending == "quantity" and _measured_count(frame, body, choice) is not None
    if measured_answer:
        listed, delta.quantity = [], None
    if (
        listed
        and _appointment_said(turn)
        and (_a_service_listed(listed, tags, index) or (_a_person_named(turn) and _a_service_fits(listed, index)))
    ):
        # "nutrition consultation na Mercy jumanne saa nane, nipate meal plan": one appointment, said with a person
        # or a day and a time, is one wish however many of its words the tagger found
        listed = []
    if listed:  # several items, each with its own count: none of it answers the question asked
        delta.quantity, delta.remove = None, False
        pending = choice = fast = None
    # the words of the message that may name items, and the line of the basket they name ("Jogoo ziwe
    # tatu", "make the flour three", "ondoa chumvi"): an edit of that line, not an answer to a list
    # "the tank at home leaks, lorenzetti iko?": the shower, without the clause of her story
    unstoried = without_her_story(body, tags, index)
    item_words = "" if listed or measured_answer else wanted_words(unstoried, delta, index)
    # and without the words said only in the sentences of her story before her wish (blanked after reading: the
    # extractors' spans are of the message as it was)
    story = set(normalize(unstoried).split()) - set(normalize(only_sentences_of_things(unstoried, tags, index)).split())
    item_words = " ".join(w for w in item_words.split() if w not in story) or item_words
    # the words of the day and time she asks for ("next Tuesday the 8th at 11am") name no thing ("next day visit")
    when = {w for s in tags if s.kind in ("DAY", "TIME") for w in normalize(s.text).split()}
    item_words = " ".join(w for w in item_words.split() if w not in when) or item_words
    if item_words and (idle := idle_words(body, tags, index, denied)):  # "we are 6 people in the house, ...": her story
        item_words = " ".join(w for w in item_words.split() if w not in idle)
    if things != body and item_words:  # the address's words, word by word (the delta's spans are the body's)
        address = set(normalize(body).split()) - set(normalize(things).split())
        if delta.zone is not None:
            address |= {w for m in _ADDRESS_PARTS.finditer(body) for w in normalize(m.group(0)).split()}
        item_words = " ".join(w for w in item_words.split() if w not in address)
    if item_words and index.books:  # "kevin ... kunitrain home friday saa moja": the rest names the service
        item_words = without_appointment_words(turn, item_words)
    if delta.quantity is None and item_words:  # "mkate Festive 1": the number is the count
        item_words, trailing = count_in_words(item_words, index)
        if trailing is not None and trailing not in denied:
            delta.quantity = QuantitySaid(trailing)
    edit_line = _line_edited(frame, item_words, index) if (delta.quantity or delta.remove) else None
    if edit_line is None and delta.quantity is not None and (clause := _clause_of_the_count(body)) is not None:
        # "make it 2 tyres only, the mechanic says the rear ones still have life": the clause that counts names
        # the line; the rest is her reason
        edit_line = _line_edited(frame, clause, index)
    if edit_line is not None:
        pending = choice = fast = None
        edited = set(index.terms(frame.lines[edit_line].name)) if edit_line < len(frame.lines) else set()
        set_said = any(  # "ongeza sukari iwe mbili": the tagger reads a set of the very line edited
            span.kind == "ITEM" and span.act == "set" and set(index.terms(span.text)) & edited for span in tags
        )
        if delta.add and delta.quantity is not None and not set_said:  # "ongeza jogoo moja": one more of that line
            delta.quantity = QuantitySaid(delta.quantity.value, "add")
    # a question about something else asked while a step is open ("is delivery free above 5k?",
    # "how much is delivery to Kilimani?"): answered after what it fills is kept, then the step again
    aside = (
        answering
        and not listed
        and edit_line is None
        and (_asks_aside(whole, index) or _asks_the_documents(turn, whole, index))
    )
    new_item = (
        not listed
        and edit_line is None
        and _names_products(turn, item_words)
        and not _basket_words(frame, item_words, index)
    )
    # a question about a thing of her basket ("before I pay, is the ultrasonic one safe with the cat?"): no answer to
    # the step (never a pick of the thing she asks about) and no count of a line; what else it says is kept, then it
    # is answered and the step asked again
    of_a_line = (
        bool(frame.lines)
        and frame.payment_started is None
        and pending not in ("variant", "quantity")  # "naweza pata ya 5x6?" answers which one, or how many
        and edit_line is None
        and _asks_of_a_line(turn, frame, whole, item_words or things, index)
    )
    if of_a_line:  # "is it safe with a baby and a cat?" lists no things
        delta.quantity, delta.remove, listed = None, False, []
    if aside:  # "kama moja haitatumika naweza kuirudisha?": a count in a question about something else edits no line
        delta.quantity, delta.remove = None, False
    if aside and (delta.zone is not None or delta.mode is not None) and _asks_another_fact(turn, whole):
        # "duka lenu liko wapi? niko town kesho": where the shop is, asked; the place she will be is no delivery chosen
        delta.zone = delta.place = delta.mode = None
    reading = _model_reading(turn, body, fast)
    model_product = merge_model_reading(delta, reading, body, shop) if reading is not None else None
    if listed:  # the model's one count and product are of the whole list: each part has its own
        delta.quantity, delta.remove, model_product = None, False, None
    understood = delta.said_anything() or delta.order_ref is not None
    notes: list[str] = []
    echo = False  # a line of the basket changed: the whole basket is said back

    # answers that only make sense for the question asked (a number, yes/no, an option's name): one reader
    # per open question (ANSWER_READERS)
    reader = ANSWER_READERS.get(pending) if pending is not None and not (aside or of_a_line) else None  # a question
    if reader is not None:
        answer = Answer(turn, frame, delta, body, message, choice, fast)
        understood = reader(answer) or understood
        if (act := _act_on_answer(answer)) is not None:
            return act

    # edits after the payment started are refused with the reason
    changes_order = (
        delta.quantity is not None
        or delta.mode is not None
        or delta.zone is not None
        or delta.coupon_code is not None
        or delta.remove
    )
    if frame.payment_started is not None and changes_order and frame.order is not None:
        turn.say(text(t(turn, "edit_refused", ref=frame.order.order_id)))
        turn.set(frame=frame)
        return turn.goto(END)

    # what the message says, whatever was asked
    if delta.phone:
        frame.payer_phone = delta.phone
    if delta.coupon_code and delta.coupon_code != frame.coupon_code:
        frame.coupon_code, frame.coupon_refused = delta.coupon_code, None
        if delta.coupon_code.casefold() not in {c.casefold() for c in shop_codes(turn)}:
            # a code the shop never had is said at once, never "noted" and then dropped
            frame.coupon_refused = delta.coupon_code
            reason = word(COUPON_REASONS, "unknown_code", turn.lang)
            notes.append(t(turn, "coupon_rejected", code=delta.coupon_code, reason=reason))
        elif not frame.lines and not frame.order:
            notes.append(t(turn, "coupon_noted", code=delta.coupon_code))
    if delta.mode is not None:
        frame.fulfilment = Fulfilment(mode=delta.mode, zone=frame.fulfilment.zone, place=frame.fulfilment.place)
        if delta.mode == "pickup":
            frame.fulfilment = Fulfilment(mode="pickup")
    if delta.zone is not None:
        frame.fulfilment = Fulfilment(mode="delivery", zone=delta.zone, place=_place_words(body, delta))
        if not frame.lines and pin_of(turn.state.inbound) is not None:  # a pin before anything is chosen: kept
            notes.append(t(turn, "pin_zone_noted", zone=delta.zone))
    elif pin_outside is not None:
        # a pin in none of the shop's zones: said, and the zones offered (the frame asks for one next)
        frame.fulfilment = Fulfilment(mode="delivery")
        notes.append(t(turn, "zone_not_served", place=echo_words(pin_outside)))
        understood = True
    elif (
        pending == "zone"
        and fast is None
        and choice is None
        and delta.mode != "pickup"  # "I'll collect it" names no place (a shop without pickup says so itself)
        and _names_a_place(body, delta, reading)
        and not _names_products(turn, item_words)
        and not _other_business(turn, body)
    ):
        # a place that is in none of the shop's zones: say so and offer the zones again
        notes.append(t(turn, "zone_not_served", place=echo_words((reading and reading.place) or body.strip())))
        understood = True
    if delta.method is not None:
        frame.payment_method = delta.method
    elif delta.method_words:
        notes.append(t(turn, "method_not_offered", method=delta.method_words))
        understood = True
    if delta.quantity is not None:
        target = (
            edit_line if edit_line is not None else frame.asking_line if pending in ("quantity", "variant") else None
        )
        # the model's product, when it is a new thing, takes the count (never the basket's last line)
        model_new = model_product is not None and not _basket_words(frame, product_query(model_product), index)
        if frame.lines and not model_new and (not new_item or model_product is not None):
            _apply_quantity(frame, delta.quantity.value, delta.quantity.edit, target)
            echo = True
        elif delta.quantity.edit == "set" or new_item or model_new:
            frame.quantity_hint = delta.quantity.value  # the count of the item named next, not of a line
    if delta.remove and frame.lines:
        if tagged_out is not None and tagged_out < len(frame.lines):
            removed: str | None = frame.lines[tagged_out].name
            frame.lines = [ln for n, ln in enumerate(frame.lines) if n != tagged_out]
        else:
            words = (reading.remove_item if reading else None) or residual_words(body, delta)
            tied = _lines_named_alike(frame, words, index.terms)
            if len(tied) > 1 and frame.payment_started is None:  # "toa sukari" with two sugars: which one
                ask_which_line(turn, frame, tied)
                return turn.goto(END)
            removed = _remove_line(frame, words, index.terms)
        if removed is not None:
            notes.append(t(turn, "line_removed", name=removed))
            understood = True
            echo = True
            if not frame.lines:
                frame.order = None
    if delta.order_ref and not frame.lines and any_phrase(plain, PAY_WISH):
        adopted = _adopt_order(turn, frame, delta.order_ref)
        if adopted is not None:
            return adopted
    wants_to_pay = any_phrase(plain, PAY_WISH) or delta.method is not None or bool(reading and reading.wants_to_pay)
    if wants_to_pay:
        understood = True

    # an option of an item already in the order ("black", "the 256GB one"): a change of variant
    terms = shop_index(turn).terms  # the shop's words
    option_terms: set[str] = set()
    option_changed = False
    lines_changed: list[FrameLine] = []
    lines_optioned: list[FrameLine] = []  # lines whose option she names, changed or as it already is
    # a count answering "how many?" is no option ("1" of a gloss in 1L and 4L tins: one tin, never the 1L)
    counted_only = pending == "quantity" and delta.quantity is not None and not listed and not item_words.strip()
    for line in frame.lines if not counted_only else []:
        for variant in line.variants:
            option_terms |= {term for option in variant.options for term in terms(option)}
            # never from her address ("Buruburu phase 1" is no 1 L tin)
            said = named_option(things, variant.options, line.name) or next(
                (
                    o
                    for o in variant.options
                    for named in (reading.options if reading else [])
                    if o.casefold() == named.casefold()
                ),
                None,
            )
            if said is not None and pending != "variant" and frame.payment_started is None:
                lines_optioned.append(line)
                changed = line.variant_selection.get(variant.name) not in (None, said)
                option_changed = option_changed or changed
                if changed:
                    lines_changed.append(line)
                echo = True  # an option said of a line, changed or as it was: she sees the line as she wants it
                line.choose(variant.name, said)
                understood = True
    if option_changed:  # "the house colour changed, blue instead of red": that line's edit, nothing to find or drop
        for item in listed:  # "change the tank to 3ft and make the gravel 4 bags": the other line's count, set
            counted = line_named(item.text, frame, index) if item.quantity is not None else None
            if item.act == "set" and counted is not None and counted not in lines_changed:
                counted.quantity, counted.quantity_said = item.quantity, True
                echo = True
        listed = []
    elif frame.lines:  # "blue instead of red": options of the basket's lines, never things to find
        listed = [
            item for item in listed if not {t for t in terms(item.text) if t in index.product_terms} <= option_terms
        ]
        # "badilisha sprayer iwe ile ya battery" when it is the battery one already: that line's option said, the
        # line kept (a thing replaced by its own option is no thing taken out)
        # ("replace the 5x6 net with the vaporizer" names a new thing: a replacement, as said)
        new_things = any(item.act != "old" and line_named(item.text, frame, index) is None for item in listed)
        kept = [
            item
            for item in listed
            if new_things or not (item.act == "old" and line_named(item.text, frame, index) in lines_optioned)
        ]
        echo = echo or len(kept) < len(listed)  # the basket said back: she sees the line as she wants it
        listed = kept

    if of_a_line and answer_beside(turn, whole):
        for note in notes:
            turn.say(text(note))
        turn.set(frame=frame, scratch=Scratch(echo=echo))
        return turn.goto("advance")
    if listed:  # several items: a line each, found one by one, added to the open basket (never replacing it)
        asked = "?" in body or bool(_QUESTION_LEAD.match(plain)) or state.intent == "product_question"
        frame.waiting = [
            ItemWish(text=item.text[:300], quantity=item.quantity, act=item.act, asked=asked, named=item.named[:300])
            for item in listed
        ]
        _answer_beside(turn, beside)
        for note in notes:
            turn.say(text(note))
        turn.set(frame=frame)
        return turn.goto("take_items")

    # product words: a new wish (search), or an item to add to this order
    open_basket = bool(frame.lines) and frame.payment_started is None  # a sale still being put together
    query = (
        ""
        if delta.remove and frame.lines
        else product_query(model_product)
        if model_product
        else _without_refused(item_words, body)  # "I don't want a clean-up, I want it formatted": the formatting
    )
    product_words = (
        _names_products(turn, query)
        and not (frame.lines and {t for t in terms(query) if t in index.product_terms} <= option_terms)
        and edit_line is None  # the words named the line edited
        and not (open_basket and not delta.add and _basket_words(frame, query, index))  # what is in the basket
        # asked of things all in her basket, with no count ("na chumvi ikifika imeharibika je?"): no new wish (a search
        # that finds one thing would add it again)
        and not (open_basket and delta.quantity is None and _asked(whole, plain) and _basket_words(frame, query, index))
        and not aside  # "je simu ina warranty?" while choosing a phone: a question aside, not a new search
        and not (option_changed and not delta.add)  # "shes tall for her age, change it to 5-7 years": that line's
    )
    if (
        product_words
        and pending == "item_selection"
        and not frame.lines
        and delta.quantity is not None
        and any(span.kind == "ITEM" and span.act == "set" for span in tags)
        and _of_the_shortlist(query, state.last_catalog_results, terms)
    ):
        # "make the power banks 3" while she chooses which power bank: the count of the one she picks
        frame.quantity_hint = delta.quantity.value
        turn.set(frame=frame)
        _remind(turn, frame)
        return turn.goto(END)
    if pending == "variant" and not understood and _only_other_options(body, index):
        # "ile nyeusi" of a helmet that comes in pink, blue and green: said so, and the question again (no search)
        line = frame.lines[frame.asking_line or 0]
        said = echo_words(product_query(body) or body)
        frame.options_refused += 1
        if frame.options_refused < OPTIONS_REFUSED_TO_LEAVE_OUT:
            turn.say(text(t(turn, "option_not_offered", name=line.name, said=said)))
            _say_variant_question(turn, frame)
            turn.set(frame=frame)
            return turn.goto(END)
        # said again: she wants it in no way it comes, so it leaves the basket and the sale goes on without it
        lacking = line.missing_variant()
        offered = ", ".join(lacking.options) if lacking is not None else ""
        frame.lines = [ln for ln in frame.lines if ln is not line]
        frame.options_refused = 0
        frame.asking, frame.asking_line, frame.asking_options = None, None, []
        turn.say(text(t(turn, "option_left_out", name=line.name, said=said, options=offered)))
        if frame.lines:
            turn.say(text(basket_text(turn, frame)))
        turn.set(frame=frame)
        return turn.goto("advance" if frame.lines else END)
    if pending == "variant" and understood:
        frame.options_refused = 0
    if product_words and not (pending == "variant" and understood and not delta.add):
        if frame.payment_started is not None:
            frame = OrderFrame(quantity_hint=frame.quantity_hint)
        # a thing named while her basket is open joins it, said "also" or not: a line leaves the basket only when she
        # takes it out, replaces it, cancels, or pays (a basket silently replaced at checkout loses her order)
        frame.adding = bool(frame.lines)
        if frame.adding and delta.quantity is not None and edit_line is None:
            frame.quantity_hint = delta.quantity.value  # the count of the thing named, not of a line
        frame.wish = _wish_named_again(turn, frame.wish, message)[:300]  # as said: a booking reads its day and time
        _answer_beside(turn, beside)
        for note in notes:
            turn.say(text(note))
        slots = dict(state.understanding.get("slots", {}))
        turn.set(frame=frame, scratch=Scratch(query=query, slots=slots))
        return turn.goto("search")
    if aside and not _answered(pending, frame):
        for note in notes:
            turn.say(text(note))
        turn.set(frame=frame, route="reclassify")
        return turn.goto(END)
    if beside and answering and not understood and not catalog_evidence(normalize(body), index):
        # "will 8 litres be enough for two coats? the room is 3m by 3m": her question answered, then the step again
        _answer_beside(turn, beside)
        turn.set(frame=frame, scratch=Scratch())
        return turn.goto("advance")
    if not understood and open_basket and query and _basket_words(frame, query, index):
        understood = echo = True  # "Menengai" again: the basket as it is, and the step again
    for note in notes:
        turn.say(text(note))
    if not understood and not frame.lines and not frame.order:
        if answering and pending == "category" and (item_words or body).strip() and not _other_business(turn, body):
            # the answer to "what are you looking for?" is what to look for, in words the catalog may not know:
            # searched, so a thing the shop does not sell is said so (and counted among the searches that found
            # nothing), never "I didn't get that"
            turn.set(frame=frame, scratch=Scratch(query=(item_words or body).strip()[:120], slots={}))
            return turn.goto("search")
        if answering:
            turn.set(route="reclassify")
            return turn.goto(END)
        turn.set(frame=frame, scratch=Scratch(query="", slots=dict(state.understanding.get("slots", {}))))
        return turn.goto("search")  # "I want to buy something": narrow or ask what
    if not understood and answering and fast == "yes" and (frame.lines or frame.order):
        turn.set(frame=frame, scratch=Scratch())  # "yes" to a question it does not answer: the question again
        return turn.goto("advance")
    if not understood and answering:
        turn.set(route="reclassify")  # a side question: answered elsewhere, then the sale is offered again
        return turn.goto(END)
    if not understood:
        turn.trace.append({"kind": "step", "node": "not_understood"})  # on the shop's *Not understood* list
        turn.say(menu(turn, "unknown"))  # nothing of the sale in it, and no other journey took it
        turn.set(question="menu", question_options=[], clarification_loops=state.clarification_loops + 1)
        return turn.goto(END)
    if not frame.lines and not frame.order:
        turn.set(frame=frame)
        if (
            answering
            and pending == "item_selection"
            and frame.asking == "item_selection"
            and state.last_catalog_results
        ):
            _remind(
                turn, frame
            )  # "deliver to Kitengela" with a shortlist on screen: the place kept, the shortlist again
            return turn.goto(END)
        return turn.goto("ask_item")
    if not aside:
        _answer_beside(turn, beside)
    turn.set(frame=frame, scratch=Scratch(echo=True) if echo else Scratch())
    return turn.goto("advance")


# answers to the open question ----------------------------------------------------------------------
@dataclass
class AnswerRead:
    """What a reply says in answer to the sale's open question, beyond what the extractors read into the delta:
    a shortlist row or a category chosen, several rows fitting "the black one", a substitute refused by naming the
    item wanted, the payment confirmation's answer, digits that make no phone number. Readers only fill it and the
    delta; ``_act_on_answer`` then does what it asks."""

    item_id: str | None = None
    fitting: list[dict[str, Any]] = field(default_factory=list)  # rows that fit the option said: which of them?
    option_said: str = ""
    category: str | None = None
    substitute_refused: bool = False
    confirmation: Literal["yes", "other_number", "no"] | None = None
    bad_number: bool = False
    drop_line: int | None = None  # the basket's line to take out, of several of one item


@dataclass
class Answer:
    """A reply read against the question the sale asked: the frame, what the extractors read, the words
    (``body`` without a booking's day and time; ``message`` as sent), and a row number or yes/no said."""

    turn: Turn
    frame: OrderFrame
    delta: FrameDelta
    body: str
    message: str
    choice: int | None
    fast: str | None
    read: AnswerRead = field(default_factory=AnswerRead)

    def option_tapped(self) -> str | None:
        """The last part of the id of the option row whose number was typed ("1" to the zones listed)."""
        options = self.turn.state.pending_options
        if self.choice is None or not 1 <= self.choice <= len(options):
            return None
        tap = parse_tap(str(options[self.choice - 1]["id"]))
        return tap.last if tap is not None else None


# a reader fills the delta (or the answer's own reading) and says whether it understood the reply
AnswerReader = Callable[[Answer], bool]


def _item_chosen(a: Answer) -> bool:
    turn, frame = a.turn, a.frame
    if frame.sold_out and a.choice is None and _refuses_substitute(turn, frame, a.body, a.fast):
        a.read.substitute_refused = True  # "hapana, nataka Jogoo": the item wanted, not one shown in its place
        return True
    if (option := _chosen_option(turn, a.body, a.choice)) is not None:
        tap = parse_tap(option["id"])
        a.read.item_id = tap.last if tap is not None else ""
        return True
    if a.choice is None and (fitting := _rows_fitting(turn, a.body)):
        option_said, rows = fitting
        if len(rows) == 1:  # "the blue one": the only row that comes in blue (blue is chosen with it)
            a.read.item_id = rows[0]["item_id"]
        else:  # "the black one" when several rows come in black: which of them, not a new search for "black"
            a.read.fitting, a.read.option_said = rows, option_said
        return True
    return False


def _category_chosen(a: Answer) -> bool:
    if (option := _chosen_option(a.turn, a.body, a.choice)) is None:
        return False
    a.read.category = option["title"]
    return True


def _variant_chosen(a: Answer) -> bool:
    frame = a.frame
    if frame.asking_line is None or frame.asking_line >= len(frame.lines):
        return False
    line = frame.lines[frame.asking_line]
    missing = line.missing_variant()
    if missing is None:
        return False
    understood = False
    if a.choice is not None and 1 <= a.choice <= len(missing.options):
        picked: str | None = missing.options[a.choice - 1]
    else:
        picked = named_option(a.body, missing.options, line.name)
    if picked is not None:
        line.choose(missing.name, picked)
        understood = True
    for other in line.variants:  # "Blue, 128GB": the other options asked about, in the same reply
        named = named_option(a.body, other.options) if other.name not in line.variant_selection else None
        if named is not None:
            line.choose(other.name, named)
            understood = True
    return understood


def _measured_count(frame: OrderFrame, body: str, choice: int | None) -> int | None:
    """The count of the line asked about, said as a measure: "mita nane" of a fabric sold by the metre, "two panels
    of 5 by 4" of glass sold by the square foot, "kilo mbili" of nails in 1 kg packs."""
    at = frame.asking_line if frame.asking_line is not None else len(frame.lines) - 1
    if not 0 <= at < len(frame.lines):
        return None
    line = frame.lines[at]
    options = [o for v in line.variants for o in v.options]
    measured = basket_words.quantity_by_measure(body, line.name, choice, options)
    if measured is None and choice is None:
        measured = basket_words.measured_count(body, line.name)
    return measured if measured is not None and 1 <= measured <= 1000 else None


def _count_chosen(a: Answer) -> bool:
    if a.delta.quantity is None and (measured := _measured_count(a.frame, a.body, a.choice)) is not None:
        _apply_quantity(a.frame, measured, "set", a.frame.asking_line)
        return True
    if a.choice is None or a.delta.quantity is not None or not 1 <= a.choice <= 1000:
        return False
    _apply_quantity(a.frame, a.choice, "set", a.frame.asking_line)
    return True


def _fulfilment_chosen(a: Answer) -> bool:
    mode = a.option_tapped()
    if mode not in ("delivery", "pickup"):
        return False
    a.delta.mode = "delivery" if mode == "delivery" else "pickup"
    return True


def _zone_chosen(a: Answer) -> bool:
    zone = a.option_tapped()
    if zone is None:
        return False
    a.delta.zone, a.delta.mode = zone, "delivery"
    return True


def _method_chosen(a: Answer) -> bool:
    method = a.option_tapped()
    if method not in PAYMENT_METHODS:
        return False
    a.delta.method = next(m for m in PAYMENT_METHODS if m == method)
    return True


def _payment_confirmed(a: Answer) -> bool:
    if a.delta.phone is not None:
        return False
    if a.fast == "yes" or a.choice == 1:
        a.read.confirmation = "yes"
    elif a.choice == 2:
        a.read.confirmation = "other_number"
    elif a.fast == "no" or a.choice == 3:
        a.read.confirmation = "no"
    return a.read.confirmation is not None


def _number_given(a: Answer) -> bool:
    if a.delta.phone is not None or not any(ch.isdigit() for ch in a.body):
        return False
    a.read.bad_number = True  # digits that make no Kenyan mobile number
    return True


def _act_on_answer(a: Answer) -> Command[FillTarget] | None:
    """What an answer read asks to be done now (a row picked, a payment confirmed...); None: the frame goes on."""
    turn, frame, read = a.turn, a.frame, a.read
    if read.substitute_refused:
        turn.say(text(t(turn, "substitute_refused", name=frame.sold_out)))
        frame.sold_out, frame.adding, frame.quantity_hint, frame.wish = None, False, None, None
        ask_sale(turn, frame, None, [])
        if frame.lines or frame.waiting:
            turn.set(frame=frame, scratch=Scratch(echo=True))
            return turn.goto("advance")
        return turn.goto(END)
    if read.drop_line is not None:
        return _drop_line(turn, frame, read.drop_line)
    if read.item_id is not None:
        return _pick(turn, frame, read.item_id, a.delta)
    if read.fitting:
        rows = read.fitting
        turn.say(
            listing(
                t(turn, "which_of_them", option=read.option_said),
                [(tap_id("item", r["item_id"]), r["name"], money(r["price"])) for r in rows],
                button=t(turn, "shortlist_button"),
            )
        )
        frame.wish = a.message[:300]  # the option said is chosen once the row is
        ask_sale(
            turn, frame, "item_selection", [{"id": tap_id("item", r["item_id"]), "title": r["name"]} for r in rows]
        )
        turn.set(frame=frame)
        return turn.goto(END)
    if read.category is not None:
        turn.set(frame=frame, scratch=Scratch(query="", category=read.category))
        return turn.goto("search")
    if read.confirmation == "yes":
        turn.set(frame=frame)
        return turn.goto("start_payment")
    if read.confirmation == "other_number":
        turn.say(text(t(turn, "ask_mpesa_number")))
        ask_sale(turn, frame, "mpesa_number", [])
        return turn.goto(END)
    if read.confirmation == "no":
        turn.say(text(t(turn, "payment_cancelled_ok", ref=frame.order.order_id if frame.order else "")))
        frame.payment_method = None
        ask_sale(turn, frame, None, [])
        return turn.goto(END)
    if read.bad_number:
        turn.say(text(t(turn, "bad_mpesa_number")))
        ask_sale(turn, frame, "mpesa_number", [])
        return turn.goto(END)
    return None


def _line_chosen(a: Answer) -> bool:
    """Which of several lines of one item to take out: its row's number or title, or words that name only it ("the
    kabras one", "ya brown")."""
    options = a.turn.state.pending_options
    lines = [int(tap.last) for o in options if (tap := parse_tap(str(o["id"]))) is not None and tap.last.isdigit()]
    option = _chosen_option(a.turn, a.body, a.choice)
    if option is not None and (tap := parse_tap(str(option["id"]))) is not None and tap.last.isdigit():
        a.read.drop_line = int(tap.last)
        return True
    said = set(shop_index(a.turn).terms(a.body))
    fits = [n for n in lines if n < len(a.frame.lines) and said & _line_words(a, n)]
    if len(fits) > 1:  # "kabras" of "Kabras Sugar 1kg" and "Mumias Sugar 1kg": what one has and the others lack
        fits = [n for n in fits if all(said & (_line_words(a, n) - _line_words(a, m)) for m in fits if m != n)]
    if len(fits) == 1:
        a.read.drop_line = fits[0]
        return True
    return False


def _line_words(a: Answer, n: int) -> set[str]:
    """The words of a basket line's name and its options."""
    line = a.frame.lines[n]
    return set(shop_index(a.turn).terms(f"{line.name} {' '.join(line.variant_selection.values())}"))


ANSWER_READERS: dict[str, AnswerReader] = {  # one reader for each SaleQuestion
    "item_selection": _item_chosen,
    "category": _category_chosen,
    "variant": _variant_chosen,
    "quantity": _count_chosen,
    "fulfilment": _fulfilment_chosen,
    "zone": _zone_chosen,
    "payment_method": _method_chosen,
    "payment_confirmation": _payment_confirmed,
    "mpesa_number": _number_given,
    "which_line": _line_chosen,
}


def _model_reading(turn: Turn, body: str, fast: str | None) -> SaleReading | None:
    """The model's reading of the sale's slots: from this turn's classifier call, or (for an answer to
    a pending question, which skips the classifiers) one structured call now. ``None`` on the rules
    engine, for a bare number or yes/no, and when the model failed."""
    found = turn.state.understanding.get("sale")
    if found is not None:
        return SaleReading.model_validate(found)
    if turn.ctx.engine.name == "rules" or fast is not None or not body.strip():
        return None
    u = turn.ctx.engine.understand(body, catalog=shop_index(turn), context=prompt_context(turn))
    turn.trace.extend(u.llm_calls)
    return u.sale


def merge_model_reading(delta: FrameDelta, reading: SaleReading, body: str, shop: ShopOptions) -> str | None:
    """What the model read, where the words alone did not say it, and only what the shop and the
    message allow: a zone of the shop's, an enabled method, a code the customer typed. Its count wins
    ("a couple of bags" is 2). Returns the model's product words."""
    if reading.quantity is not None:
        delta.quantity = QuantitySaid(reading.quantity, reading.quantity_change)
    if delta.mode is None and reading.fulfilment is not None:
        delta.mode = reading.fulfilment
    zones = {name.casefold(): name for name, _areas in shop.zones}
    if delta.zone is None and reading.zone and reading.zone.casefold() in zones:
        delta.zone = zones[reading.zone.casefold()]
        delta.place = delta.place or (reading.place or delta.zone)
        delta.mode = delta.mode or "delivery"
    if delta.method is None and reading.payment_method in shop.methods:
        delta.method = reading.payment_method
    code = (reading.coupon_code or "").strip()
    if code and code.casefold() in body.casefold() and code.casefold() not in ("code", "coupon", "promo"):
        delta.coupon_code = code.upper()
    if reading.remove_item:
        delta.remove, delta.add = True, False
    elif reading.add_item:
        delta.add = True
    return reading.product


def _names_a_place(body: str, delta: FrameDelta, reading: SaleReading | None) -> bool:
    """An answer to "where should we deliver?" that names a place (not an edit, not a question)."""
    if reading is not None:
        return bool(reading.place) and reading.zone is None
    said_else = delta.quantity or delta.method or delta.coupon_code or delta.phone or delta.remove or delta.add
    return bool(body.strip()) and not said_else and "?" not in body and len(body.split()) <= 5


SIDE_INTENTS = frozenset(
    {"preferences_consent", "order_status", "support_question", "discounts_offers", "payment_help", "human_request"}
)


def _other_business(turn: Turn, body: str) -> bool:
    """A message the rules engine clearly reads as another matter ("acha offers", "where is my order?"):
    not an address, but a side question to answer before the sale goes on. (A model's reading says
    itself whether the message names a place.)"""
    if turn.ctx.engine.name != "rules":
        return False
    understood = turn.ctx.engine.understand(body, catalog=shop_index(turn))
    return understood.intent in SIDE_INTENTS and understood.intent_confidence >= 0.8


_QUESTION_LEAD = re.compile(
    r"^(?:how|what|when|where|which|who|why|do|does|did|is|are|was|were|has|have|can|could|will|would|mna|mnaweza|"
    r"je|ni lini|lini|saa ngapi|"
    r"wapi|bei gani|ngapi|kuna|naweza|nitapata|mtaleta|mnaleta)\b"
)
# Swahili asks at the end ("duka liko wapi", "delivery ni lini")
_QUESTION_TAIL = re.compile(r"\b(?:wapi|lini|ngapi|vipi|gani|je)\b(?:\s+\w+){0,2}$")


def _asked(body: str, plain: str) -> bool:
    """Whether a message is put as a question: a question mark, or a question word where each language puts it."""
    return "?" in body or bool(_QUESTION_LEAD.match(plain)) or bool(_QUESTION_TAIL.search(plain))


def _changes_basket(delta: FrameDelta) -> bool:
    return bool(delta.quantity or delta.mode or delta.zone or delta.coupon_code or delta.remove or delta.add)


def _unpaid(turn: Turn, order_id: str) -> bool:
    """An order waiting for its money, with none of it received."""
    order = turn.ctx.services.orders.get(turn.ctx.tenant_id, order_id)
    return order.status in ("draft", "pending_payment") and order.paid_amount == 0


def _asks_aside(body: str, index: CatalogIndex) -> bool:
    """A question (asked with "?" or a question word) the reader is sure is about another matter
    (the shop's hours, fees, an order, offers, a person), not the sale's step."""
    plain = normalize(body)
    # an order's reference is asked about whatever the words around it ("ORD-U7C2W imefika wapi")
    if not plain or not (_asked(body, plain) or extract_order_ref(body)):
        return False
    reading = message_reader().read(body, product_terms=catalog_evidence(plain, index))
    return reading.label in SIDE_INTENTS and reading.confidence >= SURE


def _asks_the_documents(turn: Turn, body: str, index: CatalogIndex) -> bool:
    """A question about the things on screen that the shop's documents are about ("je simu ina warranty?" while she
    chooses a phone): answered aside, then the choice again."""
    plain = normalize(body)
    if not plain or not _asked(body, plain):
        return False
    reading = message_reader().read(body, product_terms=catalog_evidence(plain, index))
    return reading.label in ("product_question", "support_question") and the_documents_answer(turn, body, index)


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _questions_beside(turn: Turn, body: str, index: CatalogIndex) -> list[str]:
    """The sentences of a message that ask the shop something its facts or documents answer, beside others that
    say her wish ("I need a 1000 litre tank and a 3/4 valve. Do you deliver that far?"); none when every sentence
    asks (a question alone is the support journey's)."""
    sentences = [s.strip() for s in _SENTENCE.split(body) if s.strip()]
    if len(sentences) < 2:
        return []
    tenant = turn.ctx.services.tenants.get(turn.ctx.tenant_id)
    people = [(m.id, m.name) for m in shop_of(turn).booking_settings().people()] if index.books else []
    asked = []
    for sentence in sentences:
        plain = normalize(sentence)
        if not _asked(sentence, plain) or staff_named(sentence, people) is not None:
            continue  # "baraka yuko free ijumaa saa kumi?" asks for the appointment she wants: her wish
        reading = message_reader().read(sentence, product_terms=catalog_evidence(plain, index))
        if reading.label not in ("support_question", "product_question") or reading.confidence < SURE:
            continue
        if answer_from_facts(tenant, sentence, turn.lang) is not None or the_documents_answer(
            turn, sentence, index, covers=PASSAGE_COVERS
        ):
            asked.append(sentence)
    return asked if len(asked) < len(sentences) else []


PASSAGE_COVERS = 0.5  # the share of a question's words the best passage holds for it to be that passage's question


def _answer_beside(turn: Turn, questions: list[str]) -> None:
    """Her questions beside her wish, answered before the sale goes on (:func:`_questions_beside`)."""
    for question in questions:
        answer_beside(turn, question)


def _without_refused(words: str, body: str) -> str:
    """The words of things without those she refuses ("sitaki mumias, nataka kabras": kabras; "I don't want a
    clean-up, I want it formatted": the formatting): the few words after a refusal, up to a wish."""
    refused: set[str] = set()
    for m in _REFUSAL.finditer(normalize(body)):
        for said in m.group(1).split():
            if said in _WISH_AGAIN:
                break
            refused.add(said)
    return " ".join(w for w in words.split() if w not in refused) if refused else words


_REFUSAL = re.compile(r"\b(?:sitaki|don t want|do not want|dont want|no more)\s+((?:\S+\s*){1,3})")
_WISH_AGAIN = frozenset({"i", "want", "need", "nataka", "nahitaji", "but", "ila", "just", "only", "nipe"})


def _without_sentences(body: str, sentences: list[str]) -> str:
    """The message without the sentences given (each once)."""
    if not sentences:
        return body
    for sentence in sentences:
        body = body.replace(sentence, "\n", 1)  # a line of its own stays a line ("Mumias sugar\nPishori rice\n...")
    return "\n".join(line.strip() for line in body.splitlines() if line.strip())


def _asks_another_fact(turn: Turn, body: str) -> bool:
    """A question one of the shop's stated facts other than its delivery answers (where it is, its hours, how to
    pay): the places in it are where she is, not where to deliver."""
    fact = answer_from_facts(turn.ctx.services.tenants.get(turn.ctx.tenant_id), body, turn.lang)
    return fact is not None and fact.kind != "delivery"


def _answered(pending: str | None, frame: OrderFrame) -> bool:
    """Whether the question the sale asked is answered in the frame now."""
    if pending == "zone":
        return frame.fulfilment.zone is not None
    if pending == "fulfilment":
        return frame.fulfilment.mode is not None
    if pending == "quantity":
        return all(line.quantity is not None for line in frame.lines)
    if pending == "variant":
        return all(line.missing_variant() is None for line in frame.lines)
    if pending == "payment_method":
        return frame.payment_method is not None
    return False


def _refuses_substitute(turn: Turn, frame: OrderFrame, body: str, fast: str | None) -> bool:
    """A plain no to the items shown in place of a sold-out one, or the sold-out item named again."""
    if fast == "no":
        return True
    index = shop_index(turn)
    said = {term for term in index.terms(body) if term in index.product_terms}
    shown = {term for option in turn.state.pending_options for term in index.terms(str(option.get("title", "")))}
    return bool(said & (set(index.terms(frame.sold_out or "")) - shown))


def _things_named(words: str, index: CatalogIndex) -> set[str]:
    """The words that name things the shop sells."""
    return {term for term in index.terms(words) if term in index.product_terms}


def _basket_words(frame: OrderFrame, words: str, index: CatalogIndex) -> bool:
    """Whether every word of ``words`` that names things the shop sells is in the basket's lines
    (their names and options): words about the basket, not a new item."""
    said = _things_named(words, index)
    basket = {term for line in frame.lines for term in _line_terms(line, index)}
    return bool(said) and said <= basket


def _asks_of_a_line(turn: Turn, frame: OrderFrame, body: str, words: str, index: CatalogIndex) -> bool:
    """A question about a thing of her basket ("before I pay, is the ultrasonic thing safe with the cat?"): put as a
    question, naming a line, and read as a question by the reader (sure, or one the shop's documents are about)."""
    plain = normalize(body)
    if not (_asked(body, plain) and _names_a_line(frame, words, index)):
        return False
    # read without the shop's words: that it names a thing of hers is known, what she does with it is asked (sure of
    # it, or the shop's documents are about it); never its price, which is the basket's ("how much is the sugar?")
    if "amount" in kinds_asked(body):
        return False
    reading = message_reader().read(body)
    if reading.label not in ("product_question", "support_question"):
        return False
    return reading.confidence >= SURE or the_documents_answer(turn, body, index, covers=PASSAGE_COVERS)


def _names_a_line(frame: OrderFrame, words: str, index: CatalogIndex) -> bool:
    """Whether the words name a thing of the basket (among others: "is the ultrasonic one safe with the cat?")."""
    said = _things_named(words, index)
    return any(said & _line_terms(line, index) for line in frame.lines)


def _line_terms(line: FrameLine, index: CatalogIndex) -> set[str]:
    """The words that name a line: its item's name, brand, category and the shop's other names for it ("strat" of
    the Squier Sonic Stratocaster), and its options."""
    named = set(index.terms(line.name)) | index.names_of(line.item_id)
    return named | {t for v in line.variants for o in v.options for t in index.terms(o)}


def _clause_of_the_count(body: str) -> str | None:
    """Of a message of several clauses, the one clause that says a count; None when it is one clause or several
    count."""
    clauses = [c for c in _CLAUSE_END.split(body) if c.strip()]
    counted = [c for c in clauses if extract_quantity(normalize(c))[0] is not None]
    return counted[0] if len(clauses) > 1 and len(counted) == 1 else None


def _line_edited(frame: OrderFrame, words: str, index: CatalogIndex) -> int | None:
    """The one line of the basket the words name, when they name nothing else the shop sells."""
    said = _things_named(words, index)
    if not said or not frame.lines:
        return None
    terms = [_line_terms(line, index) for line in frame.lines]
    fits = [n for n, line_terms in enumerate(terms) if said <= line_terms]
    if len(fits) == 1:
        return fits[0]
    overlap = [len(said & line_terms) for line_terms in terms]
    best = max(overlap)
    return overlap.index(best) if best and overlap.count(best) == 1 and said <= set().union(*terms) else None


def _of_the_shortlist(query: str, shortlist: list[dict[str, Any]], terms: Callable[[str], list[str]]) -> bool:
    """Whether every word of ``query`` that names a thing is in the names of the shortlist on screen."""
    said = set(terms(query))
    named = {term for row in shortlist for term in terms(str(row.get("name", "")))}
    return bool(said) and said <= named


_OF_A_THING = re.compile(rf"(?<!\w)(?:{'|'.join(OF_WORDS)})\s+$")


def _place_in_a_things_name(place: str | None, tags: list[Span], plain: str, index: CatalogIndex) -> bool:
    """An area's name said as part of a thing's ("scrub ya kahawa": coffee; Kahawa is also an area), when no word of
    delivery was said ("niletee kahawa west" keeps the place): the tagger reads it inside an item or a service and
    never as a place, or its words are the shop's words for things and it follows a word that says "of" right after
    a thing ("scrub ya kahawa", "a scrub of coffee")."""
    if not place or extract_mode(plain)[0] == "delivery":
        return False
    said = normalize(place)
    words = set(said.split())
    spans = [(s.kind, normalize(s.text).split()) for s in tags]
    # inside a thing the catalog knows by its other words ("scrub ya kahawa"): a place read alone as an item is a place
    in_thing = any(
        kind in ("ITEM", "SERVICE") and words <= set(tagged) and catalog_evidence(_without(tagged, words), index)
        for kind, tagged in spans
    )
    if in_thing and not any(kind == "LOC" and words & set(tagged) for kind, tagged in spans):
        return True
    at = plain.find(said)
    before = plain[:at] if at > 0 else ""
    things = {t for t in index.terms(said) if t in index.product_terms}
    return bool(things) and bool(_OF_A_THING.search(before)) and bool(catalog_evidence(before, index))


def _without(said: list[str], words: set[str]) -> str:
    return " ".join(w for w in said if w not in words)


SHORT_ANSWER_WORDS = 5


def _an_option_asked(frame: OrderFrame, number: int) -> bool:
    """Whether ``number`` is one of the options of the question asked ("80, 120 or 240?")."""
    at = frame.asking_line
    missing = frame.lines[at].missing_variant() if at is not None and at < len(frame.lines) else None
    return missing is not None and any(str(number) in option.split() for option in missing.options)


OPTIONS_REFUSED_TO_LEAVE_OUT = 2  # options she names in a row that the item asked about lacks, before it leaves


def _only_other_options(body: str, index: CatalogIndex) -> bool:
    """A short answer naming only options of the shop's items ("ile nyeusi", "the XL"), none of the one asked."""
    words = product_query(body) or body
    return len(body.split()) <= SHORT_ANSWER_WORDS and index.only_options(option_words(words))


def _words_of_things(body: str, tags: list[Span], delta: FrameDelta) -> str:
    """The message without the words of where she is or collects: her address when a zone was read ("south c, off
    mugoya road": no road bike), the shop when she collects ("I'll collect at the school": no lesson at the school).
    A count said only in her address is none ("githurai 45, karibu na stage ya matatu": a minibus, not three)."""
    things = _without_address(body, tags, delta.place) if delta.zone is not None else body
    if (
        delta.quantity is not None
        and things != body
        and extract_delta(things, zones=[], enabled_methods=[]).quantity is None
    ):
        delta.quantity = None
    if delta.mode == "pickup":
        things = _COLLECT_AT.sub(lambda m: m.group(0)[: m.start(1) - m.start()] + " " * len(m.group(1)), things)
    return things


def _without_address(body: str, tags: list[Span], place: str | None = None) -> str:
    """The message without its address: the words the tagger reads as a place and the landmark said with it ("off
    mugoya road", "near yaya centre"), each blanked where it stands, and the place the zone was read from with the
    rest of its clause ("Buruburu phase 1": no 1 L tin in it)."""
    # the place's clause first: blanking the tagger's places first would hide the place it starts from
    if place and (at := body.casefold().find(place.casefold())) >= 0:
        end = _CLAUSE_END.search(body, at + len(place))
        # her clause ends too where a thing she wants begins ("kwa keja yangu Kayole 😤 nipe zile gel mbili": the gel)
        wished = [
            s.start for s in tags if s.kind == "ITEM" and s.act not in (HERS, "old") and s.start >= at + len(place)
        ]
        stop = min([end.start() if end else len(body), *wished])
        body = body[:at] + " " * (stop - at) + body[stop:]
    parts = list(_ADDRESS_PARTS.finditer(body))  # read before the places are blanked ("... ghorofa ya tatu": a floor)
    for span in sorted((s for s in tags if s.kind == "LOC"), key=lambda s: -s.start):
        body = body[: span.start] + " " * (span.end - span.start) + body[span.end :]
    for part in reversed(parts):
        body = body[: part.start()] + " " * (part.end() - part.start()) + body[part.end() :]
    return body


# a clause ends at a stop, a new line, an emoji (said as a stop: "Kayole 😤 nipe ...") or a word that joins two
_CLAUSE_END = re.compile(r"[,.;!?\n\u2600-\u27bf\U0001f300-\U0001faff]|\s(?:and|na|plus|pia)\s", re.I)


def without_old_places(body: str, tags: list[Span], places: Collection[str]) -> str:
    """The message without the place it replaces ("deliver to Juja, not Mwiki"): what is left names the new one. The
    tagger's reading is evidence: only a place of the shop's map is taken out, and only when another is said."""
    known = {normalize(p) for p in places}
    # a place said with the rest of its address ("Juja, Kalimoni road, hse 4") is still that place
    said = [s for s in tags if s.kind == "LOC" and any(f" {k} " in f" {normalize(s.text)} " for k in known)]
    old = [s for s in said if s.act == "old"]
    if not old or len(old) == len(said):
        return body
    for span in sorted(old, key=lambda s: -s.start):
        body = body[: span.start] + " " * (span.end - span.start) + body[span.end :]
    return body


def _apply_quantity(frame: OrderFrame, value: int, edit: str, line_index: int | None) -> None:
    if not frame.lines:
        return
    index = line_index if line_index is not None and line_index < len(frame.lines) else len(frame.lines) - 1
    line = frame.lines[index]
    if line.fixed_quantity:
        return
    new = (line.quantity or 0) + value if edit == "add" else value
    line.quantity = max(1, min(new, 1000))
    line.quantity_said = True


def _lines_named_alike(frame: OrderFrame, words: str, terms: Callable[[str], list[str]]) -> list[int]:
    """The lines the words name most, when several are named as much ("sukari" of two sugars)."""
    said = set(terms(words))
    overlap = [len(said & set(terms(ln.name))) for ln in frame.lines]
    best = max(overlap, default=0)
    return [n for n, count in enumerate(overlap) if count == best] if best else []


def _remove_line(frame: OrderFrame, words: str, terms: Callable[[str], list[str]]) -> str | None:
    said = set(terms(words))
    if not said and len(frame.lines) == 1:
        return None
    best = max(frame.lines, key=lambda ln: len(said & set(terms(ln.name))), default=None)
    if best is None or not said & set(terms(best.name)):
        return None
    frame.lines = [ln for ln in frame.lines if ln is not best]
    return best.name


def _read_pin(turn: Turn, delta: FrameDelta) -> str | None:
    """A location pin's zone (found on the shop's map, never guessed) and place (its name and address, and the
    coordinates for the rider) into the delta. Returns the pin's words when it falls in none of the zones."""
    pin = pin_of(turn.state.inbound)
    if pin is None:
        return None
    point, words = pin
    zone = zone_at(turn.ctx.services.tenants.get(turn.ctx.tenant_id).delivery_zones, point)
    if zone is None:
        return words or t(turn, "pin_place")
    delta.zone, delta.mode, delta.place = zone.name, "delivery", pin_place(point, words)
    return None


# a landmark said with an address ("near Yaya Centre", "off Mugoya Road", "karibu na Naivas")
_LANDMARK = re.compile(
    r"(?i)\b(?:near|opposite|next to|off|along|behind|karibu na|mkabala na|nyuma ya|mbele ya|uliza|ask for)"
    r"\s+([^,.;]{3,60})"
)


# the parts of an address besides its area: a landmark, or a street by its name ("othaya road", "moi avenue")
# a pickup verb and where she collects: "collect at the school", "pick them up from your shop", "nitachukua kwa duka"
_COLLECT_AT = re.compile(
    r"(?i)\b(?:collect\w*|pick\w*(?:\s+(?:it|them))?\s+up|\w*chuku[ae]|come\s+for\s+(?:it|them))\s+(?:(?:it|them)\s+)?"
    r"((?:at|from|kwa|pale|hapo|kwenye)\s+(?:(?:the|your|our|yenu|hiyo)\s+)?\w+)"
)
_ADDRESS_PARTS = re.compile(
    _LANDMARK.pattern.removeprefix("(?i)")
    + r"|\b\w+\s+(?:road|rd|street|st|avenue|ave|drive|lane|close|crescent|highway|bypass|estate|stage)\b"
    # the floor of a building ("ghorofa ya tatu", "third floor", "floor 3"): no count of anything
    + r"|\b(?:ghorofa|floor)\s+(?:ya\s+|la\s+|no\.?\s+)?\w+|\b\w+\s+floor\b",
    re.I,
)


def _place_words(body: str, delta: FrameDelta) -> str:
    """The address words: the place named, with the landmark the customer gave ("near Yaya Centre")."""
    landmark = _LANDMARK.search(body)
    place = delta.place or ""
    return (place + (f", {landmark.group(0).strip()}" if landmark else ""))[:300]


def _adopt_order(turn: Turn, frame: OrderFrame, ref: str) -> Command[Any] | None:
    """ "Pay for ORD-...": the customer's own order, if it can still be paid."""
    result = turn.tool("order_get_status", customer_id=turn.state.customer_id, order_ref=ref)
    if not result["ok"]:
        turn.say(text(t(turn, "order_not_found", ref=ref)))
        turn.set(frame=frame)
        return turn.goto(END)
    order = result["data"]["orders"][0]
    if order["payment_status"] == "paid" or order["status"] in ("paid", "fulfilled"):
        turn.say(text(t(turn, "stale_paid", ref=order["order_ref"])))
        turn.set(frame=frame)
        return turn.goto(END)
    if order["status"] == "cancelled":
        turn.say(text(t(turn, "stale_cancelled", ref=order["order_ref"])))
        turn.set(frame=frame)
        return turn.goto(END)
    frame.order = BuiltOrder(order_id=order["order_ref"], amount_due=order["amount_due"], fingerprint="", adopted=True)
    turn.set(
        frame=frame,
        order_id=order["order_ref"],
        order_totals={"total": order["total"], "amount_due": order["amount_due"]},
    )
    return None


# taps ------------------------------------------------------------------------------------------------
def tap(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["advance", "search", "start_payment", "__end__"]]:
    """A button or list row: its id says what it does and for which order."""
    turn = Turn(state, runtime, "tap")
    tap = parse_tap(state.inbound.get("reply_id"))
    if tap is None:  # sales_start routes only the sale's taps here
        return turn.goto(END)
    kind = tap.kind
    frame = frame_of(turn)
    if kind == "item":
        return _pick(turn, frame, tap.last, FrameDelta())
    if kind == "cat":
        turn.set(frame=frame, scratch=Scratch(query="", category=tap.last))
        return turn.goto("search")
    if kind in ("pay", "confirm"):
        ref, action = tap.parts
        stale = _stale(turn, frame, ref)
        if stale is not None:
            return stale
        if kind == "pay":
            frame.payment_method = action if action in ("mpesa_stk", "mpesa_c2b", "pesapal") else None  # type: ignore[assignment]
            frame.payment_started = None if frame.payment_started is None else frame.payment_started
            turn.set(frame=frame)
            return turn.goto("advance")
        if action == "yes":
            turn.set(frame=frame)
            return turn.goto("start_payment")
        if action == "other":
            turn.say(text(t(turn, "ask_mpesa_number")))
            ask_sale(turn, frame, "mpesa_number", [])
            return turn.goto(END)
        turn.say(text(t(turn, "payment_cancelled_ok", ref=frame.order.order_id if frame.order else ref)))
        frame.payment_method = None
        ask_sale(turn, frame, None, [])
        return turn.goto(END)
    if not frame.lines:
        turn.say(text(t(turn, "no_open_sale")))
        settle_sale_question(turn)
        return turn.goto(END)
    if frame.payment_started is not None and frame.order is not None:
        turn.say(text(t(turn, "edit_refused", ref=frame.order.order_id)))
        return turn.goto(END)
    if kind == "var":
        item_id, dimension, option = tap.parts
        fits = [
            i
            for i, ln in enumerate(frame.lines)
            if ln.item_id == item_id and any(v.name == dimension and option in v.options for v in ln.variants)
        ]
        # two lines of one item: the option goes to the line asked about, else to one still without it
        open_ones = [i for i in fits if dimension not in frame.lines[i].variant_selection]
        chosen = frame.asking_line if frame.asking_line in open_ones else next(iter(open_ones or fits), None)
        if chosen is not None:
            frame.lines[chosen].choose(dimension, option)
    elif kind == "drop":
        return _drop_line(turn, frame, int(tap.last) if tap.last.isdigit() else -1)
    elif kind == "qty":
        item_id, amount = tap.parts
        of_item = [i for i, ln in enumerate(frame.lines) if ln.item_id == item_id]
        uncounted = [i for i in of_item if frame.lines[i].quantity is None]
        index = frame.asking_line if frame.asking_line in of_item else next(iter(uncounted or of_item), None)
        if amount == "other":
            turn.say(text(t(turn, "ask_quantity_number")))
            ask_sale(turn, frame, "quantity", [], index)
            return turn.goto(END)
        if amount.isdigit() and index is not None:
            _apply_quantity(frame, int(amount), "set", index)
    elif kind == "mode":
        mode = tap.last
        frame.fulfilment = Fulfilment(mode=mode) if mode in ("delivery", "pickup") else frame.fulfilment
    elif kind == "zone":
        frame.fulfilment = Fulfilment(mode="delivery", zone=tap.last, place=tap.last)
    turn.set(frame=frame)
    return turn.goto("advance")


def _stale(turn: Turn, frame: OrderFrame, ref: str) -> Command[Any] | None:
    """A payment button of an order that is no longer the one to pay: say what happened to it."""
    current = frame.order.order_id if frame.order else None
    if ref and ref == current and frame.payment_started is None:
        return None
    if not ref and current and frame.payment_started is None:
        return None  # an id without a reference (older buttons): the open order
    if ref and ref != current:
        result = turn.tool("order_get_status", customer_id=turn.state.customer_id, order_ref=ref)
        order = result["data"]["orders"][0] if result["ok"] else None
        if order is not None and (order["payment_status"] == "paid" or order["status"] in ("paid", "fulfilled")):
            turn.say(text(t(turn, "stale_paid", ref=ref)))
        elif order is not None and order["status"] == "cancelled" and current:
            turn.say(text(t(turn, "stale_replaced", ref=ref, current=current)))
        elif order is not None and order["status"] == "cancelled":
            turn.say(text(t(turn, "stale_cancelled", ref=ref)))
        elif order is not None and current is None:
            frame.order = BuiltOrder(order_id=ref, amount_due=order["amount_due"], fingerprint="", adopted=True)
            turn.set(
                frame=frame, order_id=ref, order_totals={"total": order["total"], "amount_due": order["amount_due"]}
            )
            return None
        elif order is not None:
            turn.say(text(t(turn, "stale_replaced", ref=ref, current=current)))
        else:
            turn.say(text(t(turn, "order_not_found", ref=ref)))
        if frame.open and frame.asking:
            _remind(turn, frame)
        return turn.goto(END)
    if frame.payment_started is not None and frame.order is not None:
        # the prompt or steps were already given: tell the truth about the payment instead of starting another
        payment_help(turn)
        return turn.goto(END)
    turn.say(text(t(turn, "no_open_order")))
    settle_sale_question(turn)
    return turn.goto(END)


# search and selection ----------------------------------------------------------------------------------
def search(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["advance", "__end__"]]:
    """sales_narrow_query + catalog_search: one clear match goes straight to the item; otherwise a
    shortlist of at most six (catalog_present_options), or one clarifying question."""
    turn = Turn(state, runtime, "search")
    work = state.scratch
    frame = frame_of(turn)
    category = work.get("category")
    query = str(work.get("query") or "")
    slots = dict(work.get("slots") or {})
    model_query = None
    if not category and not query:  # a vague wish: the model may narrow it or ask one question
        narrowing = (
            turn.ctx.engine.narrow(inbound_text(state), context=prompt_context(turn))
            if "menu" not in state.understanding
            else None
        )
        if narrowing is not None:
            turn.trace.extend(narrowing.calls)
            out = narrowing.value
            if out is not None and out.action == "search" and out.query:
                model_query = out.query
                slots = {"budget_max": out.filters.max_price, "budget_min": out.filters.min_price} | {
                    k: v for k, v in slots.items() if v
                }
            elif out is not None and out.action == "clarify" and not query and not slots.get("asked_for_everything"):
                question = (out.question or "").strip()
                if question and len(question) <= 300 and not unsupported_facts(question):
                    turn.trace.append(
                        {"kind": "step", "node": "sales_narrow_query", "action": "clarify", "by": "model"}
                    )
                    turn.say(text(question))
                    ask_sale(turn, frame, None, [])
                    turn.set(clarification_loops=state.clarification_loops + 1, clarified_once=True)
                    return turn.goto(END)
        if not (model_query or query) and not slots.get("asked_for_everything"):
            _ask_category(turn, frame)
            return turn.goto(END)
    found = _search(
        turn,
        frame,
        query or model_query or "",  # the customer's own words name the item; the model's query helps when they don't
        slots,
        category=category,
        fallback_query=model_query if query and model_query and model_query != query else None,
    )
    if found is None:
        return turn.goto(END)
    return _pick(turn, frame, found["item_id"], FrameDelta(), item=found)


def _ask_category(turn: Turn, frame: OrderFrame) -> None:
    shown = [c.title() for c in shop_index(turn).categories][:10]
    turn.trace.append({"kind": "step", "node": "sales_narrow_query", "action": "clarify"})
    turn.say(
        listing(t(turn, "ask_what"), [(tap_id("cat", c), c, None) for c in shown], button=t(turn, "shortlist_button"))
    )
    ask_sale(turn, frame, "category", [{"id": tap_id("cat", c), "title": c} for c in shown])
    turn.set(clarification_loops=turn.state.clarification_loops + 1, clarified_once=True)


def _search(
    turn: Turn,
    frame: OrderFrame,
    query: str,
    slots: dict[str, Any],
    *,
    category: str | None = None,
    fallback_query: str | None = None,
) -> dict[str, Any] | None:
    """Search, and either return the one item named or show the shortlist (returns None)."""
    s = turn.state
    filters: dict[str, Any] = {}  # in stock or not: an item asked for by name that is sold out is said so
    if slots.get("budget_max"):
        filters["max_price"] = slots["budget_max"]
    if slots.get("budget_min"):
        filters["min_price"] = slots["budget_min"]
    if category:
        filters["category"] = category
    turn.trace.append({"kind": "step", "node": "sales_narrow_query", "action": "search", "query": query})
    result = turn.tool("catalog_search", query=query, filters=filters, limit=10)  # room for sold-out ones
    if result["ok"] and _goods_first_at_an_appointment(turn, result["data"]["results"], category):
        # "can Kevin replace it tuesday around 10am?" of her own laptop: the services he does, before any goods
        booked = turn.tool("catalog_search", query=query, filters={**filters, "type": "service"}, limit=10)
        if booked["ok"] and booked["data"]["results"]:
            result = booked
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        turn.set(frame=frame)
        return None
    data = result["data"]
    if not data["results"] and fallback_query:
        return _search(turn, frame, fallback_query, slots, category=category)
    index = shop_index(turn)
    named = one_clear_match(query, data["results"], index.terms, index.names_of) if query and not category else None
    results = [r for r in data["results"] if r["in_stock"]][:MAX_SHORTLIST_ITEMS]
    if named is not None and named["in_stock"]:
        turn.trace.append({"kind": "step", "node": "catalog_present_options", "shown": 1, "named": named["item_id"]})
        return dict(named)
    services = [r for r in results if r["type"] == "service"]
    if services and len(services) < len(results) and _appointment_said(turn):
        # "nataka kupima sukari na Njeri jumamosi saa tisa": a person of the shop or a day and a time is said, so
        # of the goods and the services the words fit, the services (the one: its times with that person next)
        if len(services) == 1:
            turn.trace.append(
                {"kind": "step", "node": "catalog_present_options", "shown": 1, "only": services[0]["item_id"]}
            )
            return dict(services[0])
        results = services
    if query and len(data["results"]) == 1 and results and results[0]["type"] == "service":
        # the one service the words find ("a manicure"): its free times next, not a list of one
        turn.trace.append(
            {"kind": "step", "node": "catalog_present_options", "shown": 1, "only": results[0]["item_id"]}
        )
        return dict(results[0])
    if named is not None:  # sold out: the in-stock alternatives are its own kind (its brand first), not its cases
        alternatives: list[dict[str, Any]] = []
        for words in (named.get("brand") or "", ""):
            same_kind = {**filters, "category": named["category"], "in_stock_only": True}
            found = turn.tool("catalog_search", query=words, filters=same_kind, limit=MAX_SHORTLIST_ITEMS)
            alternatives = found["data"]["results"] if found["ok"] else []
            if alternatives:
                break
        results = alternatives
        data = {**data, "total_matches_estimate": len(alternatives)}
    if not results:
        if data["results"]:
            turn.say(text(t(turn, "out_of_stock", name=(named or data["results"][0])["name"])))
        else:
            turn.say(text(t(turn, "no_results", query=echo_words(query or category or ""))))
        if data.get("catalog_link"):
            turn.say(text(t(turn, "catalog_link", link=data["catalog_link"])))
        ask_sale(turn, frame, None, [])
        return None
    if named is not None:  # asked for by name and sold out: said so, with what is in stock
        turn.say(text(t(turn, "out_of_stock_instead", name=named["name"])))
        frame.sold_out = named["name"][:300]
    rejected = s.rejected_shortlists + (1 if s.pending == "item_selection" else 0)
    rows = []
    for item in results:
        detail = money(item["price"])
        if item["low_stock"]:
            detail += t(turn, "in_stock_few", n=item["stock"])
        rows.append((tap_id("item", item["item_id"]), item["name"], detail))
    n = len(rows)
    turn.trace.append(
        {"kind": "step", "node": "catalog_present_options", "shown": n, "total": data["total_matches_estimate"]}
    )
    turn.say(
        listing(
            t(
                turn,
                "shortlist",
                more=t(turn, "shortlist_more", n=n, total=data["total_matches_estimate"])
                if data["total_matches_estimate"] > n
                else "",
            ),
            rows,
            button=t(turn, "shortlist_button"),
            footer=t(turn, "shortlist_footer" if n > 1 else "shortlist_footer_one", n=n),
        )
    )
    if should_show_catalog_link(
        has_link=bool(data.get("catalog_link")),
        total_matches=data["total_matches_estimate"],
        clarifications_asked=1 if s.last_catalog_query else 0,
        asked_for_everything=bool(slots.get("asked_for_everything")),
        search_confidence=data["confidence"],
        rejected_shortlists=rejected,
    ):
        turn.say(text(t(turn, "catalog_link", link=data["catalog_link"])))
    turn.set(
        last_catalog_query=query,
        last_catalog_filters=filters,
        catalog_total_matches_estimate=data["total_matches_estimate"],
        last_catalog_results=[
            {
                **{k: r[k] for k in ("item_id", "name", "price", "in_stock", "type")},
                "options": [o for v in r["variants"] for o in v["options"]][:30],  # "the blue one"
            }
            for r in results
        ],
        rejected_shortlists=rejected,
    )
    ask_sale(turn, frame, "item_selection", [{"id": tap_id("item", r["item_id"]), "title": r["name"]} for r in results])
    return None


def _drop_line(turn: Turn, frame: OrderFrame, index: int) -> Command[Any]:
    """The line she said, of several of one item, taken out; then the sale goes on (the other things she listed)."""
    if 0 <= index < len(frame.lines):
        gone = frame.lines[index]
        frame.lines = [ln for n, ln in enumerate(frame.lines) if n != index]
        turn.say(text(t(turn, "line_removed", name=gone.name)))
    ask_sale(turn, frame, None, [])
    turn.set(frame=frame, scratch=Scratch(echo=True))
    return turn.goto("advance")


def _line_taken_out(
    frame: OrderFrame, tags: list[Span], index: CatalogIndex, plain: str, asked: bool = False
) -> int | None:
    """The line of the basket the token tagger reads taken out: one thing taken out, which names exactly one line,
    in a message that says so or asks nothing (``asked``: a question the reader reads, with its question mark)."""
    out = [span for span in tags if span.kind == "ITEM" and span.act == "remove"]
    if len(out) != 1 or any(span.kind == "ITEM" and span.act != "remove" for span in tags):
        return None
    if (index.only_options(option_words(out[0].text)) or asked) and not says_removal(plain):
        # "the 20 litre" answering "which size?": an option of the line, chosen, not the line taken out; "can I swap
        # the suit for a bigger size?": a question about the line, answered
        return None
    items = set(index.full_matches(out[0].text)[0])  # the shop's things its words name (names, tags, options)
    named = [n for n, line in enumerate(frame.lines) if line.item_id in items]
    return named[0] if len(named) == 1 else None


def _a_service_listed(listed: list[basket_words.ItemSaid], tags: list[Span], index: CatalogIndex) -> bool:
    """Whether a service is among the things listed: the tagger reads one, or the first part's words fit only services
    the shop books ("usafi wa nyumba": house cleaning), the catalog the proof where the tagger missed it."""
    if any(span.kind == "SERVICE" for span in tags):
        return True
    fits = set(index.full_matches(basket_words.item_words(listed[0].text))[0])
    kinds = {doc.type for doc in index.docs if doc.item_id in fits}
    return kinds == {"service"}


def _goods_first_at_an_appointment(turn: Turn, results: list[dict[str, Any]], category: str | None) -> bool:
    """Whether goods lead the results of a wish said with one of the people who take the shop's appointments."""
    leading = results[0] if results else None
    return not category and leading is not None and leading.get("type") != "service" and _a_person_named(turn)


def _a_service_fits(listed: list[basket_words.ItemSaid], index: CatalogIndex) -> bool:
    """Whether a word of one of the things listed names one of the services the shop books ("now the screen is
    cracked, half of it is black": the screen replacement)."""
    services = {doc.item_id for doc in index.docs if doc.type == "service"}
    words = {w for item in listed for w in basket_words.item_words(item.text).split()}
    return any(set(index.full_matches(word)[0]) & services for word in words)


def _a_person_named(turn: Turn) -> bool:
    """Whether the message names one of the people who take the shop's appointments."""
    people = [(m.id, m.name) for m in shop_of(turn).booking_settings().people()]
    return staff_named(inbound_text(turn.state), people) is not None


def _appointment_said(turn: Turn) -> bool:
    """Whether the message names a person who takes the shop's appointments, or a day and a time, at a shop that
    books: what is wished is a service, not goods."""
    if not shop_index(turn).books:
        return False
    if _a_person_named(turn):
        return True
    when = read_when(inbound_text(turn.state), turn.ctx.services.clock())
    return bool(when.days) and (when.at is not None or when.earliest is not None)


def _chosen_option(turn: Turn, body: str, choice: int | None) -> dict[str, Any] | None:
    """The shortlist option picked by number or by name."""
    options = turn.state.pending_options
    if choice is not None:
        return options[choice - 1] if 1 <= choice <= len(options) else None
    plain = normalize(body)
    if not plain or not options:
        return None
    titles = [normalize(o["title"]) for o in options]
    exact = [o for o, title in zip(options, titles, strict=True) if title == plain]
    if exact:
        return exact[0]
    named = shop_index(turn).named_exactly(body)
    if named is not None and all(str(o["id"]).split(":", 1)[-1] != named for o in options):
        return None  # the whole name of another of the shop's things ("Home Measurement Visit"): that one, searched
    best = process.extractOne(plain, titles, scorer=fuzz.WRatio, score_cutoff=86)
    if best:
        return options[best[2]]
    if turn.state.pending != "item_selection":
        return None
    prices = {r["item_id"]: r["price"] for r in turn.state.last_catalog_results}
    return shortlist_reference(plain, options, prices, shop_index(turn).terms)


def _rows_fitting(turn: Turn, body: str) -> tuple[str, list[dict[str, Any]]] | None:
    """The option or name word a short reference names ("the blue one", "hiyo ya oraimo") and the
    shortlist rows it fits: the rows that offer it as an option (a colour), else, for a reference
    ("hiyo", "the ... one"), the rows whose names or options have it."""
    plain = normalize(body)
    words = [w for w in plain.split() if w not in _REFERENCE_FILLER]
    if not words or len(plain.split()) > 4:
        return None
    index = shop_index(turn)
    said = set(index.terms(" ".join(words)))
    if not said:
        return None
    rows = turn.state.last_catalog_results
    pointing = len(words) < len(plain.split())  # "hiyo", "the ... one": a reference, not a new wish
    fitting = [r for r in rows if said <= _option_terms(index, r)] or [
        r for r in rows if pointing and said <= set(index.terms(r["name"])) | _option_terms(index, r)
    ]
    if not fitting:
        return None
    option = next((o for r in fitting for o in r.get("options", []) if set(index.terms(o)) == said), None)
    return (option or " ".join(words)), fitting


def _option_terms(index: CatalogIndex, row: dict[str, Any]) -> set[str]:
    return {term for option in row.get("options", []) for term in index.terms(option)}


_ORDINALS = {
    "first": 1, "1st": 1, "kwanza": 1, "second": 2, "2nd": 2, "pili": 2, "third": 3, "3rd": 3, "tatu": 3,
    "fourth": 4, "4th": 4, "nne": 4, "fifth": 5, "5th": 5, "tano": 5, "sixth": 6, "6th": 6, "sita": 6,
}  # fmt: skip
_LAST = ("last", "last one", "mwisho", "ya mwisho")
_CHEAPER = (
    "cheaper",
    "cheapest",
    "cheap one",
    "rahisi",
    "bei ya chini",
    "less expensive",
    "lowest price",
    "affordable",
)
_DEARER = ("most expensive", "more expensive", "expensive one", "ghali", "ya bei ya juu", "priciest", "the best one")
_REFERENCE_FILLER = frozenset("the one hiyo hii ile ya la za that this nipe give me i want nataka take chukua".split())


def shortlist_reference(
    plain: str, options: list[dict[str, Any]], prices: dict[str, int], terms: Callable[[str], list[str]]
) -> dict[str, Any] | None:
    """The shortlist row a customer points at: "the second one", "ya pili", "the last one", "the
    cheaper one", "hiyo ya oraimo", "the black one" (a word that only one row's name has; options
    such as colours are _rows_fitting's)."""
    words = plain.split()
    if any_phrase(plain, _LAST) and len(words) <= 4:
        return options[-1]
    for said_word in words:
        if said_word in _ORDINALS and len(words) <= 5 and _ORDINALS[said_word] <= len(options):
            return options[_ORDINALS[said_word] - 1]
    priced = [o for o in options if o["id"].split(":", 1)[1] in prices]
    if priced and (any_phrase(plain, _CHEAPER) or CHEAP in terms(plain)):  # the shop words of cheap: "bei poa"
        return min(priced, key=lambda o: prices[o["id"].split(":", 1)[1]])
    if priced and any_phrase(plain, _DEARER):
        return max(priced, key=lambda o: prices[o["id"].split(":", 1)[1]])
    said = set(terms(" ".join(w for w in words if w not in _REFERENCE_FILLER)))
    if not said:
        return None
    overlap = [len(said & set(terms(o["title"]))) for o in options]
    most = max(overlap)
    return options[overlap.index(most)] if most and overlap.count(most) == 1 else None


def _wish_named_again(turn: Turn, before: str | None, message: str) -> str:
    """Her words for the thing searched. At a shop that books, naming the service instead of a row of the list keeps
    the day, the time, the person and the place she asked for before ("nataka Akinyi aje jumatano saa tatu" then
    "Tank and Pump Hook-up"), unless she says others."""
    if not before or turn.state.pending != "item_selection" or not shop_index(turn).books:
        return message
    clock = turn.ctx.services.clock()
    kept = []
    if (earlier := read_when(before, clock)).said and not read_when(message, clock).said:
        kept.append(when_words(before, earlier))
    people = [(m.id, m.name) for m in shop_of(turn).booking_settings().people()]
    if (person := staff_named(before, people)) is not None and staff_named(message, people) is None:
        kept += [name for staff_id, name in people if staff_id == person]
    zones = shop_options(turn).zones
    if (place := extract_zone(normalize(before), zones)[1]) and extract_zone(normalize(message), zones)[0] is None:
        kept.append(place)
    return " ".join([*kept, message])


def _pick(
    turn: Turn, frame: OrderFrame, item_id: str, delta: FrameDelta, *, item: dict[str, Any] | None = None
) -> Command[Any]:
    """catalog_get_item for the item picked; it becomes a line of the frame (or the line, for a new sale)."""
    result = turn.tool("catalog_get_item", item_id=item_id)
    turn.trace.append({"kind": "step", "node": "catalog_get_item", "item_id": item_id})
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error") if result["error"]["code"] != "not_found" else t(turn, "item_gone")))
        turn.set(frame=frame)
        return turn.goto(END)
    got = result["data"]
    if got["type"] == "service" and got.get("duration_minutes"):  # time is booked, not sold
        # a row tapped says only the service's title (cut short: "Fumigation (bedbugs & c…"), never her options
        typed = inbound_text(turn.state)
        message = "" if turn.state.inbound.get("reply_id") or detect_choice(typed) is not None else typed
        words = f"{frame.wish or ''} {message}".strip() if frame.wish != message else message
        return begin_booking(turn, got, words)
    if not got["in_stock"]:
        turn.say(text(t(turn, "out_of_stock", name=got["name"])))
        ask_sale(turn, frame, None, [])
        return turn.goto(END)
    _show_picture(turn, got)
    said_now = delta.quantity is not None and delta.quantity.edit == "set"
    quantity = delta.quantity.value if delta.quantity and said_now else frame.quantity_hint
    # "2 kg of wire nails" of "Wire Nails 1kg": two packs; "gauge 30 box profile": no count
    words = inbound_text(turn.state) if said_now or not frame.wish else frame.wish
    line = line_from_item(got, count_for(got, quantity, normalize(words)))
    # a row tapped says only the item's title ("Men's Kitenge Shirt": no size S in it), never her options
    body = "" if turn.state.inbound.get("reply_id") else normalize(inbound_text(turn.state))
    own_words = " ".join([line.name, *(got.get("tags") or [])])  # "waridi nyekundu": the shop's word for a rose, red
    for variant in line.variants:  # "the blue one, 256GB" said with the choice, or in the wish before it
        said = named_option(body, variant.options, own_words) or named_option(
            frame.wish or "", variant.options, own_words
        )
        if said is not None:
            line.choose(variant.name, said)
    if frame.payment_started is not None:  # a new sale: the order being paid is left as it is
        frame = OrderFrame(
            fulfilment=frame.fulfilment, payment_method=frame.payment_method, payer_phone=frame.payer_phone,
            coupon_code=frame.coupon_code,
        )  # fmt: skip
    existing = next((ln for ln in frame.lines if ln.item_id == line.item_id), None)
    added = bool(frame.lines)  # a line joins a basket (never replaces it): the whole basket is said back
    if existing is not None and frame.adding and (delta.add or not said_now):  # "also add 2 sugar": two more
        existing.quantity = (existing.quantity or 1) + (line.quantity or 1)
    elif existing is not None:  # a line of her basket picked again: the same line, its count as said now
        if said_now:
            existing.quantity, existing.quantity_said = line.quantity, True
    else:
        frame.lines = [*frame.lines, line][:MAX_CART_LINES]
    frame.quantity_hint, frame.adding, frame.wish, frame.sold_out = None, False, None, None
    if delta.mode:
        frame.fulfilment = Fulfilment(mode=delta.mode, zone=delta.zone, place=delta.place)
    shown = existing or line
    if shown.missing_variant() is None and (shown.quantity is not None or shown.fixed_quantity) and not added:
        # otherwise the next question (or the basket) names it; a count she said is said back ("96 x" of "vipande 8 vya
        # futi 12": what she will pay for)
        many = shown.quantity is not None and shown.quantity > 1
        turn.say(text(f"{shown.quantity} x {named_back(shown)}" if many else named_back(shown)))
    turn.set(
        frame=frame,
        selected_item_ids=[ln.item_id for ln in frame.lines],
        rejected_shortlists=0,
        scratch=Scratch(echo=True) if added and not frame.waiting else Scratch(),
    )
    return turn.goto("advance")


def _show_picture(turn: Turn, item: dict[str, Any]) -> None:
    """The item card's picture, when the shop has one: once per item in a chat (never a flood), its caption the
    item's name and price from the catalog tool."""
    shown = turn.state.pictures_shown
    if not item.get("image_url") or item["item_id"] in shown:
        return
    turn.say(picture(str(item["image_url"]), f"{item['name']} - {money(int(item['price']))}"))
    turn.set(pictures_shown=[*shown, str(item["item_id"])][-MAX_PICTURES_REMEMBERED:])


MAX_PICTURES_REMEMBERED = 50


# the next question -------------------------------------------------------------------------------------
def advance(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[AdvanceTarget]:
    """product_disambiguate: ask only for the first slot still missing, or go on to the order and payment."""
    turn = Turn(state, runtime, "advance")
    frame = frame_of(turn)
    shop = shop_options(turn)
    for refused in settle(frame, shop):
        if refused == "pickup":
            turn.say(text(t(turn, "pickup_not_offered")))
        elif refused == "delivery":
            turn.say(text(t(turn, "delivery_not_offered", address=shop.pickup_address or "")))
        elif refused == "method":
            turn.say(text(t(turn, "method_not_offered", method="")))
    step = next_step(frame, can_prompt_phone=can_prompt(state.phone_e164))
    turn.trace.append({"kind": "step", "node": "advance", "next": step})
    if state.scratch.get("echo"):  # a line changed: the basket said back (an order built says it itself)
        if step not in ("build_order", "take_items") and frame.lines:
            turn.say(text(basket_text(turn, frame)))
        turn.set(scratch=Scratch())
    turn.set(frame=frame)
    if step == "payment_started":
        return turn.goto(END)
    return turn.goto(step)


def ask_item(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "ask_item")
    _ask_category(turn, frame_of(turn))
    return turn.goto(END)


def _line_index(frame: OrderFrame, want: str) -> int:
    for i, line in enumerate(frame.lines):
        if (want == "variant" and line.missing_variant() is not None) or (want == "quantity" and line.quantity is None):
            return i
    return 0


def ask_variant(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "ask_variant")
    frame = frame_of(turn)
    _say_variant_question(turn, frame)
    return turn.goto(END)


def _say_variant_question(turn: Turn, frame: OrderFrame, *, reminder: bool = False) -> None:
    index = _line_index(frame, "variant")
    line = frame.lines[index]
    variant = line.missing_variant()
    assert variant is not None
    options = [
        (tap_id("var", line.item_id, variant.name, o), o, variant_title(o, variant.price_deltas))
        for o in variant.options
    ]
    lead = t(turn, "resume_sale") + "\n" if reminder else ""
    body = lead + f"{named_back(line)}\n" + t(turn, "ask_variant", dimension=variant.name)
    for other in line.variants:  # the other choices still open can be given in the same reply
        if other.name != variant.name and other.name not in line.variant_selection:
            listed = ", ".join(variant_title(o, other.price_deltas) for o in other.options)
            body += "\n" + t(turn, "variant_also", dimension=other.name, options=listed)
    priced = any(variant.price_deltas.get(o) for o in variant.options)
    asked = say_option_question(turn, body, options, button=variant.name, priced=priced)
    ask_sale(turn, frame, "variant", asked, index)


def ask_quantity(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "ask_quantity")
    _say_quantity_question(turn, frame_of(turn))
    return turn.goto(END)


def _say_quantity_question(turn: Turn, frame: OrderFrame, *, reminder: bool = False) -> None:
    index = _line_index(frame, "quantity")
    line = frame.lines[index]
    options = [(tap_id("qty", line.item_id, str(n)), str(n), None) for n in (1, 2, 3)]
    options.append((tap_id("qty", line.item_id, "other"), t(turn, "qty_other"), None))
    lead = t(turn, "resume_sale") + "\n" if reminder else ""
    turn.say(listing(lead + f"{named_back(line)}\n" + t(turn, "ask_quantity"), options, button=t(turn, "qty_button")))
    ask_sale(turn, frame, "quantity", [{"id": i, "title": title} for i, title, _ in options], index)


def ask_fulfilment(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "ask_fulfilment")
    _say_fulfilment_question(turn, frame_of(turn))
    return turn.goto(END)


def _say_fulfilment_question(turn: Turn, frame: OrderFrame, *, reminder: bool = False) -> None:
    shop = shop_options(turn)
    options = [{"id": tap_id("mode", m), "title": t(turn, m)} for m in shop.modes]
    lead = t(turn, "resume_sale") + "\n" if reminder else ""
    turn.say(buttons(lead + t(turn, "ask_delivery_mode"), [(o["id"], o["title"]) for o in options]))
    ask_sale(turn, frame, "fulfilment", options)


def ask_zone(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "ask_zone")
    _say_zone_question(turn, frame_of(turn))
    return turn.goto(END)


def _say_zone_question(turn: Turn, frame: OrderFrame, *, reminder: bool = False) -> None:
    tenant = turn.ctx.services.tenants.get(turn.ctx.tenant_id)
    rows = [
        (tap_id("zone", z.name), z.name, f"{money(z.fee)}, {tenant.text(z.eta, turn.text_lang)}")
        for z in tenant.delivery_zones
    ][:10]
    lead = t(turn, "resume_sale") + "\n" if reminder else ""
    turn.say(listing(lead + t(turn, "ask_address"), rows, button=t(turn, "delivery")))
    ask_sale(turn, frame, "zone", [{"id": r[0], "title": r[1]} for r in rows])


def build_order(
    state: ConversationState, runtime: Runtime[EngineContext]
) -> Command[Literal["advance", "ask_quantity", "ask_zone", "__end__"]]:
    """order_create from the frame (again after an edit: the earlier draft is replaced), the coupon
    applied, the summary shown with a real offer's hint."""
    turn = Turn(state, runtime, "build_order")
    frame = frame_of(turn)
    s = state
    args: dict[str, Any] = {
        "customer_id": s.customer_id,
        "items": [
            {
                "item_id": line.item_id,
                "quantity": line.quantity or 1,
                **({"variant_selection": line.variant_selection} if line.variant_selection else {}),
            }
            for line in frame.lines
        ],
    }
    f = frame.fulfilment
    if frame.has_products and f.mode:
        args["delivery"] = {"mode": f.mode, **({"address_text": f.place or f.zone} if f.mode == "delivery" else {})}
        if f.mode == "delivery" and f.zone and f.place and f.zone.casefold() not in f.place.casefold():
            args["delivery"]["location_hint"] = f.zone
    result = turn.tool("order_create", **args)
    if not result["ok"]:
        error = result["error"]
        if error["code"] == "out_of_stock":
            details = error.get("details") or {}
            index = next((i for i, ln in enumerate(frame.lines) if ln.item_id == details.get("item_id")), 0)
            line = frame.lines[index]
            if details.get("available"):
                turn.say(text(t(turn, "only_n_left", name=line.name, n=details["available"])))
                line.quantity = None
                turn.set(frame=frame)
                return turn.goto("ask_quantity")
            turn.say(text(t(turn, "out_of_stock", name=line.name)))
            frame.lines = [ln for i, ln in enumerate(frame.lines) if i != index]
        elif error.get("field") == "delivery.mode":
            turn.say(text(t(turn, "pickup_not_offered")))
            frame.fulfilment = Fulfilment()
            turn.set(frame=frame)
            return turn.goto("advance")
        else:
            turn.say(text(t(turn, "tool_error")))
        ask_sale(turn, frame, None, [])
        return turn.goto(END)
    order = result["data"]
    missing = {m["field"] for m in order["next_required_fields"]}
    if "delivery.zone" in missing or "delivery.address_text" in missing:
        frame.fulfilment = Fulfilment(mode="delivery")
        turn.say(text(t(turn, "zone_not_served", place=echo_words(f.place or ""))))
        turn.set(frame=frame)
        return turn.goto("ask_zone")
    replaced = frame.order.order_id if frame.order and not frame.order.adopted else None
    if replaced and replaced != order["order_id"]:
        # the edited order replaces the draft, which can no longer be paid (if it was paid or cancelled
        # meanwhile, the money path decides, not the edit)
        with contextlib.suppress(StateConflict):
            turn.ctx.services.orders.transition(
                turn.ctx.tenant_id, replaced, to="cancelled", now=turn.ctx.services.clock()
            )
        turn.trace.append({"kind": "step", "node": "build_order", "replaced": replaced})
    frame.order = BuiltOrder(
        order_id=order["order_id"], amount_due=order["amount_due"], fingerprint=frame.fingerprint()
    )
    turn.set(order_id=order["order_id"], order_totals={**order["totals"], "amount_due": order["amount_due"]})
    turn.trace.append({"kind": "step", "node": "order_create", "order_ref": order["order_ref"]})
    if frame.coupon_code and frame.coupon_code != frame.coupon_refused:
        order = _apply_coupon(turn, frame, order)
    if replaced:
        turn.say(text(t(turn, "order_updated", old=replaced)))
    turn.say(text(order_summary(turn, order)))
    unasked_offers_allowed = may_market(
        s.marketing_opt_in,
        bool(s.notification_prefs.get("offers_whatsapp", False)),
        requires_opt_in=bool(s.compliance.get("marketing_requires_opt_in", True)),
    )
    if not order.get("offer") and not frame.coupon_code and unasked_offers_allowed:
        offers = turn.tool("offers_get_applicable", customer_id=s.customer_id, order_id=order["order_id"])
        if offers["ok"]:
            usable = [o for o in offers["data"]["offers"] if o["eligible"] and o["code"]]
            if usable:
                turn.say(text(t(turn, "offer_hint", code=usable[0]["code"], title=usable[0]["title"])))
    turn.set(frame=frame)
    return turn.goto("advance")


def apply_coupon(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["advance"]]:
    """order_apply_coupon for a code said after the order was made; the new totals shown."""
    turn = Turn(state, runtime, "apply_coupon")
    frame = frame_of(turn)
    assert frame.order is not None
    order = _apply_coupon(turn, frame, {"order_id": frame.order.order_id})
    if frame.coupon_refused != frame.coupon_code:
        turn.say(
            text(
                t(
                    turn,
                    "coupon_applied",
                    code=frame.coupon_code,
                    ref=order["order_ref"],
                    discount=money(order["totals"]["discount"]),
                    total=money(order["totals"]["total"]),
                )
            )
        )
        turn.say(text(order_summary(turn, order)))
    turn.set(frame=frame)
    return turn.goto("advance")


def _apply_coupon(turn: Turn, frame: OrderFrame, order: dict[str, Any]) -> dict[str, Any]:
    code = frame.coupon_code or ""
    applied = turn.tool(
        "order_apply_coupon", customer_id=turn.state.customer_id, order_id=order["order_id"], coupon_code=code
    )
    if applied["ok"]:
        order = applied["data"]
        assert frame.order is not None
        frame.order = frame.order.model_copy(update={"amount_due": order["amount_due"], "coupon_code": code})
        turn.set(order_totals={**order["totals"], "amount_due": order["amount_due"]})
    else:
        frame.coupon_refused = code
        reason = applied["error"].get("reason", "unknown_code")
        turn.say(text(t(turn, "coupon_rejected", code=code, reason=word(COUPON_REASONS, reason, turn.lang))))
    return order


# payments: outcomes and questions -------------------------------------------------------------------------


# a cart from the WhatsApp catalog ------------------------------------------------------------------------
def catalog_order(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["advance", "__end__"]]:
    """A cart sent from the shop's WhatsApp catalog (its product retailer ids are our item ids).

    Every product is read with catalog_get_item: the order is built from the catalog's prices and
    stock, never from the prices inside the cart."""
    turn = Turn(state, runtime, "catalog_order")
    wanted: dict[str, int] = {}
    for entry in state.inbound.get("order_items") or []:
        item_id, quantity = str(entry.get("product_retailer_id") or "").strip(), int(entry.get("quantity") or 0)
        if item_id and quantity > 0:
            wanted[item_id] = wanted.get(item_id, 0) + quantity
    frame = OrderFrame()
    unavailable = 0
    for item_id, quantity in list(wanted.items())[:MAX_CART_LINES]:
        result = turn.tool("catalog_get_item", item_id=item_id)
        if not result["ok"]:
            if result["error"]["code"] != "not_found":
                turn.say(text(t(turn, "tool_error")))
                return turn.goto(END)
            unavailable += 1
            continue
        item = result["data"]
        if not item["in_stock"]:
            turn.say(text(t(turn, "out_of_stock", name=item["name"])))
            continue
        frame.lines = [*frame.lines, line_from_item(item, min(quantity, 1000))]
    if unavailable:
        turn.say(text(t(turn, "cart_items_unknown", count=unavailable)))
    if not frame.lines:
        turn.say(text(t(turn, "cart_empty")))
        turn.set(frame=None, question=None, question_options=[])
        return turn.goto(END)
    turn.trace.append({"kind": "step", "node": "catalog_order", "lines": len(frame.lines), "unavailable": unavailable})
    turn.set(frame=frame, selected_item_ids=[ln.item_id for ln in frame.lines], rejected_shortlists=0, order_totals={})
    return turn.goto("advance")


# a side question answered: the sale offered again ---------------------------------------------------------
def resume_sale(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """After a side question (support, order status, offers), the pending step of the open sale again,
    in one line with its buttons."""
    turn = Turn(state, runtime, "resume_sale")
    frame, booking = state.frame, state.booking
    if state.question is not None or state.in_handoff:  # the side journey asked something of its own
        return turn.done()
    if state.scratch.get("sale_asked"):  # or asked the sale's next question already (the ways to pay an order)
        return turn.done()
    if isinstance(booking, BookingFrame) and booking.open and booking.asking:
        remind_booking(turn, booking.model_copy(deep=True))
    elif isinstance(frame, OrderFrame) and frame.resumable:
        _remind(turn, frame.model_copy(deep=True))
    return turn.done()


def _remind(turn: Turn, frame: OrderFrame) -> None:
    asking = frame.asking
    if asking == "variant" and frame.lines and any(ln.missing_variant() for ln in frame.lines):
        _say_variant_question(turn, frame, reminder=True)
    elif asking == "quantity" and frame.lines and any(ln.quantity is None for ln in frame.lines):
        _say_quantity_question(turn, frame, reminder=True)
    elif asking == "fulfilment":
        _say_fulfilment_question(turn, frame, reminder=True)
    elif asking == "zone":
        _say_zone_question(turn, frame, reminder=True)
    elif asking == "payment_method" and frame.order is not None:
        say_payment_methods(turn, frame, reminder=True)
    elif asking in ("payment_confirmation", "mpesa_number") and frame.order is not None:
        say_confirmation(turn, frame, reminder=True)
    elif asking == "item_selection" and turn.state.last_catalog_results:
        rows = [(tap_id("item", r["item_id"]), r["name"], money(r["price"])) for r in turn.state.last_catalog_results]
        turn.say(listing(t(turn, "resume_sale"), rows, button=t(turn, "shortlist_button")))
        ask_sale(turn, frame, "item_selection", [{"id": r[0], "title": r[1]} for r in rows])


def _names_products(turn: Turn, query: str | None) -> bool:
    """Whether words name something the shop sells ("the samsung one"), not another topic. Read for sure as a
    purchase, one of the shop's names among other words is enough ("msee nataka toughees size 38 za boy wangu
    anajoin form one")."""
    if query is None:
        return False
    index = shop_index(turn)
    if catalog_evidence(normalize(query), index):
        return True
    read = turn.state.understanding  # the reader's own reading of her typed words (never a tap's or a pin's)
    return (
        read.get("intent") == "sales_discovery" and read.get("confidence", 0.0) >= SURE and index.names_products(query)
    )


SALES_NODES = (
    ("sales_start", sales_start),
    ("payment_event", payment_event),
    ("catalog_order", catalog_order),
    ("payment_status", payment_status),
    ("payment_code", payment_code),
    ("tap", tap),
    ("fill_frame", fill_frame),
    ("search", search),
    ("take_items", take_items),
    ("advance", advance),
    ("ask_item", ask_item),
    ("ask_variant", ask_variant),
    ("ask_quantity", ask_quantity),
    ("ask_fulfilment", ask_fulfilment),
    ("ask_zone", ask_zone),
    ("build_order", build_order),
    ("apply_coupon", apply_coupon),
    ("ask_payment_method", ask_payment_method),
    ("ask_mpesa_number", ask_mpesa_number),
    ("confirm_payment", confirm_payment),
    ("start_payment", start_payment),
)


sales = as_node("sales", command_journey("sales", SALES_NODES, entry="sales_start"))
