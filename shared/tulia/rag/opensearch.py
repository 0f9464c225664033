"""The knowledge base on OpenSearch (Serverless in AWS): hybrid retrieval, tenant-filtered in code.

One index holds every tenant's chunks. Each chunk carries its ``tenant_id`` and the ``chunk_set``
of the document version it belongs to (unique per ingestion attempt, kept on the document record in
DynamoDB). Every query this adapter sends is filtered on both:

- ``tenant_id``: the tenant the caller names from its trusted context; no caller can remove it.
- ``chunk_set``: the current versions of the tenant's documents, read from DynamoDB (cached per
  KB version). A re-ingested document switches from the old chunks to the new in one step, and
  leftovers of a failed or superseded ingestion can never answer.

Search is hybrid: a lexical (BM25) ``multi_match`` and a k-NN vector query in one ``_msearch``,
fused with reciprocal rank fusion. Like the embedded index, a passage must contain a share of the
question's terms (:data:`tulia.rag.embedded.MIN_COVERAGE`) to count as an answer, so an unrelated
question gets no passage and the support journey says it does not know.

Writing: the ingestion indexes a new version's chunks, waits until the index serves all of them,
and only then does the store switch readers to that version; the older chunks are deleted after.
The index and its mapping are created on first use (:data:`INDEX_BODY`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from tulia.domain.kb import KbChunk, KbDocument
from tulia.errors import ProviderError, ProviderUnavailable
from tulia.observability import logger as log
from tulia.rag.embedded import MIN_COVERAGE, Passage, coverage_of
from tulia.rag.embeddings import DIMENSIONS, Embedder
from tulia.search.cache import VersionedCache
from tulia.search.text import fold, terms

if TYPE_CHECKING:
    from opensearchpy import OpenSearch

    from tulia.config import Settings
    from tulia.store.kb import KbRepo
    from tulia.store.tenants import TenantRepo

RRF_K = 60  # the constant of reciprocal rank fusion (Cormack et al.)
CANDIDATES = 4  # each query fetches this many candidates per wanted passage (at least MIN_CANDIDATES)
MIN_CANDIDATES = 20
LEXICAL_FIELDS = ["title^2", "section^2", "text"]  # headings describe a passage: they weigh double
PAGE = 1000  # ids per page when deleting a document's chunks
VISIBLE_WAIT_SECONDS = 60.0  # how long ingestion waits for new chunks to become searchable
VISIBLE_POLL_SECONDS = 1.0

INDEX_BODY: dict[str, Any] = {
    "settings": {"index": {"knn": True}},
    "mappings": {
        "dynamic": "strict",
        "properties": {
            "tenant_id": {"type": "keyword"},
            "doc_id": {"type": "keyword"},
            "chunk_set": {"type": "keyword"},
            "version": {"type": "integer"},
            "position": {"type": "integer"},
            "source_type": {"type": "keyword"},
            "title": {"type": "text"},
            "section": {"type": "text"},
            "text": {"type": "text"},
            "embedding": {
                "type": "knn_vector",
                "dimension": DIMENSIONS,
                # faiss HNSW: supported by OpenSearch Serverless and filtered k-NN during the search
                "method": {"name": "hnsw", "engine": "faiss", "space_type": "l2"},
            },
        },
    },
}


def chunk_key(doc_id: str, chunk_set: str) -> str:
    """The value of the ``chunk_set`` field: unique across the tenant's documents."""
    return f"{doc_id}#{chunk_set}"


def bilingual(query: str) -> str:
    """The question with the English words of the general shop lexicon added ("saa ngapi mnafungua kesho"
    -> "... time hours"): OpenSearch's BM25 and the embedding then meet the shop's English documents,
    as the embedded index does through the same folding."""
    said = set(re.findall(r"\w+", fold(query)))
    extra = [t for t in terms(query) if t not in said]
    return f"{query} {' '.join(extra)}" if extra else query


