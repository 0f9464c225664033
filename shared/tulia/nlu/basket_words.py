"""Several items in one message: "Nataka Jogoo unga 2kg tatu na sukari Mumias 2kg moja", "2 of X and
one Y", "a Samsung Galaxy A15 and an Oraimo power bank".

A message is cut at its lists' joins (commas, "and", "na", "plus", "pamoja na", "then also add") into
parts; a part that names something the shop sells is one wished item, with its own count (the count
words of that part only) and its own words for the search and for options. Parts that name nothing the
shop sells ("niletee Mwiki", "nitalipa na M-Pesa") are left to the frame's other extractors. A join
inside one of the shop's own names ("Twin and Earth Cable", "Wash and Blow-dry") does not cut.

Pure functions of the message and of the shop's words (passed in), in English, Swahili and Sheng.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from tulia.nlu.frame_extract import (
    BUY_VERBS,
    COUNT_UNITS,
    MAX_QUANTITY,
    MEASURE_UNIT_ALT,
    MEASURE_UNITS,
    NUMBER_WORDS,
    TENS_AND,
    compound_value,
    extract_quantity,
    is_a_minibus,
    measures_in_digits,
    without_negated_counts,
)
from tulia.nlu.lexicon import normalize
from tulia.search.measures import MEASURE, measured_quantity, packs_of, says_a_measure
from tulia.search.text import CONNECTORS, OF_FORMS, canonical, in_english

MAX_ITEMS = 10  # more parts than this in one message is a list to browse, not a basket to build

# the joins of a list, longest first ("na pia" before "na")
_JOINS = (
    "and then also", "then also", "and also", "and then", "as well as", "pamoja na", "na pia", "na tena",
    "alafu", "halafu", "kisha", "plus", "and", "na", "&", "+", "also", "pia",
)  # fmt: skip
_JOIN = re.compile(
    r"\s*(?:[,;\n]|(?<![\d\w])/(?=\s*\d)|(?<!\d)/(?=\s+\d)|(?<![\w&+])(?:"
    + "|".join(re.escape(j) for j in _JOINS)
    + r")(?![\w&+]))\s*",
    re.I,
)
# "to be with" is "to have" in Swahili ("niko na shamba", "iko na warranty?"): its "na" joins nothing
_HAVING = frozenset("niko uko yuko tuko mko wako iko ziko kuko liko kiko viko ako".split())
# "a kilo of tomatoes", "an eggs tray", "one Redmi Buds 5": one of it
_ONE = re.compile(r"^(?:(?:i\s+)?(?:need|want|get|take|nataka|nipe|naomba|niletee|add|ongeza|weka)\s+)?(?:a|an|one)\s")


# a part that starts with one of these goes on describing the part before it ("ya Samsung", "for the tv")
_CONTINUES = CONNECTORS | {"in", "yenye", "zenye"}


@dataclass(frozen=True)
class ItemSaid:
    """One wished item of a message: its part of the words and the count said for it."""

    text: str  # the part of the message, normalised ("jogoo unga 2kg tatu")
    quantity: int | None  # the count said for it, or None
    act: str = "add"  # what is done with it (the token tagger's act): add, set, remove, old (the one replaced), hers
    named: str = ""  # the token tagger's words for the thing in this part: its item span and the options said in it


def _tens(plain: str) -> str:
    """ "kumi na mbili" as 12, so a list is never cut inside a number."""
    return TENS_AND.sub(lambda m: str(compound_value(m)), plain)


def _parts(text: str, conjoined: Collection[tuple[str, str]]) -> list[str]:
    """The message cut at its joins, except where a join belongs to one of the shop's names."""
    raw = _tens(text.casefold())
    pieces: list[str] = []
    start = 0
    for m in _JOIN.finditer(raw):
        if m.start() == 0 and m.end() == 0:
            continue
        left, right = raw[start : m.start()].split(), raw[m.end() :].split()
        if left and right and (normalize(left[-1]), normalize(right[0])) in conjoined:
            continue  # "twin and earth cable": one name
        if left and m.group().strip() == "na" and left[-1] in _HAVING:
            continue  # "niko na shamba": I have a farm, not a list
        pieces.append(raw[start : m.start()])
        start = m.end()
    pieces.append(raw[start:])
    return [p for p in (normalize(piece) for piece in pieces) if p]


