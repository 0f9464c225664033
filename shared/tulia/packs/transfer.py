"""One format for a shop (issue 34, part 7): a shop, however it was made, is written out as the pack that
``tulia seed`` reads (:mod:`tulia.packs.loader`), and a pack is read into a shop made in the console through the
same loader and the same seeding.

What a pack export holds: ``tenant.yaml`` (the shop's settings), ``catalog.csv``, ``offers.yaml``,
``vocabulary.yaml`` and ``kb/`` (each document as the Markdown Tulia read from it, under its own path, so it
keeps its id and source type). Never in it: secrets (the WhatsApp token and PIN, M-Pesa and PesaPal keys), and
what belongs to the running shop rather than to its definition: its WhatsApp number (a number serves one shop),
its status, which payment methods were proven, the M-Pesa prompt and card settings (bound to their keys; the
Till or Paybill, printed on the counter, is kept), versions and offers' redemption counts.

Reading a pack into a shop keeps the shop's id, number, status, payment settings and proofs: the pack gives
everything else, and its catalog, offers and documents replace the shop's.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from tulia.domain.catalog_rows import rows_to_csv
from tulia.domain.kb import KbChunk
from tulia.domain.tenant import RUNNING_SHOP_FIELDS, Tenant
from tulia.errors import InvalidInput
from tulia.packs.loader import Pack, load_pack
from tulia.packs.seed import SeedSummary, seed_pack
from tulia.services import Services

MAX_PACK_BYTES = 20 * 1024 * 1024  # the zip as sent
MAX_UNPACKED_BYTES = 60 * 1024 * 1024  # everything in it, unpacked (a zip bomb stops here)
MAX_PACK_FILES = 500

# the running shop's, not its definition's (see the module's text); the vocabulary has its own file
NOT_EXPORTED = {*RUNNING_SHOP_FIELDS, "vocabulary"}
KEPT_ON_IMPORT = ("tenant_id", "payments", *RUNNING_SHOP_FIELDS)

HEADER = """# {name}: a Tulia pack, exported {day} (read it with `tulia seed`, or import it in the console).
# Secrets are never exported: set the WhatsApp connection, M-Pesa prompt keys and PesaPal keys again.
"""


def _yaml(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120)


def tenant_yaml(tenant: Tenant, exported_on: str) -> str:
    data = tenant.model_dump(mode="json", exclude=NOT_EXPORTED, exclude_none=True)
    c2b = tenant.payments.mpesa_c2b
    data["payments"] = {"mpesa_c2b": c2b.model_dump(mode="json", exclude_none=True)} if c2b else {}
    return HEADER.format(name=tenant.name, day=exported_on) + _yaml(data)


def document_markdown(title: str, chunks: list[KbChunk]) -> str:
    """A document as Markdown from what Tulia read of it: its title, then its sections in order."""
    parts = [f"# {title}\n"]
    current: str | None = None
    for chunk in sorted(chunks, key=lambda c: c.position):
        if chunk.section and chunk.section != current:
            parts.append(f"## {chunk.section}\n")
            current = chunk.section
        parts.append(chunk.text.strip() + "\n")
    return "\n".join(parts)


def export_pack(services: Services, tenant_id: str) -> dict[str, bytes]:
    """The shop as a pack's files, by path inside the pack."""
    s = services
    tenant = s.tenants.get(tenant_id)
    files: dict[str, bytes] = {
        "tenant.yaml": tenant_yaml(tenant, s.clock().date().isoformat()).encode("utf-8"),
        "catalog.csv": rows_to_csv(sorted(s.catalog.iter_all(tenant_id), key=lambda i: i.item_id)).encode("utf-8"),
    }
    if tenant.vocabulary.root:
        files["vocabulary.yaml"] = _yaml(tenant.vocabulary.root).encode("utf-8")
    offers = [
        o.model_dump(mode="json", exclude={"tenant_id", "redemptions"}, exclude_defaults=True)
        | {"id": o.offer_id, "title": o.title, "kind": o.kind, "value": o.value}
        for o in sorted(s.offers.all_for(tenant_id), key=lambda o: o.offer_id)
    ]
    for offer in offers:
        offer.pop("offer_id", None)
        if offer.get("code"):
            offer.pop("id")  # a coupon's id is its code
    if offers:
        files["offers.yaml"] = _yaml(offers).encode("utf-8")
    chunks: dict[str, list[KbChunk]] = {}
    for chunk in s.kb.current_chunks(tenant_id):
        chunks.setdefault(chunk.doc_id, []).append(chunk)
    for doc in s.kb.documents(tenant_id):
        if doc.doc_id not in chunks:
            continue  # not indexed (yet): nothing read from it
        relative = PurePosixPath(doc.filename.removeprefix("kb/")).with_suffix(".md")
        files[f"kb/{relative.as_posix()}"] = document_markdown(doc.title, chunks[doc.doc_id]).encode("utf-8")
    return files


