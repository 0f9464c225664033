"""Knowledge-base documents: ask for an upload URL (a presigned S3 PUT; the upload itself starts the
ingestion), list with ingestion status, get one, delete (every chunk leaves the index). Uploading a
file of the same name again replaces the document; while the new version is processed, and if it
fails, the previous version keeps answering. Owner only."""

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from pydantic import Field

from tulia.admin.common import Deleted, Deps, Owner, Page, View, admin_router, audit
from tulia.domain.common import Lang
from tulia.domain.kb import KbDocument, SourceType
from tulia.errors import InvalidInput, NotFound, ProviderUnavailable
from tulia.nlg.payment_guard import guard_payment_details, own_numbers
from tulia.nlg.templates import render
from tulia.rag.answer import best_sentences, source_of
from tulia.rag.embedded import MIN_COVERAGE, Passage
from tulia.rag.extract import SUPPORTED_SUFFIXES
from tulia.rag.ingest import MAX_KB_BYTES, check_document, document_id, source_type

UPLOAD_URL_SECONDS = 900
CONTENT_TYPES = {
    ".md": "text/markdown",
    ".txt": "text/plain",
    ".pdf": "application/pdf",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}
FILENAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._()-]{0,119}$")


@dataclass
class KbUploads:
    """Presigned PUT URLs for the KB bucket (path-style, so they work against any S3 endpoint)."""

    s3: Any  # boto3 S3 client with addressing_style=path
    bucket: str

    def upload_url(self, key: str, content_type: str) -> str:
        return str(
            self.s3.generate_presigned_url(
                "put_object",
                Params={"Bucket": self.bucket, "Key": key, "ContentType": content_type},
                ExpiresIn=UPLOAD_URL_SECONDS,
                HttpMethod="PUT",
            )
        )

    def delete(self, key: str) -> None:
        self.s3.delete_object(Bucket=self.bucket, Key=key)

    def put(self, key: str, data: bytes) -> None:
        """A document the server has (a shop's pack): the bucket's event starts its ingestion."""
        self.s3.put_object(Bucket=self.bucket, Key=key, Body=data)


class UploadRequest(View):
    filename: str = Field(
        min_length=1,
        max_length=120,
        description=f"The document's file name ({', '.join(SUPPORTED_SUFFIXES)}); the same name replaces it",
    )
    source_type: SourceType | None = Field(default=None, description="policy, faq, doc or sop (else guessed)")
    size: int | None = Field(default=None, ge=1, le=MAX_KB_BYTES, description="bytes, if known (20 MB at most)")


class UploadTicket(View):
    doc_id: str
    key: str
    method: str = "PUT"
    url: str
    headers: dict[str, str]
    expires_in: int
    document: KbDocument


class AskBody(View):
    question: str = Field(min_length=1, max_length=1000, description="As a customer would ask it")
    language: Lang | None = Field(default=None, description="en, sw or sheng (default: the shop's)")


class Source(View):
    doc_id: str
    title: str
    section: str | None
    text: str
    score: float
    coverage: float  # the share of the question's words the passage holds


class TryAnswer(View):
    """What the bot says with the rules engine (with a model, the same facts are worded from the same
    sources), and the passages it found."""

    answer: str
    answer_found: bool
    sources: list[Source]
    withheld_numbers: list[str] = Field(default_factory=list)  # payment numbers that are not the shop's
    # when nothing answered: the closest passages and why they did not count (too few of the words)
    closest: list[Source] = Field(default_factory=list)
    min_coverage: float = MIN_COVERAGE


def source(p: Passage) -> Source:
    return Source(
        doc_id=p.chunk.doc_id,
        title=p.chunk.title,
        section=p.chunk.section,
        text=p.chunk.text,
        score=round(p.score, 4),
        coverage=round(p.coverage, 2),
    )


router = admin_router()


