"""The sales journey (spec Appendix C): narrow or clarify, search, present at most 6 options, take a
selection, ask only for what is missing (variant, delivery), create the order, mention real offers,
offer the enabled payment methods, confirm amount and order, then start the payment.

Every price, total, reference and payment fact in a reply comes from a tool result of this turn.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from rapidfuzz import fuzz, process

from tulia.domain.phone import mask_phone, to_mpesa_msisdn
from tulia.errors import InvalidInput
from tulia.graph.calls import Turn
from tulia.graph.context import EngineContext
from tulia.graph.nodes import inbound_text, t
from tulia.graph.routing import CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE, MAX_SHORTLIST_ITEMS, should_show_catalog_link
from tulia.graph.state import ConversationState
from tulia.graph.subgraph import as_node, journey_graph
from tulia.graph.wording import prompt_context
from tulia.nlg.guard import unsupported_facts
from tulia.nlg.messages import buttons, listing, text
from tulia.nlg.templates import COUPON_REASONS, c2b_instructions, money, payment_outcome, word
from tulia.nlu.lexicon import COLOURS, DELIVERY_WORDS, PICKUP_WORDS, any_phrase, normalize
from tulia.nlu.rules import extract_slots
from tulia.search.text import terms

SALES_PENDING = (
    "item_selection",
    "category",
    "variant",
    "delivery_mode",
    "delivery_address",
    "delivery_zone",
    "payment_method",
    "payment_confirmation",
    "mpesa_number",
)
MAX_CART_LINES = 20  # order_create's own limit on lines
METHOD_WORDS = {
    "mpesa_stk": ("prompt", "stk", "m-pesa", "mpesa", "m pesa"),
    "mpesa_c2b": ("paybill", "till", "buy goods"),
    "pesapal": ("card", "visa", "mastercard", "pesapal", "kadi", "link"),
}


def sales_start(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """An answer to the sale's pending question, "did my payment go through?", or a new wish."""
    turn = Turn(state, runtime, "sales_start")
    if state.route in ("answer", "maybe_answer") and state.pending in SALES_PENDING:
        turn.set(step="pending_answer")
        return turn.done()
    slots = state.understanding.get("slots", {})
    if slots.get("coupon_code"):
        turn.set(pending_coupon=slots["coupon_code"])
    if state.route == "payment_event":
        turn.set(step="payment_event")
    elif state.route == "catalog_order":
        turn.set(step="catalog_order")
    elif state.intent == "payment_help":
        turn.set(step="payment_status")
    else:
        # a new search starts a new sale: nothing of the last one (item, delivery, payment) is assumed
        _new_sale(turn)
        turn.set(step="sales_narrow_query")
    return turn.done()


def _new_sale(turn: Turn) -> None:
    """Nothing of the last sale (item, delivery, payment) is assumed in a new one."""
    turn.set(cart=[], selected_item={}, delivery={}, payment_method=None, payment_phone=None)


