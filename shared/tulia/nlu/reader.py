"""The message reader: what a customer's message is about, learned from a labelled corpus.

A linear model over hashed word, word-pair and character n-gram features (the features of Rasa's and
Botpress's intent classifiers), trained at build time by ``scripts/train_reader.py`` with scikit-learn
on ``eval/corpus`` and the tuning phrase sets. At run time only its weights are read, from
``reader.weights`` beside this file (int8, zlib), in plain Python: no scikit-learn, no numpy.

Its probabilities are calibrated (a temperature fitted on out-of-fold predictions at build time), so
the spec's 0.70 / 0.50 routing thresholds mean what they say. The shop's own words count as evidence of
buying: each catalog term in the message adds ``product_weight`` to the buying logits, and a message
naming none of the shop's things takes ``no_product_shift`` from them (a question about a product needs
a product; all fitted at build time).
"""

from __future__ import annotations

import itertools
import json
import math
import re
import struct
import unicodedata
import zlib
from array import array
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal, get_args

LABELS = (
    "sales_discovery",
    "product_question",
    "support_question",
    "order_status",
    "discounts_offers",
    "preferences_consent",
    "payment_help",
    "human_request",
    "spam_casual",
    "unknown",
    "booking_move",
    "booking_cancel",
    "booking_show",
    "order_cancel",
)
BUYING = ("sales_discovery", "product_question")
CANCELLATIONS = ("order_cancel", "booking_cancel")  # at a checkout or a booking's summary, either drops what waits
SURE = 0.70  # spec 4.1's routing threshold: a reading at least this sure is acted on
SURE_OF_A_SENTENCE = 0.90  # one sentence of a message read alone, when the whole leans its way without being sure
SHORT_SENTENCE = 4  # words: a sentence that says one thing ("ghairi tafadhali", "cancel it please")
LEANS = 0.25  # the whole message's probability of a reading that one of its sentences may then make sure
_SENTENCE_END = re.compile(r"[.!?;\n]+")
_CLAUSE_END = re.compile(r"[.!?;,\n]+")
# where a message is read, when it matters: "checkout" is under an order's total or a booking's summary, before it
# is paid (the ways to pay, the confirmation, the prompt's number), where "achana nayo" drops what she was buying
ReadingContext = Literal["checkout"]
READING_CONTEXTS: tuple[ReadingContext, ...] = get_args(ReadingContext)
WEIGHTS_FILE = Path(__file__).with_name("reader.weights")
MAGIC = b"TULIA-READER-1\n"
CHAR_NGRAMS = (3, 4, 5)
MAX_CHARS = 1000  # longer messages are read up to here

# a reference written without its dash has a digit: "ordering" and "ordinary" are words
_ORDER_REF = re.compile(r"\bord(?:[\s-][a-z0-9]{5}|(?=[a-z]{0,4}\d)[a-z0-9]{5})\b", re.I)
_BOOKING_REF = re.compile(r"\bbk[\s-]?[a-z0-9]{5}\b", re.I)
_TICKET_REF = re.compile(r"\bhnd[\s-]?[a-z0-9]{5}\b", re.I)  # the ticket of a hand-over to a person
# an M-Pesa code: ten capitals and digits; typed in small letters, it still has a letter after a digit ("samsunga15"
# is no code)
_MPESA = re.compile(
    r"\b(?:(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z][A-Z0-9]*[A-Z])[A-Z0-9]{10}"
    r"|(?=[a-zA-Z0-9]*\d[a-zA-Z])(?=(?:\d*[a-zA-Z]){3})[a-zA-Z0-9]{10})\b"
)
_CODE = re.compile(r"\b[A-Z]{3,}\d{1,4}\b")
_URL = re.compile(r"https?://\S+|www\.\S+", re.I)
_DIGITS = re.compile(r"\d+")
_NOT_WORD = re.compile(r"[^\w\s?]")
_REPEATS = re.compile(r"(\w)\1{2,}")  # "hellooooo" -> "hello", "pleeease" -> "please"


_REFERENCES = (
    (_URL, " zurl "),
    (_ORDER_REF, " zref "),
    (_BOOKING_REF, " zbookref "),
    (_TICKET_REF, " zticket "),
    (_MPESA, " zmpesa "),
    (_CODE, " zcode "),
)


def without_references(text: str, *, placeholders: bool = False) -> str:
    """The message with its links, order and booking references, M-Pesa codes and other codes taken out (or
    each put as a placeholder word): their letters are no words of any language ("ORD-TOBEA" is not "to be a")."""
    for pattern, placeholder in _REFERENCES:
        text = pattern.sub(placeholder if placeholders else " ", text)
    return text


