"""The orchestrator's nodes (spec 7.1): ingest, load tenant and customer, fast path, the three
classifiers, the router, governance, clarify/unknown, handoff, preferences, respond and wait."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command, interrupt

from tulia.channel.whatsapp import conversation_id_for
from tulia.domain.handoff import TranscriptEntry
from tulia.domain.literals import BOOKING_QUESTIONS, CHECKOUT_QUESTIONS, SALE_QUESTIONS
from tulia.domain.understanding import CorpusLang, MisreadWhy
from tulia.errors import TuliaError
from tulia.graph.buttons import SALE_TAPS, parse_tap, tap_id
from tulia.graph.calls import Turn
from tulia.graph.context import EngineContext
from tulia.graph.routing import (
    INTENT_ROUTE_MIN,
    EscalationSignals,
    choose_language,
    escalation_reason,
    govern,
    route_intent,
)
from tulia.graph.slots import close_questions
from tulia.graph.state import ConversationState
from tulia.graph.wording import prompt_context, worded
from tulia.llm.schemas import SaleReading
from tulia.nlg.messages import OutboundMessage, buttons, listing, text
from tulia.nlg.templates import render, when_back
from tulia.nlu.booking_words import TITLES, change_said, staff_named
from tulia.nlu.fastpath import fast_path as detect_fast_path
from tulia.nlu.frame_extract import C2B_WORDS, CARD_WORDS, STK_WORDS, extract_phone, extract_zone
from tulia.nlu.lexicon import GOODBYES, GREETINGS, PERSONAL_RISK, THANKS, any_phrase, normalize
from tulia.nlu.reader import BUYING, CANCELLATIONS, SURE, ReadingContext, message_reader
from tulia.nlu.rules import MAX_TEXT, detect_language
from tulia.nlu.shop_layer import ShopLayer
from tulia.nlu.tagger import Gazetteer, Span, token_tagger
from tulia.nlu.when import read_when, without_when
from tulia.observability import logger as log
from tulia.rag.embedded import kinds_asked, kinds_held
from tulia.rag.shop_facts import answer_from_facts, covered_by
from tulia.search.text import terms
from tulia.tools.customer_tools import link_whatsapp_user, whatsapp_user_customer
from tulia.tools.support_tools import contact_of, team_availability

MENU = (
    (tap_id("menu", "buy"), "menu_buy"),
    (tap_id("menu", "order"), "menu_order"),
    (tap_id("menu", "help"), "menu_help"),
    (tap_id("menu", "offers"), "menu_offers"),
)
MENU_INTENTS = {
    tap_id("menu", "buy"): "sales_discovery",
    tap_id("menu", "order"): "order_status",
    tap_id("menu", "help"): "support_question",
    tap_id("menu", "offers"): "discounts_offers",
}
ESCALATION_OFFER = [{"id": tap_id("esc", "yes")}, {"id": tap_id("esc", "no")}]
SUPPORTED_INBOUND = ("text", "interactive", "button", "order", "location", "image")

if TYPE_CHECKING:
    from tulia.nlu.types import Understanding
    from tulia.search.catalog_index import CatalogIndex


def t(turn: Turn, key: str, **facts: Any) -> str:
    return render(key, turn.lang, str(turn.get("sheng_fallback")), **facts)


def shop_contact(turn: Turn) -> str:
    """How to reach the shop without the bot, in the reply's language."""
    return contact_of(turn.ctx.services.tenants.get(turn.ctx.tenant_id), turn.text_lang)


def menu(turn: Turn, body_key: str = "menu_prompt", **facts: Any) -> OutboundMessage:
    rows = [(menu_id, t(turn, label), None) for menu_id, label in MENU]
    return listing(t(turn, body_key, **facts), rows, button=t(turn, "menu_button"))


def inbound_text(state: ConversationState) -> str:
    return str(state.inbound.get("text") or "")[:MAX_TEXT]


