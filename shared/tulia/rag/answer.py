"""The answer the bot gives from the shop's documents without a model: the best snippet's sentences
that share the most words with the question, and where they come from. The support journey words it
(the model, when allowed) and guards it; the console's "try a question" shows the same answer."""

from __future__ import annotations

import re
from typing import Any

from tulia.search.text import terms

ANSWER_CHARS = 500


def best_sentences(passage: str, question: str, limit: int = ANSWER_CHARS, *, lang: str | None = None) -> str:
    """The passage's sentences that share the most words with the question, in their order, as WhatsApp shows text.
    With ``lang`` (the customer's), a passage written in both languages gives only her language's sentences, when
    they hold words of the question (else the other language's may be the only ones that answer it)."""
    passage = whatsapp_text(passage)
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", passage) if s.strip()]
    if lang is not None:
        mine = in_language(sentences, lang)
        wanted = set(terms(question))
        if mine is not None and any(wanted & set(terms(s)) for s in mine):  # her sentences answer it too
            sentences = mine
            passage = "\n".join(sentences)
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


SURE_OF_LANGUAGE = 0.6  # a sentence read at least this surely counts as written in that language


def language_of(sentence: str) -> str | None:
    from tulia.nlu.rules import detect_language  # here: the admin KB screen imports this module, rarely this

    language, confidence = detect_language(sentence)
    if confidence < SURE_OF_LANGUAGE:
        return None  # names, numbers, a word or two: any language's
    return "en" if language == "en" else "sw"


def in_language(sentences: list[str], lang: str) -> list[str] | None:
    """The sentences in ``lang`` (Sheng reads Swahili) and those of no language, when the passage also holds the
    other language; None when it is written in one language only."""
    wanted = "en" if lang == "en" else "sw"
    languages = [language_of(s) for s in sentences]
    if wanted not in languages or not any(x not in (None, wanted) for x in languages):
        return None
    return [s for s, x in zip(sentences, languages, strict=True) if x in (None, wanted)]


def written_in(text: str) -> str | None:
    """``en`` or ``sw`` when the answer is surely in one of them (its sentences read so), else None."""
    languages = {language_of(s) for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()} - {None}
    return languages.pop() if len(languages) == 1 else None


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$", re.M)
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
_BLOCK = re.compile(r"^\s*([-*•]\s|\d+[.)]\s|\*[^*]+\*\s*$|[A-Za-z ]{1,40}:\s)")  # a list item, heading, label
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$", re.M)


def whatsapp_text(text: str) -> str:
    """Markdown as WhatsApp shows it: a heading and **bold** in *bold*, a link as its words and address, a table's
    rows as "cell: cell", its rule lines gone, a paragraph wrapped by hand joined into one."""
    text = _TABLE_RULE.sub("", text)
    text = _HEADING.sub(lambda m: f"*{m.group(1)}*", text)
    text = _BOLD.sub(lambda m: f"*{m.group(1) or m.group(2)}*", text)
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    rows: list[str] = []
    for line in text.splitlines():
        if line.strip().startswith("|") and line.strip().endswith("|"):
            line = ": ".join(cell.strip() for cell in line.strip().strip("|").split("|") if cell.strip())
        elif rows and rows[-1].strip() and line.strip() and not _BLOCK.match(line) and not _BLOCK.match(rows[-1]):
            rows[-1] = f"{rows[-1].rstrip()} {line.strip()}"  # a paragraph wrapped by hand is one paragraph
            continue
        rows.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(rows)).strip()


def source_of(snippet: dict[str, Any]) -> str:
    """How a reply names the document: its title, and the section when there is one."""
    return str(snippet["title"]) + (f" - {snippet['section']}" if snippet.get("section") else "")
