"""The OpenSearch adapter of the knowledge base, over real HTTP with opensearch-py and SigV4, against
a recording stand-in (no OpenSearch server runs on these machines): the exact bodies it sends
(tenant filter in every query, the hybrid structure, sizes), how it reads the answers, and what a
customer and a shop owner notice (the answer, its source, the old version gone, failures kept apart).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from tests.conftest import SALON, SHOP, Caller, Clock
from tests.opensearch_fake import FakeOpenSearch
from tulia.config import Settings
from tulia.domain.kb import KbDocument
from tulia.errors import ProviderUnavailable
from tulia.local.simulators.base import Recorded, Reply, SimulatorServer
from tulia.rag.embeddings import DIMENSIONS, HashingEmbedder, bedrock_embedder
from tulia.rag.ingest import ingest_upload
from tulia.rag.opensearch import INDEX_BODY, LEXICAL_FIELDS, OpenSearchKbSearch, chunk_key
from tulia.rag.retriever import EmbeddedKbSearch
from tulia.services import Services, build_services

INDEX = "tulia-kb-chunks"
KEY = f"{SHOP}/faq/Gift wrapping.md"
KEY_DOC = "faq-gift-wrapping"
GIFT_V1 = b"""# Gift Wrapping

## Wrapping a present
We gift wrap any item for KES 200, with a card and a ribbon.
"""
GIFT_V2 = b"""# Gift Wrapping

## Wrapping a present
Gift wrapping now costs KES 300, card and ribbon included.
"""


@pytest.fixture
def fake() -> Iterator[FakeOpenSearch]:
    with FakeOpenSearch() as server:
        yield server  # type: ignore[misc]


@pytest.fixture
def aws(settings: Settings, dynamodb: Any, seeded: Services, clock: Clock, fake: FakeOpenSearch) -> Services:
    """The demo shops' data, with the knowledge base on (the stand-in of) OpenSearch."""
    services = build_services(
        settings.model_copy(update={"opensearch_endpoint": fake.base_url}), dynamodb=dynamodb, clock=clock
    )
    assert isinstance(services.kb_search, OpenSearchKbSearch)
    services.kb_search.sleep = lambda seconds: None
    return services


def upload(services: Services, key: str, body: bytes) -> KbDocument:
    return ingest_upload(services, key, len(body), lambda: body)


def current_sets(services: Services, tenant_id: str) -> list[str]:
    return sorted(
        chunk_key(d.doc_id, d.chunk_set) for d in services.kb.documents(tenant_id) if d.chunk_count and d.chunk_set
    )


def test_the_adapter_is_chosen_by_the_endpoint_setting(services: Services, aws: Services) -> None:
    assert isinstance(services.kb_search, EmbeddedKbSearch)  # no TULIA_OPENSEARCH_ENDPOINT
    assert isinstance(aws.kb_search, OpenSearchKbSearch)
    assert aws.kb_search.index == INDEX