# ---------------------------------------------------------------------------------------------
def ingest(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """Start a turn: reset per-turn fields, remember the message in the bounded window."""
    ctx = runtime.context
    body = inbound_text(state)
    return {
        "tenant_id": ctx.tenant_id,
        "conversation_id": conversation_id_for(ctx.tenant_id, ctx.customer_key),
        "request_id": str(state.inbound.get("message_id") or f"turn-{state.turn_count + 1}"),
        "turn_count": state.turn_count + 1,
        "outbox": None,
        "trace": None,
        "understanding": {},
        "route": None,
        "handover": None,
        "scratch": {},
        "response_text": None,
        "kb_snippets": [],
        "escalation_required": False,
        "escalation_reason": None,
        "requested_language": None,
        "messages": [heard_message(state.inbound, body)],
    }


def heard_message(inbound: dict[str, Any], body: str) -> dict[str, str]:
    """The turn's line in the conversation's history: the customer's words, or an event that is not theirs
    (a payment's outcome from the payments function), said as an event."""
    kind = str(inbound.get("type", "message"))
    if kind == "payment_event":
        payment = inbound.get("payment") or {}
        status, order = payment.get("status", "update"), payment.get("order_id", "-")
        return {"role": "event", "text": f"payment {status} for order {order}"}
    return {"role": "customer", "text": body[:500] or f"[{kind}]"}


def load_context(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """Tenant and customer first, through their tools, before anything else."""
    turn = Turn(state, runtime, "load_context")
    ctx = turn.ctx
    tenant = turn.tool("tenant_get_context")
    if ctx.phone_e164:
        if ctx.wa_user_id and state.customer_id is None:
            # a new phone-keyed thread: the customer may be known so far only by user id (one person)
            link_whatsapp_user(ctx.services, ctx.tenant_id, phone_e164=ctx.phone_e164, wa_user_id=ctx.wa_user_id)
        customer = turn.tool(
            "customer_get_or_create",
            phone_e164=ctx.phone_e164,
            **({"display_name": ctx.display_name} if ctx.display_name else {}),
        )
        if customer["ok"] and ctx.wa_user_id and not customer["data"]["wa_user_id"]:
            link_whatsapp_user(
                ctx.services, ctx.tenant_id, customer_id=customer["data"]["customer_id"], wa_user_id=ctx.wa_user_id
            )
    else:
        # Meta withheld the phone (a WhatsApp username): the customer is keyed by the channel's
        # business-scoped user id (trusted, from the webhook); the spec's tool is keyed by phone.
        customer = whatsapp_user_customer(ctx.services, ctx.tenant_id, str(ctx.wa_user_id), ctx.display_name)
        turn.trace.append({"kind": "step", "node": "load_context", "customer": "by WhatsApp user id"})
    if not tenant["ok"] or not customer["ok"]:
        turn.set(route="failed")
        turn.say(text(render("tool_error", "en")))
        return turn.done()
    ten, cus = tenant["data"], customer["data"]
    turn.set(
        tenant_name=ten["tenant_name"],
        bot_name=ten["bot_name"],
        bot_intro=ten["bot_intro"],
        tone_style=ten["tone_style"],
        llm_wording=ten["llm_wording"],
        default_language=ten["default_language"],
        allowed_languages=ten["allowed_languages"],
        sheng_fallback=ten["sheng_fallback"],
        max_chattiness_level=ten["max_chattiness_level"],
        catalog_link_base=ten["catalog_link_base"],
        payments_enabled=ten["payments_enabled"],
        compliance=ten["compliance"],
        handoff=ten["handoff"],
        customer_id=cus["customer_id"],
        phone_e164=cus["phone_e164"],
        display_name=cus["display_name"],
        customer_language_pref=cus["language_preference"],
        marketing_opt_in=cus["marketing_opt_in"],
        notification_prefs=cus["notification_prefs"],
        in_handoff=cus["in_handoff"],
        handoff_ticket_id=cus["handoff_ticket_id"],
    )
    if state.turn_count <= 1 or not state.response_language:
        turn.set(response_language=ten["default_language"])
    return turn.done()


def fast_path(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """Decisions that never wait for a model (ARCHITECTURE section 5)."""
    turn = Turn(state, runtime, "fast_path")
    body = inbound_text(state)
    tapped = state.inbound.get("type") in ("interactive", "button")  # the title of our own button, not their words
    # a described photo: the model's words are the search, the caption the customer's language
    said = str(state.inbound.get("caption") or "") if state.inbound.get("photo") == "described" else body
    detected, confidence = detect_language(said) if said.strip() and not tapped else ("en", 0.0)
    switching = confidence and state.turn_count > 1 and detected != state.response_language
    if switching and (_an_address(turn, said) or _names_only(turn, said)):  # read only when she may switch
        confidence = 0.0  # "tao, river road", "buy goods till", "General House Cleaning": names say no language
    heard = state.inbound.get("spoken")  # a voice note's transcript: the language Transcribe heard
    if not body.strip() and heard in ("en", "sw") and heard in state.allowed_languages:
        detected, confidence = ("sw" if heard == "sw" else "en"), 0.9  # nothing usable heard: asked in that language
    turn.set(
        response_language=choose_language(
            detected,
            confidence,
            allowed=state.allowed_languages,
            default=state.default_language,
            preferred=state.customer_language_pref,
            current=state.response_language if state.turn_count > 1 else None,
        ),
        language_confidence=confidence,
    )
    kind = state.inbound.get("type", "text")
    if kind == "location" and not isinstance(state.inbound.get("location"), dict):
        kind = "unsupported"  # a pin without its coordinates says nowhere
    hit = (
        detect_fast_path(body, awaiting_answer=state.pending is not None, catalog=lambda: shop_index(turn))
        if body
        else None
    )
    reply_id = state.inbound.get("reply_id")
    if hit is None and body and not reply_id and state.pending is not None:
        reply_id = _typed_option(body, state.pending_options)
        if reply_id is not None:  # a button's title typed instead of tapped: the tap
            turn.set(inbound={**state.inbound, "reply_id": reply_id})
    tap = parse_tap(reply_id)
    route: str
    if kind == "payment_event":
        route = "payment_event"  # a payment's outcome from the payments function, not a customer's words
    elif hit is not None and hit.kind == "opt_out":
        route = "prefs"
        turn.set(understanding={"keyword": "opt_out"})
    elif state.in_handoff:
        route = "holding"
    elif kind == "image" and isinstance(shot := state.inbound.get("screenshot"), dict) and shot.get("code"):
        route = "payment_code"  # a screenshot of an M-Pesa confirmation: its code, checked like a typed one
        turn.set(
            intent="payment_help",
            intent_confidence=1.0,
            journey="sales",
            understanding={"mpesa_code": str(shot["code"]), "screenshot": shot},
        )
    elif kind not in SUPPORTED_INBOUND or (kind == "image" and not body.strip()) or (heard and len(body.strip()) < 2):
        route = "media"  # a file Tulia does not read, or a photo with no words to search by: asked
    elif kind == "location":
        # a location pin: where the sale delivers (its zone found on the map when the sale reads it), an answer
        # to the sale's question about the place, or the place of a sale not begun yet
        if state.pending in BOOKING_QUESTIONS:
            route = "maybe_answer"  # the address of a visit at home: the booking reads it
        else:
            route = "maybe_answer" if state.pending in SALE_QUESTIONS else "location_pin"
            turn.set(intent="sales_discovery", intent_confidence=1.0, journey="sales")
    elif hit is not None and hit.kind == "opt_in":
        route = "prefs"
        turn.set(understanding={"keyword": "opt_in"})
    elif kind == "order":
        route = "catalog_order"  # a cart sent from the shop's WhatsApp catalog: a purchase, no guessing
        turn.set(
            intent="sales_discovery", intent_confidence=1.0, journey="sales", understanding={"catalog_order": True}
        )
    elif hit is not None and hit.kind == "human":
        route = "handoff"
        turn.set(escalation_required=True, escalation_reason="human_requested")
    elif hit is not None and hit.kind == "language":
        route = "language"
        turn.set(requested_language=hit.language)
    elif hit is not None and hit.kind == "injection":
        route = "injection"
    elif hit is not None and hit.kind == "abuse":
        route = "governance"
        turn.set(governor_classification="abuse", governor_confidence=1.0)
    elif state.code_awaiting_payer and (payer := extract_phone(body)[0]) is not None:
        route = "payment_code"  # "0712 345 678": the number that paid the code just sent
        turn.set(
            intent="payment_help",
            intent_confidence=1.0,
            journey="sales",
            understanding={"mpesa_code": state.code_awaiting_payer, "payer_phone": payer},
        )
    elif hit is not None and hit.kind == "payment_code" and not _offer_code(turn, str(hit.code)):
        route = "payment_code"  # "I paid, the code is SKL4ABC123": the shop's M-Pesa records decide
        turn.set(intent="payment_help", intent_confidence=1.0, journey="sales", understanding={"mpesa_code": hit.code})
    elif (
        body
        and (not reply_id or kind == "button")  # typed, or a reminder template's quick reply
        and state.pending not in BOOKING_QUESTIONS
        and (change := change_said(body)) is not None
        and _books(turn)
        and not (_sale_order_open(state) and (change == "cancel" or _names_the_sale(turn, body)))
    ):
        route = "booking_change"  # "I can't make it", "cancel my booking", "my appointment": the booking made
        turn.set(intent="sales_discovery", intent_confidence=1.0, journey="sales")
    elif (
        body
        and not reply_id
        and state.pending not in BOOKING_QUESTIONS
        and (hit is None or hit.kind not in ("yes", "no", "choice"))  # "cancel" alone answers the question asked
        and _drops_the_order(turn, body)
    ):
        route = "order_cancel"  # "cancel my order", "nimebadilisha mawazo, futa oda": the order she made
        turn.set(intent="order_status", intent_confidence=1.0, journey="orders")
    elif tap is not None and (tap.kind in SALE_TAPS or tap.booking):
        route = "booking_tap" if tap.booking else "sale_tap"  # a row or button carries its own action: no guessing
        turn.set(intent="sales_discovery", intent_confidence=1.0, journey="sales")
    elif tap is not None and tap.kind == "menu":
        route = "classify"
        turn.set(understanding={"menu": reply_id})
    elif (
        state.pending in ("menu", "clarify_intent")
        and hit is not None
        and hit.kind == "choice"
        and (1 <= (hit.choice or 0) <= len(MENU))
    ):
        route = "classify"
        turn.set(understanding={"menu": MENU[(hit.choice or 1) - 1][0]})
    elif state.pending is not None and (reply_id or (hit is not None and hit.kind in ("choice", "yes", "no"))):
        route = "answer"
        turn.set(understanding={"fast": hit.kind if hit else "reply", "choice": hit.choice if hit else None})
    elif state.pending is not None and body.strip():
        route = "maybe_answer"  # free text while a question is pending: the journey decides
    elif not body.strip():
        route = "unknown"
    else:
        route = "classify"
    turn.set(route=route)
    turn.trace.append({"kind": "route", "node": "fast_path", "route": route})
    return turn.done()


def _drops_the_order(turn: Turn, body: str) -> bool:
    """ "cancel my order", "nimebadilisha mawazo, futa oda": the reader is sure she cancels, and she names none of
    the things of a basket of several lines ("cancel the sugar" takes the sugar out: the sale's edit, not the end of
    the order)."""
    where: ReadingContext | None = "checkout" if _at_checkout(turn.state) else None
    # order_cancel_said, with its sentences; at a checkout either cancellation drops what waits ("... ghairi tafadhali")
    asked = message_reader().sure_sentences(body, CANCELLATIONS if where else "order_cancel", where)
    if not (asked or change_said(body, where) == "cancel"):
        return False
    frame = turn.state.frame
    if frame is None or len(frame.lines) < 2:
        return True
    # the sentence that cancels names none of them ("please cancel this order. my contractor bought the pans and
    # pipes": her reason names them)
    return any(not any(span.kind == "ITEM" for span in tagged(turn, sentence)) for sentence in asked or [body])


def _at_checkout(state: ConversationState) -> bool:
    """Whether an order she has not paid stands under her eyes: its ways to pay, the prompt's number or its
    confirmation asked, or its payment started and not yet in."""
    frame = state.frame
    if frame is None or frame.order is None:
        return False
    return state.pending in CHECKOUT_QUESTIONS or frame.payment_started is not None


def _names_the_sale(turn: Turn, body: str) -> bool:
    """Whether a message names things or options of the shop ("badilisha iwe XL badala ya L"): during a sale, a
    change said with them is the basket's, not an appointment's."""
    return any(span.kind in ("ITEM", "OPTION") for span in tagged(turn, body))


def _sale_order_open(state: ConversationState) -> bool:
    """Whether a sale is under way (a basket or its order) and no appointment is being held: what "cancel" drops."""
    frame = state.frame
    held = state.booking is not None and state.booking.held is not None
    return frame is not None and (frame.order is not None or bool(frame.lines)) and not held


def _books(turn: Turn) -> bool:
    """Whether the shop takes appointments (some service of its catalog has a duration)."""
    services = turn.ctx.services
    tenant = services.tenants.get(turn.ctx.tenant_id)
    return services.catalog_indexes.get(turn.ctx.tenant_id, tenant.catalog_version).books


def shop_index(turn: Turn) -> CatalogIndex:
    """The shop's catalog index: its items' words and its vocabulary (cached per catalog version)."""
    services = turn.ctx.services
    return services.catalog_indexes.get(turn.ctx.tenant_id, services.tenants.get(turn.ctx.tenant_id).catalog_version)


MAX_THANKS_WORDS = 6  # "ok thank you so much boss": thanks; a longer message says something else too

_GAZETTEERS: dict[tuple[str, int, tuple[str, ...]], Gazetteer] = {}
MAX_GAZETTEERS = 64  # shops whose gazetteer a warm process keeps


ASKING_OR_NOTHING = frozenset({"support_question", "unknown", "spam_casual"})


def _a_person_at_a_time(turn: Turn, state: ConversationState) -> bool:
    """Whether the message names one of the shop's people and a day or a time."""
    words = inbound_text(state)
    people = turn.ctx.services.tenants.get(turn.ctx.tenant_id).booking_settings().people()
    named = staff_named(words, [(member.id, member.name) for member in people])
    return named is not None and read_when(words, turn.ctx.services.clock()).said


def without_appointment_words(turn: Turn, words: str) -> str:
    """A message at a shop that books without its day and time, its people's names and its places ("kamau anaweza
    kuja buruburu saa tano kupiga picha"): what is left says what she wants, and is read for it."""
    services = turn.ctx.services
    when = read_when(words, services.clock())
    rest = normalize(without_when(words, when) if when.said else words)
    tenant = services.tenants.get(turn.ctx.tenant_id)
    names = {
        part
        for member in tenant.booking_settings().people()
        for part in normalize(member.name).split()
        if len(part) >= 3 and part not in TITLES
    }
    for place in sorted((normalize(p) for p in shop_places(turn)), key=len, reverse=True):
        if place and len(place) >= 3:
            rest = re.sub(rf"(?<!\w){re.escape(place)}(?!\w)", " ", rest)
    # a person's name, and the title she says it with ("dr omondi": no "dr", a doctor the catalog knows, left to search)
    message = normalize(inbound_text(turn.state)).split()
    titles = {w for w, after in pairwise(message) if w in TITLES and after in names}
    kept = [w for w in rest.split() if w not in names and w not in titles]
    return " ".join(kept) if kept else words


ADDRESS_WORDS = 6  # an address typed on its own is short: "donholm, savannah road", "Karen, marula lane"
# asked where to deliver, she may write it whole: "Roysambu, Lumumba drive, Pioneer hostels room 5B"
ADDRESS_ANSWER_WORDS = 16


def _an_address(turn: Turn, said: str) -> bool:
    """A short message that names one of the shop's places: an address, whatever words its streets have (longer
    when it answers where to deliver)."""
    plain = normalize(said)
    most = ADDRESS_ANSWER_WORDS if turn.state.pending in ("fulfilment", "zone") else ADDRESS_WORDS
    if "?" in said or not 0 < len(plain.split()) <= most:
        return False
    tenant = turn.ctx.services.tenants.get(turn.ctx.tenant_id)
    zone, _words, _span = extract_zone(plain, [(z.name, list(z.areas)) for z in tenant.delivery_zones])
    return zone is not None


def _names_only(turn: Turn, said: str) -> bool:
    """A message of names only: the ways to pay ("buy goods till"), the titles of the rows just shown, the shop's
    things and their options, and no other word (no language to switch to: "ondoa chumvi" and "nimelipa, SKL..."
    say Swahili)."""
    plain = f" {normalize(said)} "
    titles = [normalize(str(o.get("title") or "")).rstrip(".… ") for o in turn.state.pending_options]
    for phrase in sorted({*STK_WORDS, *C2B_WORDS, *CARD_WORDS, *(t for t in titles if t)}, key=len, reverse=True):
        plain = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", " ", plain)
    index = shop_index(turn)
    names = {normalize(doc.name) for doc in index.docs}  # "Pedigree Adult Dry Dog Food Chicken and Vegetables"
    for phrase in sorted((n for n in names if n and n in plain), key=len, reverse=True):
        plain = re.sub(rf"(?<!\w){re.escape(phrase)}(?!\w)", " ", plain)
    shop_words = index.product_terms | index.option_terms  # its things and their options ("Terracotta")
    left = [w for w in plain.split() if w.isalpha() and not set(index.terms(w)) & shop_words]
    return not left


def shop_places(turn: Turn) -> tuple[str, ...]:
    """The shop's delivery zones and their areas, by name."""
    tenant = turn.ctx.services.tenants.get(turn.ctx.tenant_id)
    return tenant.delivery_places()


def shop_gazetteer(turn: Turn) -> Gazetteer:
    """The shop's own words for the token tagger: its catalog's names, services, options and staff (from the index,
    cached with it) and its zones with their areas."""
    index = shop_index(turn)
    places = shop_places(turn)
    key = (turn.ctx.tenant_id, turn.ctx.services.tenants.get(turn.ctx.tenant_id).catalog_version, places)
    if key not in _GAZETTEERS:
        if len(_GAZETTEERS) >= MAX_GAZETTEERS:
            _GAZETTEERS.clear()
        _GAZETTEERS[key] = gazetteer_for(index, places)
    return _GAZETTEERS[key]


def gazetteer_for(index: CatalogIndex, places: Iterable[str]) -> Gazetteer:
    """The token tagger's gazetteer of a shop: its catalog's words (from its index) and its places."""
    return Gazetteer.of(**index.shop_words, zone_area=places)


def tagged(turn: Turn, text: str) -> list[Span]:
    """What each word of ``text`` is at this shop, and what the customer does with her items and place (the token
    tagger, with the shop's words as its gazetteer)."""
    return token_tagger().read(text, shop_gazetteer(turn))


def _offer_code(turn: Turn, code: str) -> bool:
    """Whether a code-like word is one of the shop's coupon codes (then it is not an M-Pesa code)."""
    offers = turn.ctx.services.offers.all_for(turn.ctx.tenant_id)
    return any((o.code or "").upper() == code.upper() for o in offers)


def _typed_option(body: str, options: list[dict[str, Any]]) -> str | None:
    """The option whose button or row title was typed ("Ee, tuma", "Yes, send it"), by its id."""
    typed = normalize(body)
    return next(
        (str(o["id"]) for o in options if o.get("id") and o.get("title") and normalize(str(o["title"])) == typed),
        None,
    )


# classifiers -----------------------------------------------------------------------------------
def intent_classify(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "intent_classify")
    turn.set(route="classified")  # a journey reached from here handles the message as new, never as an answer
    menu_choice = state.understanding.get("menu")
    if menu_choice:
        intent = MENU_INTENTS[menu_choice]
        from tulia.nlu.types import JOURNEY_OF

        turn.set(
            intent=intent,
            intent_confidence=1.0,
            journey=JOURNEY_OF[intent],
            understanding={"menu": menu_choice, "intent": intent, "slots": {}, "signals": {}},
            governor_classification="business",
            governor_confidence=1.0,
        )
        return turn.done()
    services = turn.ctx.services
    tenant = services.tenants.get(turn.ctx.tenant_id)
    index = services.catalog_indexes.get(turn.ctx.tenant_id, tenant.catalog_version)
    words = inbound_text(state)
    if turn.ctx.engine.name == "rules" and index.books:
        # "on Sunday at 11am", "with Kamau", "in Buruburu" say when, with whom and where, not what about (a model
        # reads it all)
        words = without_appointment_words(turn, words)
    u = turn.ctx.engine.understand(words, catalog=index, context=prompt_context(turn))
    u = _with_the_shops_reading(turn, u, inbound_text(state), tenant.reading_version)
    if index.books and u.intent in ASKING_OR_NOTHING and _a_person_at_a_time(turn, state):
        # "je, kiprono anaweza kunifundisha pikipiki kesho saa nne?": one of the shop's people asked for at a time, at
        # a shop that books, is an appointment wished (a question or nothing to the reader of the rest)
        u = replace(u, intent="sales_discovery", journey="sales", intent_confidence=SURE)
    if (
        u.intent == "product_question" or (u.intent == "support_question" and u.intent_confidence < SURE)
    ) and the_documents_answer(turn, inbound_text(state), index):
        # "does the phone have a warranty?": what is asked about the thing is a matter of the shop's documents (a
        # passage headed by what is asked is evidence enough, however unsure the reader was between the two)
        u = replace(u, intent="support_question", journey="support", intent_confidence=max(u.intent_confidence, SURE))
    elif (
        u.intent == "support_question"
        and u.intent_confidence < SURE
        and answer_from_facts(tenant, inbound_text(state), turn.lang) is not None
    ):
        # "deposit ni ngapi na salio nalipa lini?": a question one of the shop's stated facts answers is a question,
        # however unsure the reader was between asking and paying
        u = replace(u, journey="support", intent_confidence=SURE)
    turn.trace.append(
        {
            "kind": "engine",
            "node": "intent_classify",
            "engine": turn.ctx.engine.name,
            "intent": u.intent,
            "confidence": round(u.intent_confidence, 2),
            "fallback": u.fallback,
        }
    )
    turn.trace.extend(u.llm_calls)
    turn.set(
        intent=u.intent,
        intent_confidence=u.intent_confidence,
        journey=u.journey,
        understanding={
            "intent": u.intent,
            "confidence": u.intent_confidence,
            "language": u.language,
            "language_confidence": u.language_confidence,
            "governor": u.governor,
            "governor_confidence": u.governor_confidence,
            "notes": u.notes,
            "fallback": u.fallback,
            "slots": {k: v for k, v in u.slots.__dict__.items() if v not in (None, False)},
            "signals": {k: v for k, v in u.signals.__dict__.items() if v},
            **({"sale": u.sale.model_dump()} if u.sale is not None else {}),
        },
    )
    return turn.done()


def the_documents_answer(turn: Turn, text: str, index: CatalogIndex, *, covers: float | None = None) -> bool:
    """Whether a question about a thing asks what the shop's documents are about: a word of it that names none of
    the shop's things heads the best passage (its title or section: "Warranty periods"), which answers most of the
    question. A question whose other words no document is about ("is it fast charging?") stays the sale's.
    ``covers``: also when the best passage holds that share of the question's words ("will 8 litres be enough for
    two coats?": the coverage passage), read from the same one retrieval."""
    asked = set(terms(text))
    about = asked - index.product_terms - index.kinds - index.brands
    if not about and covers is None:
        return False
    found = turn.tool("kb_retrieve", query=text, top_k=1)
    snippets = found["data"]["snippets"] if found["ok"] else []
    if not snippets:
        return False
    best = snippets[0]
    if covers is not None and covered_by(best["text"], text) >= covers:
        return True
    heading = set(terms(f"{best['title']} {best.get('section') or ''}"))
    # "how long before we get the photos?": a question of how long is no choice of a thing, and the passage says it
    # (how much stays the sale's: it is a thing's price)
    return bool(about) and (bool(about & heading) or bool(kinds_asked(text) - {"amount"} & kinds_held(best["text"])))


def _with_the_shops_reading(turn: Turn, u: Understanding, text: str, version: int) -> Understanding:
    """The reading the shop's owner taught (her labels of messages the bot did not understand), where the global
    reader is unsure or the message is nearly one she labelled (``tulia.nlu.shop_layer``)."""
    if version == 0:  # the owner never labelled a message: no layer, no read
        return u
    try:
        layer = turn.ctx.services.shop_layers.get(turn.ctx.tenant_id, version)
        shop = layer.read(text) if len(layer) else None
    except Exception as exc:  # noqa: BLE001  (the shop's layer is a refinement: the global reading stands without it)
        log.warning("the shop's reading layer could not be read", extra={"why": type(exc).__name__})
        return u
    if shop is None or not ShopLayer.decides(shop, u.intent_confidence, SURE):
        return u
    sale = u.sale
    if shop.item_id is not None:  # she said which item (and how many) this message wants: the sale reads that
        try:
            item = turn.ctx.services.catalog.get(turn.ctx.tenant_id, shop.item_id)
        except TuliaError:
            item = None  # an item since deleted: the words are read as they are
        if item is not None:
            sale = SaleReading(product=item.name[:120], quantity=shop.quantity)
    if shop.intent == u.intent and sale is u.sale:
        return u
    from tulia.nlu.types import JOURNEY_OF

    turn.trace.append({"kind": "step", "node": "shop_reading", "intent": shop.intent, "confidence": shop.confidence})
    business = shop.intent != "spam_casual"
    return replace(
        u,
        sale=sale,
        intent=shop.intent,  # type: ignore[arg-type]  # a label of the console's list of intents
        intent_confidence=max(shop.confidence, SURE),
        journey=JOURNEY_OF[shop.intent],
        governor="business" if business else u.governor,
        governor_confidence=max(u.governor_confidence, SURE) if business else u.governor_confidence,
        fallback=None,
    )


def language_policy(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "language_policy")
    u = state.understanding
    # the rules engine's reading of the language is the fast path's, already applied; a model's
    # reading (it sees the conversation) is taken as it is
    from_model = turn.ctx.engine.name != "rules" and u.get("fallback") is None
    described = state.inbound.get("photo") == "described"  # the model read its own English words, not the customer's
    if "language" in u and from_model and not described:
        turn.set(
            response_language=choose_language(
                u["language"],
                u["language_confidence"],
                allowed=state.allowed_languages,
                default=state.default_language,
                preferred=state.customer_language_pref,
                current=state.response_language,
                sheng_kin=False,
            ),
            language_confidence=u["language_confidence"],
        )
    return turn.done()


RouterTarget = Literal[
    "governance", "handoff", "offer_handoff", "sales", "support", "orders", "offers", "prefs", "clarify", "unknown"
]  # fmt: skip
_JOURNEY_NODES: dict[str, RouterTarget] = {
    "sales": "sales",
    "support": "support",
    "orders": "orders",
    "offers": "offers",
    "prefs": "prefs",
    "governance": "governance",
}


def _a_sure_purchase(state: ConversationState) -> bool:
    """Read for sure as buying or asking about an item: words of a sensitive topic in it ("medicine", "dawa ya")
    are the shop's goods ("do you have medicine for a cough", "nataka dawa ya wadudu"), not a topic for a person."""
    if state.intent in BUYING and state.intent_confidence >= INTENT_ROUTE_MIN:
        return True
    # unsure only because the shop sells nothing of the words ("how much is dawa ya wadudu" at a beauty shop): the
    # words alone read as buying, and the shop says it has none of it; a person is not what she asked for
    plain = message_reader().read(inbound_text(state))
    # buying or asking about a thing, together ("medicine for a cough iko?": a question of a purchase, either way)
    return sum(plain.probabilities.get(label, 0.0) for label in BUYING) >= SURE


def _a_refund_asked_of_money_paid(turn: Turn) -> bool:
    """Words of a refund ask a person for money back when she has paid something here, or when the reader does not
    read them as a question: "if the TENS doesn't help, can I bring it back for a refund?" before paying anything is a
    question of the shop's policy, answered from its documents (and handed over if they do not say)."""
    state = turn.state
    if not (state.intent in ("support_question", "product_question") and state.intent_confidence >= SURE):
        return True
    result = turn.tool("order_get_status", customer_id=state.customer_id)
    if not result["ok"]:
        return True  # unknown: a person looks
    return any(o["status"] in ("paid", "fulfilled") for o in result["data"]["orders"])


def _names_goods_only(state: ConversationState) -> bool:
    """Whether a message of a sensitive topic says none of a person's own risk ("pregnant", "suicide"): the topic's
    other words may name goods ("medicine", "police whistle", "tennis court shoes"), which a sure purchase buys."""
    return not any_phrase(normalize(inbound_text(state)), PERSONAL_RISK)


def governor(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[RouterTarget]:
    """The governor's reading (spec 4.4), then the journey router of spec 7.1 with the escalation rules of
    4.5 and the thresholds of 4.1. The reason for a hand-over is decided here, once, and kept in the state
    for the handoff node (which only reads it)."""
    turn = Turn(state, runtime, "governor")
    u = state.understanding
    classification = state.governor_classification
    if "governor" in u:
        classification = u["governor"]
        turn.set(governor_classification=classification, governor_confidence=u["governor_confidence"])
    if classification != "business":
        return turn.goto("governance")
    signals = u.get("signals", {})
    reason = escalation_reason(
        EscalationSignals(
            payment_dispute=bool(signals.get("payment_dispute")),
            refund_request=bool(signals.get("refund_request")) and _a_refund_asked_of_money_paid(turn),
            delivery_complaint=bool(signals.get("delivery_complaint")),
            sensitive_topic=bool(signals.get("sensitive"))
            and not (_names_goods_only(state) and _a_sure_purchase(state)),
            consecutive_tool_errors=state.consecutive_tool_errors,
            clarification_loops=state.clarification_loops,
            frustrated_unresolved_turns=state.frustrated_turns + (1 if signals.get("frustrated") else 0),
        ),
        escalate_sensitive=bool(state.compliance.get("escalate_sensitive_topics", True)),
    )
    if reason == "clarification_loop":
        return turn.goto("offer_handoff")  # misunderstood three times: ask before passing them to a person
    if reason is not None:
        turn.set(escalation_reason=reason)
        return turn.goto("handoff")
    if state.intent == "discounts_offers" and u.get("slots", {}).get("coupon_code"):
        return turn.goto("sales")  # a code to use: part of the sale (applied to the order, or kept until one)
    route = route_intent(state.intent_confidence, clarified_once=state.clarified_once)
    if route != "journey" and state.frame is not None and (state.frame.lines or state.frame.order):
        return turn.goto("sales")  # unclear on its own, but there is a sale: the frame may read it ("make it 5")
    if route == "clarify" and state.journey == "sales":
        return turn.goto("sales")  # they want to buy but not what: the clarifying question is "what are you after?"
    if route == "journey":
        return turn.goto(_JOURNEY_NODES.get(state.journey or "", "unknown"))
    return turn.goto("clarify" if route == "clarify" else "unknown")


# simple journeys -------------------------------------------------------------------------------
def governance(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "governance")
    decision = govern(
        state.governor_classification,
        casual_turns=state.casual_turns,
        spam_turns=state.spam_turns,
        chattiness=state.max_chattiness_level,
        abuse_action=state.compliance.get("abuse_action", "refuse_and_end"),
    )
    turn.set(casual_turns=decision.casual_turns, spam_turns=decision.spam_turns)
    turn.trace.append({"kind": "route", "node": "governance", "route": decision.action})
    shop = state.tenant_name or ""
    said = normalize(inbound_text(state)).strip(" ?!.")
    # the reader read small talk; its words say which: thanks ("ok thank you", "poa, asante boss") or a goodbye
    thanked = said in THANKS or (len(said.split()) <= MAX_THANKS_WORDS and any_phrase(said, THANKS))
    parting = said in GOODBYES or (len(said.split()) <= MAX_THANKS_WORDS and any_phrase(said, GOODBYES))
    if decision.action in ("small_talk", "redirect") and (thanked or parting):
        # "asante sana" gets "karibu", a goodbye a goodbye: short and human, no menu
        turn.say(text(t(turn, "thanks") if thanked else t(turn, "goodbye", shop=shop)))
        turn.set(question=None, question_options=[])
    elif decision.action == "small_talk":
        greeting = state.turn_count <= 1 or said in GREETINGS
        name = f" {state.display_name.split()[0]}" if state.display_name else ""
        body = (
            t(turn, "welcome", name=name, bot_name=state.bot_name or "", shop=shop)
            if greeting
            else t(turn, "small_talk")
        )
        turn.say(menu(turn) if not greeting else text(body))
        if greeting:
            turn.say(menu(turn))
        turn.set(question="menu")
    elif decision.action == "redirect":
        turn.say(menu(turn, "redirect", shop=shop))
        turn.set(question="menu")
    elif decision.action == "disengage":
        turn.say(text(t(turn, "disengage", shop=shop)))
    elif decision.action == "refuse":
        turn.say(text(t(turn, "abuse")))
    else:  # escalate
        return {**turn.done(), "route": "handoff", "escalation_required": True, "escalation_reason": "abuse"}
    return turn.done()


def after_governance(state: ConversationState) -> str:
    return "handoff" if state.route == "handoff" else "respond"


def offer_handoff(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """After repeated misunderstanding: "Shall I get someone from the team?" (yes hands over, no carries on)."""
    turn = Turn(state, runtime, "offer_handoff")
    if not state.handoff.get("enabled", True):  # nobody to hand over to: say how to reach the shop
        contact = shop_contact(turn)
        turn.say(text(t(turn, "not_getting_it_contact", shop=state.tenant_name or "", contact=contact)))
        turn.set(clarification_loops=0, clarified_once=False, question=None, question_options=[])
        return turn.done()
    turn.say(
        buttons(
            t(turn, "offer_person"),
            [(tap_id("esc", "yes"), t(turn, "ask_person")), (tap_id("esc", "no"), t(turn, "no_thanks"))],
        )
    )
    turn.set(
        question="escalation_offer",
        question_options=ESCALATION_OFFER,
        clarification_loops=0,
        clarified_once=False,
    )
    return turn.done()


def clarify(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "clarify")
    turn.say(menu(turn, "clarify_intent"))
    turn.set(question="clarify_intent", clarified_once=True, clarification_loops=state.clarification_loops + 1)
    return turn.done()


def injection(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "injection")
    turn.say(menu(turn, "injection"))
    turn.set(question="menu")
    return turn.done()


def media(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """A file the conversation cannot read as words: a voice note nothing usable was heard in, and an M-Pesa
    picture whose code is unreadable, ask for it typed; another photo with nothing to search by asks what it is;
    anything else asks for text."""
    turn = Turn(state, runtime, "media")
    kind = state.inbound.get("type")
    if state.inbound.get("spoken"):
        turn.say(text(t(turn, "voice_unclear")))  # a voice note nobody could make out
    elif kind == "image" and state.inbound.get("screenshot_unread"):
        turn.say(text(t(turn, "screenshot_unread")))
    elif kind == "image":
        turn.say(text(t(turn, "photo_what_is_it")))
    else:
        turn.say(text(t(turn, "media_unsupported")))
    return turn.done()


def language(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """An explicit language request: switch now and remember it (if the tenant offers that language)."""
    turn = Turn(state, runtime, "language")
    wanted = state.requested_language or "en"
    if wanted not in state.allowed_languages:
        turn.say(text(t(turn, "language_not_offered", languages=", ".join(state.allowed_languages))))
        return turn.done()
    turn.set(response_language=wanted, customer_language_pref=wanted, language_confidence=1.0)
    turn.tool(
        "customer_update_preferences",
        customer_id=state.customer_id,
        updates={"language_preference": wanted},
        consent_source="user_message",
    )
    turn.say(text(render("language_switched", wanted, state.sheng_fallback)))
    return turn.done()


def handoff(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """Escalate: a ticket with the conversation's snapshot, then the conversation belongs to a person."""
    turn = Turn(state, runtime, "handoff")
    reason = state.escalation_reason or "human_requested"  # decided by the node that routed here
    priority = "high" if reason in ("payment_dispute", "refund_request", "delivery_complaint") else "normal"
    snapshot = {
        "summary": f"{reason.replace('_', ' ')}; last intent {state.intent}; order {state.order_id or '-'}",
        "last_messages": state.messages[-10:],
        "actions": [e for e in state.trace if e.get("kind") == "tool"][-10:],
        "order_id": state.order_id,
        "language": state.response_language,
        # what the console words in its own language (English or Swahili) as the hand-over's summary
        "facts": handoff_facts(state, reason),
    }
    result = turn.tool(
        "handoff_create_ticket",
        customer_id=state.customer_id,
        reason=reason,
        priority=priority,
        context_snapshot=snapshot,
    )
    if not result["ok"]:
        if result["error"]["code"] == "handoff_disabled":  # the shop takes no hand-overs in chat
            contact = result["error"].get("details", {}).get("contact", "")
            turn.say(text(t(turn, "handoff_disabled", shop=state.tenant_name or "", contact=contact)))
            turn.set(question=None, question_options=[], escalation_required=False, clarification_loops=0)
        else:
            turn.say(text(t(turn, "handoff_unavailable")))
        return turn.done()
    ticket = result["data"]
    turn.set(
        escalation_required=True,
        escalation_reason=reason,
        handoff_ticket_id=ticket["ticket_id"],
        in_handoff=True,
    )
    close_questions(turn)  # the conversation is a person's now: nothing the bot asked is waiting for an answer
    if ticket["team_available"]:
        message = t(turn, "handoff", ticket=ticket["ticket_id"], eta=ticket["expected_response"] or "")
    else:  # outside the shop's handoff hours: no promise, only when the team is back
        message = t(turn, "handoff_after_hours", ticket=ticket["ticket_id"], back=_team_back(turn, ticket))
    turn.say(text(worded(turn, "handoff_message", message, [ticket], ticket_json=ticket)))
    return turn.done()


def handoff_facts(state: ConversationState, reason: str) -> dict[str, Any]:
    """The hand-over's facts: why, what the customer was doing, the order and basket, their last words."""
    said = next((m["text"] for m in reversed(state.messages) if m.get("role") == "customer"), "")
    basket = [f"{line.quantity or 1} x {line.name}" for line in (state.frame.lines if state.frame else [])]
    return {
        "reason": reason,
        "intent": state.intent,
        "order_id": state.order_id,
        "basket": basket[:10],
        "said": said[:300],
        "language": state.response_language,
    }


def _team_back(turn: Turn, availability: dict[str, Any]) -> str:
    """When the team is back ("tomorrow at 8:00 am"), from the availability the ticket tool reports."""
    at = datetime.fromisoformat(availability["team_back_at"])
    return when_back(at, turn.ctx.services.clock(), turn.lang, str(turn.get("sheng_fallback")))


def holding(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """A person has the conversation: what the customer writes goes to the ticket for them to read;
    the bot only says, once per handover, that a person will answer."""
    turn = Turn(state, runtime, "holding")
    body = inbound_text(state)
    if state.handoff_ticket_id and body:
        entry = TranscriptEntry(
            role="customer", text=body[:1000], at=turn.ctx.services.clock(), message_id=turn.ctx.message_id
        )
        try:
            turn.ctx.services.handoffs.note_customer_message(turn.ctx.tenant_id, state.handoff_ticket_id, entry)
        except TuliaError as exc:
            turn.trace.append({"kind": "step", "node": "holding", "transcript": exc.code})
    if state.handoff_ticket_id is None or state.holding_notice_for != state.handoff_ticket_id:
        tenant = turn.ctx.services.tenants.get(turn.ctx.tenant_id)
        availability = team_availability(tenant, turn.ctx.services.clock(), turn.text_lang)
        if not availability["team_available"]:  # no "shortly" while the team is away
            turn.say(text(t(turn, "handoff_holding_after_hours", back=_team_back(turn, availability))))
        else:
            turn.say(text(t(turn, "handoff_holding")))
        turn.set(holding_notice_for=state.handoff_ticket_id)
    return turn.done()


# end of a turn ---------------------------------------------------------------------------------
def respond(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """Close the turn: remember what the bot said, keep the per-turn counters honest, and put a message the bot did
    not understand on the shop's list (the console's *Not understood*, where the owner says what it meant)."""
    said = "\n".join(OutboundMessage.model_validate(m).plain_text() for m in state.outbox)
    frustrated = bool(state.understanding.get("signals", {}).get("frustrated"))
    why = not_understood(state)
    if why is not None:
        _put_on_the_list(state, runtime.context, why)
    return {
        "response_text": said or None,
        "messages": [{"role": "bot", "text": said[:500]}] if said else [],
        "frustrated_turns": state.frustrated_turns + 1 if frustrated else 0,
        "scratch": {},  # nothing of a turn's working data stays in the checkpoint
        "trace": [{"kind": "node", "node": "respond"}],
    }


NOT_UNDERSTOOD_NODES = frozenset({"unknown", "clarify", "not_understood"})  # the menu, "I didn't get that"
UNSURE = 0.50  # spec 4.1: below this the reading is not acted on
MIN_REPEATED_WORDS = 3  # a message sent twice in a row says the answer did not help when it says something


def not_understood(state: ConversationState) -> MisreadWhy | None:
    """Why this turn's message goes on the shop's *Not understood* list, or None: the customer's own words (a tap,
    a photo, a payment's event are not), answered with the menu or "I didn't get that", handed to a person after a
    misreading, sent again right after the same words, or read below the spec's 0.50."""
    if state.inbound.get("type") not in (None, "text") or state.inbound.get("reply_id"):
        return None
    text = inbound_text(state).strip()
    if not text or state.understanding.get("menu"):
        return None
    nodes = {e.get("node") for e in state.trace if e.get("kind") in ("node", "step")}
    if state.escalation_reason == "clarification_loop":
        return "handed_over"
    if nodes & NOT_UNDERSTOOD_NODES:
        return "not_understood"
    heard = [m["text"] for m in state.messages if m.get("role") == "customer"]
    said_again = len(heard) >= 2 and normalize(heard[-2]) == normalize(heard[-1]) == normalize(text)
    if said_again and len(text.split()) >= MIN_REPEATED_WORDS:  # "2", "ndiyo" twice are answers, not a misreading
        return "repeated"
    confidence = state.understanding.get("confidence")
    if isinstance(confidence, float) and confidence < UNSURE:
        return "unsure"
    return None


def _put_on_the_list(state: ConversationState, ctx: EngineContext, why: MisreadWhy) -> None:
    """Count the message on the shop's list; a failure to write it never fails the customer's turn."""
    read = state.understanding.get("language")
    language: CorpusLang = read if read in ("en", "sw", "sheng") else "sw" if state.response_language == "sw" else "en"
    try:
        ctx.services.misreads.record(
            ctx.tenant_id,
            inbound_text(state),
            lang=language,
            why=why,
            read_as=state.intent,
            confidence=float(state.intent_confidence),
            at=ctx.services.clock(),
        )
    except Exception as exc:  # noqa: BLE001  (the list is the owner's help, never a reason to fail a customer's turn)
        log.warning("a message not understood was not listed", extra={"error": type(exc).__name__, "why": why})


def wait_for_customer(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """The conversation waits here between messages; the next message resumes it."""
    inbound = interrupt({"waiting_for": state.pending or "message"})
    return {"inbound": inbound}
