"""The registry of the 15 spec tools. Every call goes through :func:`call_tool`, which validates the
arguments against the schema, enforces the trusted tenant (and customer) scope, runs the tool,
validates its output, and turns every failure into ``{"ok": false, "error": {...}}``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError
from pydantic import BaseModel, ValidationError

from tulia.errors import INTERNAL, INVALID_INPUT, PROVIDER_UNAVAILABLE, TenantMismatch, TuliaError
from tulia.observability import logger, traced
from tulia.tools import args as a
from tulia.tools import booking_tools as bt
from tulia.tools.catalog_tools import CatalogItemOut, CatalogSearchOut, catalog_get_item, catalog_search
from tulia.tools.context import ToolContext
from tulia.tools.customer_tools import (
    CustomerGetOrCreateOut,
    CustomerUpdateOut,
    customer_get_or_create,
    customer_update_preferences,
)
from tulia.tools.offer_tools import ApplyCouponOut, OffersOut, offers_get_applicable, order_apply_coupon
from tulia.tools.order_tools import (
    OrderCancelOut,
    OrderCreateOut,
    OrderStatusOut,
    order_cancel,
    order_create,
    order_get_status,
)
from tulia.tools.payment_tools import (
    C2BOut,
    MethodsOut,
    PesapalOut,
    StkOut,
    payment_create_pesapal_checkout,
    payment_get_c2b_instructions,
    payment_get_methods,
    payment_initiate_stk_push,
)
from tulia.tools.support_tools import KbRetrieveOut, TicketOut, handoff_create_ticket, kb_retrieve
from tulia.tools.tenant_tools import TenantContextOut, tenant_get_context


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    args_model: type[a.ScopedArgs]
    output_model: type[BaseModel]
    fn: Callable[[ToolContext, Any], BaseModel]

    def json_schema(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "parameters": a.tool_json_schema(self.args_model)}


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "tenant_get_context",
        "Fetch tenant configuration, bot persona, enabled capabilities, and safety limits.",
        a.TenantGetContextArgs,
        TenantContextOut,
        tenant_get_context,
    ),
    ToolSpec(
        "customer_get_or_create",
        "Get or create a tenant-scoped customer profile using phone number. Returns preferences and consent flags.",
        a.CustomerGetOrCreateArgs,
        CustomerGetOrCreateOut,
        customer_get_or_create,
    ),
    ToolSpec(
        "customer_update_preferences",
        "Update a tenant-scoped customer's preferences and consent. Stores an auditable consent event when applicable.",
        a.CustomerUpdatePreferencesArgs,
        CustomerUpdateOut,
        customer_update_preferences,
    ),
    ToolSpec(
        "catalog_search",
        "Search tenant catalog (products/services). Supports semantic query and structured filters.",
        a.CatalogSearchArgs,
        CatalogSearchOut,
        catalog_search,
    ),
    ToolSpec(
        "catalog_get_item",
        "Fetch authoritative details for one product/service item.",
        a.CatalogGetItemArgs,
        CatalogItemOut,
        catalog_get_item,
    ),
    ToolSpec(
        "order_create",
        "Create an order draft from selected catalog items. Returns totals and next required fields.",
        a.OrderCreateArgs,
        OrderCreateOut,
        order_create,
    ),
    ToolSpec(
        "offers_get_applicable",
        "Fetch applicable offers/coupons for a customer and/or order. Returns eligibility and terms.",
        a.OffersGetApplicableArgs,
        OffersOut,
        offers_get_applicable,
    ),
    ToolSpec(
        "order_apply_coupon",
        "Apply a coupon code to an order and return updated totals.",
        a.OrderApplyCouponArgs,
        ApplyCouponOut,
        order_apply_coupon,
    ),
    ToolSpec(
        "payment_get_methods",
        "Get enabled payment methods for a tenant and order context.",
        a.PaymentGetMethodsArgs,
        MethodsOut,
        payment_get_methods,
    ),
    ToolSpec(
        "payment_get_c2b_instructions",
        "Generate MPESA C2B payment instructions for the order (paybill/till + account/reference).",
        a.PaymentGetC2BInstructionsArgs,
        C2BOut,
        payment_get_c2b_instructions,
    ),
    ToolSpec(
        "payment_initiate_stk_push",
        "Initiate MPESA STK push for an order. Returns a payment_request_id and next steps.",
        a.PaymentInitiateStkPushArgs,
        StkOut,
        payment_initiate_stk_push,
    ),
    ToolSpec(
        "payment_create_pesapal_checkout",
        "Create a PesaPal hosted checkout URL for an order.",
        a.PaymentCreatePesapalCheckoutArgs,
        PesapalOut,
        payment_create_pesapal_checkout,
    ),
    ToolSpec(
        "order_get_status",
        "Fetch order status, payment status, and fulfillment timeline for a customer.",
        a.OrderGetStatusArgs,
        OrderStatusOut,
        order_get_status,
    ),
    ToolSpec(
        "kb_retrieve",
        "Retrieve relevant tenant knowledge base snippets (tenant-scoped vector search).",
        a.KbRetrieveArgs,
        KbRetrieveOut,
        kb_retrieve,
    ),
    ToolSpec(
        "handoff_create_ticket",
        "Create a human handoff ticket with full context snapshot (tenant-scoped).",
        a.HandoffCreateTicketArgs,
        TicketOut,
        handoff_create_ticket,
    ),
)
# appointments: beside the spec's fifteen, with schemas of their own (the spec's stay as Appendix A says)
BOOKING_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "booking_search_slots",
        "Find free appointment slots for a service: days, a time window or an exact time, a staff member.",
        bt.BookingSearchSlotsArgs,
        bt.SlotsOut,
        bt.booking_search_slots,
    ),
    ToolSpec(
        "booking_hold",
        "Hold a free slot for the customer while they confirm and pay the deposit (it expires).",
        bt.BookingHoldArgs,
        bt.BookingOut,
        bt.booking_hold,
    ),
    ToolSpec(
        "booking_create",
        "Book a held slot: confirmed at once without a deposit, else its deposit order is made.",
        bt.BookingCreateArgs,
        bt.BookingOut,
        bt.booking_create,
    ),
    ToolSpec(
        "booking_reschedule",
        "Move the customer's confirmed booking to another free time, as the shop's change policy allows.",
        bt.BookingRescheduleArgs,
        bt.BookingOut,
        bt.booking_reschedule,
    ),
    ToolSpec(
        "booking_cancel",
        "Cancel the customer's booking; the deposit is kept or due back as the shop's policy says.",
        bt.BookingCancelArgs,
        bt.BookingOut,
        bt.booking_cancel,
    ),
    ToolSpec(
        "booking_list",
        "List the customer's upcoming (or past) bookings.",
        bt.BookingListArgs,
        bt.BookingsOut,
        bt.booking_list,
    ),
)
# Beyond the spec's fifteen: the customer's own changes to an order after it was made (issue 54).
ORDER_CHANGE_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "order_cancel",
        "Cancel the customer's own order while nothing is paid towards it; a paid one is settled by a person.",
        a.OrderCancelArgs,
        OrderCancelOut,
        order_cancel,
    ),
)
REGISTRY: dict[str, ToolSpec] = {t.name: t for t in (*TOOLS, *BOOKING_TOOLS, *ORDER_CHANGE_TOOLS)}


def schemas(*, with_bookings: bool = False) -> list[dict[str, Any]]:
    """The spec's fifteen tool schemas (Appendix A), and with ``with_bookings`` the appointment tools'."""
    return [t.json_schema() for t in (*TOOLS, *(BOOKING_TOOLS if with_bookings else ()))]


def _field_of(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _invalid(exc: ValidationError) -> dict[str, Any]:
    first = exc.errors(include_url=False)[0]
    field = _field_of(tuple(first["loc"]))
    return {
        "code": INVALID_INPUT,
        "field": field,
        "message": f"{field}: {first['msg']}" if field else first["msg"],
        "details": {
            "errors": [
                {"field": _field_of(tuple(e["loc"])), "message": e["msg"]} for e in exc.errors(include_url=False)[:10]
            ]
        },
    }


def call_tool(name: str, raw_args: Any, ctx: ToolContext) -> dict[str, Any]:
    """Run one tool. Never raises for bad input or business rules; returns the structured result."""
    started = time.perf_counter()
    spec = REGISTRY.get(name)
    result: dict[str, Any]
    try:
        if spec is None:
            raise TuliaError(f"Unknown tool '{name}'.", code=INVALID_INPUT, field="name")
        if not isinstance(raw_args, dict):
            raise TuliaError("Tool arguments must be a JSON object.", code=INVALID_INPUT)
        try:
            args = spec.args_model.model_validate(raw_args)
        except ValidationError as exc:
            return _finish(name, ctx, started, {"ok": False, "error": _invalid(exc)})
        if args.tenant_id != ctx.tenant_id:
            raise TenantMismatch("tenant_id does not match the conversation's tenant.", field="tenant_id")
        customer_id = getattr(args, "customer_id", None)
        if ctx.customer_id is not None and customer_id is not None and customer_id != ctx.customer_id:
            raise TuliaError(
                "customer_id does not match the conversation's customer.", code=INVALID_INPUT, field="customer_id"
            )
        with traced("tool", name, tenant_id=ctx.tenant_id):
            output = spec.fn(ctx, args)
        data = spec.output_model.model_validate(output.model_dump())
        result = {"ok": True, "data": data.model_dump(mode="json")}
    except ValidationError:  # our own output broke its contract: a bug, not the caller's fault
        logger.exception("tool output invalid", extra={"tool": name})
        result = {"ok": False, "error": {"code": INTERNAL, "message": "The tool failed; try again or ask a person."}}
    except TuliaError as exc:
        result = {"ok": False, "error": exc.to_dict()}
    except (ClientError, BotoCoreError) as exc:
        logger.exception("tool store failure", extra={"tool": name})
        result = {
            "ok": False,
            "error": {
                "code": PROVIDER_UNAVAILABLE,
                "message": "The shop's data could not be reached; try again shortly.",
                "details": {"type": type(exc).__name__},
            },
        }
    return _finish(name, ctx, started, result)


def _finish(name: str, ctx: ToolContext, started: float, result: dict[str, Any]) -> dict[str, Any]:
    latency_ms = round((time.perf_counter() - started) * 1000, 2)
    logger.info(
        "tool call",
        extra={
            "tool": name,
            "latency_ms": latency_ms,
            "ok": result["ok"],
            "error_code": None if result["ok"] else result["error"]["code"],
            "tenant_id": ctx.tenant_id,
            "conversation_id": ctx.conversation_id,
            "request_id": ctx.request_id,
            "node": ctx.node,
        },
    )
    return result
