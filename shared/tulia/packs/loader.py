"""Tenant packs: a folder a shop owner can write by hand.

    tenant.yaml     the shop (required; ``bookings`` says how it takes appointments, see
                    :class:`tulia.domain.booking.BookingSettings`)
    catalog.csv     products and services (required; header sku,name,category,price,stock,description
                    plus optional type, variants, tags, brand, active, duration_minutes, and for
                    services booked as appointments deposit, staff, place, zones)
    offers.yaml     offers and coupons (optional)
    vocabulary.yaml the words of the shop's trade: {term: [word or phrase, ...]} (optional)
    kb/             md, txt, pdf or docx documents (optional; a sub-folder named policy, faq, doc or sop
                    sets the source type)

The whole pack is validated before anything is written. Every problem names the file, the row or
field, and what is wrong; :class:`PackInvalid` carries them all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from tulia.domain.booking import service_problems
from tulia.domain.catalog import CatalogItem
from tulia.domain.catalog_rows import rows_from_csv
from tulia.domain.offer import Offer
from tulia.domain.tenant import Tenant, Vocabulary
from tulia.errors import InvalidInput
from tulia.rag.ingest import MAX_KB_BYTES, KbDocumentSource, read_document


@dataclass(frozen=True)
class PackIssue:
    file: str
    location: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}" + (f", {self.location}" if self.location else "")
        return f"{where}: {self.message}"


class PackInvalid(Exception):
    def __init__(self, pack_dir: Path, issues: list[PackIssue]) -> None:
        self.pack_dir = pack_dir
        self.issues = issues
        super().__init__(f"{pack_dir}: {len(issues)} problem(s)\n" + "\n".join(f"  - {i}" for i in issues))


@dataclass
class Pack:
    directory: Path
    tenant: Tenant
    catalog: list[CatalogItem]
    offers: list[Offer] = field(default_factory=list)
    documents: list[KbDocumentSource] = field(default_factory=list)


def _pydantic_issues(file: str, exc: ValidationError, prefix: str = "") -> list[PackIssue]:
    out = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"])
        out.append(PackIssue(file, f"{prefix}{loc}" if loc else (prefix.rstrip(": ") or None), err["msg"]))
    return out


def _read_yaml(path: Path, issues: list[PackIssue]) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        issues.append(PackIssue(path.name, None, f"not valid YAML ({exc.__class__.__name__}: {exc})".splitlines()[0]))
        return None


def _load_catalog(path: Path, tenant_id: str, issues: list[PackIssue]) -> list[CatalogItem]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        issues.append(PackIssue(path.name, None, "not UTF-8 text (save the CSV as UTF-8)"))
        return []
    result = rows_from_csv(text, tenant_id)
    for problem in result.problems:
        where, _, what = problem.partition(": ")
        issues.append(PackIssue(path.name, where, what))
    for row in result.invalid:
        for e in row.errors:
            issues.append(
                PackIssue(path.name, f"row {row.row}" + (f", column {e.field}" if e.field else ""), e.message)
            )
    if not result.rows and not result.problems:
        issues.append(PackIssue(path.name, None, "the catalog has no items"))
    return result.valid


def _check_services(tenant: Tenant, file: str, catalog: list[CatalogItem], issues: list[PackIssue]) -> None:
    """Every service booked as an appointment can be: its staff and zones exist, it fits a working day."""
    settings = tenant.booking_settings()
    zones = [z.name for z in tenant.delivery_zones]
    for item in catalog:
        for column, problem in service_problems(settings, item, zones):
            issues.append(PackIssue(file, f"item {item.item_id}, column {column}", problem))


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48] or "offer"


def _load_offers(path: Path, tenant_id: str, categories: set[str], issues: list[PackIssue]) -> list[Offer]:
    data = _read_yaml(path, issues)
    if data is None:
        return []
    if isinstance(data, dict) and "offers" in data:
        data = data["offers"]
    if not isinstance(data, list):
        issues.append(PackIssue(path.name, None, "must be a list of offers"))
        return []
    offers: list[Offer] = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(data, start=1):
        loc = f"offer {n}"
        if not isinstance(raw, dict):
            issues.append(PackIssue(path.name, loc, "must be a mapping of fields"))
            continue
        raw = dict(raw)
        code = str(raw["code"]).strip().upper() if raw.get("code") else None
        offer_id = code or str(raw.pop("id", "") or _slug(str(raw.get("title", ""))))
        raw.pop("id", None)
        for key in ("valid_from", "valid_to"):
            if isinstance(raw.get(key), date):
                raw[key] = raw[key].isoformat()
        try:
            offer = Offer.model_validate({**raw, "tenant_id": tenant_id, "offer_id": offer_id})
        except ValidationError as exc:
            issues.extend(_pydantic_issues(path.name, exc, prefix=f"{loc} ({raw.get('title', '?')}), field "))
            continue
        unknown = [c for c in offer.categories if c.casefold() not in categories]
        if unknown:
            issues.append(
                PackIssue(
                    path.name,
                    f"{loc} ({offer.title}), field categories",
                    f"unknown categor{'y' if len(unknown) == 1 else 'ies'}: {', '.join(unknown)}",
                )
            )
            continue
        if offer.offer_id in seen:
            issues.append(
                PackIssue(path.name, loc, f"duplicate offer '{offer.offer_id}' (also offer {seen[offer.offer_id]})")
            )
            continue
        seen[offer.offer_id] = n
        offers.append(offer)
    return offers


def _load_kb(kb_dir: Path, issues: list[PackIssue]) -> list[KbDocumentSource]:
    docs: list[KbDocumentSource] = []
    for path in sorted(p for p in kb_dir.rglob("*") if p.is_file()):
        rel = path.relative_to(kb_dir)
        shown = f"kb/{rel.as_posix()}"
        if path.name.startswith("."):
            continue
        if path.stat().st_size > MAX_KB_BYTES:  # before reading it
            issues.append(PackIssue(shown, None, "larger than 20 MB"))
            continue
        try:
            docs.append(read_document(rel.as_posix(), path.read_bytes(), shown_as=shown))
        except InvalidInput as exc:
            issues.append(PackIssue(shown, None, exc.message.split(": ", 1)[-1]))
    return docs


def load_pack(directory: str | Path) -> Pack:
    """Read and validate a whole pack. Raises :class:`PackInvalid` listing every problem."""
    pack_dir = Path(directory)
    issues: list[PackIssue] = []
    if not pack_dir.is_dir():
        raise PackInvalid(pack_dir, [PackIssue(str(pack_dir), None, "not a folder")])
    tenant: Tenant | None = None
    tenant_path = pack_dir / "tenant.yaml"
    if not tenant_path.is_file():
        issues.append(PackIssue("tenant.yaml", None, "missing (every pack needs one)"))
    else:
        raw = _read_yaml(tenant_path, issues)
        if raw is not None and not isinstance(raw, dict):
            issues.append(PackIssue("tenant.yaml", None, "must be a mapping of fields"))
        elif raw is not None:
            raw = dict(raw)
            raw["languages"] = raw.get("languages") or {}
            for key in ("catalog_version", "kb_version", "reading_version"):
                raw.pop(key, None)
            try:
                tenant = Tenant.model_validate(raw)
            except ValidationError as exc:
                issues.extend(_pydantic_issues("tenant.yaml", exc, prefix="field "))
    vocabulary_path = pack_dir / "vocabulary.yaml"
    if vocabulary_path.is_file():
        raw_vocabulary = _read_yaml(vocabulary_path, issues)
        if raw_vocabulary is not None and not isinstance(raw_vocabulary, dict):
            issues.append(PackIssue("vocabulary.yaml", None, "must map each term to a list of words"))
        elif raw_vocabulary:
            try:
                vocabulary = Vocabulary.model_validate(raw_vocabulary)
            except ValidationError as exc:
                issues.extend(_pydantic_issues("vocabulary.yaml", exc))
            else:
                if tenant is not None:
                    tenant = tenant.model_copy(update={"vocabulary": vocabulary})
    tenant_id = tenant.tenant_id if tenant else "invalid"

    catalog: list[CatalogItem] = []
    catalog_path = pack_dir / "catalog.csv"
    if not catalog_path.is_file():
        issues.append(PackIssue("catalog.csv", None, "missing (every pack needs a catalog)"))
    else:
        catalog = _load_catalog(catalog_path, tenant_id, issues)

    if tenant is not None:
        _check_services(tenant, catalog_path.name, catalog, issues)

    offers: list[Offer] = []
    offers_path = pack_dir / "offers.yaml"
    if offers_path.is_file():
        offers = _load_offers(offers_path, tenant_id, {i.category.casefold() for i in catalog}, issues)

    documents: list[KbDocumentSource] = []
    if (pack_dir / "kb").is_dir():
        documents = _load_kb(pack_dir / "kb", issues)

    if issues or tenant is None:
        raise PackInvalid(pack_dir, issues)
    return Pack(pack_dir, tenant, catalog, offers, documents)
