"""The reader's training corpus (eval/corpus and the tuning phrase sets): large, varied, well formed,
clear of the blind held-out set, and the shipped weights trained on it as it stands."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tulia.nlu.corpus import CorpusInvalid, blind_messages, corpus_digest, load_corpus, load_messages, too_close
from tulia.nlu.reader import LABELS, WEIGHTS_FILE, load_weights, normalize_for_reader

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(ROOT / "eval")


def test_the_corpus_has_three_thousand_varied_messages_over_ten_trades(corpus) -> None:
    assert len(corpus) >= 3000
    assert len({ex.trade for ex in corpus if ex.trade}) >= 10
    assert set(Counter(ex.lang for ex in corpus)) == {"en", "sw", "sheng"}
    assert set(Counter(ex.label for ex in corpus)) == set(LABELS)  # every label has examples
    assert min(Counter(ex.label for ex in corpus).values()) >= 30


def test_no_training_message_is_a_near_copy_of_a_blind_message(corpus) -> None:
    blind = blind_messages(ROOT / "eval")
    assert len(blind) > 700  # the three blind sets' and the blind conversations' messages of four words or more
    assert too_close(corpus, blind) == set()
    assert not {normalize_for_reader(t) for t in blind} & {normalize_for_reader(ex.text) for ex in corpus}


def test_the_shipped_weights_were_trained_on_this_corpus(corpus) -> None:
    assert load_weights(WEIGHTS_FILE).corpus_sha256 == corpus_digest(corpus), (
        "the corpus changed since reader.weights was trained: run `.venv/bin/python scripts/train_reader.py`"
    )


def test_the_reader_artefact_is_small() -> None:
    assert WEIGHTS_FILE.stat().st_size < 5_000_000


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("sales | en | hi", "unknown label 'sales'"),
        ("sales_discovery | fr | bonjour", "unknown language 'fr'"),
        ("sales_discovery | en", "expected 'label | lang | message'"),
    ],
)
def test_a_broken_corpus_line_is_named_with_its_place(tmp_path: Path, line: str, problem: str) -> None:
    messages = tmp_path / "messages.txt"
    messages.write_text(f"# comment\n{line}\n", encoding="utf-8")
    with pytest.raises(CorpusInvalid, match=f"messages.txt:2: {problem}"):
        load_messages(messages)
