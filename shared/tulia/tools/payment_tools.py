"""payment_get_methods, payment_get_c2b_instructions, payment_initiate_stk_push and
payment_create_pesapal_checkout. Amounts come only from the order; never from the caller alone."""

from __future__ import annotations

import secrets
from contextlib import suppress
from typing import Any, Literal

from tulia.domain.common import iso, new_id
from tulia.domain.customer import Customer
from tulia.domain.order import Order
from tulia.domain.payment import Payment
from tulia.domain.phone import mask_phone, to_mpesa_msisdn
from tulia.domain.tenant import Tenant
from tulia.errors import (
    AMOUNT_MISMATCH,
    METHOD_UNAVAILABLE,
    PAYMENT_IN_PROGRESS,
    BusinessRuleViolation,
    InvalidInput,
    NotFound,
    ProviderError,
    ProviderUnavailable,
    StateConflict,
)
from tulia.store.customers import CustomerRepo
from tulia.store.orders import OrderRepo
from tulia.store.tenants import TenantRepo
from tulia.tools.args import (
    PaymentCreatePesapalCheckoutArgs,
    PaymentGetC2BInstructionsArgs,
    PaymentGetMethodsArgs,
    PaymentInitiateStkPushArgs,
)
from tulia.tools.common import Output
from tulia.tools.context import ToolContext

MPESA_MAX_PER_TRANSACTION = 250_000  # Safaricom's per-transaction ceiling, KES


class MethodOut(Output):
    method: Literal["mpesa_stk", "mpesa_c2b", "pesapal"]
    details: dict[str, str]


class MethodsOut(Output):
    order_ref: str
    amount_due: int
    currency: str
    methods: list[MethodOut]


class C2BOut(Output):
    order_ref: str
    method: Literal["paybill", "till"]
    business_number: str
    account_reference: str | None
    amount: int
    currency: str


class StkOut(Output):
    payment_request_id: str
    order_ref: str
    amount: int
    currency: str
    phone_masked: str
    status: Literal["pending"]
    checkout_request_id: str


class PesapalOut(Output):
    payment_request_id: str
    order_ref: str
    amount: int
    currency: str
    checkout_url: str
    order_tracking_id: str
    status: Literal["pending"]
    reused: bool


def _load_payable(
    ctx: ToolContext, order_id: str, *, with_customer: bool = False
) -> tuple[Tenant, Order, dict[str, Any], Customer | None]:
    tid = ctx.tenant_id
    keys = [TenantRepo.key(tid), OrderRepo.key(tid, order_id)]
    if with_customer and ctx.customer_id:
        keys.append(CustomerRepo.key(tid, ctx.customer_id))
    found = ctx.services.db.batch_get(keys)
    if TenantRepo.key(tid) not in found:
        raise NotFound(f"Unknown tenant '{tid}'.", field="tenant_id")
    raw = found.get(OrderRepo.key(tid, order_id))
    order = OrderRepo.from_item(raw) if raw else None
    if raw is None or order is None or (ctx.customer_id is not None and order.customer_id != ctx.customer_id):
        raise NotFound(f"No order '{order_id}'.", field="order_id")
    if order.status in ("paid", "fulfilled"):
        raise StateConflict(f"Order {order.reference} is already paid.", reason="already_paid")
    if order.status == "cancelled":
        raise StateConflict(f"Order {order.reference} was cancelled.", reason="cancelled")
    if order.missing_fields:
        raise InvalidInput(
            f"Order {order.reference} still needs: {', '.join(order.missing_fields)}.",
            field=order.missing_fields[0],
            reason="order_incomplete",
            details={"missing_fields": order.missing_fields},
        )
    if order.amount_due <= 0:
        raise StateConflict(f"Order {order.reference} has nothing left to pay.", reason="nothing_due")
    customer = None
    if with_customer:
        raw_customer = found.get(CustomerRepo.key(tid, ctx.customer_id)) if ctx.customer_id else None
        customer = (
            CustomerRepo.from_item(raw_customer) if raw_customer else ctx.services.customers.get(tid, order.customer_id)
        )
    return ctx.services.tenants.from_item(found[TenantRepo.key(tid)]), order, raw, customer