@router.post(
    "/admin/kb/uploads",
    tags=["knowledge base"],
    summary="Get a URL to upload a document (PUT the file there with the given Content-Type)",
)
def request_upload(body: UploadRequest, who: Owner, deps: Deps) -> UploadTicket:
    if deps.uploads is None:
        raise ProviderUnavailable("Document uploads are not configured (no KB bucket).")
    name = PurePosixPath(body.filename).name.strip()
    if not FILENAME.fullmatch(name):
        raise InvalidInput(
            "Use a plain file name: letters, digits, spaces, . _ - ( ) and a known extension.", field="filename"
        )
    relative = f"{body.source_type}/{name}" if body.source_type else name
    check_document(relative, body.size or 0, shown_as=name)
    doc_id = document_id(relative)
    content_type = CONTENT_TYPES[PurePosixPath(name).suffix.lower()]
    existing = deps.services.kb.document(who.tenant_id, doc_id)
    now = deps.services.clock()
    if existing is None:
        doc = KbDocument(
            tenant_id=who.tenant_id,
            doc_id=doc_id,
            title=PurePosixPath(name).stem,
            filename=relative,
            source_type=body.source_type or source_type(relative),
            status="pending",
            version=0,
            updated_at=now,
        )
    else:  # the indexed version keeps answering until the new one is in
        doc = existing.model_copy(update={"status": "pending", "error": None, "updated_at": now})
    deps.services.kb.put_document(doc)
    key = f"{who.tenant_id}/{relative}"
    audit(deps, who, "kb.upload_requested", doc_id, filename=name)
    return UploadTicket(
        doc_id=doc_id,
        key=key,
        url=deps.uploads.upload_url(key, content_type),
        headers={"Content-Type": content_type},
        expires_in=UPLOAD_URL_SECONDS,
        document=doc,
    )


@router.get("/admin/kb/documents", tags=["knowledge base"], summary="Documents and their ingestion status")
def list_documents(who: Owner, deps: Deps) -> Page[KbDocument]:
    docs = sorted(deps.services.kb.documents(who.tenant_id), key=lambda d: d.doc_id)
    return Page[KbDocument](items=docs)


@router.get("/admin/kb/documents/<doc_id>", tags=["knowledge base"], summary="One document")
def get_document(doc_id: str, who: Owner, deps: Deps) -> KbDocument:
    doc = deps.services.kb.document(who.tenant_id, doc_id)
    if doc is None:
        raise NotFound(f"No document '{doc_id}'.", field="doc_id")
    return doc


@router.delete("/admin/kb/documents/<doc_id>", tags=["knowledge base"], summary="Delete a document")
def delete_document(doc_id: str, who: Owner, deps: Deps) -> Deleted:
    doc = deps.services.kb.document(who.tenant_id, doc_id)
    if doc is None:
        raise NotFound(f"No document '{doc_id}'.", field="doc_id")
    deps.services.kb_search.delete_document(who.tenant_id, doc_id)  # first: if the index fails, nothing changed
    deps.services.kb.delete_document(who.tenant_id, doc_id)
    deps.services.tenants.bump_version(who.tenant_id, "kb_version")
    if deps.uploads is not None:
        deps.uploads.delete(f"{who.tenant_id}/{doc.filename}")
    audit(deps, who, "kb.delete", doc_id)
    return Deleted(deleted=True, id=doc_id)


@router.post(
    "/admin/kb/ask",
    tags=["knowledge base"],
    summary="Try a question: the answer the bot gives from the documents, and its sources",
)
def ask(body: AskBody, who: Owner, deps: Deps) -> TryAnswer:
    tenant = deps.services.tenants.get(who.tenant_id)
    lang = body.language or tenant.languages.default
    sources = [source(p) for p in deps.services.kb_search.search(who.tenant_id, body.question, top_k=3)]
    if not sources:
        said = render("kb_no_answer", lang, tenant.languages.sheng_reply_language)
        closest = deps.services.kb_search.search(who.tenant_id, body.question, top_k=3, min_coverage=0.0)
        return TryAnswer(answer=said, answer_found=False, sources=[], closest=[source(p) for p in closest])
    top = sources[0].model_dump()
    said = render(
        "kb_answer",
        lang,
        tenant.languages.sheng_reply_language,
        answer=best_sentences(top["text"], body.question),
        source=source_of(top),
    )
    said, foreign = guard_payment_details(said, own_numbers(tenant))
    return TryAnswer(answer=said, answer_found=True, sources=sources, withheld_numbers=foreign)