_NOT_ITEM_WORDS = frozenset(NUMBER_WORDS) | frozenset(COUNT_UNITS) | {v for v in BUY_VERBS if " " not in v}
_NOT_ITEM_WORDS |= frozenset(
    "a an i me please pls tafadhali can could get also pia then alafu halafu kisha more zaidi another ingine "
    "nyingine of ya wa za la cha vya kwa for each kila".split()
)
# the words that stand for a thing said before ("4 of them", "hizo tatu"): never a thing of their own
_NOT_ITEM_WORDS |= frozenset("them it its those these ones hizo hizi zile ile hiyo hii hicho hivyo vile".split())
_NOT_ITEM_WORDS |= frozenset("price prices cost bei gharama how much many ngapi".split())  # "4 of them, how much?"
_TIMES = ("mara", "times")  # "lita 4 mara tatu", "4L times 3": how many times the thing said
_NOT_ITEM_WORDS |= frozenset(_TIMES)
_COUNT_WORD_ALT = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS if " " not in w), key=len, reverse=True))
_EACH_WORDS = r"(?:of each|each|kila (?:moja|mmoja|kimoja|kitu))"
# one count for every item listed: "2 tonnes each", "2 of each", "kila moja mbili", "mbili mbili" (two each)
# ("6 panes each 2ft by 1.5ft", "vipande 14 kila kimoja futi 10": each piece's measure, no count of each item)
_EACH_MEASURED = rf"(?!\s+(?:\d|(?:{MEASURE_UNIT_ALT})(?!\w)))"
_EACH = (
    re.compile(rf"(?<!\w)(?P<n>\d{{1,3}}|{_COUNT_WORD_ALT})(?:\s+\w+)?\s+{_EACH_WORDS}(?!\w){_EACH_MEASURED}"),
    re.compile(rf"(?<!\w){_EACH_WORDS}\s+(?P<n>\d{{1,3}}|{_COUNT_WORD_ALT})(?!\w)"),
    re.compile(rf"(?<!\w)(?P<n>{_COUNT_WORD_ALT})\s+(?P=n)(?!\w)"),
)
_EACH_SAID = re.compile(rf"(?<!\w){_EACH_WORDS}(?!\w)")
_COUNT_TOKEN = re.compile(r"^(?:x(\d{1,4})|(\d{1,4})(?:x|pcs?|pkts?|packets?|pieces?))$")  # "x2", "3pcs", "2pkts"


def count_token_value(word: str) -> int | None:
    """The count one word writes as a count ("x2", "3pcs", "2pkts"), whatever the words around it say."""
    if counted := _COUNT_TOKEN.match(word):
        return int(counted.group(1) or counted.group(2))
    return None


def each_count(text: str) -> int | None:
    """The one count a list gives all its items ("ballast and sand, 2 tonnes each": two of each)."""
    plain = _tens(text.casefold())
    for pattern in _EACH:
        if m := pattern.search(plain):
            said = m.group("n")
            return int(said) if said.isdigit() else NUMBER_WORDS.get(said)
    return None


