"""Admin API list endpoints with 10,000 orders for one tenant: latency and DynamoDB calls per request.

    .venv/bin/python bench/admin_lists.py

Method: moto DynamoDB in process with the demo shop seeded, 10,000 orders over 60 days for 2,000
customers (every status), 2,000 customer profiles, 60 days of analytics counters, and 1,000 orders of
another shop (they must never show). Requests are API Gateway HTTP API v2.0 events with verified
owner claims, handled by the admin function's resolver (`tulia.pipeline.admin_app.handle`), 200 per
endpoint after 2 warm-up requests. moto answers an index query by scanning the whole table in Python
(about 1 s with 11,000 orders), which says nothing about DynamoDB; so the time spent inside DynamoDB
calls is measured with botocore's event hooks and reported apart from the handler's own time (the
resolver, validation, item decoding and JSON), and so is the number of calls per request (what Lambda
pays in AWS, each a single-digit-millisecond Query or GetItem there).
"""

from __future__ import annotations

import json
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, bench_services, percentile
from tulia.admin.api import build_admin_api
from tulia.config import Settings
from tulia.domain.customer import Customer
from tulia.domain.order import Order, OrderLine, compute_totals
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack
from tulia.pipeline.admin_app import build_deps, handle
from tulia.store.customers import CustomerRepo
from tulia.store.orders import OrderRepo
from tulia.store.tables import CUSTOMERS, ORDERS

ORDERS_PER_SHOP, CUSTOMERS_PER_SHOP, DAYS = 10_000, 2_000, 60
REQUESTS = 20  # moto answers a GSI query by scanning the table: ~1 s per request here
START = datetime(2026, 9, 24, 6, 0, tzinfo=UTC)
STATUSES = ["draft", "pending_payment", "paid", "paid", "paid", "fulfilled", "fulfilled", "cancelled", "payment_failed"]


def orders_of(tenant_id: str, n: int, rng: random.Random) -> list[Order]:
    out = []
    for i in range(n):
        at = START + timedelta(seconds=rng.randrange(DAYS * 86_400))
        line = OrderLine(
            item_id=f"item-{rng.randrange(300)}", name="Item", category="phones", quantity=1, unit_price=1500,
            line_total=1500,
        )  # fmt: skip
        out.append(
            Order(
                tenant_id=tenant_id,
                order_id=f"ORD-{i:06d}",
                customer_id=f"cus-{rng.randrange(CUSTOMERS_PER_SHOP):05d}",
                status=rng.choice(STATUSES),
                lines=[line],
                totals=compute_totals([line], 200, 0),
                created_at=at,
                updated_at=at,
            )
        )
    return out


def event(path: str, params: dict[str, str] | None = None) -> dict[str, Any]:
    claims = {"sub": "owner-1", "custom:tenant_id": "demo-shop", "cognito:groups": "[owner]", "token_use": "id"}
    ev: dict[str, Any] = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": urlencode(params or {}),
        "headers": {"authorization": "Bearer verified-upstream"},
        "requestContext": {
            "http": {"method": "GET", "path": path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1"},
            "authorizer": {"jwt": {"claims": claims, "scopes": None}},
            "requestId": "bench",
            "routeKey": "$default",
            "stage": "$default",
        },
        "isBase64Encoded": False,
    }
    if params:
        ev["queryStringParameters"] = params
    return ev


def main() -> None:
    rng = random.Random(11)
    with bench_services() as b:
        s = b.services
        seed_pack(s, load_pack(PACKS / "demo-shop"))
        seed_pack(s, load_pack(PACKS / "demo-salon"))
        s.db.batch_write(ORDERS, puts=[OrderRepo.to_item(o) for o in orders_of("demo-shop", ORDERS_PER_SHOP, rng)])
        s.db.batch_write(ORDERS, puts=[OrderRepo.to_item(o) for o in orders_of("demo-salon", 1_000, rng)])
        customers = [
            Customer(
                tenant_id="demo-shop",
                customer_id=f"cus-{i:05d}",
                phone_e164=f"+2547{i:08d}",
                created_at=START + timedelta(minutes=i),
                updated_at=START + timedelta(minutes=i),
            )
            for i in range(CUSTOMERS_PER_SHOP)
        ]
        s.db.batch_write(CUSTOMERS, puts=[CustomerRepo.profile_item(c) for c in customers])
        deps = build_deps(Settings(table_prefix="bench-"), s)
        for day in range(DAYS):
            at = START + timedelta(days=day)
            for n in range(5):
                deps.stats.record_turn("demo-shop", at=at, trace=[], messages=2, customer=f"+2547{n:08d}")

        api = build_admin_api(deps)
        first_page = json.loads(handle(event("/admin/orders", {"limit": "50"}), api)["body"])
        cases: list[tuple[str, str, dict[str, str]]] = [
            ("orders, newest 50", "/admin/orders", {"limit": "50"}),
            ("orders, page 2 (cursor)", "/admin/orders", {"limit": "50", "cursor": first_page["cursor"]}),
            ("orders, status=paid", "/admin/orders", {"status": "paid", "limit": "50"}),
            ("orders, status=draft", "/admin/orders", {"status": "draft", "limit": "50"}),
            ("orders, one day", "/admin/orders", {"from": "2026-10-10", "to": "2026-10-10", "limit": "50"}),
            ("orders, one customer", "/admin/orders", {"customer_id": "cus-00042", "limit": "50"}),
            ("order detail", "/admin/orders/ORD-004242", {}),
            ("customers, newest 50", "/admin/customers", {"limit": "50"}),
            ("catalog items, 50", "/admin/catalog/items", {"limit": "50"}),
            ("handoffs, open", "/admin/handoffs", {}),
            ("analytics, 30 days", "/admin/analytics", {"from": "2026-10-01", "to": "2026-10-30"}),
        ]
        print(
            f"Admin API, demo-shop with {ORDERS_PER_SHOP:,} orders, {CUSTOMERS_PER_SHOP:,} customers "
            f"(and 1,000 orders of another shop); {REQUESTS} requests each\n"
        )
        print("| request | DynamoDB calls | handler alone p50 / p95 ms | total with moto p50 / p95 ms | items |")
        print("|---|---|---|---|---|")
        for name, path, params in cases:
            for _ in range(2):
                handle(event(path, params), api)
            samples, calls, own = [], set(), []
            items = 0
            for _ in range(REQUESTS):
                b.counter.reset()
                started = time.perf_counter()
                response = handle(event(path, params), api)
                samples.append((time.perf_counter() - started) * 1000)
                assert response["statusCode"] == 200, response
                calls.add(", ".join(f"{k} {v}" for k, v in sorted(b.counter.calls.items())) or "none")
                own.append(samples[-1] - b.counter.seconds * 1000)
                body = json.loads(response["body"])
                items = len(body.get("items", [])) if isinstance(body, dict) else 0
                if "items" in body:
                    assert all(i.get("tenant_id", "demo-shop") == "demo-shop" for i in body["items"])
            print(
                f"| {name} | {' / '.join(sorted(calls))} | {percentile(own, 50):.1f} / {percentile(own, 95):.1f} "
                f"| {percentile(samples, 50):.0f} / {percentile(samples, 95):.0f} | {items} |"
            )


if __name__ == "__main__":
    main()
