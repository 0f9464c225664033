"""The deterministic understanding engine: an English / Swahili / Sheng lexicon and patterns.

It is the embedded default and the fallback when a model fails. Its confidences drive the same
thresholds as a model's (spec section 4), so a clear request routes at once, a half-clear one gets
one clarifying question, and noise goes to the menu.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tulia.domain.literals import DetectedLang, GovernorClass, Intent
from tulia.nlu.frame_extract import extract_coupon, extract_order_ref, measures_in_digits
from tulia.nlu.lexicon import (
    DELIVERY_COMPLAINT,
    DELIVERY_WORDS,
    ENGLISH,
    EVERYTHING,
    FRUSTRATION,
    NUMBER_WORDS,
    PAYMENT_DISPUTE,
    PICKUP_WORDS,
    REFUND,
    SCALES_AFTER,
    SCALES_BEFORE,
    SENSITIVE,
    SHENG,
    SHENG_GREETINGS,
    SWAHILI,
    SWAHILI_GREETINGS,
    any_phrase,
    normalize,
)
from tulia.nlu.reader import MessageReader, Reading, load_weights, message_reader, without_references
from tulia.nlu.types import JOURNEY_OF, CatalogWords, Signals, Slots, Understanding
from tulia.search.text import CONNECTORS, MEASURES, SHOP_NOUNS, STOPWORDS, stem

if TYPE_CHECKING:
    from tulia.llm.client import LlmResult
    from tulia.llm.prompts import PromptContext
    from tulia.llm.schemas import NarrowOut

MAX_TEXT = 1000  # longer messages are read up to here

# a thing the customer has is no wish to buy it: the word after "my" ("where can I park my car?" at a shop
# that sells car chargers) or before a Swahili possessive ("simu yangu imeharibika")
_POSSESSED = re.compile(
    r"\b(?:my|our)\s+\w+|\b\w+\s+(?:yangu|wangu|langu|changu|zangu|vyangu|yetu|wetu|letu|chetu|zetu|vyetu)\b|"
    r"\b(?:i have|i ve got|we have|niko na|tuko na|nina)\s+(?:a\s+|an\s+)?\w+"  # "niko na shamba": I have a farm
)
_PHONE = re.compile(r"(?<!\d)(\+?254[\s-]?|0)?([17]\d{2})[\s-]?(\d{3})[\s-]?(\d{3})(?!\d)")
_AMOUNT = r"(?:ksh\.?|kes|kshs|sh\.?)?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|thao|thousand|elfu|ngiri|bob)?"
_BUDGET_MAX = re.compile(
    r"(?:under|below|less than|max(?:imum)?|not more than|up ?to|budget(?: of| ni| is)?|chini ya|isizidi|"
    r"si zaidi ya|around|about|karibu)\s*" + _AMOUNT,
    re.I,
)
_BUDGET_MIN = re.compile(r"(?:above|over|more than|at least|zaidi ya|juu ya)\s*" + _AMOUNT, re.I)
_BETWEEN = re.compile(r"(?:between|kati ya)\s*" + _AMOUNT + r"\s*(?:and|na|-|to)\s*" + _AMOUNT, re.I)
_BARE_K = re.compile(r"(?<![\w-])(\d{1,3}(?:\.\d)?)\s*(k|thao|ngiri)(?!\w)", re.I)
_QUANTITY = re.compile(
    r"(?<![\w-])(\d{1,3})\s*(?:pcs|pieces|piece|units|vipande|kipande|x)(?!\w)|(?<!\w)x\s*(\d{1,3})(?!\w)", re.I
)
_CODE_TOKEN = re.compile(r"\b([A-Z][A-Z0-9_-]{3,31}\d[A-Z0-9]*|[A-Z]{2,}\d{2,}[A-Z0-9]*)\b")
_SPAMMY = re.compile(
    r"https?://|www\.|click here|earn money|make money|bitcoin|crypto|forex|investment opportunity|"
    r"you have won|umeshinda|loan offer|mkopo wa haraka|whatsapp me on|join my group",
    re.I,
)
_GIBBERISH = re.compile(r"[bcdfghjklmnpqrstvwxz]{6,}|(.)\1{5,}|^[\W_]+$", re.I)
# canonical search terms (tulia.search.text) that make a message a support question about the shop's policies
SUPPORT_TERMS = frozenset({"return", "warranty", "faulty", "hours", "fee"})
# canonical terms that are about the shop's service, never a product ("where" -> location, "when" -> time)
NOT_PRODUCT_TERMS = SUPPORT_TERMS | {"location", "time", "payment", "delivery", "booking", "cheap", "order"}
# numbers in words are not what a message is about ("kokoto tani tatu")
NUMBER_TERMS = frozenset(NUMBER_WORDS) | SCALES_AFTER.keys() | SCALES_BEFORE.keys()
# verbs and little words that never name a thing ("did it go through?" is not about the JBL Go)
FUNCTION_WORDS = frozenset(
    "did done go goes going gone through come comes came will would should shall has had was were be been being "
    "get gets got make made take took still yet already just also very really".split()
)
_MULTIPLIERS = {"k": 1000, "thao": 1000, "thousand": 1000, "elfu": 1000, "ngiri": 1000, "bob": 1}


# an order reference in a message, taken out of what is searched (extract_order_ref reads it)
_REFERENCE_BODY = r"(?:[\s-]?[2-9a-hjkmnp-tv-z]{5}|-[0-9a-z]{5})\b"  # what follows the prefix (one mistyped: dashed)
_ORDER_REF = re.compile(r"\bord" + _REFERENCE_BODY, re.I)
# the shop's references (orders, bookings, hand-overs): drawn at random, so no amount, count or phone is read in them
# ("ORD-AMAX7" is no budget of 7)
_REFERENCE = re.compile(r"\b(?:ord|bk|hnd)" + _REFERENCE_BODY, re.I)


def _amount(number: str, unit: str | None) -> int | None:
    try:
        value = float(number.replace(",", ""))
    except ValueError:
        return None
    value *= _MULTIPLIERS.get((unit or "").lower(), 1)
    return int(value) if 0 < value < 100_000_000 else None


# a bare number this small after "about" or "over" is a size, a count or an age ("its about 6 by 9"), not shillings
LEAST_BARE_PRICE = 20


def _price_said(m: re.Match[str]) -> int | None:
    """The amount of a budget phrase; None for a small number said without money words."""
    amount = _amount(m.group(1), m.group(2))
    money_said = m.group(2) or re.search(r"ksh|kes|sh\b|bob|\bpesa|budget", m.group(0), re.I)
    return amount if amount is not None and (money_said or amount >= LEAST_BARE_PRICE) else None


def _names_a_product(text: str, catalog: CatalogWords) -> bool:
    """Whether the message's bare "4k" is a word of the shop's catalog rather than a budget."""
    if _BUDGET_MAX.search(text) or _BETWEEN.search(text):
        return False
    m = _BARE_K.search(text)
    return m is not None and (m.group(1) + m.group(2)).lower() in catalog.product_terms


def extract_slots(text: str) -> Slots:
    ref = extract_order_ref(text)
    text = _REFERENCE.sub(" ", text)
    plain = normalize(text)
    budget_min = budget_max = None
    if m := _BETWEEN.search(text):
        budget_min, budget_max = _amount(m.group(1), m.group(2)), _amount(m.group(3), m.group(4))
    else:
        if m := _BUDGET_MIN.search(text):
            budget_min = _price_said(m)
        if m := _BUDGET_MAX.search(text):
            budget_max = _price_said(m)
        elif budget_min is None and (m := _BARE_K.search(text)):
            budget_max = _amount(m.group(1), m.group(2))  # "phone ya 10k": a price people have in mind
    quantity = None
    if m := _QUANTITY.search(text):
        quantity = int(m.group(1) or m.group(2))
    code, _spans = extract_coupon(text)  # the order frame's reading of "coupon code: X" (never "CODE")
    if code is None and (m := _CODE_TOKEN.search(text)):
        code = m.group(1)
    phone = None
    if m := _PHONE.search(text):
        phone = "0" + m.group(2) + m.group(3) + m.group(4)
    wants_delivery = True if any_phrase(plain, DELIVERY_WORDS) else (False if any_phrase(plain, PICKUP_WORDS) else None)
    return Slots(
        query=product_query(text) or None,
        budget_max=budget_max,
        budget_min=budget_min,
        quantity=quantity if quantity and 0 < quantity <= 1000 else None,
        order_ref=ref,
        coupon_code=code,
        phone=phone,
        wants_delivery=wants_delivery,
        place=text.strip()[:200] if wants_delivery else None,
        asked_for_everything=any_phrase(plain, EVERYTHING),
    )


_NOISE = re.compile(
    r"(?:under|below|less than|max(?:imum)?|up ?to|budget(?: of| ni| is)?|chini ya|isizidi|between|kati ya|above|"
    r"over|around|about)?\s*"
    + _AMOUNT.replace("(\\d[\\d,]*(?:\\.\\d+)?)", "\\d[\\d,]*(?:\\.\\d+)?").replace(
        "(k|thao|thousand|elfu|ngiri|bob)?", "(?:k|thao|thousand|elfu|ngiri|bob)?"
    )
    + r"(?!\w)",
    re.I,
)
_FILLER = frozenset(
    {
        "bei",
        "price",
        "cost",
        "how",
        "much",
        "ngapi",
        "gani",
        "shillings",
        "ksh",
        "kes",
        "pesa",
        "budget",
        "with",
        "for",
        "my",
        "delivery",
        "deliver",
        "pickup",
        "pick",
        "up",
        "please",
        "pls",
        "tafadhali",
        "naomba",
        "nionyeshe",
        "show",
        "me",
        "some",
        "any",
        "good",
        "nzuri",
        "new",
        "mpya",
        "nipe",
        "una",
        "mko",
        "na",
        "niletee",
        "leta",
        "boss",
        "bro",
        "msee",
        "niaje",
        "sasa",
        "mambo",
        "hi",
        "hello",
        "hey",
        "habari",
        "vipi",
        "in",
        "stock",
        "available",
        "iko",
        "ziko",
        "between",
        "kati",
        "and",
        "to",
        "something",
        "kununua",
        "nunua",
        "vitu",
        "buy",
        "want",
        "need",
        "anything",
        "kitu",
        "thing",
        "stuff",
    }
)


_DELIVERY_TAIL = re.compile(r"\b(?:deliver(?:ed|y)?|send it|bring it|leta|niletee|tuma|pick ?up|collect)\b.*$", re.I)


def product_query(text: str) -> str:
    """The words that describe what the customer wants, without fillers, amounts, quantities,
    references or where it should go."""
    cleaned = _DELIVERY_TAIL.sub(" ", measures_in_digits(text.lower()))  # "kilo tatu" is the measure "3 kilo"
    cleaned = _QUANTITY.sub(" ", cleaned)
    cleaned = _ORDER_REF.sub(" ", cleaned)
    cleaned = _PHONE.sub(" ", cleaned)
    cleaned = re.sub(
        r"(?<!\w)\d{1,6}(?:[.,]\d+)?\s*(?:k|thao|thousand|elfu|ngiri|bob|ksh|kes|shillings)(?!\w)",
        " ",
        cleaned,
        flags=re.I,
    )
    cleaned = re.sub(r"(?:ksh\.?|kes|kshs)\s*\d[\d,]*", " ", cleaned, flags=re.I)
    words = re.findall(r"[\w+.-]+", cleaned.lower())
    wanted = [w not in STOPWORDS and w not in _FILLER and w not in ("chini", "under", "below") for w in words]
    # a connector between two kept words stays: "kava ya simu" is a case, "simu ya kava" is not
    kept = [
        w
        for n, w in enumerate(words)
        if wanted[n] or (w in CONNECTORS and 0 < n < len(words) - 1 and wanted[n - 1] and wanted[n + 1])
    ]
    return " ".join(kept)[:120]


_WORD_IN_TOKEN = re.compile(r"\d*([a-z]+)\d*")


LANGUAGE_WEIGHTS = Path(__file__).with_name("language.weights")  # scripts/train_language.py
LEARNED_SURE = 0.6  # the language head's reading is taken from this probability up
MIN_WORDS_FOR_THE_HEAD = 3  # words of three letters or more: fewer say no language
MIXED_SURE = 0.8  # a message the lists call mixed is the head's Swahili or Sheng from this probability up
HEAD_AGREES = 0.9  # the head this sure of the lists' own reading makes it a sure one ...
AGREED = 0.8  # ... this sure ("nataka oraimo power bank moja": two Swahili words of five, and the head's Swahili)
HEAD_OVERRULES = 0.8  # the head this sure of English against the lists' weak Swahili (or the other way) reads it


@cache
def language_head() -> MessageReader:
    """The language head: English, Swahili or Sheng from the reader's features, learned from the corpus's language
    labels (read once per process, when a message's words are in none of the word lists)."""
    return load_weights(LANGUAGE_WEIGHTS)


SHENG_SHARE = 0.6  # of the head's "not English", the share of Sheng that makes a message Sheng rather than Swahili


def detect_language(text: str) -> tuple[DetectedLang, float]:
    """The message's language from the word lists; when they know none of its words, from the language head."""
    said = word_list_language(text)
    plain = normalize(without_references(text))
    words = len([w for w in plain.split() if w.isalpha() and len(w) >= 3])
    if said is not None and said[0] != "mixed":
        if said[1] < AGREED and words >= MIN_WORDS_FOR_THE_HEAD:  # weak evidence of the lists: the head's agreement
            learned = language_head().read(text)
            if learned.label == said[0] and learned.confidence >= HEAD_AGREES:
                return said[0], AGREED
            # English or not is what the head is asked: Swahili and Sheng are kin, and their sum says "not English"
            english = learned.probabilities.get("en", 0.0)
            sheng = learned.probabilities.get("sheng", 0.0) / max(1e-9, 1.0 - english)
            other = "sheng" if sheng >= SHENG_SHARE else "sw"  # Swahili, unless the head reads Sheng clearly
            side, sure = ("en", english) if said[0] != "en" else (other, 1.0 - english)
            if sure >= HEAD_OVERRULES:
                # "nikikosa kuja deposit inarudishwa?": one English word the lists know among Swahili ones they do not;
                # the head is sure and the lists are not: its reading is acted on from the first message
                return side, round(min(sure, 0.9), 3)  # type: ignore[return-value]
        return said
    # "mzigo umesonga aje": words of no list; "nataka oraimo power bank moja": Swahili with English names, which the
    # lists call mixed and a Kenyan reads as Swahili; "128GB", "ok", a name alone say no language
    if words >= MIN_WORDS_FOR_THE_HEAD:
        learned = language_head().read(text)
        sure = MIXED_SURE if said is not None else LEARNED_SURE
        if learned.confidence >= sure and (said is None or learned.label != "en"):
            return learned.label, round(min(learned.confidence, 0.9) * 0.8, 3)  # type: ignore[return-value]
    return said or ("en", 0.3)


def word_list_language(text: str) -> tuple[DetectedLang, float] | None:
    """The language the word lists read (None: they know no word of the message)."""
    plain = normalize(without_references(text)).strip(" ?!.")
    if plain in SWAHILI_GREETINGS:  # "Habari" is answered in Swahili
        return "sw", 0.9
    if plain in SHENG_GREETINGS:
        return "sheng", 0.9
    # a number before or after letters is a measure or a count ("2kg", "x3"); letters between digits are a code
    # of some kind ("DVG7A", "Q7A2"), no words
    words = [word.group(1) for token in re.findall(r"[a-z0-9]+", plain) if (word := _WORD_IN_TOKEN.fullmatch(token))]
    sw = sum(w in SWAHILI for w in words)
    sheng_only = sum(w in SHENG and w not in SWAHILI and w not in ENGLISH for w in words)
    en: float = sum(w in ENGLISH for w in words)
    # the English words of the general shop lexicon that end in a consonant ("plates", "spoons", "meal": no
    # Swahili word does) are weak evidence of English; "chapati", "rice" are said in both
    en += 0.5 * sum(
        w[-1] not in "aeiou" and w not in ENGLISH and w not in SWAHILI and w not in SHENG and stem(w) in SHOP_NOUNS
        for w in words
    )
    known = sw + sheng_only + en
    if known == 0:
        return None
    certainty = min(1.0, 0.5 + known / 6)
    if sheng_only and (sw + sheng_only) >= en:
        return "sheng", round(certainty * (sw + sheng_only) / known, 3)
    if sw and en and min(sw, en) / known >= 0.34:
        return "mixed", round(certainty * 0.8, 3)
    if sw > en:
        return "sw", round(certainty * sw / known, 3)
    return "en", round(certainty * en / known, 3)


# letters then digits, as offer codes and model codes are written ("WELCOME10", "PAC20"; never "20000mAh", a measure)
_CODE_SHAPED = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z-]*\d[A-Za-z0-9-]*(?![\w-])")


