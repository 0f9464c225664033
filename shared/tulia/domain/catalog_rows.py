"""Catalog rows from a CSV sheet, an Excel workbook (.xlsx) or a JSON list, validated one by one: the pack
loader and the admin API's bulk import read catalogs the same way and report every bad row with its number and field.

CSV: header ``sku,name,category,price,stock,description`` plus optional ``type, variants, tags,
brand, active, duration_minutes, max_per_order`` (1: one per order, never asked); price in whole
KES, stock a whole number (empty: not tracked); variants ``colour=Black|Blue;storage=128GB|256GB(+3000)``;
tags separated by ``|`` or ``;``. Services booked as appointments add ``deposit`` (``30%``, ``1000``,
``none``; empty: the shop's), ``staff`` (staff ids separated by ``|``; empty: anyone), ``place``
(``shop`` or ``home``) and ``zones`` (for ``home``: delivery zone names separated by ``|``; empty: all).
``image_url``: a picture of the item at a public ``https://`` (or ``http://``) address (sent with the item card).
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from pydantic import ValidationError

from tulia.domain.catalog import CatalogItem, VariantDimension, VariantOption

REQUIRED_COLUMNS = ("sku", "name", "category", "price", "stock", "description")
OPTIONAL_COLUMNS = (
    "type", "variants", "tags", "brand", "active", "duration_minutes", "max_per_order",
    "deposit", "staff", "place", "zones", "image_url",
)  # fmt: skip
MAX_CATALOG_ROWS = 50_000
MAX_SHEET_ROWS = 2 * MAX_CATALOG_ROWS  # empty rows included: a sheet is read no further
MAX_WORKBOOK_UNPACKED_BYTES = 50 * 1024 * 1024


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
    if row.get("image_url"):
        data["image_url"] = row["image_url"].strip()
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


class SheetUnreadable(Exception):
    """A row of the sheet cannot be read at all (the CSV module's limits): nothing after it is."""


Cells = Iterable[object]


def _cell_text(value: object) -> str:
    """A cell as the CSV would hold it: Excel keeps 2500 as 2500.0 and a date as a datetime."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value).strip()


def rows_from_table(header: Cells | None, rows: Iterator[tuple[int, Cells]], tenant_id: str) -> CatalogRows:
    """Rows of any sheet: the header's cells, then (row number, cells) pairs. Empty rows are skipped."""
    result = CatalogRows()
    columns = [_cell_text(h).lower() for h in (header or ())]
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        result.problems.append(
            f"header: missing column(s): {', '.join(missing)} (required: {','.join(REQUIRED_COLUMNS)})"
        )
        return result
    unknown = [h for h in columns if h and h not in REQUIRED_COLUMNS + OPTIONAL_COLUMNS]
    if unknown:
        result.problems.append(f"header: unknown column(s): {', '.join(unknown)}")
    counted = 0
    while True:
        try:
            line_no, cells = next(rows)
        except StopIteration:
            break
        except SheetUnreadable as exc:  # e.g. a 1 MB cell: the sheet cannot be read past here
            result.problems.append(str(exc))
            break
        if line_no > MAX_SHEET_ROWS:
            result.problems.append(f"row {line_no}: the sheet is read no further than row {MAX_SHEET_ROWS}")
            break
        values = [_cell_text(c) for c in cells]
        row = {name: value for name, value in zip(columns, values, strict=False) if name}
        if not any(values):
            continue
        counted += 1
        if counted > MAX_CATALOG_ROWS:
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


def rows_from_csv(text: str, tenant_id: str) -> CatalogRows:
    """A CSV sheet; row numbers count records as a spreadsheet shows them (the header is row 1)."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
    except csv.Error as exc:  # a field over the csv module's limit, a NUL byte...
        return CatalogRows(problems=[f"header: {exc}"])

    def numbered() -> Iterator[tuple[int, Cells]]:
        row = 1
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise SheetUnreadable(f"row {reader.line_num}: {exc}") from exc
            row += 1
            yield row, cells

    return rows_from_table(header, numbered(), tenant_id)


XLSX_MAGIC = b"PK\x03\x04"  # an .xlsx file is a zip archive


def rows_from_xlsx(data: bytes, tenant_id: str) -> CatalogRows:
    """An Excel workbook (.xlsx): the first sheet whose first row names the columns (else the first sheet).
    Row numbers are Excel's (the header is row 1). Formulas are read as their last saved values."""
    from openpyxl import load_workbook  # only imports read Excel: the admin function's sheets layer

    try:  # what it unpacks to, before anything is unpacked (a small file of repeated text can unpack to gigabytes)
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, ValueError):
        return CatalogRows(problems=["file: not an Excel workbook that can be read (BadZipFile)"])
    if unpacked > MAX_WORKBOOK_UNPACKED_BYTES:
        return CatalogRows(problems=["file: the workbook unpacks to more than 50 MB: save the catalog alone as CSV"])
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable archive: openpyxl raises zip, XML and key errors
        return CatalogRows(problems=[f"file: not an Excel workbook that can be read ({exc.__class__.__name__})"])
    try:
        sheets = list(book.worksheets)
        if not sheets:
            return CatalogRows(problems=["file: the workbook has no sheet"])
        chosen = sheets[0]
        for sheet in sheets:
            first = next(sheet.iter_rows(min_row=1, max_row=1, values_only=True), ())
            if "sku" in (_cell_text(c).lower() for c in first):
                chosen = sheet
                break
        rows = chosen.iter_rows(values_only=True)
        header = next(rows, None)
        return rows_from_table(header, enumerate(rows, start=2), tenant_id)
    finally:
        book.close()


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


def _variants_text(dims: list[VariantDimension]) -> str:
    def option(o: VariantOption) -> str:
        return f"{o.value}({o.price_delta:+d})" if o.price_delta else o.value

    return ";".join(f"{d.name}=" + "|".join(option(o) for o in d.options) for d in dims)


def _deposit_text(item: CatalogItem) -> str:
    if item.deposit is None:
        return ""
    if item.deposit.percent is not None:
        return f"{item.deposit.percent}%"
    return str(item.deposit.amount) if item.deposit.amount else "none"


def rows_to_csv(items: Iterable[CatalogItem]) -> str:
    """The catalog as the CSV :func:`rows_from_csv` reads back to the same items (a pack's ``catalog.csv``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(REQUIRED_COLUMNS + OPTIONAL_COLUMNS)
    for item in items:
        writer.writerow(
            [
                item.item_id,
                item.name,
                item.category,
                item.price,
                "" if item.stock is None else item.stock,
                item.description,
                item.type,
                _variants_text(item.variants),
                "|".join(item.tags),
                item.brand or "",
                "yes" if item.active else "no",
                item.duration_minutes or "",
                item.max_per_order or "",
                _deposit_text(item),
                "|".join(item.staff),
                item.place,
                "|".join(item.zones),
                item.image_url or "",
            ]
        )
    return out.getvalue()