def _unavailable(method: str, tenant: Tenant) -> BusinessRuleViolation:
    return BusinessRuleViolation(
        f"{tenant.name} does not accept {method}.",
        code=METHOD_UNAVAILABLE,
        details={"enabled": tenant.payment_methods()},
    )


def payment_get_methods(ctx: ToolContext, args: PaymentGetMethodsArgs) -> MethodsOut:
    tenant, order, _, _ = _load_payable(ctx, args.order_id)
    methods = []
    p = tenant.payments
    if p.mpesa_stk and tenant.proven("mpesa_stk") and order.amount_due <= MPESA_MAX_PER_TRANSACTION:
        methods.append(MethodOut(method="mpesa_stk", details={}))
    if (c2b := tenant.c2b_offered()) and order.amount_due <= MPESA_MAX_PER_TRANSACTION:
        details = {"paybill": c2b.paybill} if c2b.paybill else {"till": c2b.till or ""}
        methods.append(MethodOut(method="mpesa_c2b", details=details))
    if p.pesapal and p.pesapal.enabled and tenant.proven("pesapal"):
        methods.append(MethodOut(method="pesapal", details={}))
    return MethodsOut(
        order_ref=order.reference, amount_due=order.amount_due, currency=order.totals.currency, methods=methods
    )


def payment_get_c2b_instructions(ctx: ToolContext, args: PaymentGetC2BInstructionsArgs) -> C2BOut:
    tenant, order, _, _ = _load_payable(ctx, args.order_id)
    c2b = tenant.c2b_offered()
    if c2b is None:
        raise _unavailable("M-Pesa Paybill/Till payments", tenant)
    if order.status == "draft":
        # it may have moved on meanwhile (another payment started); the instructions stay the same
        with suppress(StateConflict):
            ctx.services.orders.transition(
                ctx.tenant_id, order.order_id, to="pending_payment", now=ctx.services.clock()
            )
    if c2b.paybill:
        return C2BOut(
            order_ref=order.reference,
            method="paybill",
            business_number=c2b.paybill,
            account_reference=order.reference,
            amount=order.amount_due,
            currency=order.totals.currency,
        )
    return C2BOut(
        order_ref=order.reference,
        method="till",
        business_number=c2b.till or "",
        account_reference=None,
        amount=order.amount_due,
        currency=order.totals.currency,
    )


def _check_amount(order: Order, amount: float) -> int:
    if amount != order.amount_due:
        raise BusinessRuleViolation(
            f"The amount due for {order.reference} is KES {order.amount_due:,}, not {amount:g}.",
            code=AMOUNT_MISMATCH,
            field="amount",
            details={"amount_due": order.amount_due},
        )
    return order.amount_due


def payment_initiate_stk_push(ctx: ToolContext, args: PaymentInitiateStkPushArgs) -> StkOut:
    s = ctx.services
    tenant, order, raw, _ = _load_payable(ctx, args.order_id)
    cfg = tenant.payments.mpesa_stk
    if cfg is None or not tenant.proven("mpesa_stk"):
        raise _unavailable("M-Pesa prompts", tenant)
    msisdn = to_mpesa_msisdn(args.phone_e164)
    amount = _check_amount(order, args.amount)
    if amount > MPESA_MAX_PER_TRANSACTION:
        raise BusinessRuleViolation(
            f"M-Pesa takes at most KES {MPESA_MAX_PER_TRANSACTION:,} per payment.",
            code=METHOD_UNAVAILABLE,
            field="amount",
            reason="above_mpesa_limit",
        )
    now = s.clock()
    payment_id = new_id("pay")
    try:
        s.orders.claim_stk(order, payment_id, now)
    except StateConflict as exc:
        raise BusinessRuleViolation(
            f"An M-Pesa prompt for {order.reference} is already waiting on the phone.",
            code=PAYMENT_IN_PROGRESS,
            details={"pending_payment_id": order.pending_payment_id or OrderRepo.stk_claim_of(raw)},
        ) from exc
    token = secrets.token_hex(16)
    creds = s.payment_config.daraja_credentials_for(tenant)
    try:
        result = s.daraja.stk_push(
            cfg,
            creds,
            amount=amount,
            msisdn=msisdn,
            account_reference=order.reference.replace("-", ""),
            description=f"Pay {order.reference.replace('-', '')}"[:13],
            callback_url=s.payment_config.stk_callback_url(token),
        )
    except (ProviderError, ProviderUnavailable):
        s.orders.release_stk_claim(order, payment_id, s.clock())
        raise
    payment = Payment(
        tenant_id=ctx.tenant_id,
        payment_id=payment_id,
        order_id=order.order_id,
        customer_id=order.customer_id,
        method="mpesa_stk",
        amount=amount,
        msisdn=msisdn,
        checkout_request_id=result.checkout_request_id,
        merchant_request_id=result.merchant_request_id,
        callback_token=token,
        created_at=now,
        updated_at=now,
    )
    s.payments.record_started(
        payment,
        refs={"stk": result.checkout_request_id},
        callback_token=token,
        order_updates={"pending_payment_id": payment_id, "payment_status": "pending", "updated_at": iso(now)},
    )
    return StkOut(
        payment_request_id=payment_id,
        order_ref=order.reference,
        amount=amount,
        currency="KES",
        phone_masked=mask_phone("+" + msisdn),
        status="pending",
        checkout_request_id=result.checkout_request_id,
    )


