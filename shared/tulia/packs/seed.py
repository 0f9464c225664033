"""Write a validated pack into the store, replacing what an earlier seed of the same tenant wrote."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tulia.packs.loader import Pack
from tulia.rag.ingest import store_document
from tulia.search.catalog_index import CatalogIndex
from tulia.services import Services


@dataclass(frozen=True)
class SeedSummary:
    tenant_id: str
    name: str
    phone_number_id: str | None  # None: a pack of a shop that has not connected WhatsApp
    items: int
    categories: int
    offers: int
    documents: int
    chunks: int
    uploaded: bool = False  # documents went to the KB bucket for the ingestion function

    def __str__(self) -> str:
        docs = (
            f"{self.documents} documents uploaded for ingestion"
            if self.uploaded
            else f"{self.documents} documents ({self.chunks} chunks)"
        )
        return (
            f"{self.tenant_id} ({self.name}): {self.items} items in {self.categories} categories, "
            f"{self.offers} offers, {docs}; "
            + (f"WhatsApp phone_number_id {self.phone_number_id}" if self.phone_number_id else "WhatsApp not connected")
        )


def seed_pack(services: Services, pack: Pack, *, upload: Callable[[str, bytes], None] | None = None) -> SeedSummary:
    """Write the pack. With ``upload`` (AWS: ``TULIA_KB_BUCKET`` is set), documents are put in the KB
    bucket as ``<tenant_id>/<path>`` and the kb_ingest function indexes them, exactly as a staff
    upload; otherwise they are indexed here."""
    s = services
    tid = pack.tenant.tenant_id
    now = s.clock()
    existing = s.tenants.find(tid)
    tenant = pack.tenant
    if existing is not None:
        pesapal = tenant.payments.pesapal
        if pesapal is not None and existing.payments.pesapal is not None and not pesapal.ipn_id:
            pesapal = pesapal.model_copy(update={"ipn_id": existing.payments.pesapal.ipn_id})
        tenant = tenant.model_copy(
            update={
                "catalog_version": existing.catalog_version,
                "kb_version": existing.kb_version,
                "reading_version": existing.reading_version,
                "payments": tenant.payments.model_copy(update={"pesapal": pesapal}),
            }
        )
    s.tenants.save(
        tenant, previous_phone_number_id=existing.whatsapp.phone_number_id if existing and existing.whatsapp else None
    )

    # catalog: upsert everything in the pack, remove what is no longer in it
    old_ids = {i.item_id for i in s.catalog.iter_all(tid)}
    s.catalog.put_many(pack.catalog)
    s.catalog.delete_many(tid, old_ids - {i.item_id for i in pack.catalog})

    # offers: keep redemption counts of offers that stay
    old_offers = {o.offer_id: o for o in s.offers.all_for(tid)}
    offers = [
        o.model_copy(update={"redemptions": old_offers[o.offer_id].redemptions}) if o.offer_id in old_offers else o
        for o in pack.offers
    ]
    s.offers.put_many(offers)
    s.offers.delete_many(tid, set(old_offers) - {o.offer_id for o in offers})

    # knowledge base
    old_docs = {d.doc_id for d in s.kb.documents(tid)}
    chunk_total = 0
    for source in pack.documents:
        if upload is not None:
            upload(f"{tid}/{source.relative_path}", source.data)
        else:
            chunk_total += store_document(s, tid, source, now=now).chunk_count
    for doc_id in old_docs - {d.doc_id for d in pack.documents}:
        s.kb_search.delete_document(tid, doc_id)
        s.kb.delete_document(tid, doc_id)

    catalog_version = s.tenants.bump_version(tid, "catalog_version")
    s.tenants.bump_version(tid, "kb_version")
    s.catalog_indexes.prime(tid, catalog_version, CatalogIndex(pack.catalog, pack.tenant.vocabulary.root))
    return SeedSummary(
        tid,
        tenant.name,
        tenant.whatsapp.phone_number_id if tenant.whatsapp else None,
        len(pack.catalog),
        len({i.category for i in pack.catalog}),
        len(pack.offers),
        len(pack.documents),
        chunk_total,
        uploaded=upload is not None,
    )
