"""What the sale's nodes share: the frame of this turn, the shop's options, asking a question of the
sale, and naming items and orders back to the customer (prices only from tool output)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tulia.domain.literals import SaleQuestion
from tulia.domain.phone import to_mpesa_msisdn
from tulia.domain.tenant import Tenant
from tulia.errors import InvalidInput
from tulia.graph.buttons import tap_id
from tulia.graph.calls import Turn
from tulia.graph.frame import FrameLine, OrderFrame, ShopOptions, VariantChoice
from tulia.graph.nodes import t
from tulia.graph.slots import ask
from tulia.nlg.messages import ROW_TITLE_LIMIT, buttons, listing
from tulia.nlg.templates import money
from tulia.nlu.basket_words import (
    as_digits,
    count_in_name,
    measured_count,
    measures_said,
    name_number_said,
    quantity_by_measure,
)
from tulia.nlu.frame_extract import (
    COUNT_UNIT_WORDS,
    COUNT_UNITS,
    DIMENSIONS,
    DOZEN_WORDS,
    MEASURE_UNITS,
    MULTIPLES,
    NUMBER_WORDS,
    SIZE_WORDS_OF_MEASURES,
    FrameDelta,
    QuantitySaid,
    dimension_words,
    extract_quantity,
    measured_options,
    multiple_said,
    residual_words,
    without_negated_counts,
)
from tulia.nlu.lexicon import normalize
from tulia.nlu.rules import product_query
from tulia.search.catalog_index import NUMBERS, CatalogIndex
from tulia.search.measures import is_own_measure, packs_of_pieces, pieces_per_pack
from tulia.search.text import CONNECTORS, OF_FORMS, verb_key, without_brackets
from tulia.search.text import terms as terms_of

PAYMENT_QUESTIONS = ("payment_method", "payment_confirmation", "mpesa_number")

MAX_CART_LINES = 20  # order_create's own limit on lines


def frame_of(turn: Turn) -> OrderFrame:
    """A working copy of the sale's frame (a new one when there is none)."""
    current = turn.get("frame")
    return current.model_copy(deep=True) if isinstance(current, OrderFrame) else OrderFrame()


def shop_of(turn: Turn) -> Tenant:
    """The shop of this conversation (cached by the tenant repository)."""
    return turn.ctx.services.tenants.get(turn.ctx.tenant_id)


def shop_options(turn: Turn) -> ShopOptions:
    return ShopOptions.of(shop_of(turn), turn.text_lang)


def shop_codes(turn: Turn) -> list[str]:
    """The shop's coupon codes (one query: asked only when a message may name one)."""
    return [o.code for o in turn.ctx.services.offers.all_for(turn.ctx.tenant_id) if o.code]


def can_prompt(phone: str | None) -> bool:
    try:
        to_mpesa_msisdn(phone or "")
    except InvalidInput:
        return False
    return True


def ask_sale(
    turn: Turn, frame: OrderFrame, question: SaleQuestion | None, options: list[dict[str, Any]], line: int | None = None
) -> None:
    ask(turn, "frame", frame, question, options, line)


def ask_which_line(turn: Turn, frame: OrderFrame, lines: list[int]) -> None:
    """Which of these lines of the basket (several of one item) to take out: a row each, tapped or named."""
    rows = [(tap_id("drop", str(n)), named_back(frame.lines[n]), None) for n in lines]
    turn.say(listing(t(turn, "which_line"), rows, button=t(turn, "shortlist_button")))
    ask_sale(turn, frame, "which_line", [{"id": row_id, "title": title} for row_id, title, _ in rows])
    turn.set(frame=frame)


def settle_sale_question(turn: Turn) -> None:
    """Nothing is asked any more: neither the conversation's own question nor the sale's (if there is one)."""
    current = turn.get("frame")
    if isinstance(current, OrderFrame):
        ask_sale(turn, current.model_copy(deep=True), None, [])
    else:
        turn.set(question=None, question_options=[])


def variant_title(option: str, deltas: dict[str, int]) -> str:
    delta = deltas.get(option, 0)
    return option if not delta else f"{option} (+{money(delta)})" if delta > 0 else f"{option} (-{money(-delta)})"


