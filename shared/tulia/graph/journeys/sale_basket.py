"""The basket of a sale: several items listed in one message, each its own line; and the basket said
back after every change.

``take_items`` finds the listed items still waiting (``OrderFrame.waiting``) one by one with
catalog_search: an item the words name clearly becomes a line with its own count and options; one the
shop does not sell is said and skipped; one of several that fit is asked about with a shortlist while
the rest wait (the pick comes back here through ``advance``). Prices come from catalog_get_item.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.graph.buttons import tap_id
from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.frame import FrameLine, ItemWish, OrderFrame
from tulia.graph.journeys.booking.nodes import begin_booking
from tulia.graph.journeys.sale_common import (
    MAX_CART_LINES,
    ask_sale,
    ask_which_line,
    count_for,
    count_in_words,
    echo_words,
    frame_of,
    line_from_item,
    named_back,
    one_clear_match,
    with_pack_words,
)
from tulia.graph.nodes import shop_index, t
from tulia.graph.routing import MAX_SHORTLIST_ITEMS
from tulia.graph.state import ConversationState
from tulia.nlg.messages import listing, text
from tulia.nlg.templates import money
from tulia.nlu.basket_words import (
    ItemSaid,
    count_of,
    count_token_value,
    item_words,
    items_said,
    measured_count,
    measures_said,
    quantity_by_measure,
)
from tulia.nlu.frame_extract import (
    COUNT_UNITS,
    MEASURE_UNITS,
    NUMBER_WORDS,
    measures_in_digits,
    named_option,
    option_words,
    says_removal,
)
from tulia.nlu.lexicon import normalize
from tulia.nlu.rules import catalog_evidence, product_query
from tulia.nlu.tagger import Span, tokens
from tulia.search.catalog_index import NEGATIONS, CatalogIndex
from tulia.search.measures import packs_of_an_option, says_a_measure
from tulia.search.text import SHOP_NOUNS, meanings_of


def basket_text(turn: Turn, frame: OrderFrame) -> str:
    """The whole basket, one line per item, as the customer will be asked to pay for it."""
    rows = []
    for line in frame.lines:
        item = named_back(line)
        rows.append(f"{line.quantity} x {item}" if line.quantity else t(turn, "basket_line_unsure", item=item))
    return t(turn, "basket", lines="\n".join(rows))


def add_line(frame: OrderFrame, line: FrameLine, act: str = "add") -> FrameLine:
    """Put a line in the basket. The same item with the same options: a count said sets a line whose count was
    never said ("mna sukari?" then "nataka sukari mbili": two) or one whose count the customer sets ("sukari iwe
    mbili"), and adds to one she had counted ("add 2 more"); the item named again without a count changes nothing. A
    count set for an item said without options is the count of its one line, whatever options that line has."""
    same = [existing for existing in frame.lines if existing.item_id == line.item_id]
    if act == "set" and not line.variant_selection and len(same) == 1 and line.quantity_said and line.quantity:
        same[0].quantity, same[0].quantity_said = line.quantity, True
        return same[0]
    for existing in frame.lines:
        if existing.item_id == line.item_id and existing.variant_selection == line.variant_selection:
            if existing.fixed_quantity or line.quantity is None or not line.quantity_said:
                if existing.quantity is None:
                    existing.quantity = line.quantity
                return existing
            if act == "set" or not existing.quantity_said or existing.quantity is None:
                existing.quantity = line.quantity
            else:
                existing.quantity = min(existing.quantity + line.quantity, 1000)
            existing.quantity_said = True
            return existing
    frame.lines = [*frame.lines, line][:MAX_CART_LINES]
    return line


def take_out(frame: OrderFrame, item_ids: set[str]) -> FrameLine | None:
    """The basket's line of one of these items taken out ("toa jogoo", "X badala ya Y"'s Y), when exactly one
    line is of them."""
    lines = [ln for ln in frame.lines if ln.item_id in item_ids]
    if len(lines) != 1:
        return None
    frame.lines = [ln for ln in frame.lines if ln is not lines[0]]
    return lines[0]


def take_items(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Any]:
    """Find each listed item in turn; ask about the first that needs a choice, the rest waiting."""
    turn = Turn(state, runtime, "take_items")
    frame = frame_of(turn)
    index = shop_index(turn)
    unsold: list[str] = []
    ambiguous: list[FrameLine] = []  # lines of one item, of which she took one out without saying which
    # "remove the tiebacks, just the curtains": beside a line taken out, a line of the basket named is what she keeps
    taking_out = any(w.act == "remove" for w in frame.waiting)

    def search(query: str) -> dict[str, Any] | None:
        found = turn.tool("catalog_search", query=query, filters={}, limit=10)
        return found["data"] if found["ok"] else None

    uncounted: list[FrameLine] = []  # the lines this message added of parts that said no count
    added_now: list[FrameLine] = []  # all the lines this message added
    while frame.waiting:
        wish, frame.waiting = frame.waiting[0], frame.waiting[1:]
        if (
            taking_out
            and wish.act in ("add", "set")
            and wish.quantity is None
            and _names_a_line(wish.text, frame, index)
        ):
            continue
        if wish.act == "set" and wish.quantity is not None and (named_line := line_named(wish.text, frame, index)):
            # "make it 2 tyres only, the mechanic says the rear ones still have life": the basket's tyres, set
            named_line.quantity, named_line.quantity_said = wish.quantity, True
            continue
        if wish.act in ("add", "set") and added_now and _an_option_of(added_now[-1], wish.text, index):
            # "the ramtons cooker with oven, ile ya gas tatu na plate moja ya stima": its burners; "grade 1 la UK" of
            # a bale, whatever act the tagger gives a part with a number in it (no line of the basket is named).
            # "loop bands, mbili za medium na moja ya heavy": the part's count is the line's, which said none
            if wish.quantity is not None and added_now[-1] in uncounted:
                added_now[-1].quantity, added_now[-1].quantity_said = wish.quantity, True
                uncounted.remove(added_now[-1])
            continue
        if added_now and added_now[-1] in uncounted and _measures_the_last_line(added_now[-1], wish):
            # "the obscure glass with the small dots, 6 panes each 2ft by 1.5ft": 18 square feet of that glass
            if added_now[-1] in uncounted:
                uncounted.remove(added_now[-1])
            continue
        listed = find_listed(wish, index, search)
        if listed is None:
            turn.say(text(t(turn, "tool_error")))
            turn.set(frame=frame)
            return turn.goto(END)
        query, count, named, fitting = listed
        # a line taken out, or the one another replaces. One taken out that is in no line is said, never added; one
        # "replaced" that is in no line was wished (the tagger's act is evidence, the basket the proof: "chapati x2
        # mandazi x3" lists two things)
        ids = {named["item_id"]} if named is not None else {r["item_id"] for r in fitting}
        if wish.act == "remove" or (wish.act == "old" and any(ln.item_id in ids for ln in frame.lines)):
            if (gone := take_out(frame, ids)) is None:
                several = [ln for ln in frame.lines if ln.item_id in ids]
                if (
                    len(several) > 1
                ):  # "toa sukari" with two sugars in the basket: which one, asked once the rest is done
                    ambiguous = several
                elif named is not None:
                    turn.say(text(t(turn, "not_in_basket", name=named["name"])))
                continue
            turn.say(text(t(turn, "line_removed", name=gone.name)))
            replacing = next((w for w in frame.waiting if w.act != "old"), None)
            if (
                wish.act == "old"
                and replacing is not None
                and replacing.quantity is None
                and wish_query(replacing.text, None, index)[1] is None  # "jogoo 2 ... badala ya kensalt": two
            ):
                replacing.quantity = gone.quantity  # "mumias badala ya kabras": as many as there were
            continue
        if named is None and not fitting:
            unsold.append(echo_words(query or wish.text))
            continue
        if named is None:
            in_stock = [r for r in fitting if r["in_stock"]][:MAX_SHORTLIST_ITEMS]
            if not in_stock:
                turn.say(text(t(turn, "out_of_stock", name=fitting[0]["name"])))
                continue
            _say_unsold(turn, unsold)
            if frame.lines:
                turn.say(text(basket_text(turn, frame)))
            turn.say(
                listing(
                    t(turn, "which_item", words=echo_words(query)),
                    [(tap_id("item", r["item_id"]), r["name"], money(r["price"])) for r in in_stock],
                    button=t(turn, "shortlist_button"),
                )
            )
            frame.quantity_hint, frame.adding, frame.wish = wish.quantity, True, wish.text
            turn.set(
                last_catalog_query=query,
                last_catalog_results=[
                    {
                        **{k: r[k] for k in ("item_id", "name", "price", "in_stock", "type")},
                        "options": [o for v in r["variants"] for o in v["options"]][:30],
                    }
                    for r in in_stock
                ],
            )
            ask_sale(
                turn,
                frame,
                "item_selection",
                [{"id": tap_id("item", r["item_id"]), "title": r["name"]} for r in in_stock],
            )
            return turn.goto(END)
        got = turn.tool("catalog_get_item", item_id=named["item_id"])
        if not got["ok"]:
            turn.say(text(t(turn, "tool_error")))
            turn.set(frame=frame)
            return turn.goto(END)
        item = got["data"]
        if item["type"] == "service" and item.get("duration_minutes"):  # time is booked, not put in a basket
            if not frame.lines and not frame.waiting:
                _say_unsold(turn, unsold)
                turn.set(frame=frame)
                return begin_booking(turn, item, wish.text)
            turn.say(text(t(turn, "book_separately", name=item["name"])))
            continue
        if not item["in_stock"]:
            turn.say(text(t(turn, "out_of_stock", name=item["name"])))
            continue
        # one of each item of a list said without a count ("ketepa tea plus 3 fresha milk")
        counted = count_for(item, count, wish.text)
        line = line_from_item(item, counted or 1)
        line.quantity_said = counted is not None or not wish.asked  # a thing asked about holds one till she says
        for variant in line.variants:
            said = named_option(wish.text, variant.options, " ".join([item["name"], *(item.get("tags") or [])]))
            if said is not None:
                line.choose(variant.name, said)
            elif counted is None and (packed := packs_of_an_option(measures_in_digits(wish.text), variant.options)):
                # "pilau masala kilo mbili" of one that comes in 100g to 1kg packs: two of the 1kg
                line.choose(variant.name, packed[0])
                line.quantity, line.quantity_said = packed[1], True
        if _describes_the_last_line(frame, line, wish):  # "pots za maua tatu, za plastic, medium": its options
            for name, option in line.variant_selection.items():
                frame.lines[-1].choose(name, option)
            continue
        # a later part that says no count may name again a line this message added with one ("fridge guard moja,
        # stima ya jengo letu inapanda na kushuka": the guard, for her building's power)
        if (again := _said_again(uncounted if counted is not None else added_now, line, wish)) is not None:
            # "a low-smell grey paint for my bedroom. The Sadolin one in dove grey, 2 tins of 4L": one thing, said
            # first as she needs it and then as she wants it
            for name, option in line.variant_selection.items():
                again.choose(name, option)
            if counted is not None:
                again.quantity, again.quantity_said = line.quantity, line.quantity_said
                uncounted.remove(again)
            continue
        added = add_line(frame, line, wish.act)
        if counted is None and wish.act in ("add", "old") and added is line:  # ("old": one replaced that was wished)
            uncounted.append(line)
        if wish.act in ("add", "old") and added is line:
            added_now.append(line)
    _say_unsold(turn, unsold)
    frame.adding, frame.quantity_hint, frame.wish = False, None, None
    if ambiguous and all(line in frame.lines for line in ambiguous):
        ask_which_line(turn, frame, [frame.lines.index(ln) for ln in ambiguous])
        return turn.goto(END)
    if frame.lines:
        turn.say(text(basket_text(turn, frame)))
    turn.trace.append({"kind": "step", "node": "take_items", "lines": len(frame.lines), "unsold": len(unsold)})
    turn.set(frame=frame, selected_item_ids=[ln.item_id for ln in frame.lines], rejected_shortlists=0)
    return turn.goto("advance")


def _an_option_of(line: FrameLine, words: str, index: CatalogIndex) -> bool:
    """Whether a part that follows a line this message added only names options of it, not yet chosen, with no
    thing of the shop that those options' words do not hold ("ile ya gas tatu" of a cooker that comes in "3 Gas 1
    Electric", "grade 1 la UK" of a bale by grade and origin): the options are chosen, and nothing else is looked
    for."""
    named = {
        variant.name: option
        for variant in line.variants
        if variant.name not in line.variant_selection
        and (option := named_option(words, variant.options, line.name)) is not None
    }
    if not named:
        return False
    own = {term for name, option in named.items() for term in index.terms(f"{option} {name}")}
    things = {term for term in index.terms(item_words(words)) if term in index.product_terms}
    if not things <= own:
        return False
    for name, option in named.items():
        line.choose(name, option)
    return True


def _measures_the_last_line(line: FrameLine, wish: ItemWish) -> bool:
    """Whether a part that names no thing (the tagger found none in it) only says how much of the line just added, a
    thing sold by a measure, she wants: its pieces and their measure ("6 panes each 2ft by 1.5ft") or the whole ("30
    metres"); the line's quantity is then that much."""
    if wish.named or wish.act not in ("add", "set") or not says_a_measure(measures_in_digits(wish.text)):
        return False
    chosen = line.variant_selection
    if any(  # "misumari ya inch 3 kilo 5, ya inch 4 kilo 3": the second names another size, another line
        (said := named_option(wish.text, variant.options, line.name)) is not None and said != chosen.get(variant.name)
        for variant in line.variants
    ):
        return False
    options = [o for variant in line.variants for o in variant.options]
    amount = quantity_by_measure(wish.text, line.name, wish.quantity, options)
    if amount is None:
        return False
    line.quantity, line.quantity_said = amount, True
    return True


def _describes_the_last_line(frame: OrderFrame, line: FrameLine, wish: ItemWish) -> bool:
    """Whether a part said without a count of its own only gives options to the line just added of the same item, whose
    options were not said (one thing described over several parts)."""
    last = frame.lines[-1] if frame.lines else None
    return (
        wish.quantity is None
        and wish.act == "add"
        and last is not None
        and last.item_id == line.item_id
        and not last.variant_selection
        and bool(line.variant_selection)
    )


def _said_again(uncounted: list[FrameLine], line: FrameLine, wish: ItemWish) -> FrameLine | None:
    """The line a part before added without a count whose item a later part of the same message names again, with
    no option of it said otherwise: the same thing, said twice ("my walls have cracks... i need filler")."""
    if wish.act != "add":
        return None
    for said in uncounted:
        chosen, now = said.variant_selection, line.variant_selection
        if said.item_id == line.item_id and all(now.get(name, option) == option for name, option in chosen.items()):
            return said
    return None


def _names_a_line(words: str, frame: OrderFrame, index: CatalogIndex) -> bool:
    """Whether every word of a wish that names things is in one line of the basket (its name and options)."""
    return bool(_lines_named(words, frame, index))


def line_named(words: str, frame: OrderFrame, index: CatalogIndex) -> FrameLine | None:
    """The one line of the basket every word of a wish that names things is in, if only one is."""
    named = _lines_named(words, frame, index)
    return named[0] if len(named) == 1 else None


def _lines_named(words: str, frame: OrderFrame, index: CatalogIndex) -> list[FrameLine]:
    said = {t for t in index.terms(item_words(words)) if t in index.product_terms}
    if not said:
        return []
    return [
        ln for ln in frame.lines if said <= set(index.terms(f"{ln.name} {' '.join(ln.variant_selection.values())}"))
    ]


def listed_items(
    text: str,
    index: CatalogIndex,
    tags: Sequence[Span] = (),
    basket: Sequence[str] = (),
    denied: Collection[int] = (),
) -> list[ItemSaid]:
    """The items a message lists at this shop (:func:`items_said` with the shop's words), a part that
    leaves its thing unsaid taking the kind of the part before it (:func:`_of_the_kind_before`), each with the act
    the token tagger reads for it (``tags``: "toa jogoo na kabras" takes both out). A message that replaces one
    item of the basket (``basket``: its lines' names) with another ("nataka mumias badala ya kabras", "swap the kabras
    for mumias") lists both, as the tagger read them, the replaced one first (its count is the new one's when she says
    none); the tagger's "old" is evidence, a line of the basket it names the proof. A count that is a number of her
    story (``denied``: :func:`counts_denied`) is none."""
    items = items_said(
        text,
        lambda part: bool(catalog_evidence(part, index)),
        index.conjoined,
        # "medium frame in blue, how much?": options in their words (sizes as codes, without the words that ask)
        describes=lambda part: _describes(part, index),
        own_thing=lambda part, before: (
            index.names_by_its_own_name(product_query(part) or part)
            and not index.an_option_of_the_one_named(part, before)
        ),
        one_item=lambda words: bool(index.full_matches(words)[0]),
        fitting=lambda words: set(index.full_matches(words)[0]),
    )
    items = without_denied_counts(items, denied, lambda part: _describes(part, index))
    items = [_of_the_kind_before(item, items[n - 1], index) if n else item for n, item in enumerate(items)]
    said = [s for s in tags if s.kind == "ITEM" and catalog_evidence(normalize(s.text), index)]
    lines = [set(index.terms(name)) for name in basket]
    in_lines = {item_id for name in basket for item_id in index.full_matches(name)[0]}

    def of_a_line(said: str) -> bool:  # its words in a line, or its words fit a line's item ("thinna": Thinner)
        words = normalize(said)
        return any(set(index.terms(words)) <= line for line in lines) or bool(
            set(index.full_matches(product_query(words) or words)[0]) & in_lines
        )

    old = [s for s in said if s.act == "old" and of_a_line(s.text)]
    if old and len(said) > len(items):
        counts, measured = _counts_beside(tags), _measures_beside(tags)
        # each thing once ("si thinna, ni tapentaini... toa thinna weka turpentine": the thinner goes once)
        olds = list({normalize(s.text): s for s in reversed(said) if s.act == "old"}.values())[::-1]
        kept = olds + [s for s in said if s.act not in ("old", HERS)]
        return [
            ItemSaid(f"{normalize(s.text)} {measured[s.start]}", None, s.act or "add")
            if s.start in measured
            else ItemSaid(normalize(s.text), counts.get(s.start), s.act or "add")
            for s in kept
        ]
    in_order = _acts_in_order(
        items,
        said,
        [s for s in tags if s.kind == "OPTION"],
        lambda words: index.only_options(option_words(words)),
        lambda rest: _tells_a_story(rest, index),
    )
    if (
        basket
        and any(item.act == HERS for item in in_order)
        and not any(item.act != HERS and catalog_evidence(item.text, index) for item in in_order)
    ):
        # her story beside a basket and no other thing ("fanya vitatu, kuna chumba kingine"): the rest is the basket's
        unstoried = [s for s in tags if not (s.kind == "ITEM" and s.act == HERS)]
        return listed_items(text, index, unstoried, basket, denied) if unstoried else []
    acted = wished_items(in_order)
    if len(acted) == 1 < len(in_order):
        return []  # one thing wanted beside her story: the message's one wish, read as one (without her story)
    if said:  # the tagger found the message's things: a part where it found none, nor a count, needs catalog proof
        counted = [set(normalize(s.text).split()) for s in tags if s.kind == "QTY"]
        # an option the tagger read in the part ("2kg of putty to fix them": the putty's measure) says it is a thing
        # she wants, when its other words are the shop's
        described = [set(normalize(s.text).split()) for s in tags if s.kind == "OPTION"]
        acted = [
            item
            for item in acted
            if (item.named and not _mostly_unknown(item.named.partition(OPTIONS_MARK)[0], index))
            or item.quantity is not None
            or any(count <= set(item.text.split()) for count in counted)
            or names_one_thing(item.text, index)
            or (
                any(option <= set(item.text.split()) for option in described)
                and _names_the_shops_things(item.text, index)
            )
        ]
    if len(acted) > 1:  # beside things she names, one the shop writes only in descriptions is her story's
        acted = [item for item in acted if not _only_described(item, index)] or acted
    acted = _count_to_its_thing(acted, index, basket)
    if not says_removal(normalize(text)):  # nothing taken out: the tagger's "remove" unsaid is a wish
        acted = [replace(item, act="add") if item.act == "remove" else item for item in acted]
    # a thing replaced is a line of her basket when she speaks: the tagger's "old" without that proof is a wish ("the
    # KCSE past papers book" in an opening read as replaced: once another pick put it in the basket, it was taken out)
    acted = [
        item if item.act != "old" or of_a_line(item.named or item.text) else replace(item, act="add") for item in acted
    ]
    if not basket:  # nothing to replace: the items in the order said
        return acted
    # the item replaced first, so its count is known when the one replacing it comes ("pembe, badala ya jogoo")
    return sorted(acted, key=lambda item: item.act != "old")


def _names_the_shops_things(part: str, index: CatalogIndex) -> bool:
    """Whether a part's words are the shop's: its things' words, or options that some of its things all have ("4
    litres of 10W-40": the engine oil's grade and tin)."""
    query = product_query(part) or part
    return bool(catalog_evidence(query, index)) or bool(index.full_matches(query)[0])


def _only_described(item: ItemSaid, index: CatalogIndex) -> bool:
    """Whether a part's thing, by the tagger's words for it, is in no item's name, tags or options, only in their
    descriptions ("niko na kibanda ya chai na mandazi ... nipe chai masala": the mandazi she makes; "it's a Fielder":
    her car, which the batteries' descriptions name)."""
    thing = item.named.partition(OPTIONS_MARK)[0]
    said = {t for t in index.terms(thing) if t in index.product_terms}
    return bool(said) and not said & index.naming_terms


HERS = "hers"  # the tagger's act of a thing of her story ("my tank is leaking"), not of her wish


def wished_items(items: list[ItemSaid]) -> list[ItemSaid]:
    """The things she wants, without those of her story ("the tank at home leaks, na teflon pia": the teflon); when
    her story names the only things, they are what she wants ("my phone died, I need a new one")."""
    wished = [item for item in items if item.act != HERS]
    return wished or [replace(item, act="add") for item in items]


def without_her_story(body: str, tags: Sequence[Span], index: CatalogIndex) -> str:
    """The message with each clause that holds a thing the tagger read as her story's blanked (its length kept, so
    the spans read in it stand where they stood): "my tank is leaking, I need a gate valve" wants the valve; when the
    rest names none of the shop's things, the message as it is ("my phone died, I need a new one")."""
    story = [s for s in tags if s.kind == "ITEM" and s.act == HERS]
    if not story:
        return body
    blanked = body
    for span in story:
        start, end = _clause_around(body, span)
        if any(s.kind == "ITEM" and s.act != HERS and start <= s.start < end for s in tags):
            continue  # "my tank leaks so i need a valve": her wish in the same clause stays
        if not _tells_a_story(body[start : span.start] + " " + body[span.end : end], index):
            continue  # "thermos 2.5L (1), ...", "the sadolin super matt in dove grey, 2 tins": a list's line
        blanked = blanked[:start] + " " * (end - start) + blanked[end:]
    return blanked if catalog_evidence(normalize(blanked), index) else body


# words that count pieces of any thing ('vipande 8', '3 bags'): the number beside them is a count
COUNTING_WORDS = frozenset(COUNT_UNITS)

_CLAUSE_END = re.compile(r"[,.;!?\n\U0001F300-\U0001FAFF\u2600-\u27BF]")  # an emoji ends a clause too


def _clause_around(body: str, span: Span) -> tuple[int, int]:
    """Where the clause that holds a span starts and ends (a comma, a stop or a new line ends a clause)."""
    start = max((m.end() for m in _CLAUSE_END.finditer(body, 0, span.start)), default=0)
    return start, next((m.start() for m in _CLAUSE_END.finditer(body, span.end)), len(body))


# the tagger's spans that say what she wants, or when and with whom ("Can Kevin replace it tuesday?": the repair)
_THINGS = frozenset({"ITEM", "SERVICE", "OPTION", "QTY"})
_OF_THINGS = _THINGS | {"STAFF", "DAY", "TIME"}


def only_sentences_of_things(body: str, tags: Sequence[Span], index: CatalogIndex) -> str:
    """The message without the sentences of her story before the first in which the tagger found a thing, an option,
    a count, a person or a time (blanked, their length kept), when the rest names something the shop sells: "I
    haven't seen a dentist in like 6 years and something feels off at the back. I want a full check-up with the full
    mouth X-ray." wants the check-up; her story's words ("dentist", "back") are no search words. Otherwise the message
    as it is."""
    sentences = list(pairwise([0, *(m.end() for m in _SENTENCE_END.finditer(body)), len(body)]))
    of_things = [
        (start, end) for start, end in sentences if any(s.kind in _THINGS and start <= s.start < end for s in tags)
    ]
    # the sentences that name her things, when they name one thing of the shop whole ("... Can Dr. Omondi see me
    # Friday at 6pm after work?": the check-up, not "see" and "work")
    things = "".join(body[a:b] if (a, b) in of_things else " " * (b - a) for a, b in sentences)
    if of_things and len(index.full_matches(product_query(normalize(things)) or normalize(things))[0]) == 1:
        return things
    for start, end in sentences:
        if any(s.kind in _OF_THINGS and start <= s.start < end for s in tags):
            blanked = " " * start + body[start:]
            return blanked if start and catalog_evidence(normalize(blanked), index) else body
    return body


_SENTENCE_END = re.compile(r"[.;!?\n]+(?=\s|$)")


def idle_words(body: str, tags: Sequence[Span], index: CatalogIndex, denied: Collection[int]) -> set[str]:
    """The words of the clauses that say a number of her story (``denied``: :func:`counts_denied`) and in which
    neither the tagger nor the shop's words find anything else, when another clause holds a thing she wants ("we are 6
    people in the house, I need Mumias sugar 2": "we are people in the house"), but those the other clauses say too:
    no words to search for her thing. A clause that only describes it ("..., for the outside walls") stays."""
    if not denied or not any(s.kind == "ITEM" and s.act != HERS for s in tags):
        return set()
    cuts = [0, *(m.end() for m in _CLAUSE_END.finditer(body)), len(body)]
    idle: set[str] = set()
    kept: set[str] = set()
    for start, end in pairwise(cuts):
        plain = normalize(body[start:end])
        if not plain:
            continue
        story = any(_word_value(w) in denied for w in plain.split())
        found = not story or (
            any(start <= s.start < end for s in tags)
            or catalog_evidence(plain, index)
            or set(index.terms(plain)) & index.option_terms  # the shop's words ("..., in blue")
        )
        (kept if found else idle).update(plain.split())
    return idle - kept


_WORD = re.compile(r"[^\W\d_]{4,}")  # a word of four letters or more, no number


def _of_her_story(body: str, span: Span, index: CatalogIndex | None) -> bool:
    """Whether a thing the tagger found is of her story: read so, and its clause says something of it besides its
    count and options (``index``: the shop's words; "photocopy 200 pages" is a line of her list, whatever the act)."""
    if span.act != HERS:
        return False
    if index is None:
        return True
    start, end = _clause_around(body, span)
    return _tells_a_story(body[start : span.start] + " " + body[span.end : end], index)


def _tells_a_story(rest: str, index: CatalogIndex) -> bool:
    """Whether the rest of a clause around a thing of her story says something of it ("is leaking", "goes into the
    wall", "yangu imeharibika"): a word that is none of the shop's names or options. A clause that is only the
    thing with its count, its pack or its options is a line of her list, whatever act the tagger gave it (the
    tagger's act is evidence; the clause's words the proof)."""
    shops = index.product_terms | index.option_terms
    return any(not set(index.terms(word)) <= shops for word in _WORD.findall(rest))


def _the_one(part: str) -> str:
    """A part without the "one" that stands for the thing said before ("black one", "the bigger ones": black, the
    bigger); a "one" that starts a part counts ("one black")."""
    words = part.split()
    return " ".join(w for n, w in enumerate(words) if not (n and w in ("one", "ones")))


def _head_of(thing: str) -> str:
    """The words of a thing before its first "of" ("pots za maua": pots); "" when it says none."""
    words = thing.split()
    at = next((n for n, w in enumerate(words) if n and w in _OF), None)
    return " ".join(words[:at]) if at is not None else ""


def _whose(part: str, index: CatalogIndex) -> bool:
    """A part that only says whose the thing before it is ("..., Basco i think?"): a brand of several things, never
    the one thing a brand alone names ("sukari na jogoo": the Jogoo flour)."""
    return index.only_brand(part) and len(index.full_matches(part)[0]) != 1


OF_WORDS = ("ya", "za", "wa", "la", "cha", "vya", "of")  # "scrub ya kahawa", "a scrub of coffee"
# "a cover for the phone", "castle ya kuweka kwa tank": the cover, the castle
_OF = frozenset((*OF_WORDS, "for", "kwa"))


def _with_a_thing(part: list[str], thing: list[str]) -> bool:
    """Whether a thing is said right after "with" (or "with the", "with a") in the part."""
    size = len(thing)
    for n in range(1, len(part)):
        if part[n : n + size] == thing:
            before = [w for w in part[max(n - 2, 0) : n] if w not in ("the", "a", "an")]
            if before[-1:] == ["with"]:
                return True
    return False


def _of_a_thing(part: list[str], thing: list[str], of: Collection[str] = _OF) -> bool:
    """Whether a thing is said right after a word for "of" (or "for") in the part ("za maua" of "pots za maua"),
    counts or sizes between them ("mattress covers for 5 by 6 beds": covers, for the beds), or what it does to it
    ("hive tool za kufungua mizinga", "a tool for opening hives": the tool)."""
    size = len(thing)
    for n in range(1, len(part)):
        if part[n : n + size] == thing:
            if size > 1 and thing[0] in of:  # the tagger's span says its "of" itself ("kitabu cha hesabu / cha
                return True  # longhorn": Longhorn's book)
            before = n - 1
            # a size's "by" only between its numbers ("5 kwa 6"; "ya kuweka kwa tank" is for the tank)
            while before > 0 and (part[before].isdigit() or (part[before] in _BY and part[before - 1].isdigit())):
                before -= 1
            if before > 0 and _PURPOSE.fullmatch(part[before]):  # "hive tool za kufungua mizinga": opening them
                before -= 1
            if part[before] in of:
                return True
    return False


_PURPOSE = re.compile(r"ku[a-z]{3,}|[a-z]{3,}ing")  # what a thing is for, between "of" and its object
_BY = frozenset(("by", "x", "kwa"))  # "5 by 6", "5 x 6", "5 kwa 6": a size between "for" and its thing


def _count_to_its_thing(items: list[ItemSaid], index: CatalogIndex, basket: Sequence[str] = ()) -> list[ItemSaid]:
    """A count said in a part of its own beside one thing the tagger found said without one ("aki fanya nane, fence ni
    ndefu": eight of what the fence wants) is that thing's count. Beside words that count nothing, at a basket of one
    line, it is that line's count, and the rest her reason ("fanya vitatu, nimekumbuka kuna chumba kingine")."""
    bare = [n for n, item in enumerate(items) if item.quantity is not None and not catalog_evidence(item.text, index)]
    if len(bare) != 1 or any(item.quantity is not None for n, item in enumerate(items) if n != bare[0]):
        return items
    uncounted = [n for n, item in enumerate(items) if item.quantity is None and item.named]  # the tagger's thing
    if len(uncounted) == 1 and len(items) == 2:
        # with the measure of what it counts ("clear glass 4mm, 3 panes of 3ft by 2ft": 18 square feet)
        thing, count = items[uncounted[0]], items[bare[0]]
        measured = says_a_measure(measures_in_digits(count.text))
        return [replace(thing, quantity=count.quantity, text=f"{thing.text} {count.text}" if measured else thing.text)]
    if len(basket) == 1 and not uncounted:
        return [ItemSaid(normalize(basket[0]), items[bare[0]].quantity, "set")]
    return items


def _mostly_unknown(thing: str, index: CatalogIndex) -> bool:
    """Whether the tagger's words for a thing are as much unknown to the shop as known ("gari ya uber" of "gari ya
    uber inanuka": her reason beside the things she lists, though a thing's word is in it)."""
    query = product_query(thing) or thing
    _fits, unknown = index.full_matches(query)
    known = [term for term in index.terms(query) if term in index.product_terms]
    return bool(unknown) and len(unknown) >= len(known)


def names_one_thing(words: str, index: CatalogIndex) -> bool:
    """Whether a part's words name exactly one of the shop's things ("wooden" of "a dining table, wooden" names a
    table and a bed: a description of the thing before it, not a thing of its own), with no more of its words that
    the shop does not know than it knows ("gari ya uber inanuka": her reason, not the car's tyre)."""
    query = product_query(words) or words
    fits, unknown = index.full_matches(query)
    known = [term for term in index.terms(query) if term in index.product_terms]
    return len(fits) == 1 and len(unknown) <= len(known)


def _acts_in_order(
    items: list[ItemSaid],
    said: Sequence[Span],
    options: Sequence[Span] = (),
    only_options: Callable[[str], bool] = lambda _words: False,
    tells_a_story: Callable[[str], bool] = lambda _words: True,
) -> list[ItemSaid]:
    """Each part with the act of the tagger's item span that lies in it: spans taken in order, each once ("toa sukari,
    ongeza sukari brown mbili": the first sukari is taken out, the second added), and the tagger's words for its
    thing (that span and the options said in the part: "the casio ct-s300 in black" of "my teacher says music is the
    best medicine so i'll take the casio ct-s300 in black"). The counts stay the rules': the tagger's counts where the
    rules read none were tried and read fewer counts right (BENCHMARKS.md, the dev set)."""
    out, at = [], 0
    for item in items:
        words = set(item.text.split())
        act, first = "add", None
        # the spans not yet taken first; else one a part before took, when this part says its words again ("misumari
        # ya inch 3 kilo 5, ya inch 4 kilo 3": the nails again, of another size)
        for n in [*range(at, len(said)), *range(at)]:
            if set(normalize(said[n].text).split()) <= words:
                act, at, first = said[n].act or "add", max(at, n + 1), n
                break
        named = ""
        if first is not None:  # the last thing the tagger found in the part: "for my studio: one shure mic" is the mic
            # the spans from the first on, while they lie in the part: a word said again is the next part's ("a matt
            # black basin mixer, a matt black towel rail": the second "matt" is the rail's)
            inside: list[str] = []
            of_her_story: set[str] = set()  # the spans of the part the tagger reads as her story's things
            for span in said[first:]:
                spoken = normalize(span.text)
                if not set(spoken.split()) <= words or spoken in inside:
                    break
                inside.append(spoken)
                # the spans of this part are its own ("... mchuzi wenye pilipili nipe curry powder ..., na pilipili
                # manga": the second part's pilipili is the manga, not the story's)
                at = max(at, first + len(inside))
                if span.act == HERS:
                    of_her_story.add(spoken)
                if act == HERS and span.act not in (None, HERS):
                    act = span.act  # "my tank is leaking so i need a valve": her story, then what she wants
            # but a thing said "of" the one before is that one's ("pots za maua": flower pots, not flowers)
            # and one said "with" the one before is its feature ("the roca rimless toilet with the soft close seat")
            part_words = item.text.split()
            # (never of a thing of her story: "my probox ... top up with the pink coolant" wants the coolant)
            heads = [
                t
                for n, t in enumerate(inside)
                if not (
                    n
                    and inside[n - 1] not in of_her_story
                    and (_of_a_thing(part_words, t.split()) or _with_a_thing(part_words, t.split()))
                )
            ]
            # and one of her story is not the one she wants, when the part names one she does ("i'd like the roca
            # toilet ... the old one's waste pipe goes into the wall": the toilet)
            heads = [t for t in heads if t not in of_her_story] or heads
            # the last that names a thing, not only its options ("tetramin ile ndogo ya 20g": the TetraMin)
            thing = next((h for h in reversed(heads) if not only_options(h)), heads[-1])
            said_options = (normalize(s.text) for s in options)
            options_of = [o for o in said_options if o and set(o.split()) <= words - set(thing.split())]
            # what it is "of" describes it, as an option does ("zile gel mbili za goliath": the gel, Goliath's)
            options_of += [
                t
                for t in inside[1:]
                if t not in heads
                and t not in of_her_story
                and _of_a_thing(part_words, t.split(), OF_WORDS)
                and t != thing
            ]
            named = f"{thing}{OPTIONS_MARK}{' '.join(options_of)}" if options_of else thing
            spoken_words = {w for spoken in inside for w in spoken.split()}
            if act == HERS and not tells_a_story(" ".join(w for w in part_words if w not in spoken_words)):
                act = "add"  # only the thing with its count or options: a line of her list ("thermos 2.5L (1)")
            if act != HERS:
                item = replace(item, text=_without_her_things(item.text, of_her_story - {thing}))
        out.append(replace(item, act=act, named=named))
    return out


def _without_her_things(part: str, story: set[str]) -> str:
    """A part's words without those of the things of her story said in it once ("mende wamenitesa ... nipe zile gel
    mbili za goliath": the Goliath gel, searched without the cockroaches that would find the cockroach treatment); a
    thing said twice stays (which of its words were the story's is not known: "my phone died, i need a new phone")."""
    words = part.split()
    for thing in story:
        said = thing.split()
        at = [n for n in range(len(words) - len(said) + 1) if words[n : n + len(said)] == said]
        if len(at) == 1:
            words = words[: at[0]] + words[at[0] + len(said) :]
    return " ".join(words) or part


def _counts_beside(tags: Sequence[Span]) -> dict[int, int | None]:
    """Each item span's count. A message says its counts on one side of its items: before them ("2 kabras and 3
    pembe") when its first item has a count just before it, else after them ("unga 2 na sukari 3")."""
    spans = list(tags)
    items = [n for n, s in enumerate(spans) if s.kind == "ITEM"]
    before = bool(items) and items[0] > 0 and spans[items[0] - 1].kind == "QTY"
    out: dict[int, int | None] = {}
    for n in items:
        side = n - 1 if before else n + 1
        said = spans[side].text if 0 <= side < len(spans) and spans[side].kind == "QTY" else None
        # a count the tagger left inside the item's words ("mumias 3") is its count too
        value = _count_value(said) if said is not None else count_of(normalize(spans[n].text))
        if value is not None:
            out[spans[n].start] = value
    return out


def _measures_beside(tags: Sequence[Span]) -> dict[int, str]:
    """The measure said right after an item span, by the item's start: the number the tagger read as a count after an
    item span that ends with a measure's unit ("turpentine ya lita / 5"), never a count of it, or a measure it read
    as an option ("turpentine / lita 5")."""
    spans = list(tags)
    out: dict[int, str] = {}
    for n, span in enumerate(spans[:-1]):
        words = normalize(span.text).split()
        after = spans[n + 1]
        counted = words and words[-1] in MEASURE_UNITS and after.kind == "QTY"
        if span.kind == "ITEM" and (counted or (after.kind == "OPTION" and measures_said(after.text))):
            out[span.start] = normalize(after.text)
    return out


_HEIGHT = re.compile(r"^(\d{1,2})['’]\d{1,2}$")  # "5'2": a height, one word to the tagger


def counts_denied(body: str, tags: Sequence[Span], index: CatalogIndex | None = None) -> set[int]:
    """The numbers a message says that the tagger reads as no count of a thing: every time it says them, as a word
    of her story ("got stung 6 times", "tuko watu watano": no kind, and no thing she wants next in its clause nor
    options right after it), an hour, a size, a class ("form 4"), a price or a place ("Githurai 45"). The rules read
    a count from any number; the tagger weighs the words around it, so its "no count" is the evidence that a count
    the rules read is her story's. Nothing is denied when the tagger found nothing in the message."""
    if not tags:
        return set()
    denied: set[int] = set()
    counted: set[int] = set()
    words = tokens(body)
    for n, tok in enumerate(words):
        value = _word_value(tok.form)
        if value is None:
            continue
        if count_token_value(tok.form) is not None:  # "x5", "3pcs": written as a count, whatever the tagger reads
            counted.add(value)
            continue
        span = next((s for s in tags if s.start <= tok.start < s.end), None)
        beside = {words[j].form for j in (n - 1, n + 1) if 0 <= j < len(words)}
        if span is None and beside & COUNTING_WORDS:  # "vipande 8 vya futi 12", "8 pieces": pieces counted
            counted.add(value)
            continue
        if span is None:  # no kind: a count still, the tagger having missed it, when said right after a thing she
            # wants ("mayai sitini") or before the next thing of its clause, if she wants it ("Two small jars of the
            # forest honey"); never beside her story's thing or none
            before = next((s for s in reversed(tags) if s.end <= tok.start), None)
            after = next((s for s in tags if s.start >= tok.end and s.kind != "QTY"), None)  # "one 20 litre jerrican"
            if before is not None and before.kind == "ITEM" and not _of_her_story(body, before, index):
                span = before if not body[before.end : tok.start].strip() else None
            if span is None and after is not None and after.kind == "ITEM" and not _of_her_story(body, after, index):
                span = after if not _CLAUSE_END.search(body, tok.end, after.start) else None
            # right before the options of her thing ("5 large avocados", "2 black ones"): its count
            described = next((s for s in tags if s.start >= tok.end), None)
            if (
                span is None
                and described is not None
                and described.kind == "OPTION"
                and not body[tok.end : described.start].strip()
            ):
                counted.add(value)
                continue
        (counted if span is not None and span.kind in ("QTY", "ITEM") else denied).add(value)
    return denied - counted


def without_denied_counts(
    items: list[ItemSaid], denied: Collection[int], describes: Callable[[str], bool] = lambda _part: False
) -> list[ItemSaid]:
    """Each listed item whose count is a number of her story (:func:`counts_denied`) counted again without it ("we
    waited 6 days, 2 sugar": two; "got stung 6 times, one bee suit" with its "one" denied too: none said). A part left
    without a count that only says options (``describes``: "..., grade 1 la UK, ...", whose "1" is the grade's) goes
    on describing the thing before it, as :func:`items_said` would have read it without that number."""
    if not denied:
        return items
    out: list[ItemSaid] = []
    for item in items:
        if item.quantity is not None and item.quantity in denied:
            rest = " ".join(w for w in item.text.split() if _word_value(w) not in denied)
            item = replace(item, quantity=count_of(rest))
            if out and item.quantity is None and describes(rest):
                out[-1] = replace(out[-1], text=f"{out[-1].text} {item.text}")
                continue
        out.append(item)
    return out


def _word_value(word: str) -> int | None:
    if height := _HEIGHT.match(word):
        return int(height.group(1))
    if (counted := count_token_value(word)) is not None:
        return counted
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word)


