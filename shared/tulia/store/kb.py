"""Knowledge-base documents and their chunks.

A document points at its current ``version``; chunks carry the version in their key. Writing a
new version first adds its chunks, then flips the document's pointer, then deletes the old
chunks, so a reader never sees a half-written document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tulia.domain.kb import KbChunk, KbDocument
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo
from tulia.store.tables import KB


class KbRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    def documents(self, tenant_id: str) -> list[KbDocument]:
        return [
            from_item(KbDocument, i) for i in self.db.query_all(KB, keys.kb_pk(tenant_id), sk_prefix=keys.KB_DOC_PREFIX)
        ]

    def document(self, tenant_id: str, doc_id: str) -> KbDocument | None:
        item = self.db.get(KB, keys.kb_pk(tenant_id), keys.kb_doc_sk(doc_id))
        return from_item(KbDocument, item) if item else None

    def save_document(self, doc: KbDocument, chunks: Sequence[KbChunk]) -> None:
        pk = keys.kb_pk(doc.tenant_id)
        previous = self.db.get(KB, pk, keys.kb_doc_sk(doc.doc_id))
        self.db.batch_write(
            KB, puts=[to_item(c, pk=pk, sk=keys.kb_chunk_sk(c.doc_id, c.version, c.position)) for c in chunks]
        )
        self.db.put(KB, to_item(doc, pk=pk, sk=keys.kb_doc_sk(doc.doc_id)))
        if previous and previous["version"] != doc.version:
            self._delete_chunks(doc.tenant_id, doc.doc_id, int(previous["version"]))

    def put_document(self, doc: KbDocument) -> None:
        """Write the document record alone (its status), keeping its chunks."""
        self.db.put(KB, to_item(doc, pk=keys.kb_pk(doc.tenant_id), sk=keys.kb_doc_sk(doc.doc_id)))

    def delete_document(self, tenant_id: str, doc_id: str) -> None:
        pk = keys.kb_pk(tenant_id)
        previous = self.db.get(KB, pk, keys.kb_doc_sk(doc_id))
        if previous is None:
            return
        self.db.delete(KB, pk, keys.kb_doc_sk(doc_id))
        self._delete_chunks(tenant_id, doc_id, int(previous["version"]))

    def current_chunks(self, tenant_id: str) -> list[KbChunk]:
        """Every chunk of every document's current version (one partition query, paged)."""
        docs: dict[str, int] = {}
        chunks: list[dict[str, Any]] = []
        for item in self.db.query_all(KB, keys.kb_pk(tenant_id)):
            if item["sk"].startswith(keys.KB_DOC_PREFIX):
                if int(item.get("chunk_count") or 0) > 0:  # an indexed version (also while a new upload is pending)
                    docs[item["doc_id"]] = int(item["version"])
            elif item["sk"].startswith(keys.KB_CHUNK_PREFIX):
                chunks.append(item)
        return [from_item(KbChunk, c) for c in chunks if docs.get(c["doc_id"]) == c["version"]]

    def _delete_chunks(self, tenant_id: str, doc_id: str, version: int) -> None:
        pk = keys.kb_pk(tenant_id)
        prefix = f"{keys.KB_CHUNK_PREFIX}{doc_id}#{version:06d}#"
        old = [(pk, i["sk"]) for i in self.db.query_all(KB, pk, sk_prefix=prefix)]
        self.db.batch_write(KB, deletes=old)