def test_the_first_upload_creates_the_index_and_indexes_signed_chunks_of_the_tenant(
    aws: Services, fake: FakeOpenSearch
) -> None:
    doc = upload(aws, KEY, GIFT_V1)

    assert (doc.status, doc.chunk_count) == ("indexed", 1)
    assert doc.chunk_set
    assert doc.chunk_set.startswith(f"v{doc.version}-")
    head, create = fake.requests[0], fake.requests[1]
    assert (head.method, head.path) == ("HEAD", f"/{INDEX}")
    assert (create.method, create.path, create.body) == ("PUT", f"/{INDEX}", INDEX_BODY)
    props = INDEX_BODY["mappings"]["properties"]
    assert props["tenant_id"] == {"type": "keyword"}
    assert props["chunk_set"] == {"type": "keyword"}
    assert props["embedding"]["type"] == "knn_vector"
    assert props["embedding"]["dimension"] == DIMENSIONS

    [bulk] = fake.bulk_lines()
    action, source = bulk
    assert action == {"index": {"_index": INDEX}}  # no custom id: Serverless vector collections refuse them
    key = chunk_key("faq-gift-wrapping", doc.chunk_set)
    assert {k: v for k, v in source.items() if k != "embedding"} == {
        "tenant_id": SHOP,
        "doc_id": "faq-gift-wrapping",
        "chunk_set": key,
        "version": doc.version,
        "position": 0,
        "source_type": "faq",
        "title": "Gift Wrapping",
        "section": "Wrapping a present",
        "text": "We gift wrap any item for KES 200, with a card and a ribbon.",
    }
    assert len(source["embedding"]) == DIMENSIONS
    assert math.isclose(math.fsum(v * v for v in source["embedding"]), 1.0, rel_tol=1e-9)

    # readers switch to the new version only once the index serves all of its chunks
    visible, tidy = fake.bodies("/_search")
    assert visible == {
        "size": 0,
        "track_total_hits": True,
        "query": {"bool": {"filter": [{"term": {"tenant_id": SHOP}}, {"term": {"chunk_set": key}}]}},
    }
    assert tidy["query"]["bool"]["must_not"] == [{"term": {"chunk_set": key}}]  # older versions, none yet
    for rec in fake.requests:  # every request is signed for OpenSearch Serverless
        assert rec.headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=")
        assert "/eu-west-1/aoss/aws4_request" in rec.headers["authorization"]
        assert "x-amz-content-sha256" in rec.headers


def test_kb_retrieve_asks_one_hybrid_query_filtered_to_the_tenant_and_names_the_source(
    aws: Services, fake: FakeOpenSearch
) -> None:
    upload(aws, KEY, GIFT_V1)
    shop, salon = Caller(aws, SHOP), Caller(aws, SALON)

    found = shop.ok("kb_retrieve", query="do you do gift wrapping", top_k=3)

    assert found["answer_found"] is True
    top = found["snippets"][0]
    assert (top["doc_id"], top["title"], top["section"]) == ("faq-gift-wrapping", "Gift Wrapping", "Wrapping a present")
    assert "KES 200" in top["text"]
    [lines] = fake.msearch_queries()
    filters = [{"term": {"tenant_id": SHOP}}, {"terms": {"chunk_set": current_sets(aws, SHOP)}}]
    assert lines == [
        {"index": INDEX},
        {
            "size": 20,
            "query": {
                "bool": {
                    "must": [{"multi_match": {"query": "do you do gift wrapping", "fields": LEXICAL_FIELDS}}],
                    "filter": filters,
                }
            },
            "_source": {"excludes": ["embedding"]},
        },
        {"index": INDEX},
        {
            "size": 20,
            "query": {
                "knn": {
                    "embedding": {
                        "vector": HashingEmbedder().embed_query("do you do gift wrapping"),
                        "k": 20,
                        "filter": {"bool": {"filter": filters}},
                    }
                }
            },
            "_source": {"excludes": ["embedding"]},
        },
    ]

    # the salon asks the same: its own tenant and documents only, and no answer
    assert salon.ok("kb_retrieve", query="do you do gift wrapping", top_k=3)["answer_found"] is False
    salon_lines = fake.msearch_queries()[-1]
    for query in (salon_lines[1]["query"]["bool"]["filter"], salon_lines[3]["query"]["knn"]["embedding"]["filter"]):
        flat = json.dumps(query)
        assert '{"term": {"tenant_id": "demo-salon"}}' in flat
        assert SHOP not in flat
        assert "faq-gift-wrapping" not in flat

    # a narrower ask: more candidates for a larger top_k, and the source-type filter after the scoping
    shop.ok("kb_retrieve", query="gift wrapping", top_k=8, source_types=["faq", "policy"])
    lexical = fake.msearch_queries()[-1][1]
    assert lexical["size"] == 32
    assert lexical["query"]["bool"]["filter"][2] == {"terms": {"source_type": ["faq", "policy"]}}


def _hit(source: dict[str, Any], n: int) -> dict[str, Any]:
    return {"_index": INDEX, "_id": f"id-{n}", "_score": 1.0, "_source": source}