def the_count_not_denied(tags: Sequence[Span], denied: Collection[int]) -> int | None:
    """The one count the tagger reads that is no number of her story, if it reads exactly one ("mabeshte wangu wawili
    ... weka tatu": three)."""
    counts = {
        value
        for span in tags
        if span.kind == "QTY" and (value := _count_value(span.text)) is not None and value not in denied
    }
    return counts.pop() if len(counts) == 1 else None


def _count_value(said: str) -> int | None:
    """A count span's value: digits, a number word ("mbili", "two"), or what the quantity reader makes of it."""
    plain = normalize(said)
    if plain.isdigit() and 0 < int(plain) <= MAX_LISTED_COUNT:
        return int(plain)
    return NUMBER_WORDS.get(plain) or count_of(plain)


MAX_LISTED_COUNT = 1000  # as a line holds at most


# "moja ya kienyeji", "two of the large", "ya inch 4 kilo 3" (the count said after): the thing left unsaid
_ELIDED = re.compile(
    rf"^(?:(?:\d{{1,3}}|{'|'.join(w for w in NUMBER_WORDS if ' ' not in w)})\s+)?(?:ya|za|la|cha|vya|wa|of)\s"
)


def _of_the_kind_before(item: ItemSaid, before: ItemSaid, index: CatalogIndex) -> ItemSaid:
    """ "trei mbili za mayai ya layers na moja ya kienyeji", "two of the large and one of the small": a count
    and a qualifier whose words fit several things is one of the kind of thing the part before named."""
    if not _ELIDED.match(item.text):
        return item
    fits = index.full_matches(item_words(item.text))[0]
    kinds = {k for i in index.full_matches(item_words(before.text))[0] for k in index.item_kinds(i)}
    same = [i for i in fits if index.item_kinds(i) & kinds]
    if len(fits) < 2 or len(same) != 1:
        return item
    kind = sorted(index.item_kinds(same[0]) & kinds)[0]
    return ItemSaid(f"{item.text} {kind}", item.quantity)


