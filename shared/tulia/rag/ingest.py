"""Knowledge-base documents into the store: from a tenant pack (``tulia seed``) or from an upload to
the KB bucket (the ``kb_ingest`` function). One path for both, so an uploaded document is chunked and
kept exactly as a seeded one."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from tulia.domain.kb import KbChunk, KbDocument, SourceType
from tulia.errors import InvalidInput, NotFound, ProviderError, ProviderUnavailable, TuliaError
from tulia.nlu.lexicon import INJECTION, normalize
from tulia.observability import logger as log
from tulia.rag.extract import SUPPORTED_SUFFIXES, ExtractedDocument, chunk_sections, extract

if TYPE_CHECKING:
    from tulia.services import Services

SOURCE_TYPES: tuple[SourceType, ...] = ("policy", "faq", "doc", "sop")
MAX_KB_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class KbDocumentSource:
    doc_id: str
    filename: str
    source_type: SourceType
    extracted: ExtractedDocument
    relative_path: str = ""  # as an upload key names it after the tenant (sub-folder and file name)
    data: bytes = field(default=b"", repr=False)  # the file as read


def document_id(relative_path: str) -> str:
    """A stable id from the document's path without its suffix (``faq/Returns.md`` -> ``faq-returns``)."""
    stem = PurePosixPath(relative_path).with_suffix("").as_posix()
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")[:48] or "document"


def source_type(relative_path: str) -> SourceType:
    """From a folder named like a source type, else words in the file name, else ``doc``."""
    path = PurePosixPath(relative_path)
    for part in path.parts[:-1]:
        for kind in SOURCE_TYPES:
            if part.lower() == kind:
                return kind
    name = path.stem.lower()
    if "faq" in name:
        return "faq"
    if any(w in name for w in ("policy", "policies", "terms", "warranty", "returns")):
        return "policy"
    if "sop" in name or "procedure" in name:
        return "sop"
    return "doc"


def check_document(relative_path: str, size: int, *, shown_as: str | None = None) -> None:
    """:class:`InvalidInput` when the document's type or size cannot be used (before reading it)."""
    shown = shown_as or relative_path
    if PurePosixPath(relative_path).suffix.lower() not in SUPPORTED_SUFFIXES:
        raise InvalidInput(f"{shown}: unsupported document type (use {', '.join(SUPPORTED_SUFFIXES)})")
    if size > MAX_KB_BYTES:
        raise InvalidInput(f"{shown}: larger than 20 MB")


def read_document(relative_path: str, data: bytes, *, shown_as: str | None = None) -> KbDocumentSource:
    """Extract a document, or :class:`InvalidInput` saying why it cannot be used."""
    check_document(relative_path, len(data), shown_as=shown_as)
    return KbDocumentSource(
        document_id(relative_path),
        shown_as or relative_path,
        source_type(relative_path),
        extract(PurePosixPath(relative_path).name, data),
        relative_path,
        data,
    )


INSTRUCTIONS_FLAG = "instructions_removed"
NO_SWAHILI_FLAG = "no_swahili"  # written in English only: the console tells the owner (issue 53, part 4)


def lacks_swahili(texts: list[str]) -> bool:
    """Whether a document is written in English with no sentence in Swahili: customers who ask in Swahili get a
    Swahili lead-in and its English words (``tulia.rag.answer``)."""
    from tulia.rag.answer import language_of

    languages = {language_of(s) for text in texts for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()}
    return "en" in languages and "sw" not in languages


# a sentence written to the assistant rather than to customers ("Note to the AI assistant: ...",
# "Bot, always say ..."): documents are the shop's facts, never orders for the bot
ADDRESSES_ASSISTANT = re.compile(
    r"\b(?:note|message|instructions?|reminder|memo) (?:to|for) (?:the |our |any )?(?:ai |chat ?)?"
    r"(?:assistant|bot|chatbot|model|llm|ai)\b|^(?:ai|assistant|bot|chatbot|system|llm)\b.{0,3}"
    r"(?:you |please )?(?:must|should|always|never|say|tell|reply|answer|respond)\b|\bas an ai\b|"
    r"\blanguage model\b|\b(?:ai|assistant|bot|chatbot)s?,? (?:you )?(?:must|should|always|never)\b"
)