def models_named(text: str, catalog: CatalogWords) -> str:
    """The message for the reader with a model's code of the shop's catalog said as the word "model" ("I want a Romoss
    PAC20": the reader has learned letters and digits as an offer's code; the catalog proves this one a thing it
    sells)."""

    def masked(m: re.Match[str]) -> str:
        said = catalog.terms(m.group(0))
        return "model" if said and said[0] in catalog.product_terms else m.group(0)

    return _CODE_SHAPED.sub(masked, text)


def read_at_shop(text: str, plain: str, catalog: CatalogWords | None) -> Reading:
    """The message reader's reading of a message at a shop: a model's code of its catalog read as the thing it is
    (:func:`models_named`), the words that name its things as evidence of buying (:func:`catalog_evidence`)."""
    read = models_named(text, catalog) if catalog is not None else text
    return message_reader().read(read, product_terms=catalog_evidence(plain, catalog))


def catalog_evidence(plain: str, catalog: CatalogWords | None) -> int | None:
    """How many words of the message name things the shop sells (its catalog's names, kinds and
    vocabulary): evidence of buying for the reader; ``None`` without a catalog. Numbers, measures, words
    about the shop's service and things the customer has ("my car") never count, and one catalog word among
    many others is no evidence
    ("purple elephants dance quietly" at a shop that sells a purple phone case); two are."""
    if catalog is None:
        return None
    # a thing the customer has is no evidence, unless the shop's services are done to it ("do my makeup",
    # "wash my car" at a car wash)
    unref = _POSSESSED.sub(
        lambda m: m.group(0) if set(catalog.terms(m.group(0))) & catalog.service_terms else " ",
        _ORDER_REF.sub(" ", plain),  # "ORD-WD6W5" is not a WD drive
    )
    content = [
        t
        for t in catalog.terms(unref)
        if t not in NOT_PRODUCT_TERMS
        and not t[:1].isdigit()
        and t not in MEASURES
        and t not in NUMBER_TERMS
        and t not in FUNCTION_WORDS
    ]
    # a word in another number or noun class than the shop writes it ("madumu" of "dumu") names it too
    product_terms = [t for t in content if len(t) > 1 and catalog.own_word(t) in catalog.product_terms]
    names_a_kind = any(t in catalog.kinds for t in product_terms)
    # two of its words are evidence among any others ("birthday ... kupiga picha" at a photo studio)
    if content and len(set(product_terms)) < 2 and len(product_terms) / len(content) < 0.3 and not names_a_kind:
        return 0
    return len(product_terms)


