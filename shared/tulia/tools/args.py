"""Argument models of the 15 spec tools. Their JSON Schemas *are* the contract of Appendix A.

Field order matters: it gives the order of ``properties`` and ``required`` in the schema.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScopedArgs(_Args):
    tenant_id: str
    request_id: str
    conversation_id: str


class TenantGetContextArgs(ScopedArgs):
    pass


class CustomerGetOrCreateArgs(ScopedArgs):
    phone_e164: str = Field(description="Customer phone in E.164 format.")
    display_name: str | None = None


class PreferenceUpdates(_Args):
    language_preference: Literal["en", "sw", "sheng", "mixed"] | None = None
    marketing_opt_in: bool | None = None
    offers_whatsapp: bool | None = None
    order_updates_whatsapp: bool | None = None


class CustomerUpdatePreferencesArgs(ScopedArgs):
    customer_id: str
    updates: PreferenceUpdates
    consent_source: Literal["user_message", "admin", "import"]


class CatalogFilters(_Args):
    type: Literal["product", "service", "any"] | None = None
    category: str | None = None
    min_price: float | None = None
    max_price: float | None = None
    tags: list[str] | None = None
    in_stock_only: bool | None = None


class CatalogSearchArgs(ScopedArgs):
    query: str
    filters: CatalogFilters | None = None
    limit: int = Field(ge=1, le=10)


class CatalogGetItemArgs(ScopedArgs):
    item_id: str


class OrderItemArg(_Args):
    item_id: str
    quantity: int = Field(ge=1)
    variant_selection: dict[str, str] | None = None


class DeliveryArg(_Args):
    mode: Literal["pickup", "delivery", "digital"] | None = None
    address_text: str | None = None
    location_hint: str | None = None


class OrderCreateArgs(ScopedArgs):
    customer_id: str
    items: list[OrderItemArg]
    delivery: DeliveryArg | None = None
    notes: str | None = None


class OffersGetApplicableArgs(ScopedArgs):
    customer_id: str
    order_id: str | None = None


class OrderApplyCouponArgs(ScopedArgs):
    customer_id: str
    order_id: str
    coupon_code: str


class PaymentGetMethodsArgs(ScopedArgs):
    order_id: str


class PaymentGetC2BInstructionsArgs(ScopedArgs):
    order_id: str


class PaymentInitiateStkPushArgs(ScopedArgs):
    order_id: str
    phone_e164: str
    amount: float


class PaymentCreatePesapalCheckoutArgs(ScopedArgs):
    order_id: str


class OrderGetStatusArgs(ScopedArgs):
    customer_id: str
    order_ref: str | None = None


class OrderCancelArgs(ScopedArgs):
    """The customer's own order to drop: the one named, else her latest open one (not yet paid)."""

    customer_id: str
    order_ref: str | None = None


class KbRetrieveArgs(ScopedArgs):
    query: str
    top_k: int = Field(ge=1, le=8)
    source_types: list[Literal["policy", "faq", "doc", "sop"]] | None = None


class HandoffCreateTicketArgs(ScopedArgs):
    customer_id: str
    reason: str
    priority: Literal["low", "normal", "high", "urgent"]
    context_snapshot: dict[str, Any]


def tool_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema in the plain form of Appendix A: optional fields are simply not
    required (no ``null`` branches), nested models are inlined, and titles/defaults are dropped."""
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})

    def clean(node: Any) -> Any:
        if isinstance(node, list):
            return [clean(n) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return clean(defs[node["$ref"].rsplit("/", 1)[-1]])
        if "anyOf" in node:
            branches = [b for b in node["anyOf"] if b != {"type": "null"}]
            if len(branches) == 1:
                merged = {**{k: v for k, v in node.items() if k != "anyOf"}, **branches[0]}
                return clean(merged)
        out = {}
        for key, value in node.items():
            if key in ("title", "default") and not isinstance(value, dict):
                continue
            if key == "properties":
                out[key] = {name: clean(prop) for name, prop in value.items()}
            else:
                out[key] = clean(value)
        return out

    cleaned: dict[str, Any] = clean(raw)
    return cleaned
