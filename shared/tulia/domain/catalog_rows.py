"""Catalog rows from a CSV sheet or a JSON list, validated one by one: the pack loader and the admin
API's bulk import read catalogs the same way and report every bad row with its number and field.

CSV: header ``sku,name,category,price,stock,description`` plus optional ``type, variants, tags,
brand, active, duration_minutes, max_per_order`` (1: one per order, never asked); price in whole
KES, stock a whole number (empty: not tracked); variants ``colour=Black|Blue;storage=128GB|256GB(+3000)``;
tags separated by ``|`` or ``;``. Services booked as appointments add ``deposit`` (``30%``, ``1000``,
``none``; empty: the shop's), ``staff`` (staff ids separated by ``|``; empty: anyone), ``place``
(``shop`` or ``home``) and ``zones`` (for ``home``: delivery zone names separated by ``|``; empty: all).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from tulia.domain.catalog import CatalogItem, VariantDimension, VariantOption

REQUIRED_COLUMNS = ("sku", "name", "category", "price", "stock", "description")
OPTIONAL_COLUMNS = (
    "type", "variants", "tags", "brand", "active", "duration_minutes", "max_per_order",
    "deposit", "staff", "place", "zones",
)  # fmt: skip
MAX_CATALOG_ROWS = 50_000


@dataclass(frozen=True)
class RowError:
    field: str | None  # the column (CSV) or field (JSON), when the problem is in one
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


@dataclass
class RowResult:
    row: int  # the CSV line number (header = 1) or the JSON position (first = 1)
    sku: str
    item: CatalogItem | None = None
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.item is not None and not self.errors


@dataclass
class CatalogRows:
    """Every row's outcome, plus problems of the sheet itself (header, encoding, size)."""

    rows: list[RowResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def valid(self) -> list[CatalogItem]:
        return [r.item for r in self.rows if r.ok and r.item is not None]

    @property
    def invalid(self) -> list[RowResult]:
        return [r for r in self.rows if not r.ok]


def whole_kes(raw: str) -> int:
    text = raw.strip().replace(",", "").replace("KES", "").replace("Ksh", "").replace("ksh", "").strip()
    if re.fullmatch(r"\d+(\.0+)?", text):
        return int(float(text))
    raise ValueError(f"price '{raw}' must be a whole number of KES (for example 2500)")


def parse_variants(raw: str) -> list[VariantDimension]:
    """``colour=Black|Blue;storage=128GB|256GB(+3000)``"""
    dims = []
    for part in filter(None, (p.strip() for p in raw.split(";"))):
        if "=" not in part:
            raise ValueError(f"variant '{part}' must look like name=option1|option2")
        name, options = part.split("=", 1)
        parsed = []
        for opt in filter(None, (o.strip() for o in options.split("|"))):
            m = re.fullmatch(r"(.+?)\s*\(\s*([+-]\s*\d[\d,]*)\s*\)", opt)
            if m:
                parsed.append(
                    VariantOption(
                        value=m.group(1).strip(), price_delta=int(m.group(2).replace(" ", "").replace(",", ""))
                    )
                )
            else:
                parsed.append(VariantOption(value=opt))
        dims.append(VariantDimension(name=name.strip(), options=parsed))
    return dims


def _pydantic_errors(exc: ValidationError) -> list[RowError]:
    out = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"])
        out.append(RowError("sku" if loc == "item_id" else (loc or None), err["msg"]))
    return out


def _item_from_cells(row: Mapping[str, str], tenant_id: str) -> CatalogItem:
    data: dict[str, Any] = {
        "tenant_id": tenant_id,
        "item_id": row.get("sku", ""),
        "name": row.get("name", ""),
        "category": row.get("category", ""),
        "description": row.get("description", ""),
        "price": whole_kes(row["price"]) if row.get("price") else None,
    }
    stock_raw = row.get("stock", "")
    if stock_raw:
        if not re.fullmatch(r"-?\d+", stock_raw):
            raise ValueError(f"stock '{stock_raw}' must be a whole number (or empty when not tracked)")
        data["stock"] = int(stock_raw)
    if row.get("type"):
        data["type"] = row["type"].lower()
    if row.get("variants"):
        data["variants"] = parse_variants(row["variants"])
    if row.get("tags"):
        data["tags"] = [t.strip() for t in re.split(r"[|;]", row["tags"]) if t.strip()]
    if row.get("brand"):
        data["brand"] = row["brand"]
    if row.get("active"):
        if row["active"].lower() not in ("true", "false", "yes", "no", "1", "0"):
            raise ValueError(f"active '{row['active']}' must be yes or no")
        data["active"] = row["active"].lower() in ("true", "yes", "1")
    if row.get("duration_minutes"):
        if not re.fullmatch(r"\d+", row["duration_minutes"]):
            raise ValueError(f"duration_minutes '{row['duration_minutes']}' must be a whole number")
        data["duration_minutes"] = int(row["duration_minutes"])
    if row.get("max_per_order"):
        if not re.fullmatch(r"\d+", row["max_per_order"]):
            raise ValueError(f"max_per_order '{row['max_per_order']}' must be a whole number (1: one per order)")
        data["max_per_order"] = int(row["max_per_order"])
    if row.get("deposit"):
        data["deposit"] = row["deposit"]
    for column in ("staff", "zones"):
        if row.get(column):
            data[column] = [v.strip() for v in re.split(r"[|;]", row[column]) if v.strip()]
    if row.get("place"):
        data["place"] = row["place"].lower()
    return CatalogItem.model_validate(data)


def _check_duplicates(result: CatalogRows) -> None:
    first_row_of: dict[str, int] = {}
    for r in result.rows:
        if not r.ok or r.item is None:
            continue
        if r.item.item_id in first_row_of:
            r.errors.append(
                RowError("sku", f"duplicate sku '{r.item.item_id}' (first used in row {first_row_of[r.item.item_id]})")
            )
            r.item = None
        else:
            first_row_of[r.item.item_id] = r.row


def rows_from_csv(text: str, tenant_id: str) -> CatalogRows:
    result = CatalogRows()
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as exc:  # a field over the csv module's limit, a NUL byte...
        result.problems.append(f"header: {exc}")
        return result
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        result.problems.append(
            f"header: missing column(s): {', '.join(missing)} (required: {','.join(REQUIRED_COLUMNS)})"
        )
        return result
    unknown = [h for h in header if h and h not in REQUIRED_COLUMNS + OPTIONAL_COLUMNS]
    if unknown:
        result.problems.append(f"header: unknown column(s): {', '.join(unknown)}")
    rows = enumerate(reader, start=2)
    while True:
        try:
            line_no, raw_row = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:  # e.g. a 1 MB cell: the sheet cannot be read past here
            result.problems.append(f"row {reader.line_num}: {exc}")
            break
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw_row.items() if k is not None}
        if not any(row.values()):
            continue
        if line_no - 1 > MAX_CATALOG_ROWS:
            result.problems.append(f"row {line_no}: more than {MAX_CATALOG_ROWS} rows")
            break
        outcome = RowResult(line_no, row.get("sku", ""))
        try:
            outcome.item = _item_from_cells(row, tenant_id)
        except ValidationError as exc:
            outcome.errors = _pydantic_errors(exc)
        except ValueError as exc:
            outcome.errors = [RowError(None, str(exc))]
        result.rows.append(outcome)
    _check_duplicates(result)
    return result


def rows_from_json(items: Iterable[Any], tenant_id: str) -> CatalogRows:
    """A JSON list of items with the fields of :class:`CatalogItem` (``sku`` or ``item_id``)."""
    result = CatalogRows()
    for n, raw in enumerate(items, start=1):
        if n > MAX_CATALOG_ROWS:
            result.problems.append(f"item {n}: more than {MAX_CATALOG_ROWS} items")
            break
        if not isinstance(raw, dict):
            result.rows.append(RowResult(n, "", errors=[RowError(None, "must be an object of fields")]))
            continue
        data = dict(raw)
        sku = str(data.pop("sku", data.get("item_id", "")) or "")
        data["item_id"] = sku
        data.pop("tenant_id", None)  # the shop comes from the caller, never from the data
        outcome = RowResult(n, sku)
        try:
            outcome.item = CatalogItem.model_validate({**data, "tenant_id": tenant_id})
        except ValidationError as exc:
            outcome.errors = _pydantic_errors(exc)
        result.rows.append(outcome)
    _check_duplicates(result)
    return result