def test_fusion_ranks_by_both_lists_and_drops_foreign_stale_duplicate_and_unrelated_hits(
    aws: Services, fake: FakeOpenSearch
) -> None:
    doc = upload(aws, KEY, GIFT_V1)
    assert doc.chunk_set
    key = chunk_key(doc.doc_id, doc.chunk_set)
    base = {"tenant_id": SHOP, "doc_id": doc.doc_id, "chunk_set": key, "version": doc.version, "source_type": "faq"}
    a = {**base, "position": 0, "title": "Gift Wrapping", "section": "Prices", "text": "Gift wrapping costs KES 200."}
    b = {**base, "position": 1, "title": "Gift Wrapping", "section": "Cards", "text": "Wrapping includes a card."}
    c = {**base, "position": 2, "title": "Opening hours", "section": None, "text": "We open at 8 am daily."}
    foreign = {**a, "tenant_id": SALON, "text": "Salon gift wrapping is free."}
    stale = {**a, "chunk_set": chunk_key(doc.doc_id, "v0-old"), "text": "Gift wrapping costs KES 50."}
    lexical = [_hit(a, 1), _hit(foreign, 2), _hit(stale, 3), _hit(b, 4)]
    semantic = [_hit(b, 4), _hit(c, 5), _hit(a, 1), _hit(a, 6)]
    fake.canned_msearch = [lexical, semantic]

    passages = aws.kb_search.search(SHOP, "gift wrapping price", top_k=5)

    # a: 1/61 + 1/63; b: 1/64 + 1/61; c matches no word of the question; foreign and stale never count
    assert [(p.chunk.position, p.chunk.text) for p in passages] == [
        (0, "Gift wrapping costs KES 200."),
        (1, "Wrapping includes a card."),
    ]
    assert math.isclose(passages[0].score, 1 / 61 + 1 / 63)
    assert math.isclose(passages[1].score, 1 / 64 + 1 / 61)
    assert all(p.chunk.tenant_id == SHOP for p in passages)


def test_a_tenant_without_documents_sends_no_query(aws: Services, fake: FakeOpenSearch) -> None:
    for doc in aws.kb.documents(SALON):
        aws.kb.delete_document(SALON, doc.doc_id)
    aws.tenants.bump_version(SALON, "kb_version")

    assert Caller(aws, SALON).ok("kb_retrieve", query="what are your opening hours", top_k=3)["answer_found"] is False
    assert fake.msearch_queries() == []


def test_a_reupload_switches_to_the_new_version_only_once_it_is_searchable_then_tidies_the_old(
    aws: Services, fake: FakeOpenSearch
) -> None:
    fake.visibility_lag = 2  # new chunks show in searches a moment after indexing, as in Serverless
    first = upload(aws, KEY, GIFT_V1)
    assert len([b for b in fake.bodies("/_search") if b["size"] == 0]) == 3  # polled until the chunk was served
    old_ids = [i for i, s in fake.docs.items() if s["chunk_set"].endswith(str(first.chunk_set))]
    shop = Caller(aws, SHOP)
    assert "KES 200" in shop.ok("kb_retrieve", query="gift wrapping price", top_k=3)["snippets"][0]["text"]

    second = upload(aws, KEY, GIFT_V2)

    assert (second.version, second.status) == (first.version + 1, "indexed")
    assert second.chunk_set != first.chunk_set
    answer = shop.ok("kb_retrieve", query="gift wrapping price", top_k=3)["snippets"]
    assert "KES 300" in answer[0]["text"]
    assert not any("KES 200" in s["text"] for s in answer)
    filters = fake.msearch_queries()[-1][1]["query"]["bool"]["filter"]
    sets = filters[1]["terms"]["chunk_set"]
    assert chunk_key(KEY_DOC, str(second.chunk_set)) in sets
    assert chunk_key(KEY_DOC, str(first.chunk_set)) not in sets
    # the old version's chunks were listed within the tenant and deleted by id
    listing = fake.bodies("/_search")[-1]
    assert listing["query"]["bool"]["filter"] == [{"term": {"tenant_id": SHOP}}, {"term": {"doc_id": KEY_DOC}}]
    assert listing["query"]["bool"]["must_not"] == [{"term": {"chunk_set": chunk_key(KEY_DOC, str(second.chunk_set))}}]
    deletes = fake.bulk_lines()[-1]
    assert deletes == [{"delete": {"_index": INDEX, "_id": i}} for i in old_ids]
    assert [s["text"] for s in fake.sources(doc_id=KEY_DOC)] == [
        "Gift wrapping now costs KES 300, card and ribbon included."
    ]


