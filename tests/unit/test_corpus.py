"""The reader's training corpus (eval/corpus and the tuning phrase sets): large, varied, well formed,
clear of the blind held-out set, and the shipped weights trained on it as it stands."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tulia.nlu.corpus import (
    CorpusInvalid,
    blind_messages,
    corpus_digest,
    load_corpus,
    load_messages,
    too_close,
    writers,
)
from tulia.nlu.reader import LABELS, WEIGHTS_FILE, load_weights, normalize_for_reader
from tulia.nlu.tagger_corpus import WRITER_VARIANTS, tagged_examples

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


def test_every_writer_teaches_every_label_in_every_language(corpus) -> None:
    names = [w.name for w in writers(ROOT / "eval" / "corpus")]
    assert len(names) >= 5
    for name in names:
        theirs = [ex for ex in corpus if ex.source == f"writer:{name}"]
        assert {(ex.label, ex.lang) for ex in theirs} == {
            (label, lang) for label in LABELS for lang in ("en", "sw", "sheng")
        }
        assert len(theirs) >= 600, name  # about 450 templates, each filled twice (fewer for fixed phrases, duplicates)


def test_a_writers_edits_teach_the_tagger_acts(tmp_path: Path) -> None:
    (tmp_path / "corpus").mkdir()
    for name in ("templates.yaml", "edits.yaml", "trades.yaml", "fillers.yaml"):
        (tmp_path / "corpus" / name).write_text((ROOT / "eval" / "corpus" / name).read_text(encoding="utf-8"))
    (tmp_path / "corpus" / "writers").mkdir()
    (tmp_path / "corpus" / "writers" / "w.yaml").write_text(
        'edits:\n  sw:\n    - "toa {item:remove} uweke {n} {item2}"\n', encoding="utf-8"
    )
    theirs = [ex for ex in tagged_examples(tmp_path, variants=2) if ex.source == "writer:w:edits"]
    assert len(theirs) == WRITER_VARIANTS  # a writer's template is filled fewer times than the engineer's
    first = theirs[0]
    removed = [tok.text for tok, tag in zip(first.tokens, first.tags, strict=True) if tag.endswith("ITEM.remove")]
    added = [tok.text for tok, tag in zip(first.tokens, first.tags, strict=True) if tag.endswith("ITEM.add")]
    assert removed, first
    assert added, first
    assert first.tags[0] == "O"  # "toa" is the act's word, not a thing
    assert any(tag.endswith("QTY") for tag in first.tags)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('templates:\n  sales:\n    en: ["hi"]\n', "writers/w.yaml: unknown label 'sales'"),
        ('templates:\n  sales_discovery:\n    fr: ["bonjour"]\n', "unknown language 'fr'"),
        ('edits:\n  fr: ["x"]\n', "edits: unknown language 'fr'"),
        ("labels: {}\n", "only 'templates', 'edits' and 'at_checkout' may stand at the top"),
        ('at_checkout:\n  shrug:\n    en: ["never mind"]\n', "at_checkout: unknown label 'shrug'"),
    ],
)
def test_a_broken_writers_file_is_named(tmp_path: Path, text: str, problem: str) -> None:
    (tmp_path / "writers").mkdir()
    (tmp_path / "writers" / "w.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(CorpusInvalid, match=problem):
        writers(tmp_path)