def payment_create_pesapal_checkout(ctx: ToolContext, args: PaymentCreatePesapalCheckoutArgs) -> PesapalOut:
    s = ctx.services
    tenant, order, _, customer = _load_payable(ctx, args.order_id, with_customer=True)
    cfg = tenant.payments.pesapal
    if cfg is None or not cfg.enabled or not tenant.proven("pesapal"):
        raise _unavailable("card payments (PesaPal)", tenant)
    existing = order.pesapal_checkout
    if existing and existing.amount == order.amount_due:
        return PesapalOut(
            payment_request_id=existing.payment_id,
            order_ref=order.reference,
            amount=existing.amount,
            currency="KES",
            checkout_url=existing.redirect_url,
            order_tracking_id=existing.order_tracking_id,
            status="pending",
            reused=True,
        )
    creds = s.payment_config.pesapal_credentials_for(tenant)
    ipn_id = cfg.ipn_id
    if not ipn_id:
        ipn_id = s.pesapal.register_ipn(creds, s.payment_config.pesapal_ipn_url(ctx.tenant_id))
        s.tenants.set_pesapal_ipn_id(ctx.tenant_id, ipn_id)
    payment_id = new_id("pay")
    merchant_reference = f"{order.reference}-{payment_id[-8:]}"
    result = s.pesapal.submit_order(
        creds,
        merchant_reference=merchant_reference,
        amount=order.amount_due,
        description=f"{tenant.name} order {order.reference}",
        callback_url=s.payment_config.pesapal_return_url,
        notification_id=ipn_id,
        phone_number=customer.phone_e164 if customer else None,
        first_name=customer.display_name if customer else None,
    )
    now = s.clock()
    payment = Payment(
        tenant_id=ctx.tenant_id,
        payment_id=payment_id,
        order_id=order.order_id,
        customer_id=order.customer_id,
        method="pesapal",
        amount=order.amount_due,
        order_tracking_id=result.order_tracking_id,
        merchant_reference=merchant_reference,
        redirect_url=result.redirect_url,
        created_at=now,
        updated_at=now,
    )
    s.payments.record_started(
        payment,
        refs={"pesapal": result.order_tracking_id},
        order_updates={
            "pending_payment_id": payment_id,
            "payment_status": "pending",
            "updated_at": iso(now),
            "pesapal_checkout": {
                "payment_id": payment_id,
                "amount": order.amount_due,
                "redirect_url": result.redirect_url,
                "order_tracking_id": result.order_tracking_id,
            },
        },
    )
    return PesapalOut(
        payment_request_id=payment_id,
        order_ref=order.reference,
        amount=order.amount_due,
        currency="KES",
        checkout_url=result.redirect_url,
        order_tracking_id=result.order_tracking_id,
        status="pending",
        reused=False,
    )
