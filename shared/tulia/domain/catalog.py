"""Catalog items: products and services with KES prices, stock and variants."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from tulia.domain.booking import Deposit, Place
from tulia.domain.common import Model

ItemType = Literal["product", "service"]


class VariantOption(Model):
    value: str = Field(min_length=1, max_length=40)
    price_delta: int = Field(default=0, ge=-1_000_000, le=1_000_000)


class VariantDimension(Model):
    name: str = Field(min_length=1, max_length=30)  # e.g. colour, storage, size
    options: list[VariantOption] = Field(min_length=1, max_length=20)

    def option(self, value: str) -> VariantOption | None:
        wanted = value.strip().casefold()
        return next((o for o in self.options if o.value.casefold() == wanted), None)


class CatalogItem(Model):
    tenant_id: str
    item_id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    type: ItemType = "product"
    name: str = Field(min_length=1, max_length=120)
    category: str = Field(min_length=1, max_length=60)
    price: int = Field(ge=0, le=10_000_000)  # whole KES
    currency: Literal["KES"] = "KES"
    stock: int | None = Field(default=None, ge=0)  # None: not tracked (typical for services)
    variants: list[VariantDimension] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    brand: str | None = None
    description: str = Field(default="", max_length=2000)
    duration_minutes: int | None = Field(default=None, ge=1, le=24 * 60)  # services: booked for this long
    # services booked as appointments: the deposit (None: the shop's), who can do it (empty: anyone),
    # where (at the shop, or at the customer's place in ``zones``, the shop's delivery zones; empty: all)
    deposit: Deposit | None = None
    staff: list[str] = Field(default_factory=list, max_length=50)
    place: Place = "shop"
    zones: list[str] = Field(default_factory=list, max_length=50)
    max_per_order: int | None = Field(default=None, ge=1, le=1000)  # 1: one per order (the quantity is never asked)
    # a picture of the item (a public http(s) address: WhatsApp fetches it): sent with the item card once per chat
    image_url: str | None = Field(default=None, max_length=1000, pattern=r"^https?://[^\s/$.?#][^\s]*$")
    active: bool = True

    @field_validator("variants")
    @classmethod
    def _unique_dimensions(cls, dims: list[VariantDimension]) -> list[VariantDimension]:
        names = [d.name.casefold() for d in dims]
        if len(set(names)) != len(names):
            raise ValueError("variant dimensions must be unique")
        return dims

    @field_validator("deposit", mode="before")
    @classmethod
    def _deposit_text(cls, value: object) -> object:
        return Deposit.parse(str(value)) if isinstance(value, str | int) and not isinstance(value, bool) else value

    @property
    def bookable(self) -> bool:
        """A service with a duration is booked as an appointment."""
        return self.type == "service" and self.duration_minutes is not None

    @property
    def in_stock(self) -> bool:
        return self.active and (self.stock is None or self.stock > 0)

    def dimension(self, name: str) -> VariantDimension | None:
        wanted = name.strip().casefold()
        return next((d for d in self.variants if d.name.casefold() == wanted), None)
