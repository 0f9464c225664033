"""catalog_search and catalog_get_item. Prices and stock always come from DynamoDB."""

from __future__ import annotations

from urllib.parse import quote_plus

from tulia.domain.catalog import CatalogItem
from tulia.errors import NotFound
from tulia.search.catalog_index import Filters
from tulia.tools.args import CatalogGetItemArgs, CatalogSearchArgs
from tulia.tools.common import Output
from tulia.tools.context import ToolContext

LOW_STOCK = 3


class VariantOut(Output):
    name: str
    options: list[str]
    price_deltas: dict[str, int]


class ItemSummary(Output):
    item_id: str
    name: str
    type: str
    category: str
    brand: str | None
    price: int
    currency: str
    in_stock: bool
    stock: int | None
    low_stock: bool
    variants: list[VariantOut]
    short_description: str


class CatalogSearchOut(Output):
    query: str
    results: list[ItemSummary]
    total_matches_estimate: int
    confidence: float
    catalog_link: str | None


class CatalogItemOut(ItemSummary):
    description: str
    tags: list[str]
    duration_minutes: int | None
    max_per_order: int | None
    image_url: str | None = None  # the item's picture (sent with its card), when the shop has one


def summary(item: CatalogItem) -> dict[str, object]:
    desc = item.description.strip()
    return {
        "item_id": item.item_id,
        "name": item.name,
        "type": item.type,
        "category": item.category,
        "brand": item.brand,
        "price": item.price,
        "currency": item.currency,
        "in_stock": item.in_stock,
        "stock": item.stock,
        "low_stock": item.stock is not None and 0 < item.stock <= LOW_STOCK,
        "variants": [
            VariantOut(
                name=d.name,
                options=[o.value for o in d.options],
                price_deltas={o.value: o.price_delta for o in d.options if o.price_delta},
            )
            for d in item.variants
        ],
        "short_description": desc if len(desc) <= 120 else desc[:117].rsplit(" ", 1)[0] + "...",
    }


def _passes_fresh(item: CatalogItem, f: Filters) -> bool:
    """Re-check the filters that depend on live values (price, stock) against DynamoDB's copy."""
    if not item.active:
        return False
    if f.in_stock_only and not item.in_stock:
        return False
    if f.min_price is not None and item.price < f.min_price:
        return False
    return not (f.max_price is not None and item.price > f.max_price)


def catalog_search(ctx: ToolContext, args: CatalogSearchArgs) -> CatalogSearchOut:
    s = ctx.services
    tenant = s.tenants.get(ctx.tenant_id)
    index = s.catalog_indexes.get(ctx.tenant_id, tenant.catalog_version)
    fa = args.filters
    filters = Filters(
        type=fa.type if fa else None,
        category=fa.category if fa else None,
        min_price=fa.min_price if fa else None,
        max_price=fa.max_price if fa else None,
        tags=tuple(fa.tags or ()) if fa else (),
        in_stock_only=bool(fa and fa.in_stock_only),
    )
    result = index.search(args.query, filters, limit=min(args.limit * 2, 20))
    fresh = s.catalog.get_many(ctx.tenant_id, [h.item_id for h in result.hits]) if result.hits else {}
    items = [fresh[h.item_id] for h in result.hits if h.item_id in fresh and _passes_fresh(fresh[h.item_id], filters)]
    link = None
    if tenant.catalog_link_base:
        sep = "&" if "?" in tenant.catalog_link_base else "?"
        link = tenant.catalog_link_base + (f"{sep}q={quote_plus(args.query)}" if args.query.strip() else "")
    return CatalogSearchOut(
        query=args.query,
        results=[ItemSummary(**summary(i)) for i in items[: args.limit]],
        total_matches_estimate=max(result.total_matches, len(items[: args.limit])) if items else 0,
        confidence=result.confidence if items else 0.0,
        catalog_link=link,
    )


def catalog_get_item(ctx: ToolContext, args: CatalogGetItemArgs) -> CatalogItemOut:
    item = ctx.services.catalog.get(ctx.tenant_id, args.item_id)
    if not item.active:
        raise NotFound(f"No catalog item '{args.item_id}'.", field="item_id")
    return CatalogItemOut(
        **summary(item),
        description=item.description,
        tags=item.tags,
        duration_minutes=item.duration_minutes,
        max_per_order=item.max_per_order,
        image_url=item.image_url,
    )
