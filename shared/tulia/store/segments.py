"""A broadcast's audience: the shop's customers who asked for offers and fit every filter of a segment
(language, a recent order, a category bought, money spent). This shop's customers only: the query is its
partition of the customers index."""

from __future__ import annotations

from datetime import datetime, timedelta

from tulia.domain.broadcast import Segment
from tulia.domain.customer import Customer, wants_offers
from tulia.domain.tenant import Tenant
from tulia.store.customers import CustomerRepo
from tulia.store.orders import OrderRepo


def segment_members(
    customers: CustomerRepo, orders: OrderRepo, tenant: Tenant, segment: Segment, now: datetime
) -> list[Customer]:
    """The customers of ``tenant`` who asked for offers and fit every filter of ``segment`` at ``now``."""
    found: list[Customer] = []
    cursor = None
    since = now - timedelta(days=segment.ordered_within_days) if segment.ordered_within_days else None
    category = segment.category.casefold() if segment.category else None
    while True:
        page = customers.page_for_tenant(tenant.tenant_id, limit=100, cursor=cursor, newest_first=False)
        for customer in page.items:
            if not wants_offers(customer):
                continue
            if segment.language and (customer.language_preference or tenant.languages.default) != segment.language:
                continue
            if since or category or segment.min_spent_kes is not None:
                bought = [
                    o
                    for o in orders.list_for_customer(tenant.tenant_id, customer.customer_id, limit=100).items
                    if o.status in ("paid", "fulfilled")
                ]
                if since and not any(o.created_at >= since for o in bought):
                    continue
                if category and not any(line.category.casefold() == category for o in bought for line in o.lines):
                    continue
                if segment.min_spent_kes is not None and sum(o.paid_amount for o in bought) < segment.min_spent_kes:
                    continue
            found.append(customer)
        if page.cursor is None:
            return found
        cursor = page.cursor
