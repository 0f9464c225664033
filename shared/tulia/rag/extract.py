"""Text out of the documents a shop owner uploads: Markdown, plain text, PDF and DOCX.

Chunks follow headings, then size, with a small overlap, and keep their document title, section
and position so an answer can name its source.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import PurePath

from tulia.errors import InvalidInput

SUPPORTED_SUFFIXES = (".md", ".txt", ".pdf", ".docx")
MAX_CHUNK_CHARS = 900
OVERLAP_CHARS = 120


@dataclass(frozen=True)
class Section:
    heading: str | None
    text: str


@dataclass(frozen=True)
class ExtractedDocument:
    title: str
    sections: list[Section]
    pages: int


def extract(filename: str, data: bytes) -> ExtractedDocument:
    """Extract sections; an unreadable or empty file raises :class:`InvalidInput`."""
    suffix = PurePath(filename).suffix.lower()
    fallback_title = PurePath(filename).stem.replace("-", " ").replace("_", " ").strip().capitalize()
    if suffix in (".md", ".txt"):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidInput(f"{filename}: not UTF-8 text.", field=filename) from exc
        pages = max(1, len(text) // 3000 + 1)
        if suffix == ".md":
            doc = _from_markdown(text, fallback_title, pages=pages)
        else:  # plain text: a short first line is the title, short lines without a full stop are headings
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            title = lines[0] if lines and len(lines[0]) <= 80 and not lines[0].endswith(".") else fallback_title
            found = _from_lines(lines, title)
            doc = ExtractedDocument(found.title, found.sections, pages)
    elif suffix == ".pdf":
        doc = _from_pdf(filename, data, fallback_title)
    elif suffix == ".docx":
        doc = _from_docx(filename, data, fallback_title)
    else:
        raise InvalidInput(
            f"{filename}: unsupported document type (use {', '.join(SUPPORTED_SUFFIXES)}).", field=filename
        )
    if not any(s.text.strip() for s in doc.sections):
        raise InvalidInput(f"{filename}: no readable text found.", field=filename)
    return doc


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")


def _from_markdown(text: str, fallback_title: str, *, pages: int) -> ExtractedDocument:
    title = None
    sections: list[Section] = []
    heading: str | None = None
    buf: list[str] = []
    for line in text.splitlines():
        m = _MD_HEADING.match(line)
        if m:
            if buf and "".join(buf).strip():
                sections.append(Section(heading, "\n".join(buf).strip()))
            buf = []
            if title is None and len(m.group(1)) == 1:
                title = m.group(2)
                heading = None
            else:
                heading = m.group(2)
        else:
            buf.append(line)
    if buf and "".join(buf).strip():
        sections.append(Section(heading, "\n".join(buf).strip()))
    return ExtractedDocument(title or fallback_title, sections, pages)


def _from_pdf(filename: str, data: bytes, fallback_title: str) -> ExtractedDocument:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
        meta_title = (reader.metadata.title if reader.metadata else None) or None
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise InvalidInput(f"{filename}: unreadable PDF ({exc.__class__.__name__}).", field=filename) from exc
    text = "\n".join(pages)
    doc = _from_lines(text.splitlines(), meta_title or fallback_title)
    return ExtractedDocument(doc.title, doc.sections, len(pages))


def _from_docx(filename: str, data: bytes, fallback_title: str) -> ExtractedDocument:
    import zipfile

    from docx import Document

    try:
        document = Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise InvalidInput(f"{filename}: unreadable DOCX ({exc.__class__.__name__}).", field=filename) from exc
    title = document.core_properties.title or None
    sections: list[Section] = []
    heading: str | None = None
    buf: list[str] = []
    for para in document.paragraphs:
        style = (para.style.name if para.style is not None else "") or ""
        text = para.text.strip()
        if not text:
            continue
        if style == "Title" and title is None:
            title = text
        elif style.startswith("Heading"):
            if buf:
                sections.append(Section(heading, "\n".join(buf)))
            heading, buf = text, []
        else:
            buf.append(text)
    if buf:
        sections.append(Section(heading, "\n".join(buf)))
    words = sum(len(s.text.split()) for s in sections)
    return ExtractedDocument(title or fallback_title, sections, max(1, words // 500 + 1))


def _from_lines(lines: list[str], title: str) -> ExtractedDocument:
    """PDF text has no styles: treat short title-case lines without a full stop as headings."""
    sections: list[Section] = []
    heading: str | None = None
    buf: list[str] = []
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        looks_like_heading = (
            len(line) <= 60
            and not line.endswith((".", ":", ",", ";"))
            and line[:1].isupper()
            and len(line.split()) <= 8
            and not line.startswith(("-", "•", "*"))
        )
        if looks_like_heading and line != title:
            if buf:
                sections.append(Section(heading, " ".join(buf)))
            heading, buf = line, []
        elif line != title:
            buf.append(line)
    if buf:
        sections.append(Section(heading, " ".join(buf)))
    return ExtractedDocument(title, sections, 0)


def chunk_sections(
    sections: list[Section], *, max_chars: int = MAX_CHUNK_CHARS, overlap: int = OVERLAP_CHARS
) -> list[Section]:
    """Split sections into chunks of at most ``max_chars`` on sentence boundaries, with overlap."""
    chunks: list[Section] = []
    for section in sections:
        text = re.sub(r"[ \t]+", " ", section.text).strip()
        if len(text) <= max_chars:
            chunks.append(Section(section.heading, text))
            continue
        sentences = re.split(r"(?<=[.!?])\s+|\n+", text)
        current = ""
        for sentence in sentences:
            if current and len(current) + len(sentence) + 1 > max_chars:
                chunks.append(Section(section.heading, current.strip()))
                current = current[-overlap:].split(" ", 1)[-1] + " " + sentence
            else:
                current = f"{current} {sentence}" if current else sentence
            while len(current) > max_chars:  # one very long sentence
                chunks.append(Section(section.heading, current[:max_chars]))
                current = current[max_chars - overlap :]
        if current.strip():
            chunks.append(Section(section.heading, current.strip()))
    return chunks