def normalize_for_reader(text: str) -> str:
    """Lower case, accents and punctuation gone ("?" kept as a word), references and codes as
    placeholders, every number as 0, letters repeated for emphasis squeezed ("pleeease")."""
    text = without_references(text[:MAX_CHARS], placeholders=True)
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = _DIGITS.sub("0", plain.replace("’", "'").replace("'", ""))
    plain = _REPEATS.sub(r"\1", plain)
    plain = _NOT_WORD.sub(" ", plain).replace("?", " ? ")
    return " ".join(plain.split())


def feature_names(text: str, context: ReadingContext | None = None) -> set[str]:
    """Words, word pairs (with the message's start and end) and character 3-5-grams of each word; read in a context
    (what the bot has just asked), also the context itself and each word and word pair in it, so that the same
    words can mean another thing there ("never mind" idly is nothing; under an order's total it drops the order)."""
    words = normalize_for_reader(text).split()
    feats = {f"w|{w}" for w in words}
    padded = ["<s>", *words, "</s>"]
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(padded)]
    feats.update(f"b|{pair}" for pair in pairs)
    for w in words:
        marked = f"<{w}>"
        for n in CHAR_NGRAMS:
            feats.update(f"c|{marked[i : i + n]}" for i in range(len(marked) - n + 1))
    if context is not None:
        feats.add(f"x|{context}")
        feats.update(f"x|{context}|w|{w}" for w in words)
        feats.update(f"x|{context}|b|{pair}" for pair in pairs)
    return feats


def feature_indexes(text: str, bits: int, context: ReadingContext | None = None) -> list[int]:
    mask = (1 << bits) - 1
    return sorted({zlib.crc32(f.encode("utf-8")) & mask for f in feature_names(text, context)})


@dataclass(frozen=True)
class Reading:
    """The reader's answer: the most likely label, its calibrated probability, and all of them."""

    label: str
    confidence: float
    probabilities: dict[str, float]


