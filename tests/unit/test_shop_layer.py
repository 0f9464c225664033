"""The shop's reading layer (issue 53, part 5): learned from the owner's labels in plain Python, it reads what they
share, decides only where the global reader is unsure or for her own words, and stays out of messages it learned
nothing about."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tulia.nlu.reader import SURE, message_reader
from tulia.nlu.shop_layer import ShopLayer

TAUGHT = [
    ("mzigo umesonga aje", "order_status", None, None),
    ("sasa, mzigo imesonga?", "order_status", None, None),
    ("niko na wasiwasi, mzigo umesonga?", "order_status", None, None),
]


# her shop's own way: customers ask after its rider by his name (the global reader learned "mzigo umesonga" from the
# corpus's writers in the eleventh session, so her labels are of words no corpus has)
RIDER_TAUGHT = [
    ("kibe ameanza kuja?", "order_status", None, None),
    ("kibe amepita stage?", "order_status", None, None),
    ("kibe ameshatoka?", "order_status", None, None),
]


def test_three_labels_teach_a_fourth_way_the_reader_does_not_know() -> None:
    fourth = "kibe ameanza safari?"  # has Kibe set off?
    assert message_reader().read(fourth).label != "order_status"
    reading = ShopLayer(RIDER_TAUGHT).read(fourth)
    assert reading is not None
    assert reading.intent == "order_status"
    assert ShopLayer.decides(reading, message_reader().read(fourth).confidence, SURE)


def test_her_own_words_are_read_as_she_labelled_them_with_the_item_and_count() -> None:
    layer = ShopLayer([("ile kasimu ka mzee", "sales_discovery", "FP-001", 2)])
    reading = layer.read("Ile  kasimu ka MZEE")
    assert reading is not None
    assert (reading.intent, reading.labelled, reading.item_id, reading.quantity) == (
        "sales_discovery",
        True,
        "FP-001",
        2,
    )


def test_a_sure_reading_is_never_overruled_by_a_likeness() -> None:
    layer = ShopLayer(TAUGHT)
    message = "nataka mzigo wa unga"  # shares "mzigo" with her labels: a purchase all the same
    sure = message_reader().read(message)
    assert sure.label == "sales_discovery"
    reading = layer.read(message)
    decides = reading is not None and ShopLayer.decides(reading, sure.confidence, SURE)
    assert (reading.intent if reading is not None and decides else sure.label) == "sales_discovery"


def test_no_labels_no_reading() -> None:
    assert ShopLayer([]).read("mzigo umesonga aje") is None
    assert len(ShopLayer([])) == 0


def test_an_unknown_label_is_not_learned() -> None:
    assert len(ShopLayer([("hello", "not_an_intent", None, None)])) == 0


@settings(max_examples=30, deadline=None)
@given(st.text(min_size=1, max_size=60))
def test_any_message_reads_as_one_of_the_readers_labels_or_nothing(text: str) -> None:
    reading = LAYER.read(text)  # any text: no error, and a reading (when there is one) of the reader's labels
    if reading is not None:
        assert reading.intent in message_reader().labels
        assert 0.0 <= reading.confidence <= 1.0


LAYER = ShopLayer(TAUGHT)