def test_an_index_outage_during_a_reupload_keeps_the_previous_version_answering(
    aws: Services, fake: FakeOpenSearch
) -> None:
    first = upload(aws, KEY, GIFT_V1)
    fake.fail_next(503, {"error": "unavailable"}, times=5)

    with pytest.raises(ProviderUnavailable):  # the function fails, so S3's retry delivers it again
        upload(aws, KEY, GIFT_V2)

    fake.clear_failures()
    doc = aws.kb.document(SHOP, KEY_DOC)
    assert doc is not None
    assert (doc.status, doc.version, doc.chunk_set) == ("indexed", first.version, first.chunk_set)
    assert doc.error
    assert doc.error.startswith("Indexing failed: OpenSearch")
    answer = Caller(aws, SHOP).ok("kb_retrieve", query="gift wrapping price", top_k=3)["snippets"]
    assert "KES 200" in answer[0]["text"]


def test_new_chunks_the_index_never_serves_fail_the_ingestion_without_switching(
    aws: Services, fake: FakeOpenSearch
) -> None:
    first = upload(aws, KEY, GIFT_V1)
    fake.visibility_lag = 10_000
    assert isinstance(aws.kb_search, OpenSearchKbSearch)
    aws.kb_search.visible_wait_seconds = 3

    with pytest.raises(ProviderUnavailable, match="served 0 of 1 new chunks"):
        upload(aws, KEY, GIFT_V2)

    doc = aws.kb.document(SHOP, KEY_DOC)
    assert doc is not None
    assert doc.chunk_set == first.chunk_set
    assert "served 0 of 1" in (doc.error or "")


def test_a_first_upload_the_index_refuses_is_recorded_as_failed(aws: Services, fake: FakeOpenSearch) -> None:
    fake.fail_next(503, {"error": "unavailable"}, times=5)

    with pytest.raises(ProviderUnavailable):
        upload(aws, f"{SHOP}/Care guide.md", b"# Care\n\nWipe the screen with a dry cloth.\n")

    doc = aws.kb.document(SHOP, "care-guide")
    assert doc is not None
    assert doc.status == "failed"
    assert doc.chunk_count == 0
    assert doc.error
    assert "Indexing failed" in doc.error


def test_deleting_a_document_removes_its_chunks_of_that_tenant_only(aws: Services, fake: FakeOpenSearch) -> None:
    upload(aws, KEY, GIFT_V1)
    salon_key = f"{SALON}/faq/Gift wrapping.md"  # the same document id at another tenant
    upload(aws, salon_key, b"# Gift Wrapping\n\n## Wrapping\nThe salon wraps gift vouchers for free.\n")

    aws.kb_search.delete_document(SHOP, KEY_DOC)

    assert fake.sources(tenant_id=SHOP, doc_id=KEY_DOC) == []
    assert [s["text"] for s in fake.sources(tenant_id=SALON, doc_id=KEY_DOC)] == [
        "The salon wraps gift vouchers for free."
    ]
    listing = fake.bodies("/_search")[-1]
    assert listing == {
        "size": 1000,
        "query": {"bool": {"filter": [{"term": {"tenant_id": SHOP}}, {"term": {"doc_id": KEY_DOC}}]}},
        "_source": False,
    }


