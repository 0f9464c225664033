"""The embedded knowledge-base index: BM25 over a tenant's current chunks.

One index per tenant and KB version. A query whose best match is weak returns nothing, so the
support journey says it does not know instead of answering from an unrelated passage.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tulia.domain.kb import KbChunk
from tulia.search.text import terms

K1, B = 1.2, 0.75
MIN_COVERAGE = 0.34  # share of the question's terms a passage must contain to count as an answer


def coverage_of(matched: int, query_terms: Iterable[str]) -> float:
    """The share of a question's terms a passage holds."""
    n = len(list(query_terms))
    return matched / n if n else 0.0


@dataclass
class Passage:
    chunk: KbChunk
    score: float
    coverage: float


class KbIndex:
    def __init__(self, chunks: Iterable[KbChunk]) -> None:
        self.chunks: list[KbChunk] = []
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.lengths: list[int] = []
        for chunk in chunks:
            doc_no = len(self.chunks)
            self.chunks.append(chunk)
            # the section heading and title describe the passage: count them twice
            toks = terms(f"{chunk.title} {chunk.section or ''}") * 2 + terms(chunk.text)
            counts: dict[str, int] = defaultdict(int)
            for t in toks:
                counts[t] += 1
            for t, c in counts.items():
                self.postings[t].append((doc_no, c))
            self.lengths.append(len(toks) or 1)
        n = len(self.chunks)
        self.avg_len = sum(self.lengths) / n if n else 1.0
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()}

    def __len__(self) -> int:
        return len(self.chunks)

    def _known(self, term: str) -> str:
        """A question's word as the documents write it: itself, or the nearest documents' word that it
        begins or that begins with it ("park": "parking"; "delivered": "deliver"), four letters at least."""
        if term in self.postings or len(term) < 4 or term.isdigit():
            return term
        related = sorted(
            (abs(len(t) - len(term)), t)
            for t in self.postings
            if len(t) >= 4 and (t.startswith(term) or term.startswith(t))
        )
        if not related or (len(related) > 1 and related[0][0] == related[1][0]):
            return term
        return related[0][1]  # the nearest ("parking" before "parklands")

    def search(
        self, query: str, *, top_k: int, source_types: Sequence[str] | None = None, min_coverage: float = MIN_COVERAGE
    ) -> list[Passage]:
        """The best passages for ``query``; one counts when it holds ``min_coverage`` of its terms (0: the
        closest passages whatever they hold, for showing an owner why nothing answered)."""
        all_terms = [self._known(t) for t in terms(query)]  # "park" finds "parking"
        q_terms = [t for t in all_terms if t in self.postings]
        scores: dict[int, float] = defaultdict(float)
        matched: dict[int, int] = defaultdict(int)
        for term in q_terms:
            idf = self.idf[term]
            for doc_no, tf in self.postings[term]:
                scores[doc_no] += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * self.lengths[doc_no] / self.avg_len))
                matched[doc_no] += 1
        allowed = set(source_types) if source_types else None
        passages = []
        for doc_no, score in scores.items():
            chunk = self.chunks[doc_no]
            if allowed is not None and chunk.source_type not in allowed:
                continue
            coverage = coverage_of(matched[doc_no], all_terms)
            if coverage < min_coverage:
                continue
            passages.append(Passage(chunk, score * coverage, coverage))
        passages.sort(key=lambda p: -p.score)
        return passages[:top_k]