def zip_pack(files: Mapping[str, bytes], folder: str) -> bytes:
    """The pack's files in a zip, inside one folder (unzipped, it is a folder ``tulia seed`` reads)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(files):
            archive.writestr(f"{folder}/{path}", files[path])
    return out.getvalue()


def unzip_pack(data: bytes) -> dict[str, bytes]:
    """A pack's files from a zip: at its top, or inside one folder. :class:`InvalidInput` for anything that is
    not a pack that can be read safely (too big, too many files, paths that leave the pack)."""
    if len(data) > MAX_PACK_BYTES:
        raise InvalidInput("The pack is larger than 20 MB.", field="body")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = [e for e in archive.infolist() if not e.is_dir()]
    except (zipfile.BadZipFile, ValueError) as exc:
        raise InvalidInput("The file is not a zip of a pack.", field="body") from exc
    if len(entries) > MAX_PACK_FILES:
        raise InvalidInput(f"The pack has more than {MAX_PACK_FILES} files.", field="body")
    if sum(e.file_size for e in entries) > MAX_UNPACKED_BYTES:
        raise InvalidInput("The pack is larger than 60 MB unpacked.", field="body")
    names = [PurePosixPath(e.filename) for e in entries]
    for name in names:
        if name.is_absolute() or ".." in name.parts or "\\" in str(name):
            raise InvalidInput(f"The pack's path '{name}' leaves the pack.", field="body")
    wanted = [(e, n) for e, n in zip(entries, names, strict=True) if "__MACOSX" not in n.parts]
    tops = {n.parts[0] for _, n in wanted if len(n.parts) > 1}
    inside_folder = "tenant.yaml" not in {str(n) for _, n in wanted} and len(tops) == 1
    files: dict[str, bytes] = {}
    try:
        for entry, name in wanted:
            relative = PurePosixPath(*name.parts[1:]) if inside_folder else name
            if relative.parts:
                files[relative.as_posix()] = archive.read(entry)
    # a corrupt member (bad CRC or deflate data), an encrypted one, or one packed with a method Python lacks
    except (zipfile.BadZipFile, zlib.error, OSError, RuntimeError, NotImplementedError) as exc:
        raise InvalidInput("A file in the zip cannot be read.", field="body") from exc
    return files


def load_pack_files(files: Mapping[str, bytes]) -> Pack:
    """Read and validate a pack given as files, with the loader ``tulia seed`` uses (PackInvalid lists every
    problem)."""
    with tempfile.TemporaryDirectory(prefix="tulia-pack-") as directory:
        root = Path(directory)
        for relative, data in files.items():
            path = root / relative
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            except OSError as exc:  # a name too long, a file where a folder is...
                raise InvalidInput(
                    f"The pack's file '{relative}' cannot be read ({exc.strerror}).", field="body"
                ) from exc
        pack = load_pack(root)
        pack.directory = Path(".")
        return pack


def read_into(
    services: Services, tenant_id: str, pack: Pack, *, upload: Callable[[str, bytes], None] | None = None
) -> SeedSummary:
    """Make the shop ``tenant_id`` what the pack defines, keeping what is the running shop's own. ``upload``:
    documents go to the KB bucket for the ingestion function, as ``tulia seed`` sends them in AWS."""
    current = services.tenants.get(tenant_id)
    kept = {name: getattr(current, name) for name in KEPT_ON_IMPORT}
    tenant = pack.tenant.model_copy(update=kept)
    rebound = Pack(
        pack.directory,
        tenant,
        [i.model_copy(update={"tenant_id": tenant_id}) for i in pack.catalog],
        [o.model_copy(update={"tenant_id": tenant_id}) for o in pack.offers],
        pack.documents,
    )
    return seed_pack(services, rebound, upload=upload)
