"""Which passage of a shop's documents answers (issue 53, part 4): the one that holds the kind of answer asked for (a
duration for "how long", an amount for "how much"), and a document's title standing alone answers nothing. A word is
never found inside another ("phone" is not in "earphones": matching word endings was tried and answered a question
about exchanging a phone with the earphones that cannot be returned)."""

from __future__ import annotations

from tulia.domain.kb import KbChunk
from tulia.rag.embedded import KbIndex

TITLE = "Warranty Information"


def chunk(n: int, section: str | None, text: str) -> KbChunk:
    return KbChunk(
        tenant_id="shop", doc_id="warranty", version=1, position=n, title=TITLE, section=section, source_type="policy",
        text=text,
    )  # fmt: skip


INDEX = KbIndex(
    [
        chunk(0, None, TITLE),
        chunk(1, "Warranty periods", "Smartphones and laptops carry a 12-month warranty. Cables carry 6 months."),
        chunk(2, "What the warranty covers", "The warranty covers faults such as a phone that will not charge."),
        chunk(3, "Delivery fees", "Delivery to Westlands costs KES 300; the warranty card comes with the box."),
    ]
)


def sections(query: str) -> list[str | None]:
    return [p.chunk.section for p in INDEX.search(query, top_k=4)]


def test_how_long_is_answered_by_the_passage_with_a_duration() -> None:
    assert sections("how long is the laptop warranty?")[0] == "Warranty periods"
    assert sections("warranty ni ya miezi ngapi?")[0] == "Warranty periods"


def test_what_it_covers_is_still_the_passage_about_what_it_covers() -> None:
    assert sections("what does the warranty cover?")[0] == "What the warranty covers"


def test_a_title_standing_alone_is_never_a_passage() -> None:
    assert None not in sections("warranty information")


def test_a_word_is_not_found_inside_another() -> None:
    earphones = KbIndex([chunk(9, "Items we cannot take back", "Opened earphones cannot be returned.")])
    assert earphones.search("phone", top_k=1) == []


def test_how_much_prefers_the_passage_with_an_amount() -> None:
    assert sections("how much is delivery with the warranty?")[0] == "Delivery fees"
