"""The token tagger (issue 53, part 2): its weights are the corpus's, it is read without numpy, its spans are
well formed for any tags, and it reads the issue's examples with the shop's words as its gazetteer."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tulia.nlu.tagger import TAGS, Gazetteer, TokenTagger, _may_follow, read_header, spans, token_tagger, tokens
from tulia.packs.loader import load_pack
from tulia.search.catalog_index import CatalogIndex

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def grocer() -> Gazetteer:
    pack = load_pack(ROOT / "packs" / "demo-grocer")
    index = CatalogIndex(pack.catalog, pack.tenant.vocabulary.root)
    return Gazetteer.of(**index.shop_words, zone_area=pack.tenant.delivery_places())


def read(text: str, gazetteer: Gazetteer) -> list[tuple[str, str | None, str]]:
    return [(s.kind, s.act, s.text) for s in token_tagger().read(text, gazetteer)]


def test_the_shipped_weights_were_trained_on_todays_tagged_corpus() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_tagger
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    examples = train_tagger.training_examples()
    header = read_header()
    assert header["corpus_sha256"] == train_tagger.corpus_digest(examples), "run scripts/train_tagger.py"
    assert set(header["trained_with"]) >= {"python", "python-crfsuite", "crfsuite"}
    assert (header["hyperparameters"]["c1"], header["hyperparameters"]["c2"]) == (train_tagger.C1, train_tagger.C2)


# a retrain is the whole training of the shipped tagger: about 30,000 examples since the writers' templates came
# (eleventh session), three to four minutes on 2 cores, where the suite's default limit is two minutes
# a full retrain: 4 min 26 s alone on a quiet 2-core machine since the writers doubled the corpus, over 10 minutes
# beside another suite; the child's limit sits just under the test's own, never shorter than the wait it guards
@pytest.mark.timeout(1800)
def test_a_retrain_gives_the_shipped_tags() -> None:
    # the CRF's objective is convex: one corpus, one answer (the perceptron it replaced drifted with any change)
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "train_tagger.py"), "--reproduce"],
        capture_output=True,
        text=True,
        check=False,
        timeout=1700,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "a retrain gives the shipped tags for 100.00%" in done.stdout


def test_the_tagger_runs_without_numpy_or_scikit_learn() -> None:
    code = (
        "import sys\n"
        "from tulia.nlu.tagger import token_tagger\n"
        "print(token_tagger().read('ongeza sukari iwe mbili'))\n"
        "assert 'numpy' not in sys.modules and 'sklearn' not in sys.modules, sorted(sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr


def test_sukari_iwe_mbili_sets_the_sugar_to_two(grocer: Gazetteer) -> None:
    assert read("ongeza sukari iwe mbili", grocer) == [("ITEM", "set", "sukari"), ("QTY", None, "mbili")]


def test_make_the_power_banks_3_sets_them() -> None:
    assert read("make the power banks 3", Gazetteer.of(item=["Oraimo Power Bank"])) == [
        ("ITEM", "set", "power banks"),
        ("QTY", None, "3"),
    ]


def test_x_badala_ya_y_adds_x_and_replaces_y(grocer: Gazetteer) -> None:
    assert read("nataka pembe badala ya jogoo", grocer) == [("ITEM", "add", "pembe"), ("ITEM", "old", "jogoo")]


def test_a_new_address_instead_of_the_old(grocer: Gazetteer) -> None:
    assert read("nibadilishie address, niletee Juja badala ya Mwiki", grocer) == [
        ("LOC", "new", "Juja"),
        ("LOC", "old", "Mwiki"),
    ]


def test_toa_x_na_y_takes_both_out(grocer: Gazetteer) -> None:
    assert read("toa pembe na mumias", grocer) == [("ITEM", "remove", "pembe"), ("ITEM", "remove", "mumias")]


def test_items_asked_about_and_then_ordered_with_their_counts(grocer: Gazetteer) -> None:
    assert read("mna sukari na unga?", grocer) == [("ITEM", "add", "sukari"), ("ITEM", "add", "unga")]
    assert read("nataka sukari mbili na unga tatu", grocer) == [
        ("ITEM", "add", "sukari"),
        ("QTY", None, "mbili"),
        ("ITEM", "add", "unga"),
        ("QTY", None, "tatu"),
    ]


def test_a_plain_list_is_added_not_taken_out(grocer: Gazetteer) -> None:
    acts = {act for kind, act, _ in read("one tray of eggs, 2 broadways brown bread and a kensalt", grocer) if act}
    assert acts == {"add"}


def test_an_unknown_gazetteer_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown gazetteer kind"):
        Gazetteer.of(colours=["red"])


@given(st.lists(st.sampled_from(TAGS), min_size=1, max_size=12))
def test_any_tags_make_ordered_spans_of_the_text(tags: list[str]) -> None:
    text = " ".join(f"w{n}" for n in range(len(tags)))
    toks = tokens(text)
    found = spans(toks, tags, text)
    assert all(text[s.start : s.end] == s.text for s in found)
    assert all(a.end < b.start for a, b in itertools.pairwise(found))  # never overlapping
    assert len(found) == sum(1 for n, tag in enumerate(tags) if tag != "O" and not _continues(tags, n))


def _continues(tags: list[str], n: int) -> bool:
    tag = tags[n]
    if not tag.startswith("I-") or n == 0 or tags[n - 1] == "O":
        return False
    return tags[n - 1].partition("-")[2].partition(".")[0] == tag.partition("-")[2].partition(".")[0]


def _brute_force_best(emissions: list[list[float]], transitions: list[list[float]]) -> list[str]:
    best, best_path = float("-inf"), None
    for path in itertools.product(range(len(TAGS)), repeat=len(emissions)):
        names = [TAGS[t] for t in path]
        if not all(_may_follow(p, t) for p, t in zip(["<s>", *names], names, strict=False)):
            continue
        score = sum(emissions[i][t] for i, t in enumerate(path))
        score += sum(transitions[a][b] for a, b in itertools.pairwise(path))
        if score > best:
            best, best_path = score, names
    assert best_path is not None
    return best_path


@given(st.integers(min_value=0, max_value=2**32), st.lists(st.sampled_from("abc"), min_size=1, max_size=2))
def test_the_decoder_finds_the_best_allowed_path(seed: int, words: list[str]) -> None:
    # each word's own feature weighs each tag; the decoder's path must be the best of every path BIO allows
    rng = random.Random(seed)
    width = len(TAGS)
    emission = {w: [rng.uniform(-3, 3) for _ in TAGS] for w in "abc"}
    transitions = [[rng.uniform(-3, 3) for _ in TAGS] for _ in range(width)]
    tagger = TokenTagger(
        {"tags": list(TAGS)}, {f"w={w}": list(enumerate(row)) for w, row in emission.items()}, transitions
    )
    got = tagger.tag_tokens(tokens(" ".join(words)))
    assert got == _brute_force_best([emission[w] for w in words], transitions)


def test_the_labelled_messages_are_read_as_labelled_by_the_shipped_tagger() -> None:
    """The hand-labelled messages are training data: a retrain that forgets how real messages are read (a corpus
    change that moves the readings of development messages) fails here before it ships."""
    from tulia.nlu.tagger_corpus import labelled_messages

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from train_tagger import shop_gazetteer
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    messages = labelled_messages(ROOT / "eval")
    assert len(messages) >= 1_400
    right = labelled = found = 0
    for message in messages:
        read = {
            (f"{s.kind}.{s.act}" if s.act else s.kind, s.start, s.end)
            for s in token_tagger().read(message.text, shop_gazetteer(message.pack))
        }
        right += len(read & set(message.spans))
        labelled += len(message.spans)
        found += len(read)
    assert 2 * right / (labelled + found) >= 0.85
    # and the shops it never saw: the measurement of the retrain that left two development sets' messages out
    assert read_header()["held_out_labelled"]["span_f1_by_language"]


@pytest.mark.parametrize(
    ("field", "problem"),
    [
        ("ITEM.add:sukari | QTY:tatu", "'tatu' is not in"),  # words the message does not have
        ("QTY:mbili | ITEM.add:sukari", "'sukari' is not in"),  # out of order
        ("ITEM:sukari", "'ITEM' is no tag"),  # an item without its act
        ("THING.add:sukari", "is no tag"),
    ],
)
def test_a_labelled_message_whose_spans_do_not_fit_is_refused(field: str, problem: str) -> None:
    from tulia.nlu.corpus import CorpusInvalid
    from tulia.nlu.tagger_corpus import placed_spans

    with pytest.raises(CorpusInvalid, match=problem):
        placed_spans("nataka sukari mbili", field)


def test_a_labelled_message_is_placed_word_for_word() -> None:
    from tulia.nlu.tagger_corpus import placed_spans

    text = "nataka sukari mbili na unga mbili"
    assert placed_spans(text, "ITEM.add:sukari | QTY:mbili | ITEM.add:unga | QTY:mbili") == (
        ("ITEM.add", 7, 13),
        ("QTY", 14, 19),
        ("ITEM.add", 23, 27),
        ("QTY", 28, 33),
    )