def pending_answer(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """Selection, variant, delivery, payment method, confirmation: the steps after the shortlist
    (catalog_get_item, product_disambiguate, order_create, offers, payment_router) as the answer
    requires. A reply that answers nothing goes back to be classified."""
    turn = Turn(state, runtime, "pending_answer")
    if not _answer(turn):
        turn.set(route="reclassify")
    return turn.done()


def catalog_order(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """A cart sent from the shop's WhatsApp catalog (its product retailer ids are our item ids).

    Every product is read with catalog_get_item: the order is built from the catalog's prices and
    stock, never from the prices inside the cart. Products that are gone or sold out are named; the
    rest continue like any selection (missing variants and delivery asked, order created, payment)."""
    turn = Turn(state, runtime, "catalog_order")
    wanted: dict[str, int] = {}
    for entry in state.inbound.get("order_items") or []:
        item_id, quantity = str(entry.get("product_retailer_id") or "").strip(), int(entry.get("quantity") or 0)
        if item_id and quantity > 0:
            wanted[item_id] = wanted.get(item_id, 0) + quantity
    _new_sale(turn)
    turn.set(order_id=None)
    cart: list[dict[str, Any]] = []
    unavailable: list[str] = []
    for item_id, quantity in list(wanted.items())[:MAX_CART_LINES]:
        result = turn.tool("catalog_get_item", item_id=item_id)
        if not result["ok"]:
            if result["error"]["code"] != "not_found":
                turn.say(text(t(turn, "tool_error")))
                return turn.done()
            unavailable.append(item_id)
            continue
        item = result["data"]
        if not item["in_stock"]:
            turn.say(text(t(turn, "out_of_stock", name=item["name"])))
            continue
        cart.append({"item_id": item_id, "quantity": quantity, "variant_selection": {}, "item": _snapshot(item)})
    if unavailable:
        turn.say(text(t(turn, "cart_items_unknown", count=len(unavailable))))
    if not cart:
        turn.say(text(t(turn, "cart_empty")))
        turn.set(pending=None, pending_options=[])
        return turn.done()
    turn.trace.append({"kind": "step", "node": "catalog_order", "lines": len(cart), "unavailable": len(unavailable)})
    turn.set(cart=cart, selected_item=cart[0]["item"], selected_item_ids=[line["item_id"] for line in cart])
    turn.set(rejected_shortlists=0, order_totals={})
    _continue_order(turn)
    return turn.done()


def _snapshot(item: dict[str, Any]) -> dict[str, Any]:
    """What the later steps of a sale need of an item (kept small: it lives in the checkpoint)."""
    return {k: item[k] for k in ("item_id", "name", "price", "type", "variants")}


PAYMENT_PENDING = ("payment_method", "payment_confirmation", "mpesa_number")


class PaymentEventUnreadable(RuntimeError):
    """The order behind a payment event could not be read: the queue delivers the event again."""


def payment_event(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """A payment's outcome (callback, IPN or STK query, from the payments function), told from the
    order record in the conversation's language: the receipt when paid; otherwise that nothing was
    paid, with a retry offer the customer answers with "yes" (or a tap) and the Paybill steps."""
    turn = Turn(state, runtime, "payment_event")
    event = dict(state.inbound.get("payment") or {})
    order_id, status = str(event.get("order_id") or ""), str(event.get("status") or "")
    result = turn.tool("order_get_status", customer_id=state.customer_id, order_ref=order_id)
    if not result["ok"]:
        raise PaymentEventUnreadable(f"order of a payment event unreadable: {result['error']['code']}")
    order = result["data"]["orders"][0]
    payments = order["payments"] or []
    paid = next((p for p in reversed(payments) if p["status"] == "paid"), None)
    lang, fallback = turn.lang, str(turn.get("sheng_fallback"))
    free = state.pending is None or state.pending in PAYMENT_PENDING  # no other question of ours is open
    if status == "paid" or paid is not None:
        if paid is None:  # the event ran ahead of the record: the queue delivers it again
            raise PaymentEventUnreadable("a paid event for an order with no paid payment")
        if status != "paid":
            return turn.done()  # an older attempt failed, but the order is paid: nothing to tell
        facts = {"amount": money(paid["amount"]), "ref": order["order_ref"], "receipt": paid["receipt"] or "-"}
        turn.say(text(payment_outcome("paid", lang, fallback, method=paid["method"], **facts)))
        if state.order_id == order_id:
            turn.set(payment_status="paid")
            if state.pending in PAYMENT_PENDING:
                turn.set(pending=None, pending_options=[])
        return turn.done()
    outcome = payment_outcome(status, lang, fallback, amount=money(order["amount_due"]), ref=order["order_ref"])
    failed = next((p for p in reversed(payments) if p["status"] == status), None)
    if not free:
        # the customer is answering another question of ours: tell them, without taking it over
        turn.say(text(outcome))
        return turn.done()
    turn.set(order_id=order_id, order_totals={"total": order["total"], "amount_due": order["amount_due"]})
    turn.set(payment_status=status)
    if failed is not None and failed["method"] == "mpesa_stk":
        options = [
            ("confirm:yes", t(turn, "retry_prompt")),
            ("confirm:other", t(turn, "confirm_other_number")),
            ("confirm:no", t(turn, "no_thanks")),
        ]
        turn.say(buttons(outcome, options))
        turn.set(
            pending="payment_confirmation",
            pending_options=[{"id": i, "title": title} for i, title in options],
            payment_method="mpesa_stk",
        )
    else:
        turn.say(text(outcome))
        _ask_payment_method(turn, {"order_id": order_id})
    steps = turn.tool("payment_get_c2b_instructions", order_id=order_id)
    if steps["ok"]:
        turn.say(text(c2b_instructions(steps["data"], lang, fallback)))
    return turn.done()


def payment_status(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "payment_status")
    _payment_help(turn)
    return turn.done()


def sales_narrow_query(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """A catalog search request, or one clarifying question (the model's when it has one)."""
    turn = Turn(state, runtime, "sales_narrow_query")
    slots = dict(state.understanding.get("slots", {}))
    query = slots.get("query")
    model_query = None
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
            # budgets the customer typed are read deterministically and win over the model's
            slots = {"budget_max": out.filters.max_price, "budget_min": out.filters.min_price} | {
                k: v for k, v in slots.items() if v
            }
        elif out is not None and out.action == "clarify" and not query and not slots.get("asked_for_everything"):
            question = (out.question or "").strip()
            if question and len(question) <= 300 and not unsupported_facts(question):
                turn.set(scratch={"question": question}, step="ask_clarifying_question")
                return turn.done()
    if not (model_query or query) and not slots.get("asked_for_everything"):
        turn.set(step="ask_clarifying_question")
        return turn.done()
    turn.set(
        scratch={
            "query": model_query or query or "",
            "slots": slots,
            "fallback_query": query if model_query and query != model_query else None,
        },
        step="catalog_search",
    )
    return turn.done()


def ask_clarifying_question(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    turn = Turn(state, runtime, "ask_clarifying_question")
    question = state.scratch.get("question")
    if question:
        turn.trace.append({"kind": "step", "node": "sales_narrow_query", "action": "clarify", "by": "model"})
        turn.say(text(question))
        turn.set(
            pending=None,
            pending_options=[],
            clarification_loops=state.clarification_loops + 1,
            clarified_once=True,
        )
    else:
        _ask_category(turn)
    return turn.done()


def catalog_search(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
    """catalog_search, then the shortlist (catalog_present_options) with the catalog link rules."""
    turn = Turn(state, runtime, "catalog_search")
    work = state.scratch
    _search(turn, work["query"], work["slots"], fallback_query=work.get("fallback_query"))
    return turn.done()


def _ask_category(turn: Turn) -> None:
    services = turn.ctx.services
    tenant = services.tenants.get(turn.ctx.tenant_id)
    index = services.catalog_indexes.get(turn.ctx.tenant_id, tenant.catalog_version)
    shown = [c.title() for c in index.categories][:10]
    turn.trace.append({"kind": "step", "node": "sales_narrow_query", "action": "clarify"})
    turn.say(listing(t(turn, "ask_what"), [(f"cat:{c}", c, None) for c in shown], button=t(turn, "shortlist_button")))
    turn.set(
        pending="category",
        pending_options=[{"id": f"cat:{c}", "title": c} for c in shown],
        clarification_loops=turn.state.clarification_loops + 1,
        clarified_once=True,
    )


def _search(
    turn: Turn, query: str, slots: dict[str, Any], *, category: str | None = None, fallback_query: str | None = None
) -> None:
    s = turn.state
    filters: dict[str, Any] = {"in_stock_only": True}
    if slots.get("budget_max"):
        filters["max_price"] = slots["budget_max"]
    if slots.get("budget_min"):
        filters["min_price"] = slots["budget_min"]
    if category:
        filters["category"] = category
    turn.trace.append({"kind": "step", "node": "sales_narrow_query", "action": "search", "query": query})
    result = turn.tool("catalog_search", query=query, filters=filters, limit=MAX_SHORTLIST_ITEMS)
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return
    data = result["data"]
    if not data["results"] and fallback_query:
        _search(turn, fallback_query, slots, category=category)  # the model's query found nothing; try the words
        return
    if not data["results"]:
        unfiltered = turn.tool("catalog_search", query=query, limit=3)
        if unfiltered["ok"] and unfiltered["data"]["results"]:
            turn.say(text(t(turn, "out_of_stock", name=unfiltered["data"]["results"][0]["name"])))
        else:
            turn.say(text(t(turn, "no_results", query=_echo(query or category or ""))))
        if data.get("catalog_link"):
            turn.say(text(t(turn, "catalog_link", link=data["catalog_link"])))
        turn.set(pending=None, pending_options=[])
        return
    rejected = s.rejected_shortlists + (1 if s.pending == "item_selection" else 0)
    results = data["results"][:MAX_SHORTLIST_ITEMS]
    rows = []
    for item in results:
        detail = money(item["price"])
        if item["low_stock"]:
            detail += t(turn, "in_stock_few", n=item["stock"])
        rows.append((f"item:{item['item_id']}", item["name"], detail))
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
            footer=t(turn, "shortlist_footer", n=n),
        )
    )
    show_link = should_show_catalog_link(
        has_link=bool(data.get("catalog_link")),
        total_matches=data["total_matches_estimate"],
        clarifications_asked=1 if s.last_catalog_query else 0,
        asked_for_everything=bool(slots.get("asked_for_everything")),
        search_confidence=data["confidence"],
        rejected_shortlists=rejected,
    )
    if show_link:
        turn.say(text(t(turn, "catalog_link", link=data["catalog_link"])))
    turn.set(
        last_catalog_query=query,
        last_catalog_filters=filters,
        catalog_total_matches_estimate=data["total_matches_estimate"],
        last_catalog_results=[{k: r[k] for k in ("item_id", "name", "price", "in_stock", "type")} for r in results],
        pending="item_selection",
        pending_options=[{"id": f"item:{r['item_id']}", "title": r["name"]} for r in results],
        rejected_shortlists=rejected,
    )


# answers to pending questions ------------------------------------------------------------------
def _chosen_option(turn: Turn) -> dict[str, Any] | None:
    """The option the customer picked: by button/list id, by number, or by name."""
    s = turn.state
    options = s.pending_options
    reply_id = s.inbound.get("reply_id")
    if reply_id:
        return next((o for o in options if o["id"] == reply_id), None)
    choice = s.understanding.get("choice")
    if choice is not None:
        return options[choice - 1] if 1 <= choice <= len(options) else None
    body = normalize(inbound_text(s))
    if not body or not options:
        return None
    titles = [normalize(o["title"]) for o in options]
    exact = [o for o, title in zip(options, titles, strict=True) if title == body or title in body.split(" , ")]
    if exact:
        return exact[0]
    best = process.extractOne(body, titles, scorer=fuzz.WRatio, score_cutoff=86)
    return options[best[2]] if best else None


def _answer(turn: Turn) -> bool:
    s = turn.state
    pending = s.pending
    fast = s.understanding.get("fast")
    body = inbound_text(s)
    if pending == "item_selection":
        option = _chosen_option(turn)
        if option is not None:
            _select(turn, option["id"].split(":", 1)[1], body)
            return True
        slots = extract_slots(body).__dict__
        if _names_products(turn, slots.get("query")) or slots.get("budget_max"):  # a new wish: search again
            query = slots.get("query") or s.last_catalog_query or ""
            _search(turn, query, {k: v for k, v in slots.items() if v})
            return True
        return False
    if pending == "category":
        option = _chosen_option(turn)
        if option is None:
            return False
        _search(turn, "", {}, category=option["title"])
        return True
    if pending == "variant":
        option = _chosen_option(turn) or _option_named_in(turn, body)
        if option is None:
            return False
        cart = [dict(line) for line in s.cart]
        line = cart[int(option.get("line", 0))]
        line["variant_selection"] = {**line.get("variant_selection", {}), option["dimension"]: option["title"]}
        turn.set(cart=cart)
        _continue_order(turn)
        return True
    if pending == "delivery_mode":
        mode = _mode_from(turn, body)
        if mode is None:
            return False
        delivery: dict[str, Any] = {"mode": mode}
        place = extract_slots(body).place
        if mode == "delivery" and place and len(normalize(place).split()) > 1:
            delivery["address_text"] = place  # "niletee Kilimani": the answer and the address in one
        turn.set(delivery=delivery)
        _continue_order(turn)
        return True
    if pending in ("delivery_address", "delivery_zone"):
        option = _chosen_option(turn) if pending == "delivery_zone" else None
        address = option["title"] if option else body.strip()
        if not address or (fast in ("yes", "no")):
            return False
        turn.set(delivery={**s.delivery, "mode": "delivery", "address_text": address[:300]})
        _continue_order(turn)
        return True
    if pending == "payment_method":
        option = _chosen_option(turn)
        method = option["id"].split(":", 1)[1] if option else _method_named_in(body, s.pending_options)
        if method is None:
            return False
        _payment_router(turn, method)
        return True
    if pending == "payment_confirmation":
        reply_id = s.inbound.get("reply_id")
        phone = extract_slots(body).phone
        if phone:
            return _set_mpesa_number(turn, phone)
        if fast == "yes" or reply_id == "confirm:yes" or s.understanding.get("choice") == 1:
            _stk_push(turn)
            return True
        if reply_id == "confirm:other" or s.understanding.get("choice") == 2:
            turn.say(text(t(turn, "ask_mpesa_number")))
            turn.set(pending="mpesa_number", pending_options=[])
            return True
        if fast == "no" or reply_id == "confirm:no" or s.understanding.get("choice") == 3:
            turn.say(text(t(turn, "payment_cancelled_ok", ref=s.order_id or "")))
            turn.set(pending=None, pending_options=[])
            return True
        return False
    if pending == "mpesa_number":
        phone = extract_slots(body).phone or body.strip()
        if not any(ch.isdigit() for ch in phone):
            return False
        return _set_mpesa_number(turn, phone)
    return False


def _echo(words: str, limit: int = 40) -> str:
    """The customer's words quoted back, never a wall of text."""
    return words if len(words) <= limit else words[: limit - 3].rstrip() + "..."


def _names_products(turn: Turn, query: str | None) -> bool:
    """Whether words name something the shop sells ("the samsung one"), not another topic ("how are
    refunds paid?", which goes back to be classified)."""
    if not query:
        return False
    services = turn.ctx.services
    index = services.catalog_indexes.get(turn.ctx.tenant_id, services.tenants.get(turn.ctx.tenant_id).catalog_version)
    return any(term in index.product_terms for term in terms(query))


def _option_named_in(turn: Turn, body: str) -> dict[str, Any] | None:
    """The pending option the customer named ("black", "nyeusi", "the 256GB one"), if exactly one fits."""
    words = " ".join(COLOURS.get(w, w) for w in normalize(body).split())
    options = turn.state.pending_options
    for option in options:
        if normalize(option["title"]) in words.split() or f" {normalize(option['title'])} " in f" {words} ":
            return option
    said = {w for w in words.split() if len(w) >= 3}
    partial = [o for o in options if said & {COLOURS.get(w, w) for w in normalize(o["title"]).split()}]
    return partial[0] if len(partial) == 1 else None


def _mode_from(turn: Turn, body: str) -> str | None:
    reply_id = turn.state.inbound.get("reply_id")
    if reply_id in ("mode:delivery", "mode:pickup"):
        return str(reply_id).split(":")[1]
    choice = turn.state.understanding.get("choice")
    if choice in (1, 2) and turn.state.pending_options:
        return str(turn.state.pending_options[choice - 1]["id"]).split(":")[1]
    plain = normalize(body)
    if any_phrase(plain, DELIVERY_WORDS) or plain in ("delivery", "tukuletee", "deliver"):
        return "delivery"
    if any_phrase(plain, PICKUP_WORDS) or plain in ("pickup", "nitachukua"):
        return "pickup"
    return None


def _method_named_in(body: str, options: list[dict[str, Any]]) -> str | None:
    plain = normalize(body)
    enabled = [o["id"].split(":", 1)[1] for o in options]
    for method in ("mpesa_c2b", "pesapal", "mpesa_stk"):  # "paybill" before the plain "mpesa"
        if method in enabled and any(w in plain for w in METHOD_WORDS[method]):
            return method
    return None


# steps -----------------------------------------------------------------------------------------
def _select(turn: Turn, item_id: str, body: str) -> None:
    result = turn.tool("catalog_get_item", item_id=item_id)
    turn.trace.append({"kind": "step", "node": "catalog_get_item", "item_id": item_id})
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return
    item = result["data"]
    if not item["in_stock"]:
        turn.say(text(t(turn, "out_of_stock", name=item["name"])))
        turn.set(pending=None, pending_options=[])
        return
    plain = normalize(body)
    preset = {v["name"]: opt for v in item["variants"] for opt in v["options"] if normalize(opt) in plain}
    quantity = extract_slots(body).quantity or 1
    turn.set(
        selected_item=item,
        selected_item_ids=[item_id],
        rejected_shortlists=0,
        cart=[{"item_id": item_id, "quantity": quantity, "variant_selection": preset}],
        order_id=None,
        order_totals={},
    )
    _continue_order(turn)


def _continue_order(turn: Turn) -> None:
    """product_disambiguate: ask only for what is missing, then create the order."""
    s = turn.state
    cart = turn.get("cart")
    items = [line.get("item") or turn.get("selected_item") for line in cart]
    for index, (line, item) in enumerate(zip(cart, items, strict=True)):
        for variant in item["variants"]:
            if variant["name"] in line.get("variant_selection", {}):
                continue
            if len(variant["options"]) == 1:  # nothing to choose: never ask
                cart = [dict(c) for c in cart]
                cart[index]["variant_selection"] = {
                    **line.get("variant_selection", {}),
                    variant["name"]: variant["options"][0],
                }
                line = cart[index]
                turn.set(cart=cart)
                continue
            options = [
                {"id": f"var:{index}:{variant['name']}:{o}", "title": o, "dimension": variant["name"], "line": index}
                for o in variant["options"]
            ]
            body = f"{item['name']} - {money(item['price'])}\n" + t(turn, "ask_variant", dimension=variant["name"])
            if len(options) <= 3 and all(len(o["title"]) <= 20 for o in options):
                turn.say(buttons(body, [(o["id"], o["title"]) for o in options]))
            else:
                turn.say(listing(body, [(o["id"], o["title"], None) for o in options], button=variant["name"][:20]))
            turn.set(pending="variant", pending_options=options)
            return
    delivery = dict(turn.get("delivery") or {})
    if any(item["type"] != "service" for item in items):
        slots = s.understanding.get("slots", {})
        if not delivery.get("mode") and slots.get("wants_delivery") is not None:
            delivery["mode"] = "delivery" if slots["wants_delivery"] else "pickup"
            if slots.get("place") and slots["wants_delivery"]:
                delivery["address_text"] = slots["place"]
        if not delivery.get("mode"):
            options = [
                {"id": "mode:delivery", "title": t(turn, "delivery")},
                {"id": "mode:pickup", "title": t(turn, "pickup")},
            ]
            turn.say(buttons(t(turn, "ask_delivery_mode"), [(o["id"], o["title"]) for o in options]))
            turn.set(pending="delivery_mode", pending_options=options, delivery=delivery)
            return
        if delivery["mode"] == "delivery" and not delivery.get("address_text"):
            turn.say(text(t(turn, "ask_address")))
            turn.set(pending="delivery_address", pending_options=[], delivery=delivery)
            return
    args: dict[str, Any] = {
        "customer_id": s.customer_id,
        "items": [
            {
                "item_id": line["item_id"],
                "quantity": line["quantity"],
                **({"variant_selection": line["variant_selection"]} if line.get("variant_selection") else {}),
            }
            for line in cart
        ],
    }
    if delivery.get("mode"):
        args["delivery"] = {k: v for k, v in delivery.items() if k in ("mode", "address_text") and v}
    result = turn.tool("order_create", **args)
    turn.set(delivery=delivery)
    if not result["ok"]:
        error = result["error"]
        if error["code"] == "out_of_stock":
            short = (error.get("details") or {}).get("item_id")
            name = next((i["name"] for i in items if i.get("item_id", short) == short), items[0]["name"])
            available = (error.get("details") or {}).get("available")
            if available:
                turn.say(text(t(turn, "only_n_left", name=name, n=available)))
            else:
                turn.say(text(t(turn, "out_of_stock", name=name)))
        else:
            turn.say(text(t(turn, "tool_error")))
        turn.set(pending=None, pending_options=[])
        return
    order = result["data"]
    missing = {f["field"]: f["options"] for f in order["next_required_fields"]}
    if "delivery.zone" in missing:
        options = [{"id": f"zone:{z}", "title": z} for z in missing["delivery.zone"]]
        turn.say(
            listing(t(turn, "ask_zone"), [(o["id"], o["title"], None) for o in options], button=t(turn, "delivery"))
        )
        turn.set(pending="delivery_zone", pending_options=options)
        return
    if "delivery.address_text" in missing or "delivery.mode" in missing:
        turn.say(text(t(turn, "ask_address")))
        turn.set(pending="delivery_address", pending_options=[], delivery={"mode": "delivery"})
        return
    turn.set(order_id=order["order_id"], order_totals={**order["totals"], "amount_due": order["amount_due"]})
    turn.trace.append({"kind": "step", "node": "order_create", "order_ref": order["order_ref"]})
    code = turn.get("pending_coupon")
    if code:
        applied = turn.tool(
            "order_apply_coupon", customer_id=s.customer_id, order_id=order["order_id"], coupon_code=code
        )
        turn.set(pending_coupon=None)
        if applied["ok"]:
            order = applied["data"]
            turn.set(order_totals={**order["totals"], "amount_due": order["amount_due"]})
        else:
            reason = applied["error"].get("reason", "unknown_code")
            turn.say(text(t(turn, "coupon_rejected", code=code, reason=word(COUPON_REASONS, reason, turn.lang))))
    turn.say(text(order_summary(turn, order)))
    offers = turn.tool("offers_get_applicable", customer_id=s.customer_id, order_id=order["order_id"])
    if offers["ok"] and not order.get("offer"):
        usable = [o for o in offers["data"]["offers"] if o["eligible"] and o["code"]]
        if usable:
            turn.say(text(t(turn, "offer_hint", code=usable[0]["code"], title=usable[0]["title"])))
    _ask_payment_method(turn, order)


def order_summary(turn: Turn, order: dict[str, Any]) -> str:
    lines = "\n".join(
        f"{line['quantity']} x {line['name']}"
        + (f" ({', '.join(line['variant_selection'].values())})" if line["variant_selection"] else "")
        + f": {money(line['line_total'])}"
        for line in order["lines"]
    )
    totals, delivery = order["totals"], order["delivery"]
    if delivery["mode"] == "delivery":
        delivery_line = t(turn, "delivery_line", zone=delivery["zone"], eta=delivery["eta"], fee=money(delivery["fee"]))
    elif delivery["mode"] == "pickup":
        delivery_line = t(turn, "pickup_line", eta=delivery["eta"] or "")
    else:
        delivery_line = ""
    discount_line = (
        t(turn, "discount_line", offer=order["offer"]["title"], discount=money(totals["discount"]))
        if order.get("offer") and totals["discount"]
        else ""
    )
    return t(
        turn,
        "order_summary",
        ref=order["order_ref"],
        lines=lines,
        subtotal=money(totals["subtotal"]),
        delivery_line=delivery_line,
        discount_line=discount_line,
        total=money(totals["total"]),
    )


def _ask_payment_method(turn: Turn, order: dict[str, Any]) -> None:
    methods = turn.tool("payment_get_methods", order_id=order["order_id"])
    if not methods["ok"] or not methods["data"]["methods"]:
        turn.say(text(t(turn, "tool_error")))
        return
    options = [
        {"id": f"pay:{m['method']}", "title": t(turn, f"method_{m['method']}")} for m in methods["data"]["methods"]
    ]
    turn.say(
        buttons(
            t(turn, "ask_payment_method", amount=money(methods["data"]["amount_due"])),
            [(o["id"], o["title"]) for o in options],
        )
    )
    turn.set(pending="payment_method", pending_options=options)


def _payment_router(turn: Turn, method: str) -> None:
    """payment_router: confirm before an M-Pesa prompt; give exact Paybill steps; give the card link."""
    s = turn.state
    turn.set(payment_method=method)
    turn.trace.append({"kind": "step", "node": "payment_router", "next_action": method})
    if not s.order_id:
        turn.say(text(t(turn, "no_open_order")))
        turn.set(pending=None, pending_options=[])
        return
    if method == "mpesa_stk":
        phone = turn.get("payment_phone") or s.phone_e164
        try:
            to_mpesa_msisdn(phone or "")
        except InvalidInput:
            turn.say(text(t(turn, "ask_mpesa_number")))
            turn.set(pending="mpesa_number", pending_options=[])
            return
        _confirm_stk(turn, phone or "")
        return
    if method == "mpesa_c2b":
        result = turn.tool("payment_get_c2b_instructions", order_id=s.order_id)
        if not result["ok"]:
            _payment_not_started(turn, "M-Pesa")
            return
        turn.say(text(c2b_instructions(result["data"], turn.lang, str(turn.get("sheng_fallback")))))
        turn.set(pending=None, pending_options=[], payment_status="pending")
        return
    result = turn.tool("payment_create_pesapal_checkout", order_id=s.order_id)
    if not result["ok"]:
        _payment_not_started(turn, "PesaPal")
        return
    checkout = result["data"]
    turn.say(
        text(
            t(
                turn,
                "card_link",
                amount=money(checkout["amount"]),
                ref=checkout["order_ref"],
                link=checkout["checkout_url"],
            )
        )
    )
    turn.set(
        pending=None, pending_options=[], payment_request_id=checkout["payment_request_id"], payment_status="pending"
    )


def _confirm_stk(turn: Turn, phone: str) -> None:
    totals = turn.get("order_totals")
    options = [
        ("confirm:yes", t(turn, "confirm_yes")),
        ("confirm:other", t(turn, "confirm_other_number")),
        ("confirm:no", t(turn, "no_thanks")),
    ]
    turn.say(
        buttons(
            t(
                turn,
                "confirm_stk",
                amount=money(totals["amount_due"]),
                ref=turn.state.order_id,
                phone=mask_phone(phone),
            ),
            options,
        )
    )
    turn.set(pending="payment_confirmation", pending_options=[{"id": i, "title": ti} for i, ti in options])


def _set_mpesa_number(turn: Turn, raw: str) -> bool:
    try:
        msisdn = to_mpesa_msisdn(raw)
    except InvalidInput:
        turn.say(text(t(turn, "bad_mpesa_number")))
        turn.set(pending="mpesa_number", pending_options=[])
        return True
    turn.set(payment_phone="+" + msisdn)
    _confirm_stk(turn, "+" + msisdn)
    return True


def _stk_push(turn: Turn) -> None:
    s = turn.state
    phone = turn.get("payment_phone") or s.phone_e164
    result = turn.tool(
        "payment_initiate_stk_push", order_id=s.order_id, phone_e164=phone, amount=s.order_totals["amount_due"]
    )
    turn.set(pending=None, pending_options=[])
    if result["ok"]:
        stk = result["data"]
        turn.say(
            text(t(turn, "stk_sent", amount=money(stk["amount"]), phone=stk["phone_masked"], ref=stk["order_ref"]))
        )
        turn.set(payment_request_id=stk["payment_request_id"], payment_status="pending")
    elif result["error"]["code"] == "payment_in_progress":
        turn.say(text(t(turn, "stk_pending_already", ref=s.order_id)))
    else:
        # nothing was charged: say so, and keep the confirmation open so "yes" tries again (a second
        # failure in a row goes to a person instead)
        if (turn.tool_errors or 0) < CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE:
            turn.say(text(t(turn, "payment_unavailable", provider="M-Pesa")))
            _confirm_stk(turn, phone or "")
        else:
            turn.say(text(t(turn, "payment_unavailable_again", provider="M-Pesa")))


def _payment_not_started(turn: Turn, provider: str) -> None:
    """A payment step failed on our side or the provider's: nothing was charged; choose again."""
    if (turn.tool_errors or 0) < CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE:
        turn.say(text(t(turn, "payment_unavailable", provider=provider)))
        turn.set(pending="payment_method")  # the same choices stay open
    else:
        turn.say(text(t(turn, "payment_unavailable_again", provider=provider)))


def _payment_help(turn: Turn) -> None:
    """ "Did it go through?" answered from the payment record, or explained as pending."""
    s = turn.state
    if not s.order_id:
        turn.say(text(t(turn, "no_open_order")))
        return
    result = turn.tool("order_get_status", customer_id=s.customer_id, order_ref=s.order_id)
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return
    order = result["data"]["orders"][0]
    payments = order["payments"] or []
    paid = next((p for p in reversed(payments) if p["status"] == "paid"), None)
    last = payments[-1] if payments else None
    method = (paid or {}).get("method")
    if order["payment_status"] == "paid" or paid is not None:
        status, amount, receipt = "paid", (paid or {}).get("amount", order["total"]), (paid or {}).get("receipt")
    else:
        status = last["status"] if last else "pending"
        amount, receipt = order["total"], None
    lang, fallback = turn.lang, str(turn.get("sheng_fallback"))
    turn.say(
        text(
            payment_outcome(
                status,
                lang,
                fallback,
                amount=money(amount),
                ref=order["order_ref"],
                receipt=receipt or "-",
                method=method,
            )
        )
    )
    if status != "pending":
        turn.set(payment_status=status)
    if status in ("failed", "cancelled", "timeout"):
        _ask_payment_method(turn, {"order_id": s.order_id})


sales = as_node(
    "sales",
    journey_graph(
        "sales",
        {
            "sales_start": sales_start,
            "pending_answer": pending_answer,
            "payment_status": payment_status,
            "catalog_order": catalog_order,
            "payment_event": payment_event,
            "sales_narrow_query": sales_narrow_query,
            "ask_clarifying_question": ask_clarifying_question,
            "catalog_search": catalog_search,
        },
        {
            "sales_start": ["pending_answer", "payment_status", "catalog_order", "payment_event", "sales_narrow_query"],
            "sales_narrow_query": ["ask_clarifying_question", "catalog_search"],
        },
        entry="sales_start",
    ),
)
