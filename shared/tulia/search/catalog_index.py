"""An in-memory catalog search index, one per tenant and catalog version.

Scoring is BM25 over weighted fields. A category's *head* word ("case" in "Phone Cases") weighs
far more than its modifiers, so "samsung phone" finds phones before Samsung phone cases. Query
words the catalog does not contain are expanded to catalog words by prefix ("sams" -> "samsung")
and by edit distance ("samsnug" -> "samsung"), at a discount.

The index only *finds candidates*: prices and stock shown to a customer are re-read from DynamoDB.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from tulia.domain.catalog import CatalogItem
from tulia.search.text import Folding, fold

FIELD_WEIGHTS = {
    "name": 3.0,
    "brand": 2.0,
    "category_head": 3.0,
    "category": 0.4,
    "tags": 1.5,
    "variants": 1.0,
    "description": 0.5,
}
EXACT, PREFIX, FUZZY = 1.0, 0.8, 0.7
K1, B = 1.2, 0.5


@dataclass(frozen=True)
class Filters:
    type: str | None = None  # product | service | any
    category: str | None = None
    min_price: float | None = None
    max_price: float | None = None
    tags: tuple[str, ...] = ()
    in_stock_only: bool = False


@dataclass
class Hit:
    item_id: str
    score: float
    coverage: float  # share of the query's terms this item matched, weighted by match quality


@dataclass
class SearchResult:
    hits: list[Hit]
    total_matches: int
    confidence: float
    expansions: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Doc:
    item_id: str
    type: str
    category_folded: str
    category_head: str | None
    price: int
    in_stock: bool
    tags: frozenset[str]
    length: float
    name: str


class CatalogIndex:
    def __init__(self, items: Iterable[CatalogItem], vocabulary: Mapping[str, Iterable[str]] | None = None) -> None:
        # the shop's words: the generic words of shopping plus its own trade's vocabulary
        self.folding = Folding(vocabulary)
        self.docs: list[_Doc] = []
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        # words that name things the shop sells (not description words): for recognising a shopping request
        self.product_terms: set[str] = set()
        for item in items:
            if item.active:
                self._add(item)
        self.avg_len = (sum(d.length for d in self.docs) / len(self.docs)) if self.docs else 1.0
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()}
        # precompute each posting's BM25 weight (idf x saturated tf), so a query only multiplies and adds
        norm = [K1 * (1 - B + B * d.length / self.avg_len) for d in self.docs]
        for term, plist in self.postings.items():
            idf = self.idf[term]
            self.postings[term] = [(doc_no, idf * tf * (K1 + 1) / (tf + norm[doc_no])) for doc_no, tf in plist]
        self.vocabulary = sorted(self.postings)
        self._long_vocab = [t for t in self.vocabulary if len(t) >= 4 and not t.isdigit()]
        self.categories = sorted({d.category_folded for d in self.docs})

    def __len__(self) -> int:
        return len(self.docs)

    def terms(self, text: str) -> list[str]:
        """``text``'s search terms in this shop's words."""
        return self.folding.terms(text)

    def names_products(self, text: str) -> bool:
        """Whether ``text`` names something the shop sells ("the samsung one"), not another topic."""
        return any(term in self.product_terms for term in self.folding.terms(text))

    def _add(self, item: CatalogItem) -> None:
        weights: dict[str, float] = defaultdict(float)
        cat_terms = self.folding.terms(item.category)
        fields: list[tuple[str, list[str]]] = [
            ("name", self.folding.terms(item.name)),
            ("brand", self.folding.terms(item.brand or "")),
            ("category_head", cat_terms[-1:]),
            ("category", cat_terms[:-1]),
            ("tags", [t for tag in item.tags for t in self.folding.terms(tag)]),
            ("variants", [t for d in item.variants for o in d.options for t in self.folding.terms(o.value)]),
            ("description", self.folding.terms(item.description)),
        ]
        for name, toks in fields:
            for tok in toks:
                weights[tok] += FIELD_WEIGHTS[name]
            if name != "description":
                self.product_terms.update(t for t in toks if not t.isdigit())
        doc_no = len(self.docs)
        self.docs.append(
            _Doc(
                item_id=item.item_id,
                type=item.type,
                category_folded=fold(item.category),
                category_head=cat_terms[-1] if cat_terms else None,
                price=item.price,
                in_stock=item.in_stock,
                tags=frozenset(fold(t) for t in item.tags),
                length=sum(weights.values()) or 1.0,
                name=item.name,
            )
        )
        for tok, w in weights.items():
            self.postings[tok].append((doc_no, w))

    # query side
    def expand(self, term: str) -> list[tuple[str, float]]:
        """Catalog terms that a query term stands for, with a quality factor."""
        if term in self.postings:
            return [(term, EXACT)]
        if len(term) < 3:
            return []
        prefixed = [t for t in self.vocabulary if t.startswith(term) and len(term) >= 3][:3]
        if prefixed:
            return [(t, PREFIX) for t in prefixed]
        if len(term) < 4 or term.isdigit():
            return []
        cutoff = 80 if len(term) <= 6 else 75
        matches = process.extract(term, self._long_vocab, scorer=fuzz.ratio, score_cutoff=cutoff, limit=2)
        return [(m, FUZZY * (score / 100)) for m, score, _ in matches]

    def _passes(self, doc: _Doc, f: Filters) -> bool:
        if f.type and f.type != "any" and doc.type != f.type:
            return False
        if f.in_stock_only and not doc.in_stock:
            return False
        if f.min_price is not None and doc.price < f.min_price:
            return False
        if f.max_price is not None and doc.price > f.max_price:
            return False
        if f.category:
            # "Smartphones", "smartphones" and "phones" all mean the category whose head word is "phone";
            # "Phone Cases" (head word "case") is a different category.
            wanted = fold(f.category).strip()
            wanted_terms = self.folding.terms(f.category)
            if wanted != doc.category_folded and (not wanted_terms or wanted_terms[-1] != doc.category_head):
                return False
        return not (f.tags and not {fold(t) for t in f.tags} <= doc.tags)

    def search(self, query: str, filters: Filters | None = None, *, limit: int = 10) -> SearchResult:
        filters = filters or Filters()
        q_terms = self.folding.terms(query)
        if not q_terms:
            # no words to match (only filters): cheapest first, a predictable browse order
            docs = sorted((d for d in self.docs if self._passes(d, filters)), key=lambda d: (d.price, d.name))
            hits = [Hit(d.item_id, 0.0, 1.0) for d in docs[:limit]]
            return SearchResult(hits, len(docs), 1.0 if docs else 0.0)

        scores: dict[int, float] = defaultdict(float)
        quality: dict[int, float] = defaultdict(float)
        expansions: dict[str, list[str]] = {}
        for term in q_terms:
            expanded = self.expand(term)
            if not expanded:
                continue
            expansions[term] = [t for t, _ in expanded]
            if len(expanded) == 1:
                cat_term, factor = expanded[0]
                for doc_no, weight in self.postings[cat_term]:
                    scores[doc_no] += weight * factor
                    quality[doc_no] += factor
                continue
            best_for_doc: dict[int, tuple[float, float]] = {}
            for cat_term, factor in expanded:
                for doc_no, weight in self.postings[cat_term]:
                    s = weight * factor
                    if s > best_for_doc.get(doc_no, (0.0, 0.0))[0]:
                        best_for_doc[doc_no] = (s, factor)
            for doc_no, (s, factor) in best_for_doc.items():
                scores[doc_no] += s
                quality[doc_no] += factor

        n_terms = len(q_terms)
        check = filters != Filters()
        candidates: list[tuple[float, int, int, float]] = []
        for doc_no, s in scores.items():
            if check and not self._passes(self.docs[doc_no], filters):
                continue
            coverage = quality[doc_no] / n_terms
            # near-equal scores (one decimal) are ordered cheapest first: a vague "samsung phone" starts affordable
            candidates.append((round(s * coverage * coverage, 1), -self.docs[doc_no].price, doc_no, coverage))
        best_cov = max((c[3] for c in candidates), default=0.0)
        # "matches" are the items about as complete a match as the best one
        total = sum(1 for c in candidates if c[3] >= best_cov - 1e-9 and c[3] >= 0.5)
        top = heapq.nlargest(limit, candidates)  # best score first; on a tie, the cheaper item
        hits = [Hit(self.docs[doc_no].item_id, score, cov) for score, _price, doc_no, cov in top]
        return SearchResult(hits, total, round(best_cov, 3), expansions)