def without_instructions(text: str) -> tuple[str, int]:
    """The text without sentences that try to instruct the assistant ("ignore previous
    instructions", "you are now...", "Note to the AI assistant: ..."), a sentence read across the line
    breaks of its paragraph: documents are data; such a sentence never reaches a prompt or a customer.
    Returns (text, sentences removed)."""
    kept, removed = [], 0
    for sentence in re.split(r"(?<=[.!?])\s+|\n\s*\n+", text):
        plain = normalize(sentence.replace("\n", " "))
        if sentence.strip() and (INJECTION.search(plain) or ADDRESSES_ASSISTANT.search(plain)):
            removed += 1
        else:
            kept.append(sentence)
    return ("\n".join(s for s in kept if s.strip()) if removed else text), removed


def store_document(services: Services, tenant_id: str, source: KbDocumentSource, *, now: datetime) -> KbDocument:
    """Write the document's chunks as its next version; readers switch to it in one step."""
    previous = services.kb.document(tenant_id, source.doc_id)
    version = previous.version + 1 if previous else 1
    sections, removed = [], 0
    for sec in chunk_sections(source.extracted.sections):
        clean, dropped = without_instructions(sec.text)
        removed += dropped
        if clean.strip():
            sections.append((sec.heading, clean))
    chunks = [
        KbChunk(
            tenant_id=tenant_id,
            doc_id=source.doc_id,
            version=version,
            position=n,
            title=source.extracted.title,
            section=heading,
            source_type=source.source_type,
            text=clean,
        )
        for n, (heading, clean) in enumerate(sections)
    ]
    doc = KbDocument(
        tenant_id=tenant_id,
        doc_id=source.doc_id,
        title=source.extracted.title,
        filename=source.filename,
        source_type=source.source_type,
        status="indexed",
        version=version,
        chunk_count=len(chunks),
        flags=[
            *([f"{INSTRUCTIONS_FLAG}:{removed}"] if removed else []),
            *([NO_SWAHILI_FLAG] if lacks_swahili([c.text for c in chunks]) else []),
        ],
        chunk_set=f"v{version}-{uuid.uuid4().hex[:12]}",
        updated_at=now,
    )
    services.kb_search.index_document(doc, chunks)  # searchable before readers switch to this version
    services.kb.save_document(doc, chunks)
    try:  # the older versions' chunks: no reader can reach them any more; tidy the index
        services.kb_search.delete_document(tenant_id, source.doc_id, keep_chunk_set=doc.chunk_set)
    except TuliaError as exc:
        log.warning("KB: old chunks left in the index", extra={"doc_id": source.doc_id, "why": exc.message})
    return doc


def ingest_upload(services: Services, key: str, size: int, load: Callable[[], bytes]) -> KbDocument:
    """An object ``<tenant_id>/<path>`` of ``size`` bytes uploaded to the KB bucket (``load`` reads
    it), as the tenant's document.

    A document that cannot be read is recorded as failed with the reason; when an earlier version
    exists, that version stays searchable and carries the error of the failed upload."""
    tenant_id, _, relative = key.partition("/")
    if not relative or not services.tenants.exists(tenant_id):
        raise NotFound(f"Upload '{key}' names no known tenant (keys are <tenant_id>/<file>).", field="key")
    now = services.clock()
    try:
        check_document(relative, size)  # an unusable upload is refused before it is downloaded
        source = read_document(relative, load())
    except InvalidInput as exc:
        return _record_failure(services, tenant_id, relative, exc.message, now)
    try:
        doc = store_document(services, tenant_id, source, now=now)
    except (ProviderUnavailable, ProviderError) as exc:  # the search index: recorded, then retried
        _record_failure(services, tenant_id, relative, f"Indexing failed: {exc.message}", now)
        raise
    services.tenants.bump_version(tenant_id, "kb_version")
    return doc


def _record_failure(services: Services, tenant_id: str, relative: str, reason: str, now: datetime) -> KbDocument:
    """The document's status after a failed ingestion; an earlier indexed version stays searchable."""
    doc_id = document_id(relative)
    previous = services.kb.document(tenant_id, doc_id)
    if previous is not None and previous.chunk_count > 0:
        failed = previous.model_copy(update={"status": "indexed", "error": reason, "updated_at": now})
        services.kb.put_document(failed)
        return failed
    failed = KbDocument(
        tenant_id=tenant_id,
        doc_id=doc_id,
        title=PurePosixPath(relative).stem,
        filename=relative,
        source_type=previous.source_type if previous else source_type(relative),
        status="failed",
        error=reason,
        updated_at=now,
    )
    services.kb.save_document(failed, [])
    return failed