def item_words(part: str) -> str:
    """The words of one listed part that name the item: without its count, counting words and verbs
    of buying ("i need 3 packets of jogoo maize flour" -> "jogoo maize flour"). Numbers of the name and
    measures stay ("jbl go 3", "2kg")."""
    plain = measures_in_digits(without_negated_counts(part))  # "mahindi kilo tano" -> "mahindi 5 kilo"
    _said, spans = extract_quantity(plain)
    for start, end in sorted(spans, reverse=True):
        plain = plain[:start] + " " + plain[end:]
    words = plain.split()
    keep = [w not in _NOT_ITEM_WORDS and not _COUNT_TOKEN.match(w) for w in words]
    out = [
        w
        for n, w in enumerate(words)
        if keep[n] or (w in ("ya", "wa", "za", "la", "of") and 0 < n < len(words) - 1 and keep[n - 1] and keep[n + 1])
    ]
    return " ".join(out)


# (never the second number of a size said in numbers: "265/65 R17" of a tyre, "265 65 r17" as normalised)
# nor a size's number ("saizi 42, rangi ya navy": the size 42)
_NUMBER_BEFORE_WORDS = re.compile(
    rf"(?<![\w.,/-])(?<!\d\s)(?<!size )(?<!saizi )(?<!namba )(\d{{1,3}})\s+(?!(?:{MEASURE_UNIT_ALT})(?!\w))(?=[a-z])"
)


def count_of(part: str) -> int | None:
    """The count said in one part ("jogoo unga 2kg tatu" is 3, "a kilo of tomatoes" is 1; "kila moja" is
    "each", no count)."""
    plain = without_negated_counts(_EACH_SAID.sub(" ", part))
    said, _spans = extract_quantity(plain)
    if said is not None:  # "add 1 mumias sugar": one of it, in a list
        return said.value
    if _ONE.match(part):
        return 1
    if written := [n for w in plain.split() if (n := count_token_value(w)) is not None]:
        return written[0]  # "sukari 2pkts"
    # "breakfast 2 chapati": in a listed part, a number before words; never a measure's ("ya lita 20 iko": 20 L)
    if m := _NUMBER_BEFORE_WORDS.search(measures_in_digits(plain)):
        return int(m.group(1))
    return None


def _is_count(words: list[str], at: int) -> bool:
    """Whether ``words[at]`` is a count ("2", "mbili", "x3", "2pcs"), not a measure ("2 kg") or an hour."""
    word, after = words[at], words[at + 1 : at + 2]
    if at and words[at - 1] == "saa":
        return False  # "saa tatu": nine o'clock
    if word.isdigit():
        return 0 < int(word) <= MAX_QUANTITY and not (after and after[0] in MEASURE_UNITS)
    if is_a_minibus(word, words[:at]):
        return False
    return (word in NUMBER_WORDS and word != "both") or bool(_COUNT_TOKEN.match(word))


def _counted_runs(part: str, names_product: Callable[[str], bool], one_item: Callable[[str], bool] | None) -> list[str]:
    """A part that lists items without joining them ("2 chapati 3 mandazi", "chapati mbili mandazi tatu",
    "one pilau one soda"), cut at its counts: before each count where the part starts with one, after each
    where it ends with one. Only when every piece names something the shop sells and all their words
    together name no one item ("jordan 4 retro 2" stays one)."""
    words = part.split()
    counts = [n for n in range(len(words)) if _is_count(words, n)]
    if len(counts) < 2:
        return [part]
    if counts[0] == 0:
        cuts = counts[1:]
    elif counts[-1] == len(words) - 1:
        cuts = [n + 1 for n in counts[:-1]]
    else:
        return [part]
    pieces = [" ".join(words[a:b]) for a, b in zip([0, *cuts], [*cuts, len(words)], strict=True)]
    said = [item_words(p) for p in pieces]
    if not all(w.strip() and names_product(p) for w, p in zip(said, pieces, strict=True)):
        return [part]
    if one_item is not None and one_item(" ".join(said)):
        return [part]
    return pieces


# the packs of pieces a thing is sold in ("Guppy (Pair)", "Eggs (tray of 30)"): said with a count of its own, it counts
# packs, never pieces ("guppies za red, pairs tatu": three pairs)
_PACK_OF_PIECES_SAID = re.compile(r"(?<!\w)(?:pairs?|jozi|trays?|trei)(?!\w)")


