"""Catalog items: list, get, create or replace (PUT, idempotent), change (PATCH), delete, their pictures
(uploaded, kept where WhatsApp fetches them), and bulk import from CSV, Excel (.xlsx) or JSON with a report for
every row. Owner only. Every write moves the shop's
catalog version, so the bot searches the new catalog on its next turn."""

import base64
import hashlib
import json
from typing import Annotated, Any, Literal

from aws_lambda_powertools.event_handler.api_gateway import Response
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.request import Request

from tulia.admin.common import (
    PAGE_LIMIT_MAX,
    AdminDeps,
    Deleted,
    Deps,
    Owner,
    Page,
    View,
    admin_router,
    audit,
    input_model,
)
from tulia.domain.catalog import CatalogItem
from tulia.domain.catalog_rows import XLSX_MAGIC, CatalogRows, rows_from_csv, rows_from_json, rows_from_xlsx
from tulia.errors import InvalidInput
from tulia.store.media import MAX_PICTURE_BYTES

MAX_IMPORT_BYTES = 5 * 1024 * 1024

CatalogItemInput = input_model(CatalogItem, "CatalogItemInput", exclude=("tenant_id", "item_id"))
CatalogItemPatch = input_model(CatalogItem, "CatalogItemPatch", exclude=("tenant_id", "item_id"), partial=True)


class ImportRowReport(View):
    row: int
    sku: str
    errors: list[dict[str, str | None]]


ImportFormat = Literal["csv", "xlsx", "json"]
OLD_EXCEL_MAGIC = b"\xd0\xcf\x11\xe0"  # .xls (Excel 97-2003)


class ImportReport(View):
    format: ImportFormat
    partial: bool
    rows: int
    written: int
    invalid: int
    problems: list[str]
    invalid_rows: list[ImportRowReport]


def _report(rows: CatalogRows, fmt: ImportFormat, partial: bool, written: int) -> ImportReport:
    return ImportReport(
        format=fmt,
        partial=partial,
        rows=len(rows.rows),
        written=written,
        invalid=len(rows.invalid),
        problems=rows.problems,
        invalid_rows=[
            ImportRowReport(row=r.row, sku=r.sku, errors=[{"field": e.field, "message": e.message} for e in r.errors])
            for r in rows.invalid
        ],
    )


router = admin_router()


def changed(deps: AdminDeps, tenant_id: str) -> None:
    deps.services.tenants.bump_version(tenant_id, "catalog_version")


