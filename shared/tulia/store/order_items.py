"""An order as its stored item (its keys and the two indexes that list it by customer and by shop): the one
shape both the order repository and a booking's deposit transaction write."""

from __future__ import annotations

from typing import Any

from tulia.domain.order import Order
from tulia.domain.times import sortable
from tulia.store import keys
from tulia.store.codec import to_item


def order_item(order: Order) -> dict[str, Any]:
    return to_item(
        order,
        pk=keys.order_pk(order.tenant_id, order.order_id),
        sk=keys.ORDER,
        gsi1pk=keys.customer_orders_gsi_pk(order.tenant_id, order.customer_id),
        gsi1sk=sortable(order.created_at),
        gsi2pk=keys.tenant_orders_gsi_pk(order.tenant_id),
        gsi2sk=sortable(order.created_at),
    )