def wish_query(text: str, quantity: int | None, index: CatalogIndex) -> tuple[str, int | None]:
    """The search words of one listed item and its count ("sukari 2": a number after its words), without the
    words that ask for it ("mko na nyuzi za gitaa": the strings), as a wish said alone is searched."""
    words = _without_its_purpose(item_words(_from_her_wish(text, index)), index)
    query = with_pack_words(product_query(words) or words, text, index)
    if quantity is not None:
        return query, quantity
    return count_in_words(query, index)


# the words that say she wants what follows ("1500cc petrol i need 4 litres of 10w-40": her car, then her wish)
_HER_WISH = re.compile(
    r"(?<!\w)(?:i need|i want|i d like|i would like|give me|send me|can i get|nataka|ninataka|nahitaji|naomba|nipe|"
    r"nipatie|niletee)(?!\w)"
)


def _from_her_wish(part: str, index: CatalogIndex) -> str:
    """A part from the last words that say she wants something on, when words of her own come before them and the
    shop's things are named after them; else the part as it is."""
    said = list(_HER_WISH.finditer(part))
    if not said or not part[: said[-1].start()].strip():
        return part
    after = part[said[-1].end() :].strip()
    if not after or index.full_matches(product_query(part) or part)[0]:
        return part
    named = catalog_evidence(normalize(after), index) or index.full_matches(product_query(after) or after)[0]
    return after if named else part


