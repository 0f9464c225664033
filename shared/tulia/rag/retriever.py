"""One interface for knowledge-base search, whatever holds the index.

- :class:`EmbeddedKbSearch` (the local stack, tests, small deployments): BM25 over the tenant's
  current chunks read from DynamoDB, cached per tenant and KB version. Writing needs nothing more:
  DynamoDB holds the chunks.
- :class:`tulia.rag.opensearch.OpenSearchKbSearch` (AWS): hybrid BM25 + k-NN over one index of every
  tenant's chunks, selected by ``TULIA_OPENSEARCH_ENDPOINT`` (:func:`kb_search_for`).

Every search is scoped to one tenant by the adapter itself; callers pass the tenant from their
trusted context and cannot widen it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from tulia.domain.kb import KbChunk, KbDocument
from tulia.rag.embedded import MIN_COVERAGE, KbIndex, Passage
from tulia.search.cache import VersionedCache
from tulia.store.tenants import TenantRepo

if TYPE_CHECKING:
    from tulia.config import Settings
    from tulia.store.kb import KbRepo


class KbSearch(Protocol):
    def search(
        self,
        tenant_id: str,
        query: str,
        *,
        top_k: int,
        source_types: Sequence[str] | None = None,
        min_coverage: float = MIN_COVERAGE,
    ) -> list[Passage]: ...

    def index_document(self, doc: KbDocument, chunks: Sequence[KbChunk]) -> None:
        """Make a new version of a document searchable (before the store switches readers to it)."""

    def delete_document(self, tenant_id: str, doc_id: str, *, keep_chunk_set: str | None = None) -> None:
        """Remove a document's chunks from the index (every version, or all but ``keep_chunk_set``)."""


class EmbeddedKbSearch:
    def __init__(self, tenants: TenantRepo, indexes: VersionedCache[KbIndex]) -> None:
        self.tenants, self.indexes = tenants, indexes

    def search(
        self,
        tenant_id: str,
        query: str,
        *,
        top_k: int,
        source_types: Sequence[str] | None = None,
        min_coverage: float = MIN_COVERAGE,
    ) -> list[Passage]:
        tenant = self.tenants.get(tenant_id)
        index = self.indexes.get(tenant_id, tenant.kb_version)
        return index.search(query, top_k=top_k, source_types=source_types, min_coverage=min_coverage)

    def index_document(self, doc: KbDocument, chunks: Sequence[KbChunk]) -> None:
        return None  # the chunks in DynamoDB are the index's source

    def delete_document(self, tenant_id: str, doc_id: str, *, keep_chunk_set: str | None = None) -> None:
        return None  # the store deletes the chunks


def kb_search_for(settings: Settings, tenants: TenantRepo, kb: KbRepo, indexes: VersionedCache[KbIndex]) -> KbSearch:
    """OpenSearch when ``TULIA_OPENSEARCH_ENDPOINT`` is set, else the embedded index."""
    if not settings.opensearch_endpoint:
        return EmbeddedKbSearch(tenants, indexes)
    from tulia.rag.embeddings import embedder_for
    from tulia.rag.opensearch import OpenSearchKbSearch, opensearch_client

    return OpenSearchKbSearch(
        opensearch_client(settings), settings.opensearch_index, embedder_for(settings), tenants=tenants, kb=kb
    )