def items_said(
    text: str,
    names_product: Callable[[str], bool],
    conjoined: Collection[tuple[str, str]] = (),
    describes: Callable[[str], bool] | None = None,
    one_item: Callable[[str], bool] | None = None,
    fitting: Callable[[str], set[str]] | None = None,
    own_thing: Callable[[str, str], bool] | None = None,
) -> list[ItemSaid]:
    """The items a message lists, when it lists two or more things the shop sells (else ``[]``). A part
    that only names options (``describes``: "..., charcoal grey colour") goes on describing the item
    before it; a part that lists counted items without joins is cut at its counts (``one_item``: whether
    words name one item whole, so a name's own number never cuts it; ``own_thing``: whether a part that only names
    options says a thing's own name instead, not an option of the thing of the part before)."""
    parts: list[str] = []
    for part in (run for joined in _parts(text, conjoined) for run in _counted_runs(joined, names_product, one_item)):
        counted = count_of(part) is not None  # "a fanta", "2 sprite": an item of its own, even one named by an option
        if parts and (head := _elided_head(parts[-1], part)):
            parts.append(f"{head} {part}")  # "tairi ya mbele na ya nyuma": a rear tyre too
        elif parts and (
            part.split()[0] in _CONTINUES
            or (
                describes is not None
                and not counted
                and describes(part)
                # ("fathers of nations, the samaritan": a title of its own, though the study guide's options are titles)
                and not (own_thing is not None and own_thing(part, parts[-1]))
            )
            or _A_SIZE_OF_IT.fullmatch(part)  # "blinds for my windows, 120 wide": its width, never 120 of a thing
        ):
            parts[-1] += " " + part  # "nataka simu / ya Samsung": one wish in two messages
        else:
            parts.append(part)
    items: list[ItemSaid] = []
    named = 0
    for part in parts:
        count = count_of(part)
        words = item_words(part).strip()
        if (words and _counts_the_one_before(part, words, names_product)) or (
            not words and not _pack_word_names_another(part, items, fitting)
        ):
            # "kienyeji eggs, one tray", "afia tropical, x2": a count alone is the count of the item before it; so
            # is one said with its pack and a size of it ("..., 2 tins of 4L") or her reason ("..., tins tatu kwa
            # chumba cha watoto"), the size going with the item, even when that item had only its "a" ("a grey
            # paint... the dove grey, 2 tins of 4L")
            before = items[-1] if items else None
            if (
                before is not None
                and count is not None
                and (before.quantity is None or (words and _counted_by_an_article(before.text)))
            ):
                size = words if words and _only_measures(words) and not measures_said(before.text) else ""
                if not words and _PACK_OF_PIECES_SAID.search(part):
                    size = part  # "guppies za red, pairs tatu": three pairs (its pack, said with the count)
                items[-1] = ItemSaid(f"{before.text} {size}".strip(), count)
            continue
        if items and count is None and not names_product(part) and says_a_measure(measures_in_digits(part)):
            items[-1] = ItemSaid(
                f"{items[-1].text} {part}", items[-1].quantity
            )  # "a glass top, 4ft by 2.5ft": its size
            continue
        if names_product(part):
            named += 1
            items.append(ItemSaid(part, count))
        elif count is not None and any(w.isalpha() and len(w) > 2 for w in item_words(part).split()):
            items.append(ItemSaid(part, count))  # "a pack of nappies": an item, even one the shop lacks
        elif count is not None and describes is not None and describes(item_words(part)):
            items.append(ItemSaid(part, count))  # "three 20A breakers and one 32A": one more, of that option
        elif not items and describes is not None and fitting is not None and describes(part) and fitting(part):
            items.append(ItemSaid(part, count))  # "4 litres of 10W-40, an oil filter...": the options name the oil
    if len(items) < 2 or len(items) > MAX_ITEMS or not named:
        return []
    each = each_count(text)
    if each is not None:  # "sukari na unga mbili mbili": each item without its own count gets it
        items = [ItemSaid(i.text, each if i.quantity is None else i.quantity) for i in items]
    return items