_PURPOSE_CLAUSE = re.compile(r"\s+(?:to|ya\s+ku\w+|for\s+\w+ing)(?:\s+\w+){0,4}$")


def _without_its_purpose(words: str, index: CatalogIndex) -> str:
    """A part's words without what she wants the thing for, said after it ("2kg of putty to fix them", "tape to hold
    it down"), when the words before name the shop's things and the whole does not."""
    if (m := _PURPOSE_CLAUSE.search(words)) is None or not m.start():
        return words
    before = words[: m.start()]
    if index.full_matches(words)[0] or not index.full_matches(product_query(before) or before)[0]:
        return words
    return before


Search = Callable[[str], "dict[str, Any] | None"]  # catalog_search's data for a query, or None when it failed
# one listed item found: its search words, its count, the one item they name (or None), the items they all fit
Found = tuple[str, int | None, dict[str, Any] | None, list[dict[str, Any]]]


def find_listed(wish: ItemWish | ItemSaid, index: CatalogIndex, search: Search) -> Found | None:
    """One listed item found: its search words, its count, the one item they name (or None) and the items they all
    fit (:func:`find_wish`); None when the search failed. A part whose words name nothing ("my vocal teacher says
    music is the best medicine so i'll take the casio ct-s300 in black": no item has all of them, and "medicine" says
    the shop sells no such thing) is searched again by the token tagger's words for its thing ("casio ct-s300
    black"), with the options said and then alone; the tagger is evidence, the catalog the proof. A part whose own
    words fit several items is asked about as it is (the tagger's fewer words would choose among them blindly)."""
    query, count = wish_query(wish.text, wish.quantity, index)
    found = search(query)
    if found is None:
        return None
    named, fitting = find_wish(query, found["results"], index, confidence=found["confidence"])
    thing, _mark, options = (wish.named or "").partition(OPTIONS_MARK)
    if count is None and (from_thing := _from_the_thing(wish.text, thing)):
        # her story before the thing hides its count from the whole part ("mbuzi za jirani zinaingia ... nipe nguzo
        # za fence zilizotibiwa 40": the story's words fit nothing): the count said after the thing is its own
        count = wish_query(from_thing, None, index)[1]
    named = _in_the_option_said(named, found["results"], thing, options, index)
    # her words name one, or all of them fit several: asked which. Results that only have most of her words ("grill
    # ya gate imeshika kutu mbaya red oxide": her reason and her thing in one part) wait for the tagger's words
    mostly = named is None and bool(fitting) and not index.full_matches(query)[0]
    if named is not None or (fitting and not mostly) or not wish.named:
        return query, count, named, fitting
    several: Found | None = None
    head = _head_of(thing)  # "pots za maua": the pots, when nothing has all the words
    # with its options, then alone, then its head
    for words in dict.fromkeys(w for w in (f"{thing} {options}".strip(), thing, head) if w):
        again, _count = wish_query(words, None, index)
        if not again or again == query:
            continue
        found = search(again)
        if found is None:
            return None
        tagged, tagged_fitting = find_wish(again, found["results"], index, confidence=found["confidence"])
        tagged = _in_the_option_said(tagged, found["results"], thing, options, index)
        if tagged is not None:
            return again, count, tagged, tagged_fitting
        if tagged_fitting and several is None:
            several = (again, count, None, tagged_fitting)  # the items they fit: asked which, if nothing names one
    return several or (query, count, named, fitting)


