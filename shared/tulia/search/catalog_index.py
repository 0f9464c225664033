"""An in-memory catalog search index, one per tenant and catalog version.

Scoring is BM25 over weighted fields, then shaped by what the request is about:
- the *kind* of thing asked for: a query word that is a category's head word ("case" in "Phone
  Cases & Covers", "phone" in "Smartphones") names the kind; in "iphone charger" and "phone case"
  the last such word does, in "kava ya simu" and "case for iphone" the first. Items of that kind
  rank above accessories that merely mention it ("iphone 15" accessories below the phone).
- how much of an item's own name was said: "iphone 15" names the phone "Apple iPhone 15" whole
  and "iPhone 15 Silicone Case" only in part.
- negation: "sio earphones", "not a case", "without a charger" exclude that kind (or brand).
Query words the catalog does not contain are expanded to catalog words by prefix ("sams" ->
"samsung") and by edit distance ("samsnug" -> "samsung"), at a discount.

The index only *finds candidates*: prices and stock shown to a customer are re-read from DynamoDB.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from rapidfuzz import fuzz, process

from tulia.domain.catalog import CatalogItem
from tulia.search.measures import is_own_measure, measure_kind, packs_of
from tulia.search.text import (
    CONNECTORS,
    GENERIC_TERMS,
    MEASURES,
    STOPWORDS,
    Folding,
    fold,
    raw_tokens,
    stem,
    verb_key,
    verbs_said,
    without_brackets,
)

FIELD_WEIGHTS = {
    "name": 3.0,
    "brand": 2.0,
    "category_head": 3.0,
    "category": 0.4,
    "tags": 1.5,
    "variants": 1.0,
    "description": 0.5,
}
EXACT, PREFIX, FUZZY = 1.0, 0.8, 0.7
K1, B = 1.2, 0.5
KIND_NAMED = 1.25  # the kind asked for is in the item's own name ("eggs": "Kienyeji Eggs Tray", not "Fresh Milk")
OPTION_NAMED = 1.5  # a word said is one of the item's own options ("kinyozi fade": the cut that comes in Fade)
UNSAID_KIND = 0.6  # no kind asked: the factor of an item whose name adds a kind ("... Silicone Case")
OPTION_WORDS = ("colour", "color", "size", "rangi", "saizi", "namba", "number")  # words for an option's kind
MEASURE_SHARE = 0.5  # a measure said counts as half a word in a match's coverage ("tomatoes 2kg")
_MEASURE_SAID = re.compile(r"(\d+(?:\.\d+)?)([a-z]+)")
CHEAP = "cheap"  # the generic term of "cheap", "affordable", "rahisi", "cheapest"
NEGATIONS = frozenset({"not", "sio", "siyo", "bila", "without", "except", "isipokuwa", "minus"})


_CATEGORY_PARTS = re.compile(r"\s*(?:&|,|/|\band\b|\bna\b)\s*", re.I)


@dataclass(frozen=True)
class Filters:
    type: str | None = None  # product | service | any
    category: str | None = None
    min_price: float | None = None
    max_price: float | None = None
    tags: tuple[str, ...] = ()
    in_stock_only: bool = False


@dataclass
class Hit:
    item_id: str
    score: float
    coverage: float  # share of the query's terms this item matched, weighted by match quality


@dataclass
class SearchResult:
    hits: list[Hit]
    total_matches: int
    confidence: float
    expansions: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class _Doc:
    item_id: str
    type: str
    category_folded: str
    price: int
    in_stock: bool
    tags: frozenset[str]
    length: float
    name: str
    kinds: frozenset[str]  # the head words of its category's parts ("Chargers & Cables": charger, cable), and
    # of its name when the name ends with a kind word ("Roofing Nails 1kg" in "Roofing" is also a nail)
    name_tail: str | None  # the name's last word before measures
    own_name: frozenset[str]  # its name's terms without the brand's
    brand: frozenset[str]
    mentions: frozenset[str]  # its brand's and its name's terms: "Samsung Galaxy A15 Case" mentions samsung
    named: frozenset[str] = frozenset()  # every term that names it: name, brand, category, tags, options


_NAME_JOINS = frozenset({"and", "na", "&", "+"})
# the numbers a name may say in words ("Two-burner Gas Cooker")
_NAME_NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "moja": "1", "mbili": "2", "tatu": "3", "nne": "4", "tano": "5", "sita": "6",
}  # fmt: skip
NUMBERS = frozenset(
    "one two three four five six seven eight nine ten dozen moja mbili tatu nne tano sita saba nane tisa kumi "
    "ishirini thelathini arobaini hamsini dazeni".split()
)


def participle_verb(word: str) -> str:
    """An option that is a participle, as its verb ("fried": fry, "cleaned": clean); any other word as it is."""
    return verb_key(word) if len(word) > 4 and word.endswith("ed") else word


# Swahili noun classes mark number at the front: ki-/vi- (kitabu, vitabu), ch-/vy- (chakula, vyakula), m-/mi-
# (mkate, mikate), m-/wa- (mtoto, watoto), ji-/ma- and ∅/ma- (gunia, magunia)
_NOUN_CLASS_NUMBERS = (
    ("vi", "ki"), ("ki", "vi"), ("vy", "ch"), ("ch", "vy"), ("mi", "m"), ("wa", "m"), ("ma", ""), ("m", "mi"),
)  # fmt: skip


ACTION_SHARE = 0.5  # a Swahili verb form said beside the thing counts half: the thing is what is asked for


class CatalogIndex:
    def __init__(self, items: Iterable[CatalogItem], vocabulary: Mapping[str, Iterable[str]] | None = None) -> None:
        # the shop's words: the generic words of shopping plus its own trade's vocabulary; a word of the general
        # lexicon with several meanings takes the one its catalog's own words use
        items = list(items)
        self.folding = Folding(
            vocabulary,
            shop_text=[
                text
                for item in items
                if item.active
                for text in (item.name, item.category, item.description, *item.tags)
            ],
            shop_names=[item.name for item in items if item.active],
        )
        self.docs: list[_Doc] = []
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        # words that name things the shop sells (not description words): for recognising a shopping request
        self.product_terms: set[str] = set()
        self.kinds: set[str] = set()  # every category head word: the kinds of thing the shop sells
        self.service_terms: set[str] = set()  # the words of its services' names ("makeup", "braids", "wash")
        self.brands: set[str] = set()
        # words joined inside one of its names ("Twin and Earth Cable"): a list is never cut there
        self.conjoined: set[tuple[str, str]] = set()
        self.option_values: dict[str, frozenset[str]] = {}  # each item's options, folded ("34", "brown")
        # the names and options with a number in them, by the number ("30": "Mabati ... Gauge 30 (3m)", "Brown 30")
        self.numbered: dict[str, set[str]] = defaultdict(set)
        self.numbered_items: dict[str, set[str]] = defaultdict(set)  # the items of those names
        self.option_terms: set[str] = set(OPTION_WORDS)  # the terms of every option and of its kind ("colour")
        self.books = False  # the shop sells time: some active service has a duration (booked, not sold)
        # the shop's own names as written, by kind (item, service, option, staff): the token tagger's gazetteer
        self.shop_words: dict[str, set[str]] = {"item": set(), "service": set(), "option": set(), "staff": set()}
        for item in items:
            if item.active:
                self._add(item)
                self.books = self.books or item.bookable
        # and the words its customers use for its things ("sukari" for sugar): the vocabulary of what it sells
        for term, words in (vocabulary or {}).items():
            if set(self.folding.terms(term)) & self.product_terms:
                self.shop_words["item"].update([term, *words])
        for doc in self.docs:  # a name that ends with a kind word is of that kind too
            if doc.name_tail in self.kinds:
                doc.kinds = doc.kinds | {doc.name_tail}
            # and so is a name the shop gives it in a tag ("dish soap" of "Dishwashing Liquid": a soap)
            tag_tails = {terms[-1] for tag in doc.tags if len(terms := self.terms(tag)) > 1}
            doc.kinds = doc.kinds | (tag_tails & self.kinds)
            doc.own_name = doc.own_name - self.brands  # "Samsung ... Case" by Generic still only names a Samsung
        self.avg_len = (sum(d.length for d in self.docs) / len(self.docs)) if self.docs else 1.0
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()}
        # precompute each posting's BM25 weight (idf x saturated tf), so a query only multiplies and adds
        norm = [K1 * (1 - B + B * d.length / self.avg_len) for d in self.docs]
        for term, plist in self.postings.items():
            idf = self.idf[term]
            self.postings[term] = [(doc_no, idf * tf * (K1 + 1) / (tf + norm[doc_no])) for doc_no, tf in plist]
        self.vocabulary = sorted(self.postings)
        self._long_vocab = [t for t in self.vocabulary if len(t) >= 4 and not t.isdigit()]
        self.categories = sorted({d.category_folded for d in self.docs})

    def __len__(self) -> int:
        return len(self.docs)

    def terms(self, text: str) -> list[str]:
        """``text``'s search terms in this shop's words."""
        return self.folding.terms(text)

    def names_products(self, text: str) -> bool:
        """Whether ``text`` names something the shop sells ("the samsung one"), not another topic."""
        return any(term in self.product_terms for term in self.folding.terms(text))

    def _add(self, item: CatalogItem) -> None:
        names = self.shop_words
        kind = "service" if item.type == "service" else "item"
        names[kind].update({item.name, without_brackets(item.name), *item.tags, *([item.brand] if item.brand else [])})
        names["option"].update(o.value for d in item.variants for o in d.options)
        names["staff"].update(item.staff)
        weights: dict[str, float] = defaultdict(float)
        cat_terms = self.folding.terms(item.category)
        category_kinds = frozenset(
            part_terms[-1] for part in _CATEGORY_PARTS.split(item.category) if (part_terms := self.folding.terms(part))
        )
        brand_terms = frozenset(self.folding.terms(item.brand or ""))
        name_terms = frozenset(t for t in self.folding.terms(item.name) if t not in brand_terms)
        # the kind word ends the name before what it says in brackets ("Smoked Fish (each)": fish)
        tail = [
            t
            for t in self.folding.tokens(without_brackets(item.name))
            if not any(c.isdigit() for c in t) and t not in MEASURES
        ]
        fields: list[tuple[str, list[str]]] = [
            ("name", self.folding.terms(item.name)),
            ("brand", self.folding.terms(item.brand or "")),
            ("category_head", sorted(category_kinds)),
            ("category", [t for t in cat_terms if t not in category_kinds]),
            ("tags", [t for tag in item.tags for t in self.folding.terms(tag)]),
            # an option also under its verb ("Fried": fry), so "wakaangwe" and "to fry" find it
            (
                "variants",
                [
                    k
                    for d in item.variants
                    for o in d.options
                    for t in self.folding.terms(o.value)
                    for k in {t, participle_verb(t)}
                ],
            ),
            ("description", self.folding.terms(item.description)),
        ]
        for name, toks in fields:
            for tok in toks:
                weights[tok] += FIELD_WEIGHTS[name]
            if name != "description":
                self.product_terms.update(t for t in toks if not t.isdigit())
        for dimension in item.variants:
            self.option_terms.update(self.terms(" ".join([dimension.name, *(o.value for o in dimension.options)])))
        # an option with its dimension's name ("size 36"): the number said after that name is the option
        for named in (item.name, *(f"{d.name} {o.value}" for d in item.variants for o in d.options)):
            numbers = re.findall(r"(?<![a-z0-9.])\d+(?![a-z0-9]|\.\d)", fold(named))  # not of "1.8L"
            numbers += [_NAME_NUMBER_WORDS[w] for w in re.findall(r"[a-z]+", fold(named)) if w in _NAME_NUMBER_WORDS]
            for number in numbers:  # "Two-burner Gas Cooker" is numbered 2
                self.numbered[number].add(named)
                self.numbered_items[number].add(item.item_id)
        self.option_values[item.item_id] = frozenset(
            key
            for d in item.variants
            for o in d.options
            for word in {fold(o.value), *raw_tokens(o.value)} - _decimal_parts(o.value)
            for key in (word, participle_verb(word))
        )
        words = re.findall(r"[\w'-]+|[&+]", fold(item.name))
        for before, join, after in zip(words, words[1:], words[2:], strict=False):
            if join in _NAME_JOINS:
                self.conjoined.add((re.sub(r"[^\w\s#+-]", " ", before).strip(), after.strip("'-")))
        doc_no = len(self.docs)
        self.docs.append(
            _Doc(
                item_id=item.item_id,
                type=item.type,
                category_folded=fold(item.category),
                price=item.price,
                in_stock=item.in_stock,
                tags=frozenset(fold(t) for t in item.tags),
                length=sum(weights.values()) or 1.0,
                name=item.name,
                kinds=category_kinds,
                name_tail=tail[-1] if tail else None,
                own_name=name_terms,
                brand=brand_terms,
                mentions=name_terms | brand_terms,
                named=frozenset(t for field_name, toks in fields if field_name != "description" for t in toks)
                | {stem(t) for t in raw_tokens(item.name)},  # "bar" of "Steel Bar", which the shop folds to "steel"
            )
        )
        self.kinds.update(category_kinds)
        self.brands.update(brand_terms)
        if item.type == "service":
            self.service_terms.update(t for t in name_terms if not t.isdigit())
        for tok, w in weights.items():
            self.postings[tok].append((doc_no, w))

    # query side
    def expand(self, term: str) -> list[tuple[str, float]]:
        """Catalog terms that a query term stands for, with a quality factor."""
        if term in self.postings:
            return [(term, EXACT)]
        if len(term) < 3:
            return []
        if (own := self._other_form(term)) is not None:
            return [(own, EXACT)]
        prefixed = [t for t in self.vocabulary if t.startswith(term) and len(term) >= 3][:3]
        if prefixed:
            return [(t, PREFIX) for t in prefixed]
        if len(term) < 4 or term.isdigit():
            return []
        cutoff = 85 if len(term) <= 5 else 80 if len(term) == 6 else 75  # "stima" is not "simba"
        matches = process.extract(term, self._long_vocab, scorer=fuzz.ratio, score_cutoff=cutoff, limit=2)
        return [(m, FUZZY * (score / 100)) for m, score, _ in matches]

    def _other_form(self, term: str) -> str | None:
        """The shop's own word for ``term`` said in another form: a plural the light stemmer leaves ("chapatis"),
        an English loanword said the Swahili way ("folda", "printa"), a Swahili noun in the other number of its
        class ("vinywaji" of "kinywaji", "magunia" of "gunia", "mkate" of "mikate"); None when it has none."""
        if len(term) < 3:
            return None
        others = [term[:-1] if term.endswith("s") else "", f"{term[:-1]}er" if term.endswith("a") else ""]
        others += [f"{b}{term[len(a) :]}" for a, b in _NOUN_CLASS_NUMBERS if term.startswith(a) and len(term) > 4]
        return next((own for own in others if own in self.postings), None)

    def own_word(self, term: str) -> str:
        """The shop's own form of a word (:meth:`_other_form`), else the word as said."""
        return term if term in self.postings else self._other_form(term) or term

    def only_options(self, text: str) -> bool:
        """Whether ``text`` names nothing but options of the shop's items and words for them ("charcoal
        grey colour", "size 42", "saizi L")."""
        said = [t for t in self.terms(text) if t not in CONNECTORS]
        return bool(said) and all(t in self.option_terms for t in said)

    def names_by_its_own_name(self, text: str) -> bool:
        """Whether ``text`` says one item's own name, most of its words and nothing else the shop knows ("the
        samaritan" of "The Samaritan (John Lara)"), even where they are also another item's options (the study
        guide's titles); "black" is no "Black Phone Case"."""
        said = self._name_words(text)
        return bool(said) and any(said <= own and 2 * len(said) > len(own) for own in self._names_without_brackets)

    def an_option_of_the_one_named(self, text: str, before: str) -> bool:
        """Whether ``text`` names options of an item ``before`` names by its own name ("red velvet" after
        "cupcakes")."""
        said, named = self._name_words(text), {t for t in self.terms(before) if t in self.product_terms}
        return bool(said) and any(
            named and named <= own and said <= doc.named
            for doc, own in zip(self.docs, self._names_without_brackets, strict=True)
        )

    def _name_words(self, text: str) -> set[str]:
        """The words of ``text`` a name is made of: no connectors, numbers or measures ("250g")."""
        return {
            t
            for t in self.terms(text)
            if t not in CONNECTORS and t not in STOPWORDS and t not in MEASURES and not any(c.isdigit() for c in t)
        }

    @cached_property
    def _names_without_brackets(self) -> list[frozenset[str]]:
        return [frozenset(self._name_words(without_brackets(doc.name))) for doc in self.docs]

    def only_brand(self, text: str) -> bool:
        """Whether the shop's words in ``text`` are a brand and options only ("Basco i think?", "crown, white"):
        words that say whose the thing is, not another thing."""
        known = [t for t in self.terms(text) if t in self.product_terms or t in self.option_terms]
        return any(t in self.brands for t in known) and all(t in self.brands or t in self.option_terms for t in known)

    def item_name(self, item_id: str) -> str:
        """One item's name ("" for an item the index does not have)."""
        return next((doc.name for doc in self.docs if doc.item_id == item_id), "")

    @cached_property
    def naming_terms(self) -> frozenset[str]:
        """Every term that names some item (its name, brand, category, tags and options): the rest of the shop's
        terms are only in its descriptions ("Fielder" of a battery "for Vitz, Fielder, Axio")."""
        return frozenset(t for doc in self.docs for t in doc.named)

    def names_of(self, item_id: str) -> frozenset[str]:
        """Every term that names one item: its name, brand, category, tags and options."""
        return next((doc.named for doc in self.docs if doc.item_id == item_id), frozenset())

    def named_exactly(self, text: str) -> str | None:
        """The item whose whole name ``text`` is ("Home Measurement Visit"), if one is."""
        said = fold(text).strip()
        return next((doc.item_id for doc in self.docs if fold(doc.name).strip() == said), None)

    def tagged_as(self, item_id: str, said: set[str]) -> bool:
        """Whether the shop tags one item with exactly these words ("rola" of its paint roller)."""
        doc = next((doc for doc in self.docs if doc.item_id == item_id), None)
        return bool(said) and doc is not None and any(set(self.terms(tag)) == said for tag in doc.tags)

    def item_kinds(self, item_id: str) -> frozenset[str]:
        """The kinds of thing one item is (its category's head words: "egg" of "Eggs")."""
        return next((doc.kinds for doc in self.docs if doc.item_id == item_id), frozenset())

    def full_matches(self, query: str) -> tuple[list[str], list[str]]:
        """The items that every word of ``query`` the shop knows names (by its name, brand, category,
        tags or options; exactly or as a prefix), and the words the shop does not know at all. The
        second list is how a shop says it sells no such thing ("nappies" at a grocer)."""
        q_terms, _kind, _excluded = self.read_query(query)
        unknown: list[str] = []
        matching: set[int] | None = None
        for term in q_terms:
            if term in STOPWORDS or term in CONNECTORS or term in MEASURES or term.isdigit() or term in NUMBERS:
                continue
            if (m := _MEASURE_SAID.fullmatch(term)) and m.group(2) in MEASURES:
                # "tomatoes 2kg" of "Tomatoes 1kg": a measure is the item's own, or a count of its packs
                kind = measure_kind(term)
                docs = {
                    n
                    for n, doc in enumerate(self.docs)
                    if term in doc.named
                    or packs_of(term, doc.name)
                    or is_own_measure(term, doc.name)
                    # "gloss 2 lita" of a gloss in 500ml, 1L and 4L tins (its options): sold by that measure too,
                    # as much as a spray can of 400ml is ("gloss nyeusi lita mbili": both glosses and the spray)
                    or (kind is not None and any(measure_kind(n) == kind for n in doc.named - doc.own_name))
                }
                matching = docs if matching is None else matching & docs
                continue
            expanded = [t for t, factor in self.expand(term) if factor >= PREFIX]
            if not expanded:
                if not term[:1].isdigit():  # "12bar" is a join of "y12 bars", not a word
                    unknown.append(term)
                continue
            docs = {n for n, doc in enumerate(self.docs) if doc.named & set(expanded)}
            if not docs and term in self.option_terms:
                continue  # "size" of "shati nyeupe size 13": the kind of an option, naming no item
            matching = docs if matching is None else matching & docs
        if matching is None:
            return [], unknown
        return [self.docs[n].item_id for n in sorted(matching)], unknown

    def _passes(self, doc: _Doc, f: Filters) -> bool:
        if f.type and f.type != "any" and doc.type != f.type:
            return False
        if f.in_stock_only and not doc.in_stock:
            return False
        if f.min_price is not None and doc.price < f.min_price:
            return False
        if f.max_price is not None and doc.price > f.max_price:
            return False
        if f.category:
            # "Smartphones", "smartphones" and "phones" all mean the category whose head word is "phone";
            # "Phone Cases" (head word "case") is a different category.
            wanted = fold(f.category).strip()
            wanted_terms = self.folding.terms(f.category)
            if wanted != doc.category_folded and (not wanted_terms or wanted_terms[-1] not in doc.kinds):
                return False
        return not (f.tags and not {fold(t) for t in f.tags} <= doc.tags)

    def read_query(self, query: str) -> tuple[list[str], str | None, set[str]]:
        """The query's terms, the kind of thing it asks for, and the terms it rules out."""
        tokens = self.folding.tokens(query)
        excluded: set[str] = set()
        kept: list[str] = []
        i = 0
        while i < len(tokens):
            if tokens[i] in NEGATIONS or (tokens[i] == "no" and i > 0):
                j = i + 1
                while j < len(tokens) and tokens[j] in STOPWORDS:
                    j += 1
                if j < len(tokens):
                    excluded.add(tokens[j])
                i = j + 1
                continue
            kept.append(tokens[i])
            i += 1
        kept = [self.own_word(t) for t in kept]  # "vinywaji" of a shop that writes "kinywaji"
        q_terms = self.folding.terms(" ".join(kept))
        # the head word: English puts it last ("iphone 15 case", "braiding hair"), Swahili first, before
        # a connector ("kava ya simu", "nywele za kusuka"), as English before "for" or "of"; colours, sizes and
        # numbers are not heads
        actions = verbs_said(query)  # "viatu vioshwe": shoes (to be washed), not a wash
        content = [
            n
            for n, t in enumerate(kept)
            if t not in actions
            and t not in STOPWORDS
            and t not in CONNECTORS
            and t not in MEASURES
            and t not in GENERIC_TERMS
            and not any(c.isdigit() for c in t)
            and t in self.product_terms  # "simu gani fiti": words the catalog has no use for are not heads
        ]
        kind = None
        if content:
            # the word before the first connector is the head ("clear cases for samsung a14": cases)
            joined = next((n for n in content if n + 1 < len(kept) and kept[n + 1] in CONNECTORS), None)
            head = kept[joined] if joined is not None else kept[content[-1]]
            kind = head if head in self.kinds and head not in excluded else None
        return [t for t in q_terms if t not in excluded], kind, excluded

    def _term_shares(self, query: str, q_terms: list[str]) -> dict[str, float]:
        """How much each term counts in a match's coverage: a measure ("2kg", "2 kg", "500 ml") is one
        half-weight term, whatever pieces it folds to, so a pack size said never outweighs the thing
        named ("tomatoes 2kg" are tomatoes, not any 2 kg pack)."""
        share = dict.fromkeys(q_terms, 1.0)
        for action in verbs_said(query) & share.keys():  # "sneakers zioshwe": the sneakers, to be washed
            share[action] = ACTION_SHARE
        tokens = raw_tokens(query)
        said = [m.group(0) for m in (_MEASURE_SAID.fullmatch(t) for t in tokens) if m and m.group(2) in MEASURES]
        said += [a + b for a, b in itertools.pairwise(tokens) if a.isdigit() and b in MEASURES]
        for measure in said:
            pieces = [t for t in self.folding.terms(measure) if t in share]
            for piece in pieces:
                share[piece] = min(share[piece], MEASURE_SHARE / len(pieces))
        return share

    def search(self, query: str, filters: Filters | None = None, *, limit: int = 10) -> SearchResult:
        filters = filters or Filters()
        q_terms, kind, excluded = self.read_query(query)
        cheapest_first = CHEAP in q_terms and len(q_terms) > 1  # "cheap tv": a way to order, not a word to find
        if cheapest_first:
            q_terms = [t for t in q_terms if t != CHEAP]
        if not q_terms:
            # no words to match (only filters): cheapest first, a predictable browse order
            docs = sorted(
                (d for d in self.docs if self._passes(d, filters) and not self._ruled_out(d, excluded)),
                key=lambda d: (d.price, d.name),
            )
            hits = [Hit(d.item_id, 0.0, 1.0) for d in docs[:limit]]
            return SearchResult(hits, len(docs), 1.0 if docs else 0.0)

        scores: dict[int, float] = defaultdict(float)
        quality: dict[int, float] = defaultdict(float)
        expansions: dict[str, list[str]] = {}
        share = self._term_shares(query, q_terms)
        for term in q_terms:
            expanded = self.expand(term)
            if not expanded:
                continue
            expansions[term] = [t for t, _ in expanded]
            if len(expanded) == 1:
                cat_term, factor = expanded[0]
                for doc_no, weight in self.postings[cat_term]:
                    scores[doc_no] += weight * factor
                    quality[doc_no] += factor * share[term]
                continue
            best_for_doc: dict[int, tuple[float, float]] = {}
            for cat_term, factor in expanded:
                for doc_no, weight in self.postings[cat_term]:
                    s = weight * factor
                    if s > best_for_doc.get(doc_no, (0.0, 0.0))[0]:
                        best_for_doc[doc_no] = (s, factor)
            for doc_no, (s, factor) in best_for_doc.items():
                scores[doc_no] += s
                quality[doc_no] += factor * share[term]

        said = {t for words in expansions.values() for t in words}
        said_raw = {w for t in raw_tokens(query) for w in (t, stem(t)) if len(w) >= 3}  # before the shop's folding
        said_raw |= {verb_key(t) for t in self.terms(query) if len(t) >= 3}  # "wakaangwe": fry, the option Fried
        n_terms = sum(share[t] for t in q_terms)
        # words the shop does not know ("niko na wasee, nataka choma") lower every item's coverage alike: the
        # ranking is as if they were not said, so they never squeeze two scores into one
        n_known = sum(share[t] for t in q_terms if t in expansions or not t.isalpha()) or n_terms
        check = filters != Filters()
        passing = [
            doc_no
            for doc_no in scores
            if not (check and not self._passes(self.docs[doc_no], filters))
            and not self._ruled_out(self.docs[doc_no], excluded)
        ]
        # "samsung phones under 20k": the kind said (below) and, when the shop has that brand among them, that brand
        # when it has that kind within the filters, only that kind, and any item whose name is said whole ("maini
        # beef 1kg": Beef Liver 1kg of the offal, though "beef" is a kind of its own; never "Dell Laptop Charger" for
        # "dell laptop")
        kind_sold = kind is not None and any(kind in self.docs[doc_no].kinds for doc_no in passing)
        if kind_sold:
            passing = [
                doc_no
                for doc_no in passing
                if kind in self.docs[doc_no].kinds
                # a service named with it: "Mobile Oil Service at Home" is of the oil said ("Phone Stand" is no phone)
                or (self.docs[doc_no].type == "service" and kind in self.docs[doc_no].own_name)
                or (self.docs[doc_no].own_name and self.docs[doc_no].own_name <= said)
            ]
        brands = self.brands & said  # "samsang" is samsung
        # an item whose options or tags name the brand is of it too ("Phone Case", model "Samsung A14")
        if brands and any(brands & self.docs[doc_no].named for doc_no in passing):
            passing = [doc_no for doc_no in passing if brands & self.docs[doc_no].named]
        candidates: list[tuple[float, int, int, float]] = []
        for doc_no in passing:
            doc, s = self.docs[doc_no], scores[doc_no]
            coverage = quality[doc_no] / n_terms
            own = len(doc.own_name & said) / len(doc.own_name) if doc.own_name else 0.0
            known_coverage = quality[doc_no] / n_known
            shaped = s * known_coverage * known_coverage * (0.5 + 0.5 * own)
            if said_raw & self.option_values.get(doc.item_id, frozenset()):
                shaped *= OPTION_NAMED
            if kind is None and (doc.kinds & doc.own_name) - said:
                shaped *= UNSAID_KIND
            elif kind is not None and kind in doc.own_name:
                shaped *= KIND_NAMED
            # near-equal scores (one decimal) are ordered cheapest first: a vague "samsung phone" starts affordable
            candidates.append((round(shaped, 1), -doc.price, doc_no, coverage))
        best_cov = max((c[3] for c in candidates), default=0.0)
        # "matches" are the items about as complete a match as the best one
        total = sum(1 for c in candidates if c[3] >= best_cov - 1e-9 and c[3] >= 0.5)
        if cheapest_first and candidates:  # the good matches (about as good as the best), cheapest first
            best = max(c[0] for c in candidates)
            candidates = [(1.0 if c[0] >= best / 2 else 0.0, *c[1:]) for c in candidates]
        top = heapq.nlargest(limit, candidates)  # best score first; on a tie, the cheaper item
        hits = [Hit(self.docs[doc_no].item_id, score, cov) for score, _price, doc_no, cov in top]
        return SearchResult(hits, total, round(best_cov, 3), expansions)

    @staticmethod
    def _ruled_out(doc: _Doc, excluded: set[str]) -> bool:
        """ "sio earphones": not of that kind; "not samsung": not of that brand."""
        return bool(excluded) and bool(excluded & (doc.kinds | doc.brand))


def _decimal_parts(text: str) -> set[str]:
    """The digits of a decimal number's two sides ("1" and "8" of "1.8L"): never a number said on its own."""
    return {part for m in re.finditer(r"(\d+)\.(\d+)", fold(text)) for part in m.groups()}