def say_option_question(
    turn: Turn, body: str, options: list[tuple[str, str, str]], *, button: str, priced: bool
) -> list[dict[str, Any]]:
    """The one way an option of an item or a service is asked (``options``: id, option, option with its price
    difference): up to three short answers that change no price as buttons, otherwise a list whose rows show
    the price differences. Returns the answers as the question's pending options."""
    if len(options) <= 3 and not priced and all(len(title) <= 20 for _, title, _ in options):
        turn.say(buttons(body, [(i, title) for i, title, _ in options]))
    else:
        rows = [(i, d, None) if len(d) <= ROW_TITLE_LIMIT else (i, title, d) for i, title, d in options]
        turn.say(listing(body, rows, button=button[:20]))
    return [{"id": i, "title": title} for i, title, _ in options]


def named_back(line: FrameLine) -> str:
    """The item picked, named back with its price (and the variants chosen so far)."""
    chosen = ", ".join(line.variant_selection.values())
    delta = sum(v.price_deltas.get(line.variant_selection.get(v.name, ""), 0) for v in line.variants)
    return f"{line.name}{f' ({chosen})' if chosen else ''} - {money(line.price + delta)}"


def _count_besides(text: str, number: int) -> tuple[QuantitySaid | None, list[tuple[int, int]], int, str] | None:
    """The count ``text`` says once ``number`` (a number of a name or option) is blanked out, the same
    length kept: (that count, its spans, where the number was, the blanked text); None when it is not said."""
    said_as = (w for w, n in NUMBER_WORDS.items() if n == number and " " not in w and w not in ("both", "dozen"))
    words = "|".join([str(number), *said_as])
    text = without_negated_counts(text)  # ages and corrected counts blanked (the same length): "turns 7" is no 7
    at = re.search(rf"(?<![\w.])(?:{words})(?![\w.])", text)  # "2" or "two", "mbili"
    if at is None:
        return None
    blank = text[: at.start()] + " " * (at.end() - at.start()) + text[at.end() :]
    said, spans = extract_quantity(blank)
    return said, spans, at.start(), blank


def recount(delta: FrameDelta, body: str, index: CatalogIndex) -> None:
    """A count read that is rather a number of one of the shop's names or options, said beside a word it
    stands beside there ("brown 30 pakiti tatu": the colour Brown 30 and three packs; "gauge 30 box
    profile"): the message's count read again without it, and the number left to the item's words."""
    if delta.quantity is None or delta.quantity.edit != "set":
        return
    number = delta.quantity.value
    names = index.numbered.get(str(number))
    if not names or not count_in_name(body, number, names):
        return
    fitting = index.full_matches(wanted_words(body, delta, index))[0]
    if fitting and not index.numbered_items[str(number)] & set(fitting):
        return  # the words name other items: "photocopy 200 pages" is 200 copies, not binding "up to 200 pages"
    besides = _count_besides(normalize(body), number)
    if besides is None:
        return
    said, spans, at, _blank = besides
    delta.spans = [s for s in delta.spans if not s[0] <= at < s[1]] + spans
    delta.quantity = said


def count_for(item: dict[str, Any], count: int | None, words: str) -> int | None:
    """How many of ``item`` its words say: the count read from them unless that number is one of the
    item's name or options ("gauge 30 box profile", "brown 30", "size 36"), else a measure said as packs ("5kg"
    of "Wire Nails 1kg" is 5)."""
    names = [item["name"], *(f"{v['name']} {o}" for v in item.get("variants") or [] for o in v["options"])]
    if count is not None and (
        count_in_name(words, count, names)
        or _option_beside_a_count(item, count, words)
        or _a_multiple_option(item, count, words)
    ):
        # the count is what else the words say ("pampers size 3 pakiti tatu": three)
        besides = _count_besides(words, count)
        said, rest = (besides[0], besides[3]) if besides is not None else (None, words)
        count = said.value if said is not None and not count_in_name(rest, said.value, names) else None
    size = pieces_per_pack(item["name"])
    tokens = words.split()
    # a pack word of the item's own name counts packs only right beside the count ("pair mbili", "2 pairs" of the
    # "Drum Sticks (pair)"; the "box" of "Staples Box (1000)" said alone is the item's name)
    packs_said = (_PACK_WORDS.intersection(tokens) - set(normalize(item["name"]).split())) | _packs_beside(
        tokens, count
    )
    # an item that is a pack of pieces: as many pieces as fill packs are that many packs ("60 eggs" are two trays
    # of 30); pieces that fill no whole pack ("65 eggs", "a dozen" of a tray of 30) leave it asked
    pieces = count is not None and (count >= (size or 0) or bool(DOZEN_WORDS.intersection(words.split())))
    if count is not None and size is not None and not packs_said and pieces:
        return packs_of_pieces(count, item["name"])
    # an item sold by a measure is counted in it: "vipande 14 vya futi 10" of timber by the foot is 140
    options = [o for v in item.get("variants") or [] for o in v["options"]]
    by_measure = quantity_by_measure(words, item["name"], count, options)
    return by_measure or count or measured_count(words, item["name"])