def embedding_text(chunk: KbChunk) -> str:
    return " ".join(p for p in (chunk.title, chunk.section or "", chunk.text) if p)


class OpenSearchKbSearch:
    def __init__(
        self,
        client: OpenSearch,
        index: str,
        embedder: Embedder,
        *,
        tenants: TenantRepo,
        kb: KbRepo,
        sleep: Callable[[float], None] = time.sleep,
        visible_wait_seconds: float = VISIBLE_WAIT_SECONDS,
    ) -> None:
        self.client, self.index, self.embedder = client, index, embedder
        self.tenants, self.kb = tenants, kb
        self.sleep, self.visible_wait_seconds = sleep, visible_wait_seconds
        self._index_ready = False
        # the chunk sets of each tenant's current document versions, rebuilt when kb_version moves
        self.current_sets: VersionedCache[frozenset[str]] = VersionedCache(self._current_sets)

    # -- reading -------------------------------------------------------------------------------

    def search(
        self,
        tenant_id: str,
        query: str,
        *,
        top_k: int,
        source_types: Sequence[str] | None = None,
        min_coverage: float = MIN_COVERAGE,
    ) -> list[Passage]:
        q_terms = set(terms(query))
        tenant = self.tenants.get(tenant_id)
        sets = self.current_sets.get(tenant_id, tenant.kb_version)
        if not q_terms or not sets or top_k <= 0:
            return []
        said = bilingual(query)
        body = self.search_body(tenant_id, said, self.embedder.embed_query(said), sets, top_k, source_types)
        responses = self._call(lambda: self.client.msearch(body=body, index=self.index))["responses"]
        ranked: list[list[dict[str, Any]]] = []
        for response in responses:
            if "error" in response:
                raise ProviderUnavailable(
                    "The knowledge search failed.", details={"provider": "opensearch", "error": str(response["error"])}
                )
            ranked.append(response["hits"]["hits"])
        return self._fuse(tenant_id, q_terms, sets, ranked, top_k, min_coverage)

    def search_body(
        self,
        tenant_id: str,
        query: str,
        vector: list[float],
        sets: frozenset[str],
        top_k: int,
        source_types: Sequence[str] | None,
    ) -> list[dict[str, Any]]:
        """The ``_msearch`` body: a BM25 query and a k-NN query, both under the same filters."""
        filters = self.filters(tenant_id, sets, source_types)
        size = max(top_k * CANDIDATES, MIN_CANDIDATES)
        lexical = {
            "size": size,
            "query": {
                "bool": {
                    "must": [{"multi_match": {"query": query, "fields": LEXICAL_FIELDS}}],
                    "filter": filters,
                }
            },
            "_source": {"excludes": ["embedding"]},
        }
        semantic = {
            "size": size,
            "query": {"knn": {"embedding": {"vector": vector, "k": size, "filter": {"bool": {"filter": filters}}}}},
            "_source": {"excludes": ["embedding"]},
        }
        return [{"index": self.index}, lexical, {"index": self.index}, semantic]

    @staticmethod
    def filters(
        tenant_id: str, sets: frozenset[str], source_types: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """The filters of every read: the tenant, always, and the current chunk sets."""
        out: list[dict[str, Any]] = [
            {"term": {"tenant_id": tenant_id}},
            {"terms": {"chunk_set": sorted(sets)}},
        ]
        if source_types:
            out.append({"terms": {"source_type": sorted(set(source_types))}})
        return out

    def _fuse(
        self,
        tenant_id: str,
        q_terms: set[str],
        current: frozenset[str],
        ranked: list[list[dict[str, Any]]],
        top_k: int,
        min_coverage: float = MIN_COVERAGE,
    ) -> list[Passage]:
        scores: dict[tuple[str, int, int], float] = {}
        chunks: dict[tuple[str, int, int], KbChunk] = {}
        for hits in ranked:
            seen: set[tuple[str, int, int]] = set()
            for rank, hit in enumerate(hits, start=1):
                src = hit.get("_source") or {}
                # belt and braces: the filters already guarantee both
                if src.get("tenant_id") != tenant_id or src.get("chunk_set") not in current:
                    continue
                key = (src["doc_id"], int(src["version"]), int(src["position"]))
                if key in seen:  # the same passage twice in one list counts once
                    continue
                seen.add(key)
                scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
                chunks.setdefault(key, _chunk(src))
        passages = []
        for key, score in scores.items():
            chunk = chunks[key]
            coverage = coverage_of(len(q_terms & set(terms(embedding_text(chunk)))), q_terms)
            if coverage >= min_coverage:
                passages.append(Passage(chunk, score, coverage))
        passages.sort(key=lambda p: (-p.score, -p.coverage, p.chunk.doc_id, p.chunk.position))
        return passages[:top_k]

    def _current_sets(self, tenant_id: str) -> frozenset[str]:
        """The chunk_set keys of the tenant's document versions that have chunks."""
        return frozenset(
            chunk_key(d.doc_id, d.chunk_set) for d in self.kb.documents(tenant_id) if d.chunk_count > 0 and d.chunk_set
        )

    # -- writing -------------------------------------------------------------------------------

    def index_document(self, doc: KbDocument, chunks: Sequence[KbChunk]) -> None:
        """Index a version's chunks and return once the index serves all of them."""
        if not chunks:
            return
        if not doc.chunk_set:
            raise ValueError("a document version needs a chunk_set to be indexed")
        self.ensure_index()
        key = chunk_key(doc.doc_id, doc.chunk_set)
        vectors = self.embedder.embed_documents([embedding_text(c) for c in chunks])
        actions = [
            {
                "_op_type": "index",
                "_index": self.index,
                "_source": {
                    "tenant_id": doc.tenant_id,
                    "doc_id": doc.doc_id,
                    "chunk_set": key,
                    "version": c.version,
                    "position": c.position,
                    "source_type": c.source_type,
                    "title": c.title,
                    "section": c.section,
                    "text": c.text,
                    "embedding": v,
                },
            }
            for c, v in zip(chunks, vectors, strict=True)
        ]
        self._bulk(actions)
        self._wait_until_visible(doc.tenant_id, key, len(chunks))

    def delete_document(self, tenant_id: str, doc_id: str, *, keep_chunk_set: str | None = None) -> None:
        """Delete the document's chunks from the index (all of them, or all but one version's)."""
        if not self._index_exists():  # nothing was ever indexed
            return
        query: dict[str, Any] = {"bool": {"filter": [{"term": {"tenant_id": tenant_id}}, {"term": {"doc_id": doc_id}}]}}
        if keep_chunk_set:
            query["bool"]["must_not"] = [{"term": {"chunk_set": chunk_key(doc_id, keep_chunk_set)}}]
        body = {"size": PAGE, "query": query, "_source": False}
        deleted: set[str] = set()
        while True:
            hits = self._call(lambda: self.client.search(body=body, index=self.index))["hits"]["hits"]
            ids = [h["_id"] for h in hits if h["_id"] not in deleted]
            if not ids:  # done (or only ids whose deletion the index has not applied yet)
                return
            self._bulk({"_op_type": "delete", "_index": self.index, "_id": i} for i in ids)
            deleted.update(ids)
            if len(hits) < PAGE:
                return

    def ensure_index(self) -> None:
        """Create the index with :data:`INDEX_BODY` unless it exists (checked once per container)."""
        if self._index_exists():
            return
        from opensearchpy.exceptions import RequestError

        try:
            self._call(lambda: self.client.indices.create(index=self.index, body=INDEX_BODY), refused=RequestError)
            log.info("OpenSearch index created", extra={"index": self.index})
        except RequestError as exc:
            if "resource_already_exists" not in str(exc.error):  # else another container was first
                raise ProviderError(
                    f"Could not create the search index: {exc.error}", details={"provider": "opensearch"}
                ) from exc
        self._index_ready = True

    def _index_exists(self) -> bool:
        if not self._index_ready:
            self._index_ready = bool(self._call(lambda: self.client.indices.exists(index=self.index)))
        return self._index_ready

    def _bulk(self, actions: Iterable[dict[str, Any]]) -> None:
        from opensearchpy.helpers import BulkIndexError, bulk

        try:
            self._call(lambda: bulk(self.client, actions, max_retries=2))
        except BulkIndexError as exc:
            raise ProviderUnavailable(
                f"The search index refused {len(exc.errors)} chunk(s).",
                details={"provider": "opensearch", "first_error": str(exc.errors[0])[:300]},
            ) from exc

    def _wait_until_visible(self, tenant_id: str, key: str, expected: int) -> None:
        body = {
            "size": 0,
            "track_total_hits": True,
            "query": {"bool": {"filter": [{"term": {"tenant_id": tenant_id}}, {"term": {"chunk_set": key}}]}},
        }
        waited = 0.0
        while True:
            total = self._call(lambda: self.client.search(body=body, index=self.index))["hits"]["total"]
            count = total["value"] if isinstance(total, dict) else int(total)
            if count >= expected:
                return
            if waited >= self.visible_wait_seconds:
                raise ProviderUnavailable(
                    f"The search index served {count} of {expected} new chunks after {waited:.0f} s.",
                    details={"provider": "opensearch"},
                )
            self.sleep(VISIBLE_POLL_SECONDS)
            waited += VISIBLE_POLL_SECONDS

    @staticmethod
    def _call(request: Callable[[], Any], *, refused: type[Exception] | None = None) -> Any:
        """One OpenSearch request: unreachable or 5xx -> :class:`ProviderUnavailable`; a refused
        request (4xx) -> :class:`ProviderError`, unless it is of the ``refused`` type the caller handles."""
        from opensearchpy.exceptions import ConnectionError as TransportConnectionError
        from opensearchpy.exceptions import TransportError

        try:
            return request()
        except TransportConnectionError as exc:
            raise ProviderUnavailable(f"OpenSearch is unreachable: {exc}", details={"provider": "opensearch"}) from exc
        except TransportError as exc:
            if refused is not None and isinstance(exc, refused):
                raise
            status = exc.status_code if isinstance(exc.status_code, int) else 500
            error = ProviderUnavailable if status >= 500 or status == 429 else ProviderError
            raise error(
                f"OpenSearch answered {status}: {exc.error}", details={"provider": "opensearch", "status": status}
            ) from exc


def _chunk(src: dict[str, Any]) -> KbChunk:
    return KbChunk(
        tenant_id=src["tenant_id"],
        doc_id=src["doc_id"],
        version=int(src["version"]),
        position=int(src["position"]),
        title=src.get("title") or "",
        section=src.get("section"),
        source_type=src.get("source_type") or "doc",
        text=src.get("text") or "",
    )


def opensearch_client(settings: Settings) -> OpenSearch:
    """An opensearch-py client for ``TULIA_OPENSEARCH_ENDPOINT``, signing with SigV4 for
    ``TULIA_OPENSEARCH_SERVICE`` (``aoss``: Serverless, ``es``: a managed domain)."""
    import boto3
    from opensearchpy import OpenSearch, Urllib3AWSV4SignerAuth, Urllib3HttpConnection

    endpoint = settings.opensearch_endpoint or ""
    url = endpoint if "://" in endpoint else f"https://{endpoint}"
    credentials = boto3.Session().get_credentials()
    return OpenSearch(
        hosts=[url],
        http_auth=Urllib3AWSV4SignerAuth(credentials, settings.aws_region, settings.opensearch_service),
        connection_class=Urllib3HttpConnection,
        timeout=settings.http_timeout_seconds,
        max_retries=settings.http_max_retries,
        retry_on_timeout=True,
    )
