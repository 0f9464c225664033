"""A shop's payment tests (issue 34, part 3): a KES 1 M-Pesa prompt to the owner's own phone from the console,
which proves the shop's Daraja keys, passkey and shortcode end to end, or a KES 1 PesaPal checkout she pays with her
own card, which proves its keys and notification URL; Daraja's callback or PesaPal's notification settles it (the
payments function), and a success marks the method tested on the shop (``Tenant.payments_tested``), so it is offered
to customers. A test is the shop's own item, never an order; its callback token routes to it under its own sort key,
so an order's callback lookup cannot meet it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tulia.domain.common import Model
from tulia.domain.tenant import PaymentMethod
from tulia.errors import NotFound, StateConflict
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo
from tulia.store.tables import ORDERS, TENANTS

TestStatus = Literal["pending", "succeeded", "failed"]
TEST_PREFIX = "PAYTEST#"
TEST_ROUTE = "TEST"


class PaymentTest(Model):
    tenant_id: str
    test_id: str
    method: PaymentMethod
    amount: int = Field(ge=1, le=10)
    phone_masked: str | None = None  # M-Pesa: the owner's phone the prompt went to
    checkout_request_id: str | None = None  # M-Pesa: Daraja's id of the prompt
    order_tracking_id: str | None = None  # PesaPal: its id of the checkout
    checkout_url: str | None = None  # PesaPal: the hosted page the owner pays on
    status: TestStatus = "pending"
    result_desc: str | None = None
    receipt: str | None = None
    started_by: str
    created_at: datetime
    updated_at: datetime


REFERENCE_PREFIX = "TULIATEST-"


def test_reference(test_id: str) -> str:
    """The merchant reference of a PesaPal test checkout (never an order's: orders are ORD-...)."""
    return f"{REFERENCE_PREFIX}{test_id}"


def test_id_of(reference: str) -> str | None:
    return reference.removeprefix(REFERENCE_PREFIX) if reference.startswith(REFERENCE_PREFIX) else None


class PaymentTestRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def start(self, test: PaymentTest, callback_token: str | None) -> None:
        """``callback_token``: the M-Pesa callback URL's token (PesaPal's notification names the test by its
        merchant reference, :func:`test_reference`, under the shop's own notification URL)."""
        item = to_item(test, pk=keys.tenant_pk(test.tenant_id), sk=f"{TEST_PREFIX}{test.test_id}")
        if callback_token is None:
            self.db.put(TENANTS, item, condition="attribute_not_exists(pk)")
            return
        route = {
            "pk": keys.payment_token_route_pk(callback_token),
            "sk": TEST_ROUTE,
            "tenant_id": test.tenant_id,
            "test_id": test.test_id,
        }
        self.db.transact(
            [
                {"Put": {"table": TENANTS, "item": item, "condition": "attribute_not_exists(pk)"}},
                {"Put": {"table": ORDERS, "item": route, "condition": "attribute_not_exists(pk)"}},
            ],
            conflict_message="That test exists already.",
        )

    def get(self, tenant_id: str, test_id: str) -> PaymentTest:
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), f"{TEST_PREFIX}{test_id}")
        if item is None:
            raise NotFound(f"No payment test '{test_id}'.", field="test_id")
        return from_item(PaymentTest, item)

    def find_by_token(self, callback_token: str) -> PaymentTest | None:
        route = self.db.get(ORDERS, keys.payment_token_route_pk(callback_token), TEST_ROUTE)
        return self.get(str(route["tenant_id"]), str(route["test_id"])) if route else None

    def settle(
        self, test: PaymentTest, status: TestStatus, *, at: datetime, desc: str | None, receipt: str | None
    ) -> PaymentTest | None:
        """The outcome, once (a duplicate callback finds it settled and changes nothing: None)."""
        try:
            self.db.update(
                TENANTS,
                keys.tenant_pk(test.tenant_id),
                f"{TEST_PREFIX}{test.test_id}",
                update="SET #s = :s, result_desc = :d, receipt = :r, updated_at = :t",
                condition="#s = :pending",
                names={"#s": "status"},
                values={":s": status, ":d": desc, ":r": receipt, ":t": at.isoformat(), ":pending": "pending"},
            )
        except StateConflict:
            return None
        return test.model_copy(update={"status": status, "result_desc": desc, "receipt": receipt, "updated_at": at})