class MessageReader:
    """Weights in memory as one dense int8 table (``buckets x labels``), read with plain Python."""

    def __init__(self, header: dict[str, object], table: bytes) -> None:
        self.labels: tuple[str, ...] = tuple(header["labels"])  # type: ignore[arg-type]
        self.bits = int(header["bits"])  # type: ignore[call-overload]
        self.scale = float(header["scale"])  # type: ignore[arg-type]
        self.bias: list[float] = [float(b) for b in header["bias"]]  # type: ignore[attr-defined]
        self.temperature = float(header["temperature"])  # type: ignore[arg-type]
        self.product_weight = float(header.get("product_weight", 0.0))  # type: ignore[arg-type]
        shifts = dict(header.get("no_product_shift", {}))  # type: ignore[call-overload]
        self._no_product = [float(shifts.get(label, 0.0)) for label in self.labels]
        self.corpus_sha256 = str(header.get("corpus_sha256", ""))
        self.trained_with = dict(header.get("trained_with", {}))  # type: ignore[call-overload]  # libraries' versions
        self._table = memoryview(table).cast("b")
        self._width = len(self.labels)
        self._buying = [n for n, label in enumerate(self.labels) if label in BUYING]

    def logits(
        self, text: str, *, product_terms: int | None = None, context: ReadingContext | None = None
    ) -> list[float]:
        indexes = feature_indexes(text, self.bits, context)
        sums = [0] * self._width
        table, width = self._table, self._width
        for index in indexes:
            row = table[index * width : index * width + width]
            for c in range(width):
                sums[c] += row[c]
        norm = self.scale / math.sqrt(len(indexes)) if indexes else 0.0
        out = [b + s * norm for b, s in zip(self.bias, sums, strict=True)]
        if product_terms:  # the shop's things named: evidence of buying
            for c in self._buying:
                out[c] += self.product_weight * min(product_terms, 3)
        elif product_terms == 0:  # the shop's catalog is known and nothing of it is named
            out = [z - shift for z, shift in zip(out, self._no_product, strict=True)]
        return out

    def read(self, text: str, *, product_terms: int | None = None, context: ReadingContext | None = None) -> Reading:
        """``product_terms``: how many words name the shop's things (``None`` when no catalog is known). A catalog
        that names nothing of the message is evidence against buying, never for a person: a wish the reader reads as
        buying without the catalog is not turned into a request for a person by it ("please send me a phone with
        good call quality" at a beauty shop). ``context``: where it was said, when that is one of
        ``READING_CONTEXTS``."""
        reading = self._read(text, product_terms, context)
        if product_terms == 0 and reading.label == "human_request":
            plain = self._read(text, None, context)
            if plain.label in BUYING:
                return plain
        return reading

    def sure_of(
        self, text: str, label: str, context: ReadingContext | None = None, *, whole: Reading | None = None
    ) -> bool:
        """Whether the message says ``label`` for sure (:data:`SURE`): read whole, or, when reading it whole leans
        that way (:data:`LEANS`) without being sure, one of its sentences read alone ("the painter brings his own
        paint. cancel the order please": her reason and her request, the request sure). ``whole``: the message's
        reading, when the caller has it."""
        whole = whole or self.read(text, context=context)
        if whole.label == label and whole.confidence >= SURE:
            return True
        return bool(self.sure_sentences(text, label, context, whole=whole))

    def sure_sentences(
        self,
        text: str,
        label: str | tuple[str, ...],
        context: ReadingContext | None = None,
        *,
        whole: Reading | None = None,
    ) -> list[str]:
        """The sentences that say ``label`` when the message says it (:meth:`sure_of`): those that say it for sure
        read alone (:data:`SURE_OF_A_SENTENCE`), else the whole message when it is sure; none when it does not say
        it. Several labels are read as one, their probabilities together (at a checkout, "ghairi tafadhali" drops
        what waits, whether the reader calls it an order's or a booking's cancellation)."""
        labels = (label,) if isinstance(label, str) else label
        whole = whole or self.read(text, context=context)

        def said(reading: Reading, least: float) -> bool:
            return sum(reading.probabilities.get(one, 0.0) for one in labels) >= least

        # one reading sure of itself, or a short message whose readings say it together ("ghairi tafadhali")
        sure = whole.label in labels and (
            whole.confidence >= SURE or (len(text.split()) <= SHORT_SENTENCE and said(whole, SURE))
        )
        sentences = [part for part in _SENTENCE_END.split(text) if part.strip()]
        if len(sentences) < 2:
            return [text] if sure else []
        if not sure and not said(whole, LEANS):
            return []
        # the whole leans its way: a sentence read alone says it by the labels together ("ghairi tafadhali", "I'm so
        # sorry, please cancel." before her reason), when they are its own reading
        sure_ones = []
        for sentence in sentences:
            r = self.read(sentence, context=context)
            if r.label in labels and said(r, SURE_OF_A_SENTENCE):
                sure_ones.append(sentence)
        return sure_ones or ([text] if sure else [])

    def sure_clauses(self, text: str, labels: tuple[str, ...], context: ReadingContext | None = None) -> list[str]:
        """The clauses (parts between commas and sentence ends) that say one of ``labels`` for sure read alone
        (:data:`SURE_OF_A_SENTENCE`, the labels' probabilities together), however much the rest says her reason:
        "actually please cancel, I just remembered we fly on the 10th" at a booking's summary is a cancellation
        whether the reader calls it the booking's or an order's. Callers read it only where the labels are what a
        clause can mean (a booking's summary, a checkout whose message names none of her things)."""
        return [
            part
            for part in _CLAUSE_END.split(text)
            if part.strip()
            and sum(self.read(part, context=context).probabilities.get(label, 0.0) for label in labels)
            >= SURE_OF_A_SENTENCE
        ]

    def _read(self, text: str, product_terms: int | None, context: ReadingContext | None) -> Reading:
        logits = [z / self.temperature for z in self.logits(text, product_terms=product_terms, context=context)]
        top = max(logits)
        exp = [math.exp(z - top) for z in logits]
        total = sum(exp)
        probabilities = {label: e / total for label, e in zip(self.labels, exp, strict=True)}
        label = max(probabilities, key=probabilities.__getitem__)
        return Reading(label, round(probabilities[label], 4), probabilities)


def dump_weights(path: Path, header: dict[str, object], indexes: list[int], rows: bytes) -> None:
    """Write the sparse table (the buckets that carry a weight) after a JSON header."""
    payload = array("I", indexes).tobytes() + rows
    head = json.dumps(header, sort_keys=True).encode("utf-8")
    path.write_bytes(MAGIC + struct.pack("<I", len(head)) + head + zlib.compress(payload, 9))


def load_weights(path: Path = WEIGHTS_FILE) -> MessageReader:
    raw = path.read_bytes()
    if not raw.startswith(MAGIC):
        raise ValueError(f"{path.name} is not a Tulia reader weights file")
    (size,) = struct.unpack_from("<I", raw, len(MAGIC))
    start = len(MAGIC) + 4
    header = json.loads(raw[start : start + size])
    payload = zlib.decompress(raw[start + size :])
    width = len(header["labels"])
    count = int(header["rows"])
    indexes = array("I")
    indexes.frombytes(payload[: 4 * count])
    rows = payload[4 * count :]
    table = bytearray((1 << int(header["bits"])) * width)
    for n, index in enumerate(indexes):
        table[index * width : index * width + width] = rows[n * width : n * width + width]
    return MessageReader(header, bytes(table))


@cache
def message_reader() -> MessageReader:
    """The shipped reader, read once per process (on the first message, not at import)."""
    return load_weights()
