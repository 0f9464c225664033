"""The order frame: one typed record of a sale, filled from every message the customer sends, and
the pure rules that decide what to ask next.

A frame keeps what the customer said (lines, quantity, variant, fulfilment, payment method, payer
number, coupon code); the question the bot asks is derived from it (the first slot still missing),
never the other way round. Prices and totals are not kept here as facts: they come from the order
tools each time the order is built.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

from tulia.domain.literals import FulfilmentMode, PaymentMethod, SaleQuestion, SaleStep
from tulia.domain.persisted import Persisted
from tulia.domain.tenant import Tenant
from tulia.graph.slots import SlotFrame


class _Frame(Persisted):
    """A part of the order frame (checkpointed: versioned and read leniently by later releases)."""


class VariantChoice(_Frame):
    name: str
    options: list[str]
    price_deltas: dict[str, int] = Field(default_factory=dict)


class FrameLine(_Frame):
    item_id: str
    name: str
    price: int  # the catalog price when picked, shown when naming the item back; totals come from order_create
    type: Literal["product", "service"] = "product"
    variants: list[VariantChoice] = Field(default_factory=list)
    variant_selection: dict[str, str] = Field(default_factory=dict)
    quantity: int | None = Field(default=None, ge=1, le=1000)
    max_per_order: int | None = None
    # the customer said the count (a line put in the basket by "mna sukari?" holds one until she says how many:
    # "nataka sukari mbili" then sets it, never adds to it)
    quantity_said: bool = True

    @property
    def fixed_quantity(self) -> bool:
        """One per order (the pack says so, or a service, which is booked once)."""
        return self.max_per_order == 1 or self.type == "service"

    def missing_variant(self) -> VariantChoice | None:
        return next((v for v in self.variants if v.name not in self.variant_selection), None)

    def choose(self, dimension: str, option: str) -> None:
        self.variant_selection = {**self.variant_selection, dimension: option}


class ItemWish(_Frame):
    """An item of a list the customer sent, not yet found in the catalog: its words and its count."""

    text: str = Field(max_length=300)
    quantity: int | None = Field(default=None, ge=1, le=1000)
    act: Literal["add", "set", "remove", "old"] = "add"  # "old": the item replaced ("X badala ya Y"'s Y)
    asked: bool = False  # asked about ("mna X na Y?"): its line holds one until she says how many
    named: str = Field(default="", max_length=300)  # the token tagger's words for its thing (a second search)


class Fulfilment(_Frame):
    mode: FulfilmentMode | None = None
    zone: str | None = None  # one of the shop's zones
    place: str | None = Field(default=None, max_length=300)  # the area or landmark the customer named


class BuiltOrder(_Frame):
    """The draft order made from the frame (order_create's answer), and what it was made from."""

    order_id: str
    amount_due: int
    fingerprint: str  # the frame's lines and fulfilment when it was built; a change means rebuild
    coupon_code: str | None = None  # the code the order carries
    adopted: bool = False  # an existing order the customer asked to pay ("pay for ORD-..."), not built here


class OrderFrame(SlotFrame):
    lines: list[FrameLine] = Field(default_factory=list, max_length=20)
    quantity_hint: int | None = Field(default=None, ge=1, le=1000)  # said before the item was known
    fulfilment: Fulfilment = Field(default_factory=Fulfilment)
    payment_method: PaymentMethod | None = None
    payer_phone: str | None = None  # +2547XXXXXXXX, when the customer gave one
    coupon_code: str | None = None
    coupon_refused: str | None = None  # a code the order tool refused (not tried again)
    order: BuiltOrder | None = None
    payment_started: PaymentMethod | None = None  # a prompt sent, Paybill steps given or a card link made
    asking: SaleQuestion | None = None  # narrower than any frame's question
    adding: bool = False  # the next item picked joins the order instead of starting a new one
    wish: str | None = Field(default=None, max_length=300)  # the words that started a search ("mid-back")
    waiting: list[ItemWish] = Field(default_factory=list, max_length=20)  # listed items still to find
    sold_out: str | None = Field(default=None, max_length=300)  # the item wanted when its alternatives are shown
    options_refused: int = Field(default=0, ge=0, le=100)  # options said in a row that the line asked lacks

    def fingerprint(self) -> str:
        body = {
            "lines": [[ln.item_id, ln.quantity, sorted(ln.variant_selection.items())] for ln in self.lines],
            "fulfilment": [self.fulfilment.mode, self.fulfilment.zone, self.fulfilment.place],
        }
        return json.dumps(body, separators=(",", ":"))

    @property
    def has_products(self) -> bool:
        return any(line.type != "service" for line in self.lines)

    @property
    def open(self) -> bool:
        """A sale the customer can still finish."""
        return bool(self.lines or self.order) and self.payment_started is None

    @property
    def resumable(self) -> bool:
        """A sale to come back to after a side question: one she can still finish, or a shortlist she is choosing
        from."""
        return self.open or (self.asking == "item_selection" and self.payment_started is None)

    def order_is_current(self) -> bool:
        return self.order is not None and (self.order.adopted or self.order.fingerprint == self.fingerprint())


class ShopOptions(BaseModel):
    """What the shop offers, from its settings: the only choices a customer is given."""

    modes: list[FulfilmentMode]
    zones: list[tuple[str, list[str]]]
    methods: list[PaymentMethod]
    pickup_address: str | None = None

    @classmethod
    def of(cls, tenant: Tenant, lang: str | None = None) -> ShopOptions:
        modes: list[FulfilmentMode] = []
        if tenant.delivery_zones:
            modes.append("delivery")
        if tenant.pickup.enabled:
            modes.append("pickup")
        return cls(
            modes=modes,
            zones=[(z.name, list(z.areas)) for z in tenant.delivery_zones],
            methods=list(tenant.payment_methods()),
            pickup_address=tenant.text(tenant.pickup.address, lang),
        )


def settle(frame: OrderFrame, shop: ShopOptions) -> list[str]:
    """Fill what the shop leaves no choice about and drop choices the shop does not offer.
    Returns what was refused ("pickup", "delivery", "method")."""
    refused: list[str] = []
    for line in frame.lines:
        for variant in line.variants:
            if variant.name not in line.variant_selection and len(variant.options) == 1:
                line.choose(variant.name, variant.options[0])
        if line.quantity is None and line.fixed_quantity:
            line.quantity = 1
    f = frame.fulfilment
    if frame.has_products:
        if f.mode is not None and f.mode not in shop.modes:
            refused.append(f.mode)
            frame.fulfilment = f = Fulfilment()
        if f.mode is None and len(shop.modes) == 1:
            frame.fulfilment = Fulfilment(mode=shop.modes[0], zone=f.zone, place=f.place)
        if frame.fulfilment.mode == "pickup":
            frame.fulfilment = Fulfilment(mode="pickup")
    if frame.payment_method is not None and frame.payment_method not in shop.methods:
        refused.append("method")
        frame.payment_method = None
    return refused


def next_step(frame: OrderFrame, *, can_prompt_phone: bool) -> SaleStep:
    """The first slot still missing decides what the sale does next."""
    if frame.payment_started is not None:
        return "payment_started"
    if frame.waiting:
        return "take_items"
    if not frame.lines and not (frame.order and frame.order.adopted):
        return "ask_item"
    for line in frame.lines:
        if line.missing_variant() is not None:
            return "ask_variant"
    for line in frame.lines:
        if line.quantity is None:
            return "ask_quantity"
    if frame.has_products:
        if frame.fulfilment.mode is None:
            return "ask_fulfilment"
        if frame.fulfilment.mode == "delivery" and frame.fulfilment.zone is None:
            return "ask_zone"
    if not frame.order_is_current():
        return "build_order"
    assert frame.order is not None
    if frame.coupon_code and frame.coupon_code not in (frame.order.coupon_code, frame.coupon_refused):
        return "apply_coupon"
    if frame.payment_method is None:
        return "ask_payment_method"
    if frame.payment_method == "mpesa_stk":
        if frame.payer_phone is None and not can_prompt_phone:
            return "ask_mpesa_number"
        return "confirm_payment"
    return "start_payment"


FRAME_MODELS = (VariantChoice, FrameLine, ItemWish, Fulfilment, BuiltOrder, OrderFrame, SlotFrame)
