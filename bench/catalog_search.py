"""catalog_search over 10,000 items of one tenant, in process.

Builds a 10,000-item catalog from the demo shop's items (new SKUs, model numbers and a few synthetic
categories), seeds it into moto, and times (a) the index alone and (b) the whole tool call through
the registry (tenant read + index + BatchGetItem of the results from moto), warm.

    .venv/bin/python bench/catalog_search.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, bench_services, describe
from tulia.domain.catalog import CatalogItem
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack
from tulia.search.catalog_index import CatalogIndex
from tulia.tools.context import ToolContext
from tulia.tools.registry import call_tool

N_ITEMS = 10_000
QUERIES = [
    "samsung phone",
    "nataka simu ya tecno",
    "oraimo power bank 20000",
    "iphone 15 case",
    "hp laptop core i5",
    "43 inch smart tv",
    "earbuds nyeusi",
    "samsnug galaxy a15",
    "chaja ya iphone",
    "jbl speaker",
    "memory card 128gb",
    "infinix hot 40 cover",
    "wifi router",
    "kabambe",
    "ps5 controller",
    "tempered glass a05",
    "laptop bag",
    "smartwatch oraimo",
    "usb c cable",
    "redmi note 13 pro",
]
EXTRA_CATEGORIES = [
    "Kitchen Appliances",
    "Cameras",
    "Printers",
    "Monitors",
    "Keyboards & Mice",
    "Car Electronics",
    "Solar & Power",
    "Office Supplies",
    "Drones",
    "Projectors",
    "Home Security",
    "Fans & Cooling",
]


def big_catalog(tenant_id: str) -> list[CatalogItem]:
    rng = random.Random(10_000)
    base = load_pack(PACKS / "demo-shop").catalog
    items = []
    for n in range(N_ITEMS):
        src = base[n % len(base)]
        category = src.category if n % 3 else rng.choice(EXTRA_CATEGORIES)
        items.append(
            src.model_copy(
                update={
                    "tenant_id": tenant_id,
                    "item_id": f"BIG-{n:05d}",
                    "category": category,
                    "name": f"{src.name} {rng.choice(['', 'Pro ', 'Lite ', 'Max '])}M{rng.randint(10, 999)}".strip(),
                    "price": max(100, src.price + rng.randint(-500, 500)),
                    "stock": rng.choice([0, 1, 5, 10, 50]),
                }
            )
        )
    return items


def main() -> None:
    with bench_services() as b:
        s = b.services
        pack = load_pack(PACKS / "demo-shop")
        seed_pack(s, pack)
        items = big_catalog("demo-shop")
        t0 = time.perf_counter()
        s.catalog.put_many(items)
        version = s.tenants.bump_version("demo-shop", "catalog_version")
        t1 = time.perf_counter()
        index = CatalogIndex(s.catalog.iter_all("demo-shop"))
        t2 = time.perf_counter()
        s.catalog_indexes.prime("demo-shop", version, index)
        print(
            f"catalog: {len(index)} items in {len(index.categories)} categories "
            f"(seed {t1 - t0:.1f} s into moto; index build from the store {1000 * (t2 - t1):.0f} ms, "
            "most of it moto's query)"
        )
        rebuild = time.perf_counter()
        CatalogIndex(items)
        print(f"index build from items in memory: {1000 * (time.perf_counter() - rebuild):.0f} ms")

        index_ms, tool_ms, own_ms, calls = [], [], [], []
        for _round in range(10):
            for q in QUERIES:
                t = time.perf_counter()
                index.search(q, limit=12)
                index_ms.append(1000 * (time.perf_counter() - t))
        ctx = ToolContext(tenant_id="demo-shop", request_id="bench", conversation_id="bench", services=s)
        for _round in range(10):
            for q in QUERIES:
                b.counter.reset()
                t = time.perf_counter()
                result = call_tool(
                    "catalog_search",
                    {
                        "tenant_id": "demo-shop",
                        "request_id": "bench",
                        "conversation_id": "bench",
                        "query": q,
                        "limit": 6,
                    },
                    ctx,
                )
                elapsed = time.perf_counter() - t
                tool_ms.append(1000 * elapsed)
                own_ms.append(1000 * (elapsed - b.counter.seconds))
                calls.append(b.counter.total)
                assert result["ok"], result
        print(f"index.search only ({len(QUERIES)} queries x 10): {describe(index_ms)}")
        print(f"catalog_search tool, warm, excluding its DynamoDB calls: {describe(own_ms)}")
        print(f"catalog_search tool, warm, including moto's in-process DynamoDB: {describe(tool_ms)}")
        print(f"DynamoDB calls per catalog_search: max {max(calls)}, mean {sum(calls) / len(calls):.1f}")


if __name__ == "__main__":
    main()
