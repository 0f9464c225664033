"""A shop as a pack (issue 34, part 7): the owner downloads her shop as the zip of a pack (``tulia seed`` reads
it unzipped), and starts a shop from a pack: while the shop is in setup or paused, a pack's settings, catalog,
offers, vocabulary and documents replace hers (her id, number, status and payment settings stay). Owner only."""

from __future__ import annotations

import base64

from aws_lambda_powertools.event_handler.api_gateway import Response
from aws_lambda_powertools.event_handler.request import Request

from tulia.admin.common import Deps, Owner, View, admin_router, audit
from tulia.admin.golive import fresh
from tulia.errors import InvalidInput, StateConflict
from tulia.packs.loader import PackInvalid
from tulia.packs.transfer import MAX_PACK_BYTES, export_pack, load_pack_files, read_into, unzip_pack, zip_pack

router = admin_router()
PACK_PATH = "/admin/shop/pack"
IMPORTABLE = ("setup", "paused")  # never under a live shop's customers, nor past a suspension


class PackProblem(View):
    file: str
    location: str | None
    message: str


class PackRead(View):
    items: int
    categories: int
    offers: int
    documents: int


class PackRefused(View):
    code: str = "pack_invalid"
    message: str
    problems: list[PackProblem]


@router.get(
    PACK_PATH,
    tags=["shop"],
    summary="Download the shop as a pack (zip): tenant.yaml, catalog.csv, offers.yaml, vocabulary.yaml, kb/",
    description="Secrets are never in it. Unzipped, it is a folder `tulia seed` reads.",
    responses={200: {"content": {"application/zip": {}}}},
)
def download_pack(who: Owner, deps: Deps) -> Response[str]:
    files = export_pack(deps.services, who.tenant_id)
    audit(deps, who, "shop.pack_exported", who.tenant_id, files=len(files))
    zipped = Response(
        200,
        "application/zip",
        base64.b64encode(zip_pack(files, who.tenant_id)).decode(),  # a str passes the response validation as is
        headers={"Content-Disposition": f'attachment; filename="{who.tenant_id}-pack.zip"'},
    )
    zipped.base64_encoded = True
    return zipped


@router.post(
    PACK_PATH,
    tags=["shop"],
    summary="Start the shop from a pack (zip, while the shop is in setup or paused)",
    description=(
        "The pack's settings, catalog, offers, vocabulary and documents replace the shop's; its id, WhatsApp "
        "number, status and payment settings stay. A pack with any problem changes nothing (422 lists them all)."
    ),
    responses={422: {"description": "The pack's problems (nothing changed)"}, 409: {"description": "Shop is live"}},
)
def upload_pack(request: Request, who: Owner, deps: Deps) -> Response[str]:
    event = request.resolved_event
    body = event.body or ""
    data = base64.b64decode(body) if event.is_base64_encoded else body.encode()
    if len(data) > MAX_PACK_BYTES:
        raise InvalidInput("The pack is larger than 20 MB.", field="body")
    tenant = fresh(deps, who.tenant_id)
    if tenant.status not in IMPORTABLE:
        raise StateConflict(
            "A pack replaces the whole shop: pause the shop first (customers are told it is closed for now).",
            field="status",
            code="shop_live",
        )
    try:
        pack = load_pack_files(unzip_pack(data))
    except PackInvalid as exc:
        refused = PackRefused(
            message=f"The pack has {len(exc.issues)} problem(s); nothing was changed.",
            problems=[PackProblem(file=i.file, location=i.location, message=i.message) for i in exc.issues],
        )
        return Response(422, "application/json", refused.model_dump_json())
    summary = read_into(deps.services, who.tenant_id, pack, upload=deps.uploads.put if deps.uploads else None)
    audit(
        deps,
        who,
        "shop.pack_imported",
        who.tenant_id,
        items=summary.items,
        offers=summary.offers,
        documents=summary.documents,
    )
    read = PackRead(
        items=summary.items, categories=summary.categories, offers=summary.offers, documents=summary.documents
    )
    return Response(200, "application/json", read.model_dump_json())