# the words that count packs ("2 trays", "pakiti tatu"), not pieces ("24 pieces", "2 dozen", "vipande 6")
_PACK_WORDS = COUNT_UNIT_WORDS - {"pcs", "pc", "pieces", "piece", "units", "unit", "vipande", "kipande"} - DOZEN_WORDS


def _packs_beside(said: list[str], count: int | None) -> set[str]:
    """The pack words said next to the count ("pair mbili", "2 pairs", "boxes three")."""
    if count is None:
        return set()
    out = set()
    for n, w in enumerate(said):
        if as_digits(w) == str(count):
            out |= {x for x in said[max(0, n - 1) : n + 2] if x in _PACK_WORDS}
    return out


def _option_beside_a_count(item: dict[str, Any], number: int, words: str) -> bool:
    """``number`` is one of the item's options said bare while another count is said too: "exercise book a5 96,
    vipande vitano" is five books of 96 pages, "braids 27, mifuko kumi" ten packets of colour 27."""
    if not any(str(number) == str(o).casefold() for v in item.get("variants") or [] for o in v["options"]):
        return False
    besides = _count_besides(words, number)
    return besides is not None and besides[0] is not None and besides[0].value != number


def _a_multiple_option(item: dict[str, Any], number: int, words: str) -> bool:
    """``number`` says how many of an option's thing ("pump ya hewa ya outlet mbili": the Double Outlet), not how
    many of the item."""
    for variant in item.get("variants") or []:
        option = multiple_said(words, variant["options"])
        if option is not None and number == MULTIPLES.get(normalize(option).split()[0], 0):
            return True
    return False


def line_from_item(item: dict[str, Any], quantity: int | None = None) -> FrameLine:
    return FrameLine(
        item_id=item["item_id"],
        name=item["name"],
        price=item["price"],
        type=item.get("type", "product"),
        variants=[
            VariantChoice(name=v["name"], options=v["options"], price_deltas=v.get("price_deltas") or {})
            for v in item["variants"]
        ],
        quantity=quantity,
        max_per_order=item.get("max_per_order"),
    )


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


_NUMBER_NAMES = frozenset({"size", "saizi", "number", "namba", "no", "waist", "inch", "model", "gen", "series"})


def count_in_words(words: str, index: CatalogIndex) -> tuple[str, int | None]:
    """ "mkate Festive 1", "sukari 2", "love 4 mandazi", "chapati za 3": the one number (under 100: "unga 200"
    is more likely a price) among words that name the shop's items, that is in none of those items' names or
    options and does not follow a word that numbers ("size", "model"), is how many of it (``("mkate festive",
    1)``); else the words unchanged."""
    said = words.split()
    numbers = [n for n, word in enumerate(said) if word.isdigit()]
    if len(numbers) != 1 or not 0 < int(said[numbers[0]]) < 100:
        return words, None
    at = numbers[0]
    number, rest = said[at], " ".join(said[:at] + said[at + 1 :])
    if not rest or (at and said[at - 1] in _NUMBER_NAMES) or said[at + 1 : at + 2] in ([u] for u in MEASURE_UNITS):
        return words, None  # "size 42", "rosecoco 2 kilo": a size, a measure
    fits, _unknown = index.full_matches(rest)
    counted = next((w for w in said[at + 1 :] if w not in CONNECTORS), None)  # "vifaranga 30 vya kienyeji"
    if not fits or (counted is not None and not index.full_matches(counted)[0]):
        return words, None  # "cake 20 people": the number counts a word the shop does not sell
    for item_id in fits:  # "jordan 4", "belt brown 34": a number of a name or an option
        if number in re.findall(r"[a-z0-9]+", index.item_name(item_id).casefold()):
            return words, None
        if number in index.option_values.get(item_id, frozenset()):
            return words, None
    return rest, int(number)


