"""M-Pesa proven from the console (issue 34, part 3): "send me a test prompt of KES 1" starts an M-Pesa prompt to
the owner's own phone with the shop's Daraja keys, passkey and shortcode; Daraja's callback (the payments
function) says how it went, and a success marks the M-Pesa prompt tested, so customers are offered it. A Till or
Paybill is proven when Daraja accepts its confirmation URLs (registered when it is saved in Settings)."""

from __future__ import annotations

import secrets
from typing import Literal

from pydantic import Field

from tulia.admin.common import Deps, Owner, View, admin_router, audit
from tulia.domain.common import new_id
from tulia.domain.phone import mask_phone, to_mpesa_msisdn
from tulia.errors import BusinessRuleViolation
from tulia.store.payment_tests import PaymentTest, PaymentTestRepo

TEST_AMOUNT = 1  # KES: what the owner pays herself to prove the prompt


class TestBody(View):
    method: Literal["mpesa_stk"] = "mpesa_stk"
    phone: str = Field(min_length=9, max_length=20, description="The owner's own M-Pesa number")


class TestView(View):
    test_id: str
    method: str
    amount: int
    phone_masked: str
    status: str  # pending (on the phone), succeeded, failed
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
        status=test.status,
        result_desc=test.result_desc,
        receipt=test.receipt,
        tested=tested,
    )


@router.post("/admin/payments/tests", tags=["payments"], summary="Send a KES 1 M-Pesa prompt to your own phone")
def start_test(body: TestBody, who: Owner, deps: Deps) -> TestView:
    s = deps.services
    tenant = s.tenants.get(who.tenant_id)
    cfg = tenant.payments.mpesa_stk
    if cfg is None:
        raise BusinessRuleViolation(
            "Set up the M-Pesa prompt first (shortcode, passkey, and the Daraja app's keys).",
            code="method_unavailable",
            field="payments.mpesa_stk",
        )
    msisdn = to_mpesa_msisdn(body.phone, field="phone")  # InvalidInput, naming the field, when it is not one
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
        method=body.method,
        amount=TEST_AMOUNT,
        phone_masked=mask_phone("+" + msisdn),
        checkout_request_id=result.checkout_request_id,
        started_by=who.actor,
        created_at=now,
        updated_at=now,
    )
    PaymentTestRepo(s.db).start(test, token)
    audit(deps, who, "payments.test", test.test_id, method=body.method)
    return view(test, tenant.proven(test.method))


@router.get("/admin/payments/tests/<test_id>", tags=["payments"], summary="How a test prompt went")
def get_test(test_id: str, who: Owner, deps: Deps) -> TestView:
    test = PaymentTestRepo(deps.services.db).get(who.tenant_id, test_id)
    tenant = deps.services.tenants.get(who.tenant_id)
    return view(test, tenant.proven(test.method))