@router.get("/admin/catalog/items", tags=["catalog"], summary="List catalog items (filter by category, active)")
def list_items(
    who: Owner,
    deps: Deps,
    category: Annotated[str | None, Query(max_length=60)] = None,
    active: Annotated[bool | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Page[CatalogItem]:
    page = deps.services.catalog.page(who.tenant_id, category=category, active=active, limit=limit, cursor=cursor)
    return Page[CatalogItem](items=page.items, cursor=page.cursor)


@router.get("/admin/catalog/items/<item_id>", tags=["catalog"], summary="One catalog item")
def get_item(item_id: str, who: Owner, deps: Deps) -> CatalogItem:
    return deps.services.catalog.get(who.tenant_id, item_id)


@router.put("/admin/catalog/items/<item_id>", tags=["catalog"], summary="Create or replace an item (by sku)")
def put_item(
    item_id: str,
    body: CatalogItemInput,  # type: ignore[valid-type]
    who: Owner,
    deps: Deps,
) -> CatalogItem:
    item = CatalogItem.model_validate(
        {**body.model_dump(), "tenant_id": who.tenant_id, "item_id": item_id}  # type: ignore[attr-defined]
    )
    existed = bool(deps.services.catalog.get_many(who.tenant_id, [item_id]))
    deps.services.catalog.put_many([item])
    changed(deps, who.tenant_id)
    audit(deps, who, "catalog.item.replace" if existed else "catalog.item.create", item_id)
    return item


@router.patch("/admin/catalog/items/<item_id>", tags=["catalog"], summary="Change some fields of an item")
def patch_item(
    item_id: str,
    body: CatalogItemPatch,  # type: ignore[valid-type]
    who: Owner,
    deps: Deps,
) -> CatalogItem:
    current = deps.services.catalog.get(who.tenant_id, item_id)
    changes = body.model_dump(exclude_unset=True)  # type: ignore[attr-defined]
    item = CatalogItem.model_validate({**current.model_dump(), **changes})
    deps.services.catalog.put_many([item])
    changed(deps, who.tenant_id)
    audit(deps, who, "catalog.item.update", item_id, fields=sorted(changes))
    return item


@router.delete("/admin/catalog/items/<item_id>", tags=["catalog"], summary="Delete an item")
def delete_item(item_id: str, who: Owner, deps: Deps) -> Deleted:
    deps.services.catalog.get(who.tenant_id, item_id)  # not found: 404, nothing changes
    deps.services.catalog.delete_many(who.tenant_id, [item_id])
    changed(deps, who.tenant_id)
    audit(deps, who, "catalog.item.delete", item_id)
    return Deleted(deleted=True, id=item_id)


def picture_type(data: bytes) -> str | None:
    """What a picture is, by its first bytes (never by what the browser says): JPEG, PNG or WebP."""
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


@router.post(
    "/admin/catalog/items/<item_id>/picture",
    tags=["catalog"],
    summary="Upload the item's picture (JPEG, PNG or WebP, up to 5 MB: the body is the file)",
    description="Kept where WhatsApp can fetch it; the item's image_url becomes its address. Customers get it with "
    "the item's card, once per chat. A picture replaced or removed is deleted.",
    responses={422: {"description": "Not a JPEG, PNG or WebP picture, empty, or larger than 5 MB"}},
)
def upload_picture(item_id: str, request: Request, who: Owner, deps: Deps) -> CatalogItem:
    pictures = deps.services.pictures
    if pictures is None:
        raise InvalidInput("Pictures cannot be uploaded here: give the picture's address (image_url).", field="body")
    current = deps.services.catalog.get(who.tenant_id, item_id)  # not found: 404, nothing kept
    event = request.resolved_event
    body = event.body or ""
    data = base64.b64decode(body) if event.is_base64_encoded else body.encode("latin-1", "replace")
    if len(data) > MAX_PICTURE_BYTES:
        raise InvalidInput("The picture is larger than 5 MB (WhatsApp's limit): send a smaller one.", field="body")
    kind = picture_type(data)
    if kind is None:
        raise InvalidInput("Send the picture itself: a JPEG, PNG or WebP file.", field="body")
    url = pictures.put(who.tenant_id, item_id, data, kind, hashlib.sha256(data).hexdigest())
    item = current.model_copy(update={"image_url": url})
    deps.services.catalog.put_many([item])
    _forget_picture(deps, who.tenant_id, current.image_url, keep=url)
    changed(deps, who.tenant_id)
    audit(deps, who, "catalog.item.picture", item_id, bytes=len(data), type=kind)
    return item


@router.delete("/admin/catalog/items/<item_id>/picture", tags=["catalog"], summary="Remove the item's picture")
def delete_picture(item_id: str, who: Owner, deps: Deps) -> CatalogItem:
    current = deps.services.catalog.get(who.tenant_id, item_id)
    item = current.model_copy(update={"image_url": None})
    deps.services.catalog.put_many([item])
    _forget_picture(deps, who.tenant_id, current.image_url)
    changed(deps, who.tenant_id)
    audit(deps, who, "catalog.item.picture_removed", item_id)
    return item


def _forget_picture(deps: AdminDeps, tenant_id: str, url: str | None, keep: str | None = None) -> None:
    """Delete a picture this shop uploaded (an address typed in, or another shop's, is never touched)."""
    pictures = deps.services.pictures
    key = pictures.key_of(tenant_id, url) if pictures is not None and url and url != keep else None
    if pictures is not None and key is not None:
        pictures.delete(key)


@router.post(
    "/admin/catalog/import",
    tags=["catalog"],
    summary='Bulk import from CSV (text/csv), Excel (.xlsx) or JSON (a list of items, or {"items": [...]})',
    description=(
        "An Excel workbook's first sheet with these columns in its first row is read like the CSV. "
        "CSV header: sku,name,category,price,stock,description (+ type, variants, tags, brand, active, "
        "duration_minutes, max_per_order, image_url). Items are created or replaced by sku; items not in the file "
        "are kept. "
        "Any invalid row: nothing is written and 422 lists every bad row, unless partial=true, which "
        "writes the valid rows and reports the rest."
    ),
    responses={422: {"description": "Invalid rows (nothing written)"}},
)
def import_items(
    request: Request,
    who: Owner,
    deps: Deps,
    partial: Annotated[bool, Query()] = False,
) -> Response[str]:
    event = request.resolved_event
    body = event.body or ""
    data_bytes = base64.b64decode(body) if event.is_base64_encoded else body.encode()
    if len(data_bytes) > MAX_IMPORT_BYTES:
        raise InvalidInput("The file is larger than 5 MB.", field="body")
    if data_bytes.startswith(OLD_EXCEL_MAGIC):
        raise InvalidInput(
            "This is an old Excel file (.xls): save it as an Excel Workbook (.xlsx) or as CSV UTF-8.", field="body"
        )
    content_type = (event.headers.get("content-type") or "").lower()
    fmt: ImportFormat = (
        "xlsx" if "spreadsheetml" in content_type or data_bytes.startswith(XLSX_MAGIC) else
        "json" if "json" in content_type else "csv"
    )  # fmt: skip
    if fmt == "xlsx":
        rows = rows_from_xlsx(data_bytes, who.tenant_id)
    else:
        rows = _text_rows(data_bytes, fmt, who.tenant_id)
    # a sheet that cannot be read at all is refused even with partial=true
    if (rows.problems and not rows.rows) or ((rows.invalid or rows.problems) and not partial):
        return Response(422, "application/json", _report(rows, fmt, partial, 0).model_dump_json())
    valid = rows.valid
    deps.services.catalog.put_many(valid)
    if valid:
        changed(deps, who.tenant_id)
    audit(deps, who, "catalog.import", f"{len(valid)} items", format=fmt, partial=partial, invalid=len(rows.invalid))
    return Response(200, "application/json", _report(rows, fmt, partial, len(valid)).model_dump_json())


def _text_rows(data_bytes: bytes, fmt: ImportFormat, tenant_id: str) -> CatalogRows:
    try:
        raw = data_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"The file is not UTF-8 (byte {exc.start}): save it as 'CSV UTF-8' (or send the .xlsx) and send it again.",
            field="body",
        ) from exc
    if not raw.strip():
        raise InvalidInput("The body is empty: send the CSV (text/csv), the Excel file or JSON items.", field="body")
    if fmt != "json":
        return rows_from_csv(raw.lstrip("\ufeff"), tenant_id)
    try:
        data: Any = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"The body is not valid JSON ({exc.msg}).", field="body") from exc
    except RecursionError as exc:
        raise InvalidInput("The JSON is nested too deeply to be a list of items.", field="body") from exc
    if isinstance(data, dict):
        data = data.get("items")
    if not isinstance(data, list):
        raise InvalidInput('Send a JSON list of items, or {"items": [...]}.', field="body")
    return rows_from_json(data, tenant_id)
