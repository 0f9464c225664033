"""A small OpenSearch stand-in over real HTTP for the adapter's tests (no OpenSearch runs here).

It records every request (the tests assert the exact bodies the adapter sends) and answers the
handful of APIs the adapter uses: ``HEAD``/``PUT`` an index, ``_bulk`` (index without ids, delete by
id), ``_search`` and ``_msearch``. Searches honour ``term``/``terms`` filters and ``must_not`` (that is
how the adapter's scoping is exercised), rank lexical queries by how many query words a chunk holds
and k-NN queries by the dot product of the vectors. Canned ``_msearch`` answers can replace that.
"""

from __future__ import annotations

import itertools
import json
import threading
from typing import Any

from tulia.local.simulators.base import Recorded, Reply, Route, SimulatorServer


def ndjson(body: Any) -> list[dict[str, Any]]:
    text = body if isinstance(body, str) else json.dumps(body)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _matches(source: dict[str, Any], clause: dict[str, Any]) -> bool:
    (kind, spec), *_ = clause.items()
    (field, value), *_ = spec.items()
    if kind == "term":
        return bool(source.get(field) == value)
    if kind == "terms":
        return source.get(field) in value
    raise AssertionError(f"the fake does not know the {kind} clause")


class FakeOpenSearch(SimulatorServer):
    name = "opensearch"

    def __init__(self) -> None:
        super().__init__()
        self.indexes: dict[str, dict[str, Any]] = {}  # name -> the body it was created with
        self.docs: dict[str, dict[str, Any]] = {}  # _id -> _source, in indexing order
        self.hidden: dict[str, int] = {}  # _id -> searches still to answer before the doc shows
        self.visibility_lag = 0  # new documents stay invisible for this many searches
        self.canned_msearch: list[list[dict[str, Any]]] | None = None  # hits per query, when set
        self.msearch_errors: dict[int, dict[str, Any]] = {}  # query number -> error response
        self._ids = itertools.count(1)
        self._docs_lock = threading.Lock()

    # -- what the tests read -------------------------------------------------------------------
    def bodies(self, suffix: str) -> list[Any]:
        return [r.body for r in self.requests if r.path.endswith(suffix)]

    def msearch_queries(self) -> list[list[dict[str, Any]]]:
        return [ndjson(b) for b in self.bodies("/_msearch")]

    def bulk_lines(self) -> list[list[dict[str, Any]]]:
        return [ndjson(b) for b in self.bodies("/_bulk")]

    def sources(self, **where: Any) -> list[dict[str, Any]]:
        with self._docs_lock:
            return [s for s in self.docs.values() if all(s.get(k) == v for k, v in where.items())]

    # -- routing -------------------------------------------------------------------------------
    def route_for(self, rec: Recorded) -> Route | None:
        parts = [p for p in rec.path.split("/") if p]
        if parts and parts[-1] == "_bulk":
            return self._bulk
        if len(parts) == 2 and parts[1] == "_search":
            return self._search
        if parts and parts[-1] == "_msearch":
            return self._msearch
        if len(parts) == 1 and rec.method == "HEAD":
            return lambda r: Reply(200 if parts[0] in self.indexes else 404, "")
        if len(parts) == 1 and rec.method == "PUT":
            return self._create
        return None

    def _create(self, rec: Recorded) -> Reply:
        name = rec.path.strip("/")
        if name in self.indexes:
            error = {"type": "resource_already_exists_exception", "reason": f"index [{name}] already exists"}
            return Reply(400, {"error": {"root_cause": [error], **error}, "status": 400})
        self.indexes[name] = rec.body
        return Reply(200, {"acknowledged": True, "shards_acknowledged": True, "index": name})

    def _bulk(self, rec: Recorded) -> Reply:
        lines = ndjson(rec.body)
        items: list[dict[str, Any]] = []
        with self._docs_lock:
            i = 0
            while i < len(lines):
                (op, meta), *_ = lines[i].items()
                if op == "index":
                    assert "_id" not in meta, "vector collections of OpenSearch Serverless refuse custom ids"
                    doc_id = f"auto-{next(self._ids)}"
                    self.docs[doc_id] = lines[i + 1]
                    if self.visibility_lag:
                        self.hidden[doc_id] = self.visibility_lag
                    items.append({"index": {"_index": meta["_index"], "_id": doc_id, "status": 201}})
                    i += 2
                elif op == "delete":
                    found = self.docs.pop(meta["_id"], None)
                    items.append({"delete": {"_id": meta["_id"], "status": 200 if found else 404}})
                    i += 1
                else:
                    raise AssertionError(f"the fake does not know the bulk op {op}")
        return Reply(200, {"took": 1, "errors": False, "items": items})

    def _visible(self) -> list[tuple[str, dict[str, Any]]]:
        with self._docs_lock:
            for doc_id in list(self.hidden):
                self.hidden[doc_id] -= 1
                if self.hidden[doc_id] < 0:
                    del self.hidden[doc_id]
            return [(i, s) for i, s in self.docs.items() if i not in self.hidden]

    def _answer(self, query: dict[str, Any], docs: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
        q = query.get("query", {})
        knn = q.get("knn")
        if knn is not None:
            (field, spec), *_ = knn.items()
            filters = spec.get("filter", {}).get("bool", {}).get("filter", [])
            scored = [
                (sum(a * b for a, b in zip(s[field], spec["vector"], strict=True)), i, s)
                for i, s in docs
                if all(_matches(s, f) for f in filters)
            ]
        else:
            boolean = q.get("bool", {})
            filters, must_not = boolean.get("filter", []), boolean.get("must_not", [])
            words = set()
            for clause in boolean.get("must", []):
                words |= set(clause["multi_match"]["query"].lower().split())
            scored = []
            for i, s in docs:
                if all(_matches(s, f) for f in filters) and not any(_matches(s, f) for f in must_not):
                    text = " ".join(str(s.get(k) or "") for k in ("title", "section", "text")).lower()
                    score = sum(text.count(w) for w in words) if words else 1.0
                    if score:
                        scored.append((float(score), i, s))
        scored.sort(key=lambda t: -t[0])
        size = query.get("size", 10)
        hits = []
        for score, i, s in scored[:size]:
            hit: dict[str, Any] = {"_index": "kb", "_id": i, "_score": score}
            if query.get("_source") is not False:
                hit["_source"] = {k: v for k, v in s.items() if k != "embedding"}
            hits.append(hit)
        return {
            "took": 1,
            "timed_out": False,
            "hits": {"total": {"value": len(scored), "relation": "eq"}, "max_score": None, "hits": hits},
        }

    def _search(self, rec: Recorded) -> Reply:
        return Reply(200, self._answer(rec.body or {}, self._visible()))

    def _msearch(self, rec: Recorded) -> Reply:
        lines = ndjson(rec.body)
        docs = self._visible()
        responses = []
        for n, query in enumerate(lines[1::2]):
            if n in self.msearch_errors:
                responses.append(self.msearch_errors[n])
            elif self.canned_msearch is not None:
                hits = self.canned_msearch[n]
                responses.append({"took": 1, "hits": {"total": {"value": len(hits)}, "hits": hits}, "status": 200})
            else:
                responses.append({**self._answer(query, docs), "status": 200})
        return Reply(200, {"took": 1, "responses": responses})
