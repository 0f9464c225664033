"""Knowledge base: ingestion throughput of the demo shop's documents, and kb_retrieve latency on the
embedded index with 1,000 chunks for one tenant while 10 tenants are present.

    .venv/bin/python bench/knowledge_base.py

Ingestion (20 rounds of the demo shop's five documents: md, txt, pdf, docx):
- extract + chunk: text extraction (pypdf, python-docx), heading/size chunking with overlap and the
  removal of injected instructions, as `kb_ingest` runs them;
- + local embeddings: the deterministic hashing embedder over every chunk (what the OpenSearch
  adapter computes before indexing; Titan on Bedrock in AWS);
- full upload path: `ingest_upload` (read, extract, chunk, store the chunks and switch the document's
  version in DynamoDB; moto in process) with the embedded index.
A page is a PDF page; for md, txt and docx, 3,000 characters of extracted text count as one page.

Retrieval: 10 tenants with 1,000 chunks each (100 documents of 10 sections, generated from a
support-topic vocabulary), written to moto; `kb_retrieve` is called through the tool registry, as the
support journey calls it, with 40 questions (30 answerable, 10 not) x 10 rounds for one tenant, warm.
The cold figure is the first question after the tenant's KB version moved (the index is rebuilt from
DynamoDB).
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import PACKS, bench_services, describe
from tulia.domain.kb import KbChunk, KbDocument
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack
from tulia.rag.embeddings import HashingEmbedder
from tulia.rag.extract import chunk_sections
from tulia.rag.ingest import ingest_upload, read_document, without_instructions
from tulia.tools.context import ToolContext
from tulia.tools.registry import call_tool

ROUNDS = 20
CHARS_PER_PAGE = 3000
TENANTS = 10
DOCS_PER_TENANT, SECTIONS_PER_DOC = 100, 10

TOPICS = [
    ("delivery", "We deliver within Nairobi the same day for orders placed before 2 pm; upcountry takes 2-3 days."),
    ("returns", "Items can be returned within 7 days in their original packaging with the receipt."),
    ("warranty", "Phones carry a 12 month manufacturer warranty; accessories 6 months against defects."),
    ("payment", "Pay by M-Pesa STK push, Paybill with the order reference, or card through PesaPal."),
    ("pickup", "Collect your order from the shop on Moi Avenue, Monday to Saturday, 8 am to 7 pm."),
    ("repairs", "Screen repairs take 2 working days; we call you when the phone is ready."),
    ("trade-in", "Trade in your old phone for credit against a new one after an inspection in the shop."),
    ("installments", "Lipa mdogo mdogo: pay a deposit and the rest in weekly installments over 8 weeks."),
    ("gift cards", "Gift cards from KES 1,000 are valid for 12 months and can be used in the shop or online."),
    ("loyalty", "Every KES 100 spent earns one point; 500 points give KES 500 off your next order."),
]
FILLER = (
    "Our staff are happy to help with any question about your order and the products in the shop, "
    "and you can reach us on WhatsApp at any time during opening hours."
).split()
ANSWERABLE = [
    "how long does delivery take to nairobi",
    "can I return an item after a week",
    "what warranty do phones have",
    "can I pay with mpesa paybill",
    "where do I collect my order",
    "how long do screen repairs take",
    "can I trade in my old phone",
    "do you have lipa mdogo mdogo installments",
    "how long are gift cards valid",
    "how do loyalty points work",
]
UNANSWERABLE = [
    "do you sell fresh vegetables",
    "what is the weather in mombasa",
    "is there parking for lorries",
    "can you fix my car engine",
    "do you offer swimming lessons",
    "who won the football match",
    "how do I bake bread",
    "do you rent out wedding tents",
    "can I book a hotel room",
    "what is the capital of peru",
]


def pages_of(relative: str, data: bytes, text_chars: int) -> float:
    if relative.endswith(".pdf"):
        from io import BytesIO

        from pypdf import PdfReader

        return float(len(PdfReader(BytesIO(data)).pages))
    return max(1.0, text_chars / CHARS_PER_PAGE)


def ingestion() -> None:
    kb_dir = PACKS / "demo-shop" / "kb"
    files = [(p.relative_to(kb_dir).as_posix(), p.read_bytes()) for p in sorted(kb_dir.rglob("*")) if p.is_file()]
    pages = chunks = 0.0
    sizes = []
    for relative, data in files:
        source = read_document(relative, data)
        text = sum(len(s.text) for s in source.extracted.sections)
        n = len(list(chunk_sections(source.extracted.sections)))
        pages += pages_of(relative, data, text)
        chunks += n
        sizes.append(f"{relative} ({len(data) / 1000:.1f} KB, {n} chunks)")
    print(f"Documents: {', '.join(sizes)}; {pages:.1f} pages, {chunks:.0f} chunks per round\n")

    embedder = HashingEmbedder()
    timings: dict[str, float] = {}

    start = time.perf_counter()
    for _ in range(ROUNDS):
        for relative, data in files:
            source = read_document(relative, data)
            for sec in chunk_sections(source.extracted.sections):
                without_instructions(sec.text)
    timings["extract + chunk"] = time.perf_counter() - start

    start = time.perf_counter()
    for _ in range(ROUNDS):
        for relative, data in files:
            source = read_document(relative, data)
            texts = [without_instructions(sec.text)[0] for sec in chunk_sections(source.extracted.sections)]
            embedder.embed_documents([f"{source.extracted.title} {t}" for t in texts])
    timings["extract + chunk + local embeddings"] = time.perf_counter() - start

    with bench_services() as b:
        seed_pack(b.services, load_pack(PACKS / "demo-shop"))
        start = time.perf_counter()
        for _ in range(ROUNDS):
            for relative, data in files:
                doc = ingest_upload(b.services, f"demo-shop/{relative}", len(data), lambda d=data: d)
                assert doc.status == "indexed", doc
        timings["full upload path into DynamoDB (moto)"] = time.perf_counter() - start

    print(f"Ingestion, {ROUNDS} rounds:")
    for name, seconds in timings.items():
        print(
            f"- {name}: {ROUNDS * pages / seconds:.1f} pages/s, {ROUNDS * chunks / seconds:.1f} chunks/s "
            f"({seconds / ROUNDS * 1000:.0f} ms per round)"
        )


def synthetic_chunks(tenant_id: str, rng: random.Random) -> tuple[list[KbDocument], list[list[KbChunk]]]:
    docs, chunk_lists = [], []
    now = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)
    for d in range(DOCS_PER_TENANT):
        topic, fact = TOPICS[d % len(TOPICS)]
        doc_id = f"doc-{d:03d}"
        title = f"{topic.title()} guide {d // len(TOPICS) + 1}"
        chunks = []
        for position in range(SECTIONS_PER_DOC):
            filler = " ".join(rng.choice(FILLER) for _ in range(60))
            chunks.append(
                KbChunk(
                    tenant_id=tenant_id,
                    doc_id=doc_id,
                    version=1,
                    position=position,
                    title=title,
                    section=f"{topic.title()} part {position + 1}",
                    source_type="faq" if d % 2 else "policy",
                    text=f"{fact} {filler}" if position == 0 else filler,
                )
            )
        docs.append(
            KbDocument(
                tenant_id=tenant_id,
                doc_id=doc_id,
                title=title,
                filename=f"{doc_id}.md",
                source_type="faq" if d % 2 else "policy",
                status="indexed",
                version=1,
                chunk_count=len(chunks),
                chunk_set=f"v1-{doc_id}",
                updated_at=now,
            )
        )
        chunk_lists.append(chunks)
    return docs, chunk_lists


def retrieval() -> None:
    rng = random.Random(7)
    with bench_services() as b:
        s = b.services
        base = load_pack(PACKS / "demo-shop")
        tenants = [f"bench-shop-{n:02d}" for n in range(TENANTS)]
        for tid in tenants:
            tenant = base.tenant.model_copy(
                update={
                    "tenant_id": tid,
                    "whatsapp": base.tenant.whatsapp.model_copy(update={"phone_number_id": f"90000000{tid[-2:]}"}),
                }
            )
            seed_pack(s, dataclasses.replace(base, tenant=tenant, catalog=[], offers=[], documents=[]))
            for doc, chunks in zip(*synthetic_chunks(tid, rng), strict=True):
                s.kb.save_document(doc, chunks)
            s.tenants.bump_version(tid, "kb_version")
        target = tenants[3]
        assert len(s.kb.current_chunks(target)) == DOCS_PER_TENANT * SECTIONS_PER_DOC

        def ask(question: str) -> dict:
            ctx = ToolContext(tenant_id=target, request_id="bench", conversation_id="bench", services=s)
            args = {"tenant_id": target, "request_id": "bench", "conversation_id": "bench", "query": question}
            result = call_tool("kb_retrieve", {**args, "top_k": 3}, ctx)
            assert result["ok"], result
            return result["data"]

        cold, cold_db, cold_calls = [], [], 0
        for _ in range(5):
            s.tenants.bump_version(target, "kb_version")
            b.counter.reset()
            start = time.perf_counter()
            ask(ANSWERABLE[0])
            cold.append((time.perf_counter() - start) * 1000)
            cold_db.append(b.counter.seconds * 1000)
            cold_calls = b.counter.total

        questions = [q for q in ANSWERABLE for _ in range(3)] + UNANSWERABLE
        samples, found, calls = [], 0, []
        for _ in range(10):
            rng.shuffle(questions)
            for q in questions:
                b.counter.reset()
                start = time.perf_counter()
                data = ask(q)
                samples.append((time.perf_counter() - start) * 1000)
                calls.append(b.counter.total)
                found += (q in ANSWERABLE) == data["answer_found"]
        print(f"\nkb_retrieve, embedded index, {TENANTS} tenants x {DOCS_PER_TENANT * SECTIONS_PER_DOC} chunks:")
        print(f"- warm: {describe(samples)}")
        print(f"- cold (index rebuilt after a KB change): {describe(cold)}")
        print(
            f"  of which DynamoDB (moto): mean {sum(cold_db) / len(cold_db):.0f} ms in {cold_calls} calls "
            "(the tenant, then the KB partition in 1 MB pages)"
        )
        print(f"- DynamoDB calls per warm call: max {max(calls)}, mean {sum(calls) / len(calls):.2f}")
        print(f"- answered/declined as expected: {found} of {len(samples)}")


if __name__ == "__main__":
    ingestion()
    retrieval()
