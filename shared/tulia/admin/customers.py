"""Customers: list, detail with consent history and recent orders (owners and agents); export
everything stored about one customer, and erase a customer (owners; the erasure is audited)."""

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from tulia.admin.common import PAGE_LIMIT_MAX, Deps, Owner, Page, Staff, View, admin_router, audit
from tulia.admin.customer_data import erase_customer, export_customer
from tulia.domain.customer import ConsentEvent, Customer
from tulia.domain.order import Order
from tulia.errors import InvalidInput


class CustomerDetail(View):
    customer: Customer
    consent_events: list[ConsentEvent]
    recent_orders: list[Order]


class EraseBody(View):
    confirm: bool = Field(description="Must be true: erasure cannot be undone")
    reason: str = Field(default="data subject request", max_length=200)


class Erased(View):
    customer_id: str
    erased: bool
    summary: dict[str, int]


router = admin_router()


@router.get("/admin/customers", tags=["customers"], summary="Customers, newest first")
def list_customers(
    who: Staff,
    deps: Deps,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Page[Customer]:
    page = deps.services.customers.page_for_tenant(who.tenant_id, limit=limit, cursor=cursor)
    return Page[Customer](items=page.items, cursor=page.cursor)


@router.get("/admin/customers/<customer_id>", tags=["customers"], summary="A customer with consent history")
def get_customer(customer_id: str, who: Staff, deps: Deps) -> CustomerDetail:
    customer = deps.services.customers.get(who.tenant_id, customer_id)
    return CustomerDetail(
        customer=customer,
        consent_events=deps.services.customers.consent_events(who.tenant_id, customer_id),
        recent_orders=deps.services.orders.list_for_customer(who.tenant_id, customer_id, limit=10).items,
    )


@router.get(
    "/admin/customers/<customer_id>/export",
    tags=["customers"],
    summary="Everything stored about the customer, as JSON (access request)",
)
def export(customer_id: str, who: Owner, deps: Deps) -> dict[str, Any]:
    customer = deps.services.customers.get(who.tenant_id, customer_id)
    data = export_customer(deps.services, customer, deps.conversations)
    audit(deps, who, "customer.export", customer_id)
    return data


@router.post(
    "/admin/customers/<customer_id>/erase",
    tags=["customers"],
    summary="Erase the customer's personal data (orders kept for accounting, anonymised)",
)
def erase(
    customer_id: str,
    body: EraseBody,
    who: Owner,
    deps: Deps,
) -> Erased:
    if not body.confirm:
        raise InvalidInput("Erasure cannot be undone: send confirm=true.", field="confirm")
    customer = deps.services.customers.get(who.tenant_id, customer_id)
    summary = erase_customer(deps.services, customer, deps.conversations)
    audit(deps, who, "customer.erase", customer_id, reason=body.reason, **summary)
    return Erased(customer_id=customer_id, erased=True, summary=summary)
