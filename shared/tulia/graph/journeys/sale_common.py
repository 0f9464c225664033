"""What the sale's nodes share: the frame of this turn, the shop's options, asking a question of the
sale, and naming items and orders back to the customer (prices only from tool output)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tulia.domain.phone import to_mpesa_msisdn
from tulia.domain.tenant import Tenant
from tulia.errors import InvalidInput
from tulia.graph.calls import Turn
from tulia.graph.frame import FrameLine, OrderFrame, SaleQuestion, ShopOptions, VariantChoice
from tulia.graph.nodes import t
from tulia.graph.slots import ask
from tulia.nlg.templates import money
from tulia.search.catalog_index import CatalogIndex

SALE_QUESTIONS: tuple[SaleQuestion, ...] = (
    "item_selection",
    "category",
    "variant",
    "quantity",
    "fulfilment",
    "zone",
    "payment_method",
    "payment_confirmation",
    "mpesa_number",
)

PAYMENT_QUESTIONS = ("payment_method", "payment_confirmation", "mpesa_number")

MAX_CART_LINES = 20  # order_create's own limit on lines


def frame_of(turn: Turn) -> OrderFrame:
    """A working copy of the sale's frame (a new one when there is none)."""
    current = turn.get("frame")
    return current.model_copy(deep=True) if isinstance(current, OrderFrame) else OrderFrame()


def shop_of(turn: Turn) -> Tenant:
    """The shop of this conversation (cached by the tenant repository)."""
    return turn.ctx.services.tenants.get(turn.ctx.tenant_id)


def shop_index(turn: Turn) -> CatalogIndex:
    """The shop's catalog index: its items' words and its vocabulary."""
    return turn.ctx.services.catalog_indexes.get(turn.ctx.tenant_id, shop_of(turn).catalog_version)


def shop_options(turn: Turn) -> ShopOptions:
    return ShopOptions.of(shop_of(turn), turn.text_lang)


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


def variant_title(option: str, deltas: dict[str, int]) -> str:
    delta = deltas.get(option, 0)
    return option if not delta else f"{option} (+{money(delta)})" if delta > 0 else f"{option} (-{money(-delta)})"


def named_back(line: FrameLine) -> str:
    """The item picked, named back with its price (and the variants chosen so far)."""
    chosen = ", ".join(line.variant_selection.values())
    delta = sum(v.price_deltas.get(line.variant_selection.get(v.name, ""), 0) for v in line.variants)
    return f"{line.name}{f' ({chosen})' if chosen else ''} - {money(line.price + delta)}"


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


def trailing_count(words: str, index: CatalogIndex) -> tuple[str, int | None]:
    """ "mkate Festive 1", "sukari 2": a number (under 100: "unga 200" is more likely a price) after the
    words that name one item, and that is not in that item's name or options, is how many of it
    (``("mkate festive", 1)``); else the words unchanged."""
    head, _, last = words.strip().rpartition(" ")
    if not head or not last.isdigit() or not 0 < int(last) < 100 or head.split()[-1] in _NUMBER_NAMES:
        return words, None
    fits, _unknown = index.full_matches(head)
    if len(fits) != 1 or last in re.findall(r"[a-z0-9]+", index.item_name(fits[0]).casefold()):
        return words, None
    if last in index.option_values.get(fits[0], frozenset()):
        return words, None  # "belt brown 34": its size
    return head, int(last)


def echo_words(words: str, limit: int = 40) -> str:
    """The customer's words quoted back, never a wall of text."""
    return words if len(words) <= limit else words[: limit - 3].rstrip() + "..."


def one_clear_match(
    query: str, results: list[dict[str, Any]], terms: Callable[[str], list[str]]
) -> dict[str, Any] | None:
    """The one result the customer named: every word of its name said, or every word said (but the
    item's own variant options, "mid-back", "blue") in its name and in no other result's."""
    said = set(terms(query))
    if not said:
        return None

    def own_name(r: dict[str, Any]) -> set[str]:  # "redmi note 13 pro" names "Xiaomi Redmi Note 13 Pro" whole
        return set(terms(r["name"])) - set(terms(r.get("brand") or ""))

    full = [r for r in results if (name := own_name(r)) and name <= said]
    if full:
        best = max(full, key=lambda r: len(own_name(r)))
        if sum(1 for r in full if len(own_name(r)) == len(own_name(best))) == 1:
            return best
    covering = []
    for r in results:
        options = {term for v in r.get("variants") or [] for option in v["options"] for term in terms(option)}
        rest = said - options
        if len(rest) >= 2 and rest <= set(terms(r["name"])):
            covering.append(r)
    return covering[0] if len(covering) == 1 else None
