"""Payments proven from the console (issue 34, part 3): "send me a test prompt of KES 1" starts an M-Pesa prompt to
the owner's own phone with the shop's Daraja keys, passkey and shortcode; "test card payments" opens a KES 1 PesaPal
checkout she pays with her own card. Daraja's callback or PesaPal's notification (the payments function) says how
it went, and a success marks the method tested, so customers are offered it. A Till or Paybill is proven when Daraja
accepts its confirmation URLs (registered when it is saved in Settings)."""

from __future__ import annotations

import secrets
from typing import Literal

from pydantic import Field, model_validator

from tulia.admin.auth import Principal
from tulia.admin.common import AdminDeps, Deps, Owner, View, admin_router, audit
from tulia.domain.common import new_id
from tulia.domain.phone import mask_phone, to_mpesa_msisdn
from tulia.domain.tenant import Tenant
from tulia.errors import BusinessRuleViolation
from tulia.store.payment_tests import PaymentTest, PaymentTestRepo, test_reference

TEST_AMOUNT = 1  # KES: what the owner pays herself to prove the prompt


class TestBody(View):
    method: Literal["mpesa_stk", "pesapal"] = "mpesa_stk"
    phone: str | None = Field(
        default=None, min_length=9, max_length=20, description="The owner's own M-Pesa number (the M-Pesa prompt)"
    )

    @model_validator(mode="after")
    def _phone_for_mpesa(self) -> TestBody:
        if self.method == "mpesa_stk" and not self.phone:
            raise ValueError("the M-Pesa prompt's test needs your M-Pesa number (phone)")
        return self


class TestView(View):
    test_id: str
    method: str
    amount: int
    phone_masked: str | None  # M-Pesa: where the prompt went
    checkout_url: str | None  # PesaPal: the page to pay the test on
    status: str  # pending (on the phone, or on the checkout page), succeeded, failed
    result_desc: str | None
    receipt: str | None
    tested: bool  # the method is proven: customers are offered it


router = admin_router()


def view(test: PaymentTest, tested: bool) -> TestView:
    return TestView(
        test_id=test.test_id,
        method=test.method,
        amount=test.amount,
        phone_masked=test.phone_masked,
        checkout_url=test.checkout_url,
        status=test.status,
        result_desc=test.result_desc,
        receipt=test.receipt,
        tested=tested,
    )


@router.post(
    "/admin/payments/tests",
    tags=["payments"],
    summary="Prove a payment method with KES 1: a prompt to your own phone, or a card checkout you pay",
)
def start_test(body: TestBody, who: Owner, deps: Deps) -> TestView:
    s = deps.services
    tenant = s.tenants.get(who.tenant_id)
    test = _pesapal_test(deps, tenant, who) if body.method == "pesapal" else _mpesa_test(deps, tenant, who, body)
    audit(deps, who, "payments.test", test.test_id, method=body.method)
    return view(test, tenant.proven(test.method))


def _mpesa_test(deps: AdminDeps, tenant: Tenant, who: Principal, body: TestBody) -> PaymentTest:
    s = deps.services
    cfg = tenant.payments.mpesa_stk
    if cfg is None:
        raise BusinessRuleViolation(
            "Set up the M-Pesa prompt first (shortcode, passkey, and the Daraja app's keys).",
            code="method_unavailable",
            field="payments.mpesa_stk",
        )
    msisdn = to_mpesa_msisdn(body.phone or "", field="phone")  # InvalidInput, naming the field, when it is not one
    token = secrets.token_hex(16)
    result = s.daraja.stk_push(
        cfg,
        s.payment_config.daraja_credentials_for(tenant),
        amount=TEST_AMOUNT,
        msisdn=msisdn,
        account_reference="TULIATEST",
        description="Tulia test",
        callback_url=s.payment_config.stk_callback_url(token),
    )
    now = s.clock()
    test = PaymentTest(
        tenant_id=who.tenant_id,
        test_id=new_id("ptest"),
        method="mpesa_stk",
        amount=TEST_AMOUNT,
        phone_masked=mask_phone("+" + msisdn),
        checkout_request_id=result.checkout_request_id,
        started_by=who.actor,
        created_at=now,
        updated_at=now,
    )
    PaymentTestRepo(s.db).start(test, token)
    return test


def _pesapal_test(deps: AdminDeps, tenant: Tenant, who: Principal) -> PaymentTest:
    """A KES 1 checkout on PesaPal's hosted page, with the shop's keys and its own notification URL (registered
    now if it was not yet, as the first card payment would)."""
    s = deps.services
    cfg = tenant.payments.pesapal
    if cfg is None or not cfg.enabled:
        raise BusinessRuleViolation(
            "Turn on card payments (PesaPal) and save its consumer key and secret first.",
            code="method_unavailable",
            field="payments.pesapal",
        )
    creds = s.payment_config.pesapal_credentials_for(tenant)
    ipn_id = cfg.ipn_id
    if not ipn_id:
        ipn_id = s.pesapal.register_ipn(creds, s.payment_config.pesapal_ipn_url(who.tenant_id))
        s.tenants.set_pesapal_ipn_id(who.tenant_id, ipn_id)
    test_id = new_id("ptest")
    result = s.pesapal.submit_order(
        creds,
        merchant_reference=test_reference(test_id),
        amount=TEST_AMOUNT,
        description=f"{tenant.name}: Tulia card test",
        callback_url=s.payment_config.pesapal_return_url,
        notification_id=ipn_id,
        phone_number=None,
        first_name=None,
        email=who.email,
    )
    now = s.clock()
    test = PaymentTest(
        tenant_id=who.tenant_id,
        test_id=test_id,
        method="pesapal",
        amount=TEST_AMOUNT,
        order_tracking_id=result.order_tracking_id,
        checkout_url=result.redirect_url,
        started_by=who.actor,
        created_at=now,
        updated_at=now,
    )
    PaymentTestRepo(s.db).start(test, None)
    return test


@router.get("/admin/payments/tests/<test_id>", tags=["payments"], summary="How a test prompt went")
def get_test(test_id: str, who: Owner, deps: Deps) -> TestView:
    test = PaymentTestRepo(deps.services.db).get(who.tenant_id, test_id)
    tenant = deps.services.tenants.get(who.tenant_id)
    return view(test, tenant.proven(test.method))
