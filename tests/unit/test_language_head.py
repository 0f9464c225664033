"""The language head (issue 53, part 2): a message whose words are in none of the word lists is read by a model of
the reader's features, learned from the corpus's language labels, not called English; a message of no words says no
language; the shipped weights are today's corpus's."""

from __future__ import annotations

import sys
from pathlib import Path

from tulia.nlu.rules import detect_language, language_head

ROOT = Path(__file__).resolve().parents[2]


def test_sheng_in_words_no_list_knows_is_not_taken_for_english() -> None:
    language, confidence = detect_language("mzigo umesonga aje")  # "has the parcel moved?"
    assert language in ("sw", "sheng")
    assert confidence >= 0.48


def test_a_message_of_no_words_says_no_language() -> None:
    assert detect_language("128GB") == ("en", 0.3)
    assert detect_language("ok") == ("en", 0.3)


def test_english_stays_english() -> None:
    assert detect_language("do you have chargers?")[0] == "en"


def test_the_shipped_weights_were_trained_on_todays_corpus() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_language
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    from tulia.nlu.corpus import Example, corpus_digest

    as_language = [Example(ex.lang, ex.lang, ex.text, ex.source) for ex in train_language.examples()]
    assert language_head().corpus_sha256 == corpus_digest(as_language), "run scripts/train_language.py"
    assert set(language_head().trained_with) >= {"python", "numpy", "scikit-learn"}


def test_swahili_with_english_names_is_swahili_surely() -> None:
    # two Swahili words of five, and the head's Swahili: sure enough to answer in Swahili at an English-default shop
    assert detect_language("nataka oraimo power bank moja") == ("sw", 0.8)


def test_one_english_word_among_swahili_ones_the_lists_do_not_know_is_swahili() -> None:
    # "if I miss coming, is the deposit refunded?" was answered in English: the lists knew only "deposit"
    assert detect_language("nikikosa kuja deposit inarudishwa?")[0] == "sw"
    assert detect_language("are they original? i dont want fake stuff")[0] == "en"