def _counts_the_one_before(part: str, words: str, names_product: Callable[[str], bool]) -> bool:
    """Whether a part says a count with its pack ("tins tatu", "2 tins", "mara tatu") and beside it only a size
    ("2 tins of 4L", "lita 4 mara tatu") or words that name nothing a shop sells (her reason: "tins tatu kwa chumba
    cha watoto"): the count of the thing said before, not a thing of its own ("a pack of nappies" names one)."""
    if not _PACKED_COUNT.search(part):
        return False
    if _only_measures(words):
        return True
    return not names_product(part) and not _PACK_OF_A_THING.search(measures_in_digits(part))


def _counted_by_an_article(part: str) -> bool:
    """Whether a part's count of one is only its "a" or "an" ("i want a grey paint"), no number she said."""
    article = _ONE.match(part)
    said, _spans = extract_quantity(without_negated_counts(part))
    return article is not None and not article.group(0).rstrip().endswith("one") and said is None


def _only_measures(words: str) -> bool:
    """Whether words say only weights or volumes ("4l", "lita 4")."""
    said = measures_said(words)
    rest = measures_in_digits(normalize(words))
    for measure in said:
        rest = rest.replace(measure, " ")
    return bool(said) and not rest.strip()


_PACK_WORD_ALT = "|".join(sorted((re.escape(w) for w in (*COUNT_UNITS, *_TIMES)), key=len, reverse=True))
_PACK_OF_A_THING = re.compile(rf"(?<!\w)(?:{_PACK_WORD_ALT})\s+(?:of|ya|za|wa|la|cha|vya)\s+(?!\d)[a-z]")
_PACKED_COUNT = re.compile(
    rf"(?<!\w)(?:(?:\d{{1,3}}|{_COUNT_WORD_ALT})\s+(?:{_PACK_WORD_ALT})|(?:{_PACK_WORD_ALT})\s+(?:\d{{1,3}}|{_COUNT_WORD_ALT}))(?!\w)"
)


# "120 wide", "2m long", "150cm drop", "upana 120": a size of the thing said before
_A_SIZE_OF_IT = re.compile(
    r"(?:\d{1,4}(?:\.\d+)?\s*(?:cm|mm|m|metres?|meters?|inch(?:es)?|in|ft|feet)?\s+"
    r"(?:wide|width|long|length|high|height|tall|drop)|(?:upana|urefu|width|length)\s+(?:wa\s+)?\d{1,4}\s*(?:cm|m)?)"
)


def _elided_head(before: str, part: str) -> str | None:
    """The thing a part after a join leaves unsaid when it starts with the "of" the part before used after
    its thing ("tairi ya mbele / ya nyuma", "unga wa ugali / wa ngano"): that thing's words, without their
    count; None when the part is not such an ellipsis."""
    words, first = before.split(), part.split()[0]
    if first not in OF_FORMS:
        return None
    at = next((n for n in range(len(words) - 1, 0, -1) if words[n] in OF_FORMS), None)
    if at is None:
        return None
    head = item_words(" ".join(words[:at]))
    return head or None


def _pack_word_names_another(part: str, before: list[ItemSaid], fitting: Callable[[str], set[str]] | None) -> bool:
    """Whether a part said only with a pack word names a thing of its own, one the shop sells by that word and
    the part before did not name ("maziwa lita nne na chupa mbili": two bottles, at a shop that sells bottles;
    "kienyeji eggs, one tray" is the eggs' count)."""
    if fitting is None:
        return False
    named = {i for w in part.split() if w in COUNT_UNITS for i in fitting(w)}
    # the eggs the part before named are all sold by the tray: the tray is their count
    return bool(named) and not (before and fitting(item_words(before[-1].text)) <= named)


