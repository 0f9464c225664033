import io

import pytest

from tests.conftest import PACKS
from tulia.errors import InvalidInput
from tulia.rag.extract import Section, chunk_sections, extract

KB = PACKS / "demo-shop" / "kb"


def test_markdown_sections_follow_headings() -> None:
    doc = extract("faq.md", b"# Shop FAQ\n\n## Hours\nOpen 8 to 7.\n\n## Location\nMoi Avenue.\n")
    assert doc.title == "Shop FAQ"
    assert [(s.heading, s.text) for s in doc.sections] == [("Hours", "Open 8 to 7."), ("Location", "Moi Avenue.")]


def test_pdf_text_and_headings_are_extracted() -> None:
    doc = extract("returns-policy.pdf", (KB / "policy" / "returns-policy.pdf").read_bytes())
    assert doc.title == "Returns and Refunds Policy"
    headings = [s.heading for s in doc.sections]
    assert "How refunds are paid" in headings
    assert any("within 7 days" in s.text for s in doc.sections)


def test_docx_headings_and_paragraphs_are_extracted() -> None:
    doc = extract("warranty.docx", (KB / "policy" / "warranty.docx").read_bytes())
    assert doc.title == "Warranty Information"
    assert any(s.heading == "Warranty periods" and "12-month" in s.text for s in doc.sections)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf"),
        ("broken.docx", b"PK not a zip"),
        ("empty.md", b"   \n"),
        ("latin1.txt", "caf\xe9".encode("latin-1")),
        ("notes.rtf", b"{\\rtf1}"),
    ],
)
def test_unreadable_documents_are_invalid_input(name: str, data: bytes) -> None:
    with pytest.raises(InvalidInput) as err:
        extract(name, data)
    assert name in err.value.message


def test_long_sections_are_chunked_with_overlap_and_keep_their_heading() -> None:
    text = " ".join(f"Sentence number {n} explains a rule of the shop." for n in range(60))
    chunks = chunk_sections([Section("Rules", text)], max_chars=300, overlap=60)
    assert len(chunks) > 5
    assert all(c.heading == "Rules" and len(c.text) <= 300 for c in chunks)
    assert chunks[0].text.split()[-1] in chunks[1].text  # overlap carries context across the cut


def test_docx_bytes_from_a_stream_work() -> None:
    from docx import Document

    buf = io.BytesIO()
    d = Document()
    d.add_heading("Hours", level=1)
    d.add_paragraph("We open at 8am.")
    d.save(buf)
    assert extract("hours.docx", buf.getvalue()).sections[0].text == "We open at 8am."