def with_pack_words(query: str, said: str, index: CatalogIndex) -> str:
    """``query`` with the words of packs the customer counted in ("3 crates of coke", "gorogoro tatu za
    maharagwe") put back when they narrow what the words fit (the names of some of those items use them, not
    all), or when the other words fit nothing and the pack word names some: "coke crate" is the crate of 24, not
    the 2 litre bottle. Elsewhere a pack word only counts."""
    out = query
    plain = normalize(said)
    for word in dict.fromkeys(plain.split()):
        if word not in COUNT_UNIT_WORDS or word in out.split():
            continue
        fitting = index.full_matches(out)[0] if out.strip() else []
        # said after an "of" it is what the thing is, not how many ("sabuni ya kipande": bar soap)
        of = re.search(rf"(?<!\w)(?:{'|'.join(OF_FORMS)}) {re.escape(word)}(?!\w)", plain)
        if of is not None and out.strip():
            phrased = index.full_matches(f"{out} {of.group(0)}")[0]
            if phrased and (not fitting or len(phrased) < len(fitting)):
                out = f"{out} {of.group(0)}"
                continue
        pack_terms = set(index.terms(word))
        # the items the shop names by it: in their names ("gunia": "Maize (90kg bag)") or tags and options
        named_by_it = set(index.full_matches(word)[0])
        named_by_it |= {i for i in fitting if pack_terms & set(index.terms(index.item_name(i)))}
        # the pack word narrows what the words fit: some of those items are named by it, not all ("glass ya
        # iphone 11" is the screen protector, not the screen); or the other words fit nothing and the shop
        # names some of its items by it ("50 copies of this form" at a print shop whose photocopies are "copies")
        if 0 < len(named_by_it & set(fitting)) < len(fitting) or (not fitting and named_by_it):
            out = f"{out} {word}".strip()
    return out


def wanted_words(body: str, delta: FrameDelta, index: CatalogIndex) -> str:
    """The words of a message that may name items: what the frame's extractors did not read, without
    fillers, with the pack words the shop's names use (:func:`with_pack_words`)."""
    return with_pack_words(
        with_dimensions(with_name_numbers(product_query(residual_words(body, delta)), body, delta, index), body, index),
        body,
        index,
    )


def with_dimensions(query: str, body: str, index: CatalogIndex) -> str:
    """``query`` with a size of two dimensions said in the message and named by one of the shop's options joined as
    the shop writes it ("carpet 6 by 9" of the option "6x9 ft": "carpet 6x9"), never two loose numbers."""
    words = query.split()
    for m in DIMENSIONS.finditer(normalize(body)):
        joined = dimension_words(m)
        if joined not in index.option_terms:
            continue
        for number in (as_digits(m.group(1)), as_digits(m.group(2))):
            if number in words:
                words.remove(number)
        words.append(joined)
    return " ".join(words)


def with_name_numbers(query: str, body: str, delta: FrameDelta, index: CatalogIndex) -> str:
    """``query`` with a number of one of the shop's names or options and the word it stands beside put back
    when reading the message's count took them out ("a dozen 96 page exercise books": "96 page" is the
    option pages 96, not a count)."""
    if not query.strip():
        return query
    counted = delta.quantity.value if delta.quantity is not None else None
    out = query
    for number in dict.fromkeys(re.findall(r"(?<![\w.])\d{1,4}(?![\w.])", normalize(body))):
        if int(number) == counted or number in out.split() or number not in index.numbered:
            continue
        words = name_number_said(body, int(number), index.numbered[number])
        if words is not None:
            out = f"{out} {words}"
    return out


def echo_words(words: str, limit: int = 40) -> str:
    """The customer's words quoted back, never a wall of text."""
    return words if len(words) <= limit else words[: limit - 3].rstrip() + "..."


_COUNTING_TERMS = frozenset(terms_of(" ".join(COUNT_UNITS)))
_JOINED = re.compile(r"(\d+)([a-z]+)")


def _pieces_said(term: str, said: set[str]) -> bool:
    m = _JOINED.fullmatch(term)
    return m is not None and m.group(1) in said and m.group(2) in said


LOOSE_WORDS_OF_A_NAME = 3  # words said beside a one-word name that it does not explain, for it to be named