def _plain(text: str) -> str:
    return re.sub(r"([a-z])\1{2,}", r"\1", normalize(text))  # "hellooooo" -> "hello"


# "ile ya zamani haikufika hata mwaka": the old one did not last a year (how long a thing lasted), no delivery late
_DID_NOT_LAST = re.compile(r"\b(?:haikufika|hazikufika)\s+hata\s+(?:mwaka|miaka|mwezi|miezi)\b")


class RulesEngine:
    """Deterministic intent, language and governor classification."""

    name = "rules"

    def understand(
        self,
        text: str,
        *,
        catalog: CatalogWords | None = None,
        context: PromptContext | None = None,
    ) -> Understanding:
        text = text[:MAX_TEXT]
        plain = _plain(text)
        slots = extract_slots(text)
        if catalog is not None and slots.budget_max and _names_a_product(text, catalog):
            slots = replace(slots, budget_max=None)  # "a 55 inch 4k tv": the shop sells "4K" things, not "4,000"
        signals = Signals(
            payment_dispute=any_phrase(plain, PAYMENT_DISPUTE),
            refund_request=any_phrase(plain, REFUND),
            delivery_complaint=any_phrase(_DID_NOT_LAST.sub(" ", plain), DELIVERY_COMPLAINT),
            frustrated=any_phrase(plain, FRUSTRATION),
            sensitive=any_phrase(plain, SENSITIVE),
        )
        language, language_confidence = detect_language(text)
        intent, confidence, notes = self._intent(text, plain, slots, catalog)
        governor, governor_confidence = self._governor(text, plain, intent)
        if governor == "spam" or (governor == "casual" and intent != "spam_casual"):
            intent, confidence = "spam_casual", governor_confidence
        return Understanding(
            intent=intent,
            intent_confidence=confidence,
            journey=JOURNEY_OF[intent],
            language=language,
            language_confidence=language_confidence,
            governor=governor,
            governor_confidence=governor_confidence,
            slots=slots,
            signals=signals,
            notes=notes,
        )

    def narrow(self, text: str, *, context: PromptContext) -> LlmResult[NarrowOut] | None:
        return None  # the journey uses the extracted slots

    def write(self, node: str, *, context: PromptContext, values: dict[str, Any]) -> LlmResult[Any] | None:
        return None  # templates only

    def describe_photo(
        self, data: bytes, mime_type: str, *, caption: str, context: PromptContext
    ) -> LlmResult[Any] | None:
        return None  # no model sees pictures: the caption is the search

    @staticmethod
    def _intent(text: str, plain: str, slots: Slots, catalog: CatalogWords | None) -> tuple[Intent, float, str]:
        """The reader's intent; the shop's own words are evidence of buying. A change of a booking
        already made is part of the sale (the graph's fast path routes it before any engine)."""
        if not plain and not slots.query:  # only emoji or punctuation: a reaction, not a request
            return "spam_casual", 0.85, "emoji only"
        reading = read_at_shop(text, plain, catalog)
        notes = f"reader: {reading.label} {reading.confidence:.2f}"
        if reading.label.startswith("booking_"):
            return "sales_discovery", reading.confidence, notes
        if reading.label == "order_cancel":  # about an order she made (the graph's fast path cancels it)
            return "order_status", reading.confidence, notes
        return reading.label, reading.confidence, notes  # type: ignore[return-value]

    @staticmethod
    def _governor(text: str, plain: str, intent: Intent) -> tuple[GovernorClass, float]:
        # consonant runs are looked for inside words: "Full HD Smart TV" joined would look like noise; a code or a
        # link is no noise ("check qkt4m8xq2p please": an M-Pesa code typed in small letters)
        plain = _plain(without_references(text)) or plain
        # a dash or a plus between words is a separator ("plates - 6"), never noise; a message of nothing else is
        # read as it is
        words = [w for w in plain.split() if w.strip("-+#")] or plain.split()
        if _SPAMMY.search(text) or any(_GIBBERISH.search(word) for word in words):
            return "spam", 0.9
        if intent == "spam_casual":
            return "casual", 0.85
        return "business", 0.9 if intent != "unknown" else 0.6
