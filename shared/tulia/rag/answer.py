"""The answer the bot gives from the shop's documents without a model: the best snippet's sentences
that share the most words with the question, and where they come from. The support journey words it
(the model, when allowed) and guards it; the console's "try a question" shows the same answer."""

from __future__ import annotations

import re
from typing import Any

from tulia.search.text import terms

ANSWER_CHARS = 500


def best_sentences(passage: str, question: str, limit: int = ANSWER_CHARS) -> str:
    """The passage's sentences that share the most words with the question, in their order."""
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", passage) if s.strip()]
    if len(passage) <= limit:
        return passage.strip()
    wanted = set(terms(question))
    scored = sorted(range(len(sentences)), key=lambda i: -len(wanted & set(terms(sentences[i]))))
    chosen: list[int] = []
    size = 0
    for i in scored:
        if size + len(sentences[i]) > limit and chosen:
            break
        chosen.append(i)
        size += len(sentences[i]) + 1
    return " ".join(sentences[i] for i in sorted(chosen))


def source_of(snippet: dict[str, Any]) -> str:
    """How a reply names the document: its title, and the section when there is one."""
    return str(snippet["title"]) + (f" - {snippet['section']}" if snippet.get("section") else "")
