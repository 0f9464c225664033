"""DynamoDB calls per tool call, counted with botocore event hooks (target: at most 3 for any tool).

Runs every tool in the situations a conversation meets (new and known customer, first and repeat
checkout, ...) against moto with the demo packs, warm unless marked cold, and prints a Markdown table.

    .venv/bin/python bench/dynamodb_calls.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, Bench, bench_services
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack
from tulia.tools.context import ToolContext
from tulia.tools.registry import call_tool

rows: list[tuple[str, str, int, str]] = []


def run(b: Bench, tool: str, situation: str, chat_customer: str | None = None, **args: Any) -> dict[str, Any]:
    ctx = ToolContext(
        tenant_id="demo-shop",
        request_id="bench",
        conversation_id="bench",
        services=b.services,
        customer_id=chat_customer,
    )
    b.counter.reset()
    result = call_tool(tool, {"tenant_id": "demo-shop", "request_id": "bench", "conversation_id": "bench", **args}, ctx)
    if not result["ok"]:
        raise SystemExit(f"{tool} failed: {result}")
    rows.append((tool, situation, b.counter.total, ", ".join(f"{k} {v}" for k, v in sorted(b.counter.calls.items()))))
    return result["data"]


def main() -> None:
    with bench_services() as b:
        seed_pack(b.services, load_pack(PACKS / "demo-shop"))
        b.services.daraja.token(b.services.payment_config.mpesa_credentials)
        run(b, "tenant_get_context", "any turn")
        cid = run(b, "customer_get_or_create", "new customer", phone_e164="0712345678")["customer_id"]
        run(b, "customer_get_or_create", "known customer", phone_e164="0712345678")
        run(
            b,
            "customer_update_preferences",
            "opt in (2 consent events)",
            cid,
            customer_id=cid,
            updates={"marketing_opt_in": True},
            consent_source="user_message",
        )
        b.services.catalog_indexes._entries.clear()
        run(b, "catalog_search", "cold index (first search in a container)", cid, query="samsung phone", limit=6)
        run(b, "catalog_search", "warm", cid, query="samsung phone", limit=6)
        run(b, "catalog_get_item", "any", cid, item_id="PH-SAM-002")
        order = run(
            b,
            "order_create",
            "2 lines, delivery zone",
            cid,
            customer_id=cid,
            items=[
                {"item_id": "PH-SAM-002", "quantity": 1, "variant_selection": {"colour": "Blue", "storage": "128GB"}},
                {"item_id": "SG-002", "quantity": 1},
            ],
            delivery={"mode": "delivery", "address_text": "Westlands"},
        )
        oid = order["order_id"]
        run(b, "offers_get_applicable", "with an order", cid, customer_id=cid, order_id=oid)
        run(b, "order_apply_coupon", "WELCOME10", cid, customer_id=cid, order_id=oid, coupon_code="WELCOME10")
        run(b, "payment_get_methods", "any", cid, order_id=oid)
        run(b, "payment_get_c2b_instructions", "draft order (moves to pending_payment)", cid, order_id=oid)
        run(
            b,
            "payment_initiate_stk_push",
            "first prompt",
            cid,
            order_id=oid,
            phone_e164="0712345678",
            amount=order["totals"]["total"] - 1500,
        )
        run(b, "payment_create_pesapal_checkout", "first checkout of the tenant (IPN registered)", cid, order_id=oid)
        run(b, "payment_create_pesapal_checkout", "same order again (link reused)", cid, order_id=oid)
        second = run(
            b,
            "order_create",
            "1 line, pickup",
            cid,
            customer_id=cid,
            items=[{"item_id": "CB-002", "quantity": 1}],
            delivery={"mode": "pickup"},
        )
        run(b, "payment_create_pesapal_checkout", "later checkout (IPN known)", cid, order_id=second["order_id"])
        run(b, "order_get_status", "by reference", cid, customer_id=cid, order_ref=order["order_ref"])
        run(b, "order_get_status", "latest orders", cid, customer_id=cid)
        b.services.kb_indexes._entries.clear()
        run(b, "kb_retrieve", "cold index", cid, query="how do I return a faulty phone", top_k=3)
        run(b, "kb_retrieve", "warm", cid, query="delivery fee to Kasarani", top_k=3)
        run(
            b,
            "handoff_create_ticket",
            "new ticket",
            cid,
            customer_id=cid,
            reason="payment dispute",
            priority="high",
            context_snapshot={"summary": "paid but pending"},
        )

    print("| tool | situation | DynamoDB calls | by API |")
    print("|---|---|---:|---|")
    for tool, situation, total, detail in rows:
        print(f"| `{tool}` | {situation} | {total} | {detail} |")
    warm = [r for r in rows if "cold" not in r[1]]
    worst = max(warm, key=lambda r: r[2])
    print(f"\nmax over warm calls: {worst[2]} ({worst[0]}, {worst[1]}); target at most 3")


if __name__ == "__main__":
    main()