def _from_the_thing(part: str, thing: str) -> str:
    """The words of a part from the tagger's words for its thing on, when words come before them; else ""."""
    words, said = part.split(), thing.split()
    at = next((n for n in range(1, len(words) - len(said) + 1) if words[n : n + len(said)] == said), None)
    return " ".join(words[at:]) if said and at is not None else ""


OPTIONS_MARK = " ; "  # between the tagger's words for a thing and the options said with it (ItemSaid.named)


def _describes(part: str, index: CatalogIndex) -> bool:
    """Whether a listed part only says options ("medium frame in blue, how much?": sizes as codes, without the words
    that ask) or whose the thing before is; a word of several meanings says an option by any of them ("ile ya kawaida
    sio marine": regular, normal or standard)."""
    query = product_query(_the_one(part)) or _the_one(part)
    if index.only_options(option_words(query)) or _whose(part, index):
        return True
    meant = [
        next((" ".join(m) for m in meanings_of(word) if index.only_options(option_words(" ".join(m)))), word)
        for word in query.split()
        if word not in NEGATIONS  # "sio marine" says the option she does not want
    ]
    return meant != query.split() and index.only_options(option_words(" ".join(meant)))


def _in_the_option_said(
    picked: dict[str, Any] | None, results: list[dict[str, Any]], thing: str, options: str, index: CatalogIndex
) -> dict[str, Any] | None:
    """Of the things her words fit, the one that comes in the option she said ("cha sayansi cha Spotlight, vya gredi
    8": the Grade 7-9 science book, not the Grade 4-6 one her words name as well); else the one picked."""
    if picked is None or not options or not picked.get("variants") or _offers(picked, options):
        return picked
    offering = [r for r in results if r is not picked and _offers(r, options)]
    better, _fits = find_wish(thing, offering, index) if offering else (None, [])
    return better or picked


