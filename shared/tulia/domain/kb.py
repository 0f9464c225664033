"""Knowledge-base documents and their chunks."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tulia.domain.common import Model

SourceType = Literal["policy", "faq", "doc", "sop"]
DocStatus = Literal["pending", "indexed", "failed"]


class KbDocument(Model):
    tenant_id: str
    doc_id: str
    title: str
    filename: str
    source_type: SourceType = "doc"
    status: DocStatus = "pending"
    version: int = 1
    chunk_count: int = 0
    error: str | None = None
    flags: list[str] = Field(default_factory=list)
    # names this version's chunks in an external search index (unique per ingestion attempt, so
    # leftovers of a failed attempt can never be mistaken for the current version's chunks)
    chunk_set: str | None = None
    updated_at: datetime


class KbChunk(Model):
    tenant_id: str
    doc_id: str
    version: int
    position: int
    title: str
    section: str | None = None
    source_type: SourceType
    text: str
