"""Button and row ids: one codec writes and reads them, every id reads back to the parts it was written from,
and the ids of buttons sent by earlier releases (the same wire form) still read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tulia.graph.buttons import _PARTS, TAP_KINDS, BadTapId, Tap, parse_tap, tap_id

part = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters=":"), max_size=30)
last_part = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@given(kind=st.sampled_from(TAP_KINDS), data=st.data())
def test_every_id_reads_back_to_its_kind_and_parts(kind: str, data: st.DataObject) -> None:
    count = _PARTS.get(kind, 1)
    parts = (*data.draw(st.lists(part, min_size=count - 1, max_size=count - 1)), data.draw(last_part))
    assert parse_tap(tap_id(kind, *parts)) == Tap(kind, parts)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("reply_id", "kind", "parts"),
    [
        ("item:PH-SAM-002", "item", ("PH-SAM-002",)),
        ("var:NP-TSH-01:size:XXL", "var", ("NP-TSH-01", "size", "XXL")),
        ("qty:GR-UNG-01:other", "qty", ("GR-UNG-01", "other")),
        ("zone:Kiserian & Ngong", "zone", ("Kiserian & Ngong",)),
        ("pay:ORD-7K2QD:mpesa_c2b", "pay", ("ORD-7K2QD", "mpesa_c2b")),
        ("confirm:yes", "confirm", ("", "yes")),  # an older release's button named no order
        ("bk:slot:202612011000:akinyi", "bk:slot", ("202612011000", "akinyi")),
        ("bk:cancelyes:BK-4HT9W", "bk:cancelyes", ("BK-4HT9W",)),
        ("bk:cancel:BK-4HT9W", "bk:cancel", ("BK-4HT9W",)),
        ("menu:offers", "menu", ("offers",)),
        ("esc:no", "esc", ("no",)),
    ],
)
def test_ids_as_sent_by_earlier_releases_still_read(reply_id: str, kind: str, parts: tuple[str, ...]) -> None:
    assert parse_tap(reply_id) == Tap(kind, parts)  # type: ignore[arg-type]


def test_a_booking_taps_action_and_a_sale_taps_kind() -> None:
    tap = parse_tap("bk:var:length:Mid-back")
    assert tap is not None
    assert (tap.booking, tap.action, tap.parts) == (True, "var", ("length", "Mid-back"))
    sale = parse_tap("mode:pickup")
    assert sale is not None
    assert (sale.booking, sale.action, sale.last) == (False, "mode", "pickup")


@pytest.mark.parametrize("reply_id", [None, "", "hello", "item", "bk:", "wat:1", "bk:unknown:1", "var:only-one"])
def test_ids_the_codec_never_wrote_read_as_nothing(reply_id: str | None) -> None:
    assert parse_tap(reply_id) is None


def test_parts_that_would_not_read_back_are_refused() -> None:
    with pytest.raises(BadTapId):
        tap_id("var", "NP:TSH", "size", "M")  # a ':' before the last part
    with pytest.raises(BadTapId):
        tap_id("qty", "GR-UNG-01")  # a count missing


def test_every_question_of_the_sale_has_one_answer_reader() -> None:
    from tulia.domain.literals import SALE_QUESTIONS
    from tulia.graph.journeys.sales import ANSWER_READERS

    assert set(ANSWER_READERS) == set(SALE_QUESTIONS)