def one_clear_match(
    query: str,
    results: list[dict[str, Any]],
    terms: Callable[[str], list[str]],
    names_of: Callable[[str], frozenset[str]] | None = None,
) -> dict[str, Any] | None:
    """The one result the customer named: every word of its name said, or every word said (but the
    item's own variant options, "mid-back", "blue") in its name and in no other result's."""
    said = set(terms(query))
    if not said:
        return None

    def own_name(r: dict[str, Any]) -> set[str]:  # "redmi note 13 pro" names "Xiaomi Redmi Note 13 Pro" whole
        # what a name says in brackets is how it is packed ("Avocado (each)", "Eggs (tray of 30)"), not its name
        return set(terms(without_brackets(r["name"]))) - set(terms(r.get("brand") or ""))

    # "waliochinjwa" (dress) of the option Dressed; "three gang" of the option 3 Gang
    said_keys = {verb_key(as_digits(t)) for t in said - CONNECTORS}

    measured = " ".join(measures_said(query))
    measure_keys = {verb_key(t) for t in terms(measured)} if measured else set()

    def tag_names(r: dict[str, Any]) -> set[str]:  # what the shop calls it besides its name ("dish soap")
        return set(names_of(r["item_id"])) - set(terms(r.get("category") or "")) if names_of is not None else set()

    def unexplained(r: dict[str, Any]) -> set[str]:  # the words said that are not of its name, brand, tags or options
        variants = r.get("variants") or []
        options = [o for v in variants for o in [v["name"], *v["options"]]]
        if any(measured_options(v["options"]) for v in variants):
            options.append(SIZE_WORDS_OF_MEASURES)  # "vaseline ndogo": its smaller size
        own = {verb_key(t) for t in terms(" ".join([r["name"], r.get("brand") or "", *options]))}
        if measure_keys and (measured_count(query, r["name"]) is not None or is_own_measure(measured, r["name"])):
            own |= measure_keys  # "dish soap 3 litres": three of its litres
        return said_keys - own - {verb_key(t) for t in tag_names(r)}

    def says_all(r: dict[str, Any]) -> bool:
        return not unexplained(r)

    # the one item that says all that was said, some of it by its own name ("vifaranga vya kienyeji improved":
    # Day-old Chicks, breed Kienyeji Improved; "beans with chapati": Beans and Rice, side Chapati, not Chapati)
    # ("vaseline ndogo": Vaseline Petroleum Jelly, its smaller size, when no other result is a Vaseline; "colour
    # 27": the braids, when no other result has that colour)
    def options_only(r: dict[str, Any]) -> bool:
        options = [o for v in r.get("variants") or [] for o in [v["name"], *v["options"]]]
        return said_keys <= {verb_key(t) for t in terms(" ".join(options))}

    whole = [
        r
        for r in results
        if says_all(r) and (said & (own_name(r) | set(terms(r.get("brand") or "")) | tag_names(r)) or options_only(r))
    ]
    # a name of one word among many other words names nothing by itself ("my laptop keeps showing pop ups... fresh
    # windows 11 pro" is no Mecer UPS)
    full = [
        r
        for r in results
        if (name := own_name(r)) and name <= said and (len(name) > 1 or len(unexplained(r)) <= LOOSE_WORDS_OF_A_NAME)
    ]
    if full:
        best = max(full, key=lambda r: len(own_name(r)))
        if sum(1 for r in full if len(own_name(r)) == len(own_name(best))) == 1:
            return whole[0] if not says_all(best) and len(whole) == 1 else best
    if len(whole) == 1:
        return whole[0]

    # of those that say all, the one whose name's words (its sizes aside) were all said ("hardboard" of "Hardboard 3mm
    # 8x4", not of the Panel Pins whose tags say what they fix)
    def words_of_its_name(r: dict[str, Any]) -> set[str]:  # its brand's too: "charger" names no Infinix Charger
        return set(terms(" ".join(w for w in without_brackets(r["name"]).split() if w.isalpha())))

    sizes_aside = [r for r in whole if (name := words_of_its_name(r)) and name <= said]
    if len(sizes_aside) == 1:
        return sizes_aside[0]
    packs_said = set(terms(" ".join(measures_said(query))))
    covering = []
    for r in results:
        variants = r.get("variants") or []
        options = {term for v in variants for option in [v["name"], *v["options"]] for term in terms(option)}
        name = set(terms(r["name"]))
        rest = said - options
        if packs_said and measured_count(query, r["name"]) is not None:
            rest -= packs_said  # "5kg of 4 inch wire nails": the 5kg is five of its 1kg packs
        # words of counting ("pakiti"), numbers in words ("mita kumi") and a number joined to the next word ("30
        # box") name nothing
        rest -= {
            t
            for t in rest - name
            if t in _COUNTING_TERMS or t in NUMBERS or (_JOINED.fullmatch(t) and _pieces_said(t, said))
        }
        if len(rest) >= 2 and rest <= name:
            covering.append(r)
    return covering[0] if len(covering) == 1 else None