def _offers(result: dict[str, Any], options: str) -> bool:
    """Whether a search result comes in an option said ("gredi 8" of Grade 7, 8, 9)."""
    variants = result.get("variants") or []
    return any(named_option(normalize(options), list(v["options"])) is not None for v in variants)


MOSTLY_FOUND = 0.6  # the share of a listed item's words the search's best result has, to offer its results


def find_wish(
    query: str, results: list[dict[str, Any]], index: CatalogIndex, *, confidence: float = 0.0
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Of catalog_search's results for one listed item: the one item its words name (or None), and the
    items they all fit (several: ask which; none: the shop does not sell it). A word the shop lacks
    that names a thing shops sell ("samaki" at a hardware store) means it is not sold here. When no item has
    all the words but the search found most of them (``confidence``: "nyuzi za gitaa ya acoustic" where the
    strings are "nyuzi" and "guitar strings"), its best results are offered, as a wish said alone is."""
    fitting_ids, unknown = index.full_matches(query)
    fitting = [r for r in results if r["item_id"] in set(fitting_ids)]
    named = one_clear_match(query, results, index.terms, index.names_of) or _most_named(fitting, query, index)
    if named is None and any(w in SHOP_NOUNS for w in unknown):
        return None, []
    if named is None and not fitting and confidence >= MOSTLY_FOUND:
        return None, results[:MAX_SHORTLIST_ITEMS]
    return named, fitting


def _most_named(fitting: list[dict[str, Any]], query: str, index: Any) -> dict[str, Any] | None:
    """Of the items every word fits, the one whose name has the most of the words said (numbers too:
    "3 inch wire nails" is the 3 inch) and whose pack fits the measure said (its own: "pishori 5kg" is the
    5kg bag; else one it divides into: "mahindi kilo tano" is five of a 1kg pack, not a 16kg tin), when only
    one has the most; else, of those tied, the one whose name says least that was not said ("3kg of maize":
    "Dry Maize 1kg", not "Githeri Mix 1kg" of maize and beans; "tray of eggs": "Eggs Tray (30)", not
    "Kienyeji Eggs Tray (30)"; "samsung a05": the phone, not "Samsung Galaxy A05 Silicone Case")."""
    if len(fitting) <= 1:
        return fitting[0] if fitting else None
    said_measures = measures_said(query)
    measures = set(index.terms(" ".join(said_measures)))
    said = set(index.terms(query)) - measures  # "pishori 5kg": the 5kg's "kg" is in every 1kg pack's name
    names = [set(index.terms(f"{r['name']} {r.get('brand') or ''}")) for r in fitting]
    own = [
        name | {t for v in r.get("variants") or [] for o in v["options"] for t in index.terms(o)}
        for r, name in zip(fitting, names, strict=True)
    ]

    def pack_fit(r: dict[str, Any], own_terms: set[str]) -> int:
        if not said_measures:
            return 0
        if any(t in own_terms for t in measures if not t.isdigit() and any(c.isdigit() for c in t)):
            return 2  # its own measure ("5kg" of "Pishori Rice 5kg")
        # one it divides into: its name's ("a 400ml can": 5 of them make 2 litres) or an option's ("1L" of a gloss)
        sizes = [r["name"], *(o for v in r.get("variants") or [] for o in v["options"])]
        return 1 if any(measured_count(query, size) is not None for size in sizes) else 0

    overlap = [
        len(said & name) + pack_fit(r, own_terms) for r, name, own_terms in zip(fitting, names, own, strict=True)
    ]
    best = max(overlap)
    if overlap.count(best) == 1:
        return fitting[overlap.index(best)]
    tied = [n for n, count in enumerate(overlap) if count == best]
    # of those, the ones that come in the options said ("shati nyeupe size 13": the shirt sized 13, not the T-shirt)
    options_said = {n: len(said & (own[n] - names[n])) for n in tied}
    most = max(options_said.values())
    tied = [n for n in tied if options_said[n] == most]
    if len(tied) == 1:
        return fitting[tied[0]]
    # the shop's own word for one of them ("rola": the roller tagged so, not the "rola ndogo" nor the "mti wa rola")
    own_word = [n for n in tied if index.tagged_as(fitting[n]["item_id"], said - (own[n] - names[n]))]
    if len(own_word) == 1:
        return fitting[own_word[0]]
    # brands she did not say are hers to choose ("gloss nyeupe": the Crown or the Basco), never guessed
    brands = {frozenset(index.terms(fitting[n].get("brand") or "")) for n in tied}
    if len(brands) > 1 and all(b and not b & said for b in brands):
        return None
    unsaid = {n: {t for t in names[n] - said - measures if not any(c.isdigit() for c in t)} for n in tied}
    fewest = min(len(u) for u in unsaid.values())
    least = [n for n in tied if len(unsaid[n]) == fewest]
    return fitting[least[0]] if len(least) == 1 else None


def _say_unsold(turn: Turn, unsold: list[str]) -> None:
    if unsold:
        turn.say(text(t(turn, "not_sold", words=", ".join(f'"{w}"' for w in unsold))))
        unsold.clear()