def test_a_failing_search_is_a_structured_tool_error(aws: Services, fake: FakeOpenSearch) -> None:
    upload(aws, KEY, GIFT_V1)
    shop = Caller(aws, SHOP)
    fake.msearch_errors[1] = {"error": {"type": "search_phase_execution_exception"}, "status": 500}
    assert shop.err("kb_retrieve", query="gift wrapping", top_k=3)["code"] == "provider_unavailable"

    fake.msearch_errors.clear()
    fake.fail_next(503, {"error": "unavailable"}, times=5)
    assert shop.err("kb_retrieve", query="gift wrapping", top_k=3)["code"] == "provider_unavailable"


def test_an_index_another_container_created_first_is_used(aws: Services, fake: FakeOpenSearch) -> None:
    fake.indexes[INDEX] = INDEX_BODY
    fake.fail_next(404, "")  # our HEAD ran before the other container's PUT landed

    doc = upload(aws, KEY, GIFT_V1)

    assert doc.status == "indexed"
    assert [r.method for r in fake.requests[:3]] == ["HEAD", "PUT", "POST"]
    assert fake.sources(doc_id=KEY_DOC)


# -- embeddings --------------------------------------------------------------------------------


def test_the_local_embedding_is_deterministic_unit_length_and_closer_for_shared_words() -> None:
    embed = HashingEmbedder()
    query = embed.embed_query("how long does delivery take")
    assert query == HashingEmbedder().embed_query("how long does delivery take")
    assert len(query) == DIMENSIONS
    assert math.isclose(math.fsum(v * v for v in query), 1.0)
    near, far = embed.embed_documents(["Delivery takes 1-2 days in Nairobi.", "We accept M-Pesa and cards."])

    def similarity(other: list[float]) -> float:  # unit vectors: the dot product is the cosine
        return math.fsum(a * b for a, b in zip(query, other, strict=True))

    assert similarity(near) > similarity(far) + 0.1
    assert embed.embed_query("") == [0.0] * DIMENSIONS


class FakeBedrock(SimulatorServer):
    name = "bedrock-runtime"

    def route_for(self, rec: Recorded) -> Any:
        if rec.method == "POST" and rec.path.startswith("/model/") and rec.path.endswith("/invoke"):
            return lambda r: Reply(200, {"embedding": [3.0, 4.0] + [0.0] * (DIMENSIONS - 2), "inputTextTokenCount": 4})
        return None


def test_titan_embeddings_are_asked_for_512_dimensions_through_langchain_aws(settings: Settings) -> None:
    with FakeBedrock() as bedrock:
        client = boto3.client("bedrock-runtime", region_name="eu-west-1", endpoint_url=bedrock.base_url)
        embedder = bedrock_embedder(settings.model_copy(update={"embeddings": "bedrock"}), client=client)

        vector = embedder.embed_query("How long does delivery take?")

        [call] = bedrock.requests
        assert call.path == "/model/amazon.titan-embed-text-v2%3A0/invoke"
        assert call.body == {"inputText": "How long does delivery take?", "dimensions": 512}
        assert call.headers["authorization"].startswith("AWS4-HMAC-SHA256")
        assert vector[:2] == pytest.approx([0.6, 0.8])
        assert len(vector) == DIMENSIONS


def test_a_swahili_question_is_searched_with_the_english_words_of_the_lexicon(
    aws: Services, fake: FakeOpenSearch
) -> None:
    """OpenSearch's own analyzer knows no Swahili: the question goes with its English words ("zawadi
    ndogo" is a gift), for BM25 and for the embedding, and finds the English document."""
    upload(aws, KEY, GIFT_V1)
    found = Caller(aws, SHOP).ok("kb_retrieve", query="mnafunga zawadi ndogo?", top_k=3)
    [lines] = fake.msearch_queries()
    said = lines[1]["query"]["bool"]["must"][0]["multi_match"]["query"]
    assert said.startswith("mnafunga zawadi ndogo?")
    assert "gift" in said.split()
    assert lines[3]["query"]["knn"]["embedding"]["vector"] == HashingEmbedder().embed_query(said)
    assert found["answer_found"] is True
    assert found["snippets"][0]["doc_id"] == "faq-gift-wrapping"