def count_in_name(text: str, count: int, names: Collection[str]) -> bool:
    """Whether a count read from ``text`` is rather a number of the item's own name or options
    (``names``), said beside a word it stands beside there: "gauge 30 box profile" of "Mabati Box Profile
    Gauge 30 (3m)", "brown 30" of the colour "Brown 30". A number said twice ("3 jbl go 3") is a count
    once."""
    return name_number_said(text, count, names) is not None


def name_number_said(text: str, count: int, names: Collection[str]) -> str | None:
    """The words of ``text`` that say ``count`` as a number of one of ``names`` (:func:`count_in_name`): the
    number and the word beside it that stands beside it there ("96 page" of the option "pages 96")."""
    number = str(count)
    words = without_negated_counts(normalize(text)).replace("-", " ").split()  # an age is no number of a name
    said = [as_digits(w) for w in words]  # "two burner" of "Two-burner Gas Cooker", "burner mbili"
    if said.count(number) != 1:
        return None
    at = said.index(number)
    for n in (at - 1, at + 1):
        if not 0 <= n < len(said):
            continue
        forms = _forms(said[n])
        for name in names:
            own = [as_digits(w) for w in re.findall(r"[a-z0-9]+", normalize(name))]
            for i, word in enumerate(own):
                # a word of joining stands on its own side ("set of 4" is no "4 of them")
                beside = (
                    (own[i - 1 : i] if n < at else own[i + 1 : i + 2])
                    if said[n] in _JOINING
                    else (own[max(i - 1, 0) : i] + own[i + 1 : i + 2])
                )
                if word == number and forms & {f for w in beside for f in _forms(w)}:
                    return " ".join(words[min(at, n) : max(at, n) + 1])
            # a model's or a size's number of the name said among its words, in any order ("the raleigh 26
            # mountain bike" of "Raleigh Mountain Bike 26 inch"): never a count of ten or more of it
            if count >= MODEL_NUMBER_FROM and number in own and forms & {f for w in own for f in _forms(w)}:
                return " ".join(words[min(at, n) : max(at, n) + 1])
    return None


_JOINING = frozenset({"of", "ya", "za", "la", "wa", "cha", "vya", "x", "by", "for"})
MODEL_NUMBER_FROM = 10  # smaller numbers beside a word of the name are counts ("fanta 2" of "Fanta 2 Litre")


_DIGITS_OF = {w: str(n) for w, n in NUMBER_WORDS.items() if " " not in w and n < 12 and w != "both"}


def as_digits(word: str) -> str:
    """A number word as its digits ("two", "mbili": "2"); any other word as it is."""
    return _DIGITS_OF.get(word, word)


def _forms(word: str) -> set[str]:
    """A word as said, as its term and as its English term: "page" and "pages", "kurasa" and "pages"."""
    return {word, canonical(word), canonical(in_english(word))}


def measures_said(text: str) -> list[str]:
    """The weights and volumes a message says ("5kg", "3 lita", "kilo mbili" as "2 kilo")."""
    return [m.group(0) for m in MEASURE.finditer(measures_in_digits(normalize(text)))]


def measured_count(part: str, item_name: str) -> int | None:
    """A measure said of an item sold in packs of a measure, as a count of packs, in digits or in words:
    "kilo mbili" of "Wire Nails 1kg" is 2, "20 metres" of "Cable (per metre)" is 20 (:func:`packs_of`)."""
    return packs_of(measures_in_digits(part), item_name)


def quantity_by_measure(part: str, item_name: str, pieces: int | None, options: Sequence[str] = ()) -> int | None:
    """How much of an item sold by a measure ("(per foot)", "(per sq ft)") its words say, in digits or in words:
    "vipande 14 vya futi kumi" is 140 feet, "mirror mbili za 4ft by 3ft" 24 square feet
    (:func:`tulia.search.measures.measured_quantity`)."""
    return measured_quantity(measures_in_digits(part), item_name, pieces, options)
