"""The embedded knowledge-base index: BM25 over a tenant's current chunks.

One index per tenant and KB version. A query whose best match is weak returns nothing, so the
support journey says it does not know instead of answering from an unrelated passage.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from tulia.domain.kb import KbChunk
from tulia.search.text import terms

K1, B = 1.2, 0.75
MIN_COVERAGE = 0.34  # share of the question's terms a passage must contain to count as an answer
HEADING_BOOST = 0.5  # a passage's score grows by half when the question says its whole section heading
ANSWER_TYPE_BOOST = 2.0  # a passage that holds what kind of answer the question asks for (a duration, an amount)

# What kind of answer a question asks for, and how a passage holds one: a question of how long is answered by a
# duration ("12-month", "7 to 14 days"), one of how much by an amount. Evidence for ranking passages, never a filter.
_ASKS_DURATION = re.compile(
    r"\b(?:how long|how many (?:days|weeks|months|years|hours)|for how long|muda gani|muda (?:wa|ya) \w+ gani|"
    r"(?:siku|wiki|miezi|mwezi|miaka|mwaka|masaa) ngapi|inachukua muda|itachukua muda|kwa muda gani)\b",
    re.I,
)
_HOLDS_DURATION = re.compile(
    r"\b\d+(?:\s*(?:to|-|–)\s*\d+)?[\s-]*(?:working\s+)?(?:days?|weeks?|months?|years?|hours?|hrs?)\b|"
    # "saa tisa" is a time of day and "mwaka 2024" a year: neither says how long
    r"\b(?:siku|wiki|miezi|mwezi|miaka|mwaka|masaa)\s+(?:\d{1,2}|moja|mbili|tatu|nne|tano|sita|saba|nane|tisa|kumi)\b",
    re.I,
)
_ASKS_AMOUNT = re.compile(
    r"\b(?:how much|what does it cost|what is the (?:fee|charge|price)|bei gani|ni pesa ngapi|ni ngapi)\b", re.I
)
_HOLDS_AMOUNT = re.compile(
    r"\b(?:kes|ksh|kshs|sh|shillings?|bob)\.?\s*\d|\b\d[\d,]*\s*(?:kes|ksh|shillings?|bob)\b", re.I
)


ANSWER_KINDS = {"duration": (_ASKS_DURATION, _HOLDS_DURATION), "amount": (_ASKS_AMOUNT, _HOLDS_AMOUNT)}


def kinds_asked(question: str) -> set[str]:
    """The kinds of answer a question asks for ("how long": a duration)."""
    return {kind for kind, (asks, _holds) in ANSWER_KINDS.items() if asks.search(question)}


def kinds_held(text: str) -> set[str]:
    """The kinds of answer a passage holds ("in 3 working days": a duration)."""
    return {kind for kind, (_asks, holds) in ANSWER_KINDS.items() if holds.search(text)}


def _only_a_heading(chunk: KbChunk) -> bool:
    """A passage whose words are only its document's title or its section's heading (a heading is matched through
    the title and section; a passage that is nothing else answers nothing)."""
    said = " ".join(chunk.text.casefold().split())
    headings = {" ".join(h.casefold().split()) for h in (chunk.title, chunk.section) if h}
    return bool(said) and said in headings


def _heading_share(chunk: KbChunk) -> Callable[[set[str]], float]:
    """How much of the passage's section heading a question's terms hold (0 without a heading)."""
    heading = set(terms(chunk.section or ""))
    return lambda asked: len(heading & asked) / len(heading) if heading else 0.0


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
    def __init__(self, chunks: Iterable[KbChunk], holds: Sequence[set[str]] | None = None) -> None:
        """``holds``: the kinds of answer each passage holds, when they are not read from its text (a shop's stated
        fact is matched by what it is about, and holds what its answer says)."""
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
        # what each passage is, read once: a heading alone, and the kinds of answer it holds
        self.headings_only = [_only_a_heading(c) for c in self.chunks]
        self.heading_said = [_heading_share(c) for c in self.chunks]
        self.holds = list(holds) if holds is not None else [kinds_held(c.text) for c in self.chunks]
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
        wants = kinds_asked(query)
        passages = []
        for doc_no, score in scores.items():
            chunk = self.chunks[doc_no]
            if allowed is not None and chunk.source_type not in allowed:
                continue
            if self.headings_only[doc_no]:  # a document's title standing alone ("Warranty Information") answers nothing
                continue
            answers = bool(wants & self.holds[doc_no])
            # a passage that holds the kind of answer asked for holds what "how long" asks ("time"), not only its words
            coverage = coverage_of(min(matched[doc_no] + answers, len(all_terms)), all_terms)
            if coverage < min_coverage:
                continue
            if answers:
                score *= ANSWER_TYPE_BOOST
            # a section whose heading the question says whole is its question ("how long is the warranty on the
            # filter?": the section "Warranty", before "Live fish guarantee", which the question names a third of)
            score *= 1 + HEADING_BOOST * self.heading_said[doc_no](set(all_terms))
            passages.append(Passage(chunk, score * coverage, coverage))
        passages.sort(key=lambda p: -p.score)
        return passages[:top_k]
