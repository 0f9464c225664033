"""Extractors of the order frame: what a customer's message says about a sale, in English, Swahili
and Sheng, whatever question the bot asked last.

Every extractor is a pure function of the message (and of the shop's own settings where the words
are the shop's: zone and area names, enabled payment methods). The words here are the words of
buying, counting, delivering and paying, which hold for every shop; a trade's own words belong in
its pack.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from tulia.domain.literals import FulfilmentMode, PaymentMethod
from tulia.domain.phone import to_mpesa_msisdn
from tulia.domain.shop_words import REQUEST_VERBS, STOPWORDS
from tulia.errors import InvalidInput
from tulia.nlu.lexicon import COLOURS, normalize
from tulia.search.measures import AREA_NAMES
from tulia.search.text import in_english, meanings_of, stem, verb_key, without_brackets

QuantityEdit = Literal["set", "add"]

MAX_QUANTITY = 1000

# fmt: off
NUMBER_WORDS: dict[str, int] = {
    # English
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90, "a dozen": 12, "dozen": 12,
    "half a dozen": 6, "two dozen": 24, "both": 2, "a couple of": 2, "a pair of": 1,
    # Swahili, with the noun-class forms people write ("viatu viwili", "watu watatu", "mawili")
    "moja": 1, "mmoja": 1, "kimoja": 1, "mbili": 2, "viwili": 2, "wawili": 2, "mawili": 2, "tatu": 3, "vitatu": 3,
    "watatu": 3, "matatu": 3, "nne": 4, "vinne": 4, "wanne": 4, "manne": 4, "tano": 5, "vitano": 5, "watano": 5,
    "matano": 5, "sita": 6, "saba": 7, "nane": 8, "vinane": 8, "tisa": 9, "kumi": 10, "dazeni": 12,
    "dazani": 12, "miwili": 2, "mitatu": 3, "minne": 4, "mitano": 5, "ishirini": 20, "thelathini": 30,
    "arobaini": 40, "hamsini": 50, "sitini": 60, "sabini": 70, "themanini": 80, "tisini": 90,
}
# fmt: on
# words that count things in any shop ("3 bags", "pcs 5", "vipande 2")
COUNT_UNITS = (
    "pcs",
    "pc",
    "pieces",
    "piece",
    "units",
    "unit",
    "pairs",
    "pair",
    "packs",
    "pack",
    "packets",
    "packet",
    "boxes",
    "box",
    "bags",
    "bag",
    "bottles",
    "bottle",
    "sets",
    "set",
    "crates",
    "crate",
    "cartons",
    "carton",
    "tins",
    "tin",
    "vipande",
    "kipande",
    "pakiti",
    "paketi",
    "mifuko",
    "mfuko",
    "chupa",
    "boksi",
    "sanduku",
    "seti",
    "dozen",
    "dozens",
    "dazeni",
    # the containers and heaps of a Kenyan market: trays of eggs, bunches of greens, tins and sacks of grain
    "trays",
    "tray",
    "trei",
    "bunches",
    "bunch",
    "chana",
    "fungu",
    "mafungu",
    "gorogoros",
    "gorogoro",
    "debes",
    "debe",
    "madebe",
    "sacks",
    "sack",
    "gunia",
    "magunia",
    "cans",
    "mkebe",
    "mikebe",
    "jars",
    "jar",
    "bundles",
    "bundle",
    "bales",
    "bale",
    "punnets",
    "punnet",
    "katoni",
    "kreti",
    "jozi",
    "tonnes",
    # what a kitchen serves and a print shop makes, counted: plates, cups and glasses; pages and copies
    "plates",
    "plate",
    "sahani",
    "cups",
    "cup",
    "kikombe",
    "vikombe",
    "glasses",
    "glass",
    "glasi",
    "pages",
    "page",
    "kurasa",
    "copies",
    "nakala",
    # the shapes things are sold in: blocks of a salt lick, bars of soap, rolls of tape, reams of paper
    "blocks",
    "block",
    "bars",
    "rolls",
    "roll",
    "reams",
    "ream",
    "rimu",
)  # fmt: skip
# units that belong to a product's name, never a count ("20000mAh", "256 GB", "2 kg", "55 inch")
MEASURE_UNITS = (
    "gb", "tb", "mb", "mah", "w", "watts", "watt", "v", "inch", "inches", "inchi", "kg", "g", "ml", "l", "litre",
    "litres", "liter", "liters", "cm", "mm", "m", "k", "hz", "mp", "ft", "metres", "meters", "metre", "meter", "mita",
    "lb", "lbs", "%", "pm", "am", "kilo", "kilos", "kgs", "lita", "ltr", "gram", "grams", "gramu", "gms", "gm",
    "amps", "amp", "ah", "ampere", "amperes", "gig", "gigs", "gigabyte", "gigabytes", "terabyte", "terabytes",
    "futi", "feet", "foot",
)  # fmt: skip
BUY_VERBS = (
    "need", "want", "buy", "order", "get", "take", "send", "send me", "deliver", "give me", "i ll take", "ill take",
    "i will take", "add", "nataka", "ninataka", "nahitaji", "nunua", "kununua", "naomba", "ongeza", "weka", "nieke",
    "make it", "make them", "iwe", "ziwe", "just", "only", "tu", *sorted(REQUEST_VERBS),
)  # fmt: skip

# the names of measures said before or after their number ("lita tatu", "three litres", "5 kilos")
MEASURE_NAMES = (
    "litres", "litre", "liters", "liter", "lita", "ltr", "kilos", "kilo", "kgs", "kg", "grams", "gramu", "gms", "gm",
    "ml",
    "metres", "metre", "meters", "meter", "mita", "inches", "inch", "inchi", "futi", "feet", "foot", *AREA_NAMES,
)  # fmt: skip
_MEASURE_NAME_ALT = "|".join(sorted(MEASURE_NAMES, key=len, reverse=True))
_PLAIN_NUMBER_WORDS = {w: n for w, n in NUMBER_WORDS.items() if " " not in w and w not in ("both", "dozen")}
_NUMBER_WORD_ALT = "|".join(sorted(_PLAIN_NUMBER_WORDS, key=len, reverse=True))
_MEASURE_THEN_NUMBER = re.compile(
    rf"(?<![\w.])(?<!nusu )(?<!robo )(?<!half )(?<!quarter )({_MEASURE_NAME_ALT})\s+"
    rf"(\d{{1,4}}(?:\.\d+)?|{_NUMBER_WORD_ALT})(?![\w.])"
)
# a measure and a half ("inchi moja na nusu", "one and a half inch", "2 kilo na nusu"): its number with .5
_ONE_NUMBER = rf"(\d{{1,3}}|{_NUMBER_WORD_ALT})"
_AND_A_HALF = r"(?:na nusu|and a half)"
_MEASURE_AND_A_HALF = (
    re.compile(rf"(?<![\w.]){_ONE_NUMBER}\s+{_AND_A_HALF}\s+({_MEASURE_NAME_ALT})(?!\w)"),
    re.compile(rf"(?<![\w.]){_ONE_NUMBER}\s+({_MEASURE_NAME_ALT})\s+{_AND_A_HALF}(?!\w)"),
)
_MEASURE_NUMBER_AND_A_HALF = re.compile(rf"(?<![\w.])({_MEASURE_NAME_ALT})\s+{_ONE_NUMBER}\s+{_AND_A_HALF}(?!\w)")


# hundreds of a measure in Swahili ("gramu mia moja", "mia tano ml"): the number in digits
_HUNDREDS = rf"mia\s+({_NUMBER_WORD_ALT}|\d)"
_MEASURE_HUNDREDS = (
    re.compile(rf"(?<![\w.])({_MEASURE_NAME_ALT})\s+{_HUNDREDS}(?!\w)"),
    re.compile(rf"(?<![\w.]){_HUNDREDS}\s+({_MEASURE_NAME_ALT})(?!\w)"),
)


def _hundreds(plain: str) -> str:
    """ "gramu mia moja" -> "100 gramu", "mia tano ml" -> "500 ml"."""

    def value(number: str) -> int:
        return 100 * int(_PLAIN_NUMBER_WORDS.get(number, number))

    plain = _MEASURE_HUNDREDS[0].sub(lambda m: f"{value(m.group(2))} {m.group(1)}", plain)
    return _MEASURE_HUNDREDS[1].sub(lambda m: f"{value(m.group(1))} {m.group(2)}", plain)


def _and_a_half(plain: str) -> str:
    """Each measure said with "and a half" in digits first: "inchi moja na nusu" -> "1.5 inchi"."""

    def value(number: str) -> str:
        return f"{_PLAIN_NUMBER_WORDS.get(number, number)}.5"

    for pattern in _MEASURE_AND_A_HALF:
        plain = pattern.sub(lambda m: f"{value(m.group(1))} {m.group(2)}", plain)
    return _MEASURE_NUMBER_AND_A_HALF.sub(lambda m: f"{value(m.group(2))} {m.group(1)}", plain)


_NUMBER_WORD_THEN_MEASURE = re.compile(rf"(?<!\w)({_NUMBER_WORD_ALT})\s+({_MEASURE_NAME_ALT})(?!\w)")
# a piece's sides then a measure said the Swahili way ("cypress 2 by 6 futi 50"): the measure is the one after
_SIDES_THEN_MEASURE = re.compile(
    rf"(?<![\w.])(\d{{1,3}}(?:\.\d+)?\s*(?:by|x|kwa)\s*\d{{1,3}}(?:\.\d+)?)\s+({_MEASURE_NAME_ALT})\s+"
    rf"(\d{{1,4}}(?:\.\d+)?|{_NUMBER_WORD_ALT})(?![\w.])"
)


def measures_in_digits(plain: str) -> str:
    """A measure said in words or in the Swahili order with its number first, in digits: "lita tatu" ->
    "3 lita", "kilo 5" -> "5 kilo", "three litres" -> "3 litres" (then "3 lita" is the 3L option, and
    "kilo mbili" of a 1 kg pack is two packs)."""
    plain = _and_a_half(_hundreds(plain))
    plain = _SIDES_THEN_MEASURE.sub(lambda m: f"{m.group(3)} {m.group(2)} {m.group(1)}", plain)  # "50 futi 2 by 6"
    plain = _measure_then_number_in_digits(plain)
    return _NUMBER_WORD_THEN_MEASURE.sub(lambda m: f"{_PLAIN_NUMBER_WORDS[m.group(1)]} {m.group(2)}", plain)


def _measure_then_number_in_digits(plain: str) -> str:
    """ "mita 30" -> "30 mita", unless a number of its own comes right before the measure ("5 kilo 2": five kilos,
    then a count); a number that is the measure said before it ("mita 8 mita 30") is not its own."""
    out, at, said_before = [], 0, -1
    for m in _MEASURE_THEN_NUMBER.finditer(plain):
        number_before = m.start() >= 2 and plain[m.start() - 2].isdigit() and plain[m.start() - 1].isspace()
        if number_before and said_before != m.start() - 1:
            continue
        out += [plain[at : m.start()], f"{_PLAIN_NUMBER_WORDS.get(m.group(2), m.group(2))} {m.group(1)}"]
        at = said_before = m.end()
    return "".join(out) + plain[at:]


_NUM = r"(\d{1,4})"
_UNIT_ALT = "|".join(sorted((re.escape(u) for u in COUNT_UNITS), key=len, reverse=True))
MEASURE_UNIT_ALT = "|".join(sorted((re.escape(u) for u in MEASURE_UNITS), key=len, reverse=True))
_VERB_ALT = "|".join(sorted((re.escape(v) for v in BUY_VERBS), key=len, reverse=True))
_WORD_ALT = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS), key=len, reverse=True))

# "3 pcs", "pcs 3", "x3", "3x", "qty 3", "quantity: 3", "vipande 3"
_Q_UNIT_AFTER = re.compile(rf"(?<![\w.,]){_NUM}\s*(?:{_UNIT_ALT})(?!\w)")
_Q_UNIT_BEFORE = re.compile(
    rf"(?<!\w)(?:{_UNIT_ALT}|qty|quantity|idadi)\s*[:=]?\s*{_NUM}(?![\w.,])(?!\s*(?:{MEASURE_UNIT_ALT})(?!\w))"
)  # not "bag 90 kg": that is the bag's measure
_Q_OF_THEM = re.compile(rf"(?<![\w.,/])(?:{_NUM}|({_WORD_ALT}))\s+of\s+(?:them|those|these)(?!\w)")
# "lita 4 mara tatu", "4L times 3", at the end of what she says ("nimejaribu mara mbili kupiga simu" counts no thing)
_Q_TIMES_SAID = re.compile(
    rf"(?<!\w)(?:mara|times)\s+(?:{_NUM}|({_WORD_ALT}))(?=\s*(?:$|[.,;!?]|(?:tafadhali|please|pls|tu|only)\b))"
)
_Q_TIMES = re.compile(rf"(?<![\w.,])(?:x\s*{_NUM}|{_NUM}\s*x)(?!\w)")
# "need 3 ...", "nataka 2", "make it 3" (a number right after a verb of buying, not a measure)
_Q_AFTER_VERB = re.compile(rf"(?<!\w)(?:{_VERB_ALT})\s+{_NUM}(?![\w.,])(?!\s*(?:{MEASURE_UNIT_ALT})(?!\w))")
# "3 oraimo earbuds" at the start of the request: a number before words, not a measure
_Q_LEADING = re.compile(
    rf"^(?:(?:hi|hello|hey|habari|niaje|sasa|mambo)\s+)?{_NUM}\s+(?!(?:{MEASURE_UNIT_ALT})(?!\w))(?=[a-z])"
)
# "laminate 3 certificates", "10 samosas": a number before a plural noun counts it (English plurals end in -s),
# unless the noun is a measure, a time or money ("40 mins ago", "430 shillings") or it says for whom ("a cake
# for 20 guests": one cake)
_NOT_COUNTED = r"(?:mins?|minutes|hours|hrs|days|weeks|months|years|secs|seconds|shillings|kes|bob|ksh)"
_Q_BEFORE_PLURAL = re.compile(
    rf"(?<![\w.,/-])(?<!for )(?<!kwa ){_NUM}\s+(?!(?:{MEASURE_UNIT_ALT}|{_NOT_COUNTED})(?!\w))(?=[a-z][a-z']+s(?!\w))"
)
_Q_WORD = re.compile(rf"(?<![\w-])({_WORD_ALT})(?![\w-])")  # not "two-burner", "three-piece": words of a name
# "3 dozen", "two dozens", "dazeni mbili" (Swahili: the dozen first): twelve each
DOZEN_WORDS = frozenset({"dozens", "dozen", "dazeni", "dazani"})  # twelve pieces each
_DOZEN_ALT = "|".join(sorted(DOZEN_WORDS, key=len, reverse=True))
_Q_DOZENS = re.compile(
    rf"(?<![\w.,])(?:(\d{{1,2}})|({_NUMBER_WORD_ALT}))\s+(?:{_DOZEN_ALT})(?!\w)|"
    rf"(?<!\w)(?:dazeni|dazani)\s+(?:(\d{{1,2}})|({_NUMBER_WORD_ALT}))(?![\w.])"
)
# "ongeza moja", "add one more", "one more", "another one", "add 2 more"
_Q_INCREMENT = re.compile(
    rf"(?<!\w)(?:(?:ongeza|add)\s+(?:(\d{{1,3}})|({_WORD_ALT}))(?:\s+(?:more|zaidi|ingine|nyingine))?|"
    rf"(?:(\d{{1,3}})|({_WORD_ALT}))\s+more|another one|one more|ingine moja|nyingine moja|moja zaidi)(?!\w)"
)
_Q_SET = re.compile(
    rf"(?<!\w)(?:make it|make them|change (?:it |the quantity )?to|iwe|ziwe|badilisha iwe|badilisha ziwe|"
    rf"(?:i )?(?:only )?want|nataka)\s+(?:only\s+|just\s+|tu\s+)?(?:(\d{{1,4}})|({_WORD_ALT}))(?!\w)"
    rf"(?!\s*(?:{MEASURE_UNIT_ALT})(?!\w))"
)
_ONLY_NUMBER = re.compile(r"^\s*(\d{1,4})\s*$")
# "a crate of coke", "a tray of eggs", "an extra bunch of sukuma": one of it
_Q_ONE_UNIT = re.compile(rf"(?<!\w)(?:a|an)\s+(?:{_UNIT_ALT})\s+(?:of|ya|za|la|cha|wa)(?!\w)")
COUNT_UNIT_WORDS = frozenset(COUNT_UNITS)
_UNIT_AFTER = re.compile(rf"\s+(?:{_UNIT_ALT})(?:\s+(?:of|ya|za|la|cha|wa))?(?!\w)")
_UNIT_BEFORE = re.compile(rf"(?<!\w)(?:{_UNIT_ALT})\s+$")


def _with_unit(plain: str, span: tuple[int, int]) -> tuple[int, int]:
    """A count in words with the counting word it goes with ("one pack of", "pakiti sita"): both are the
    count, never words of the item."""
    start, end = span
    if after := _UNIT_AFTER.match(plain, end):
        end = after.end()
    if before := _UNIT_BEFORE.search(plain[:start]):
        start = before.start()
    return start, end


# a question of price or amount names a pack to ask about, not a count to buy ("how much is a tray of eggs?",
# "how many blocks does one bag of cement lay", "trei moja ni bei gani")
_ASKS_AMOUNT = re.compile(
    r"(?<!\w)(?:how much|how many|ngapi|bei gani|bei ya|price|cost|costs|inaenda aje|ni how)(?!\w)"
)
MEASURE_TOKEN = re.compile(rf"\d{{1,4}}(?:\.\d+)?(?:{MEASURE_UNIT_ALT})")  # "90kg", "500ml": a pack's measure
# "pakiti tatu sio moja", "two, not one": a count corrected away
_NEGATED_COUNT = re.compile(rf"(?<!\w)(?:sio|siyo|si|not)\s+(?:\d{{1,4}}|{_WORD_ALT})(?![\w.,])")


# a measure that already has its amount ("1 kg", "nusu lita", "robo kilo"): a number word after it counts packs
_AMOUNT_THEN_MEASURE = re.compile(
    rf"(?:(?<![\w.])\d{{1,4}}(?:\.\d+)?|(?<!\w)(?:nusu|robo|half|quarter))\s+(?:{_MEASURE_NAME_ALT})\s*$"
)
# what "one" may stand before without counting a thing ("one of them", "one more", "one minute", "one by one")
_ONE_NOT_A_COUNT = re.compile(
    rf"\s+(?:of|more|by|or|and|another|with|in|for|which|that|is|to|moment|time|day|minute|hour|week|month|year|"
    rf"sec|second|question|thing|"
    rf"{_NOT_COUNTED})(?!\w)"
)
_ONE_MAY_FOLLOW = (frozenset(STOPWORDS) | frozenset(v for v in BUY_VERBS if " " not in v)) - {
    "the", "this", "that", "which", "any", "some", "hii", "hiyo", "ile", "hizi", "hizo", "each", "every", "last",
}  # fmt: skip


def _has_its_amount(before: str) -> bool:
    """``before`` ends with a measure that has its amount: "sukari 1 kg" + "sita" is six packs."""
    return _AMOUNT_THEN_MEASURE.search(before) is not None


def _one_before_a_noun(plain: str, start: int, end: int) -> bool:
    """ "one" as a determiner: first in the request (after greetings and verbs of asking) and before a word it
    counts ("one claw hammer", "nipe one bulb"), not the pronoun ("this one", "the black one", "one of them")."""
    following = re.match(r"\s+([a-z][\w']*)", plain[end:])
    if following is None or following.group(1) in STOPWORDS or _ONE_NOT_A_COUNT.match(plain, end):
        return False
    return all(w in _ONE_MAY_FOLLOW for w in re.findall(r"[\w']+", plain[:start]))


# an age said with its number ("turns 7", "a 3 year old", "miaka sita", "mtoto wa miezi miwili"): never a count
_NUMBER = rf"(?:\d{{1,4}}|{_WORD_ALT})"
_AGE = re.compile(
    rf"(?<!\w)(?:(?:turns?|turning|aged?|age(?: of)?|umri wa|miaka|mwaka|miezi|mwezi)\s+{_NUMBER}"
    rf"|{_NUMBER}[\s-]*(?:years?|yrs?|months?)[\s-]*old|\d{{1,2}}\s?yo)(?!\w|[.,]\d)"  # "miaka 7, ile ya pink"
)


# how long something has gone on ("for 2 weeks", "wiki tatu", "siku tano"), how many people she speaks for ("we're
# four", "tuko watano", "6 people") and the children, guests or animals she has ("nina watoto watatu"): her story's
# numbers, never a count of a thing
_DURATION_OR_PEOPLE = re.compile(
    rf"(?<![\w-])(?<!to )(?:{_NUMBER}\s+(?:weeks?|days?|months?|years?|nights?|people|persons|of us|pax|guests)"
    rf"|(?<!sukuma )(?:wiki|siku|miezi|mwezi|miaka|mwaka|watu|wageni)\s+{_NUMBER}"  # never "sukuma wiki tatu"
    rf"|(?:we re|we are|were|tuko|tupo|sisi ni|family of)\s+{_NUMBER}"
    # "I'm making pilau for 25": how many she cooks or hosts for
    rf"|(?:making|cooking|cook|feeding|feed|hosting|host)\s+(?:\w+\s+){{0,2}}for\s+{_NUMBER}"
    rf"|(?:nina|tuna|nimekuwa na)\s+(?:watoto|wageni|ng ombe|mbuzi|kuku|wafanyakazi|watu)\s+{_NUMBER}"
    # "ng'ombe zangu tatu", "watoto wangu wawili": her animals or people, with whose they are
    rf"|(?:watoto|wageni|ng ombe|mbuzi|kuku|wafanyakazi|watu)\s+(?:wangu|zangu|yangu|wetu|zetu|yetu)\s+{_NUMBER})(?!\w)"
)


# a number said as a spec's value ("storage ya 256", "RAM 16", "capacity of 500"): the option, never a count
_SPEC_NUMBER = re.compile(
    r"(?<!\w)(?:storage|ram|memory|rom|capacity|uwezo)\s+(?:ya\s+|of\s+|ni\s+|is\s+)?\d{1,4}(?!\w)"
)


def without_negated_counts(plain: str) -> str:
    """The message without the counts it corrects away ("unga ni pakiti tatu sio moja": three), the ages it says
    ("costume ya spiderman ya miaka sita": one costume, for a six-year-old), how long or for how many people ("for 2
    weeks", "we're four"), a spec's value ("storage ya 256") and its sizes of two dimensions ("sheets for 3 by 6
    beds"), each blanked to its length."""
    for numbers_of_no_count in (_NEGATED_COUNT, _AGE, _DURATION_OR_PEOPLE, _SPEC_NUMBER, DIMENSIONS):
        plain = numbers_of_no_count.sub(lambda m: " " * len(m.group(0)), plain)
    return plain


# fmt: off
STK_WORDS = (
    "mpesa prompt", "m pesa prompt", "m-pesa prompt", "stk", "stk push", "prompt", "push", "mpesa", "m pesa", "m-pesa",
    "lipa na mpesa", "lipa na m pesa", "lipa kwa mpesa", "kwa mpesa", "via mpesa", "with mpesa", "mobile money",
    "pesa ya simu", "ombi la mpesa", "ombi la kulipa", "ombi la malipo",
)
C2B_WORDS = (
    "paybill", "pay bill", "pay-bill", "till", "till number", "buy goods", "lipa kwa paybill", "lipa kwa till",
    "business number", "nambari ya biashara", "namba ya till",
)
CARD_WORDS = ("card", "visa", "mastercard", "master card", "pesapal", "kadi", "debit card", "credit card", "bank card")
DELIVERY_WORDS = (
    "deliver", "delivered", "delivery", "deliveries", "deliver it", "send it", "send them", "bring it", "bring them",
    "ship", "shipping", "courier", "rider", "boda", "niletee", "nileteeni", "leta", "letewa", "nitumie", "tuma",
    "tukuletee", "mniletee", "peleka", "nipelekee", "to my place", "to my house", "to my office", "home delivery",
    "kwa nyumba", "nyumbani", "mpaka kwangu",
)
# "nitumie ofa", "tuma link", "send me the receipt": sending a message, not delivering the goods
_SEND_A_MESSAGE = re.compile(
    r"\b(nitumie|tuma|send me|send)\b(?=(?: \w+){0,2} (?:ofa|offers?|taarifa|ujumbe|messages?|link|picha|photos?|"
    r"pictures?|receipt|risiti|updates|matangazo|code|details|location)\b)"
)
PICKUP_WORDS = (
    "pickup", "pick up", "pick it up", "pick them up", "collect", "collection", "come for it", "come for them",
    "i ll come", "ill come", "i will come", "at the shop", "from the shop", "in store", "in-store", "nitakuja",
    "nitachukua", "kuchukua", "nichukue", "dukani", "nitapita", "nitafika dukani", "self collect", "pick it",
    "pick them", "pass by", "pass through", "nitapitia", "ntapitia", "ntapita", "nitapitia dukani", "nitakam kuchukua",
    "nitakam", "ntakam", "tutakam",
    "drive in", "to your shop", "at your bay", "to your bay", "at your garage", "to your garage", "at your workshop",
    "to your office",
)
# fmt: on
# English "till" before a time is "until" ("till after new year", "till friday", "till 5", "till then")
_UNTIL = re.compile(
    r"\s+(?:after|before|then|now|later|tomorrow|today|tonight|next|this|the end|end|morning|evening|noon|midnight|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|"
    r"september|october|november|december|christmas|new year|weekend|month|week|payday|"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm|o clock)\b|\d{1,2}(?::\d\d)(?!\d))"  # a time of day, never a Till number
)
_PAID_BY = re.compile(r"\b(?:by|via|with|using|use|through|kwa|na|the|your|pay|lipa|nitalipa|nilipe|mpesa|m pesa)\s+$")
_CODE = re.compile(
    r"(?<!\w)(?:promo|discount|coupon|voucher|kuponi|code|kodi)(?!\w)(?:\s+(?:code|codes|yangu|my))?"
    r"\s*(?:is|ni|:|=|-)?\s*(?:ni\s+)?[\"'“]?([A-Za-z0-9][A-Za-z0-9_-]{2,31})",
    re.I,
)
_CODE_STOP = frozenset(
    {"code", "codes", "coupon", "promo", "voucher", "kuponi", "is", "ni", "yangu", "my", "the", "a", "for", "please",
     "pls", "tafadhali", "to", "apply", "use", "tumia", "ya", "la", "kwa", "hii", "this", "that", "have", "nina"}
)  # fmt: skip
_PHONE = re.compile(r"(?<![\d+])(?:\+?\s*\(?\s*254\s*\)?[\s.-]*|0)?([17](?:[\s.-]*\d){8})(?!\d)")
_ORDER_REF = re.compile(r"\bord[\s-]?([2-9a-hjkmnp-tv-z]{5})\b", re.I)
# a reference typed with a character ours never use (0, 1, I, L, O, U: a misread or mistyped one) is still the
# reference the customer means: it is looked up and said not found, never read as nothing
_MISTYPED_ORDER_REF = re.compile(r"\bord-([0-9a-z]{5})\b", re.I)

EditAction = Literal["remove", "add_item", "fulfilment", "zone", "coupon", "quantity"]


@dataclass(frozen=True)
class QuantitySaid:
    value: int
    edit: QuantityEdit = "set"  # "add": one more / ongeza moja


@dataclass
class FrameDelta:
    """What one message says about the sale. ``None`` means unsaid; the journey keeps what it has."""

    quantity: QuantitySaid | None = None
    mode: FulfilmentMode | None = None
    zone: str | None = None  # one of the shop's zones, named or by one of its areas
    place: str | None = None  # the words naming where to deliver (an area, a landmark)
    method: PaymentMethod | None = None
    method_words: str | None = None  # what was said, when it names a method the shop has not enabled
    phone: str | None = None  # +2547XXXXXXXX
    coupon_code: str | None = None
    order_ref: str | None = None
    remove: bool = False  # "remove the case", "toa", "sitaki ..."
    add: bool = False  # "add a charger", "ongeza ..."
    spans: list[tuple[int, int]] = field(default_factory=list)  # parts of the normalised text that were read

    def said_anything(self) -> bool:
        return any(
            v is not None
            for v in (self.quantity, self.mode, self.zone, self.method, self.method_words, self.phone, self.coupon_code)
        )


def _cap(n: int) -> int | None:
    return n if 0 < n <= MAX_QUANTITY else None


def _word_value(word: str | None) -> int | None:
    return NUMBER_WORDS.get(word or "")


_TENS = {
    "kumi": 10, "ishirini": 20, "thelathini": 30, "arobaini": 40, "hamsini": 50, "sitini": 60, "sabini": 70,
    "themanini": 80, "tisini": 90,
}  # fmt: skip
_UNITS = {word: n for word, n in NUMBER_WORDS.items() if 1 <= n <= 9 and " " not in word}
# "kumi na mbili" is twelve (a Swahili compound number), also where a list is cut at "na"
TENS_AND = re.compile(rf"(?<!\w)({'|'.join(_TENS)})\s+na\s+({'|'.join(sorted(_UNITS, key=len, reverse=True))})(?!\w)")


def compound_value(match: re.Match[str]) -> int:
    """The number a :data:`TENS_AND` match says."""
    return _TENS[match.group(1)] + _UNITS[match.group(2)]


def is_a_minibus(word: str, before: Sequence[str]) -> bool:
    """Whether "matatu" is the minibus, not three: three of the "ma-" class follows its noun ("mayai matatu",
    "madumu matatu"); after any other word ("a matatu guy", "nina matatu mbili") it is the vehicle."""
    return word == "matatu" and not (before and before[-1].startswith("ma") and before[-1] != "matatu")


def extract_quantity(
    plain: str, *, bare_number_is_quantity: bool = False
) -> tuple[QuantitySaid | None, list[tuple[int, int]]]:
    """The quantity a message states: digits with a counting word, after a verb of buying, or in
    words ("mbili", "a dozen", "kumi na mbili"), and increments ("ongeza moja", "one more")."""
    compound = TENS_AND.search(plain)
    if compound and plain[: compound.start()].split()[-1:] == ["saa"]:  # "saa kumi na moja" is five o'clock: no count
        plain = plain[: compound.start()] + " " * (compound.end() - compound.start()) + plain[compound.end() :]
        compound = TENS_AND.search(plain)
    if compound:
        return QuantitySaid(compound_value(compound)), [compound.span()]
    if m := _Q_INCREMENT.search(plain):
        if m.group(0) in ("another one", "one more", "ingine moja", "nyingine moja", "moja zaidi"):
            value: int | None = 1
        else:
            value = (
                int(m.group(1) or m.group(3)) if (m.group(1) or m.group(3)) else _word_value(m.group(2) or m.group(4))
            )
        if value and _cap(value):
            return QuantitySaid(value, "add"), [m.span()]
    if m := _Q_SET.search(plain):
        value = int(m.group(1)) if m.group(1) else _word_value(m.group(2))
        if (
            value
            and _cap(value)
            and not (m.group(2) == "one" and not re.search(r"(?:make it|change|only|just)", m.group(0)))
        ):
            return QuantitySaid(value), [m.span()]
    if m := _Q_DOZENS.search(plain):
        digits, word = m.group(1) or m.group(3), m.group(2) or m.group(4)
        dozens = int(digits) if digits else _PLAIN_NUMBER_WORDS.get(word, 0)
        if dozens and _cap(12 * dozens):
            return QuantitySaid(12 * dozens), [m.span()]
    if m := _Q_OF_THEM.search(plain):  # "tyres for my hilux, 4 of them": never "one of them", the pronoun
        value = int(m.group(1)) if m.group(1) else _word_value(m.group(2))
        if value and value > 1 and _cap(value):
            return QuantitySaid(value), [m.span()]
    if m := _Q_TIMES_SAID.search(plain):  # "lita 4 mara tatu", "4L times 3": the count, never the 4 of the litres
        value = int(m.group(1)) if m.group(1) else _word_value(m.group(2))
        if value and _cap(value):
            return QuantitySaid(value), [m.span()]
    for pattern in (_Q_UNIT_AFTER, _Q_UNIT_BEFORE, _Q_TIMES, _Q_AFTER_VERB, _Q_LEADING, _Q_BEFORE_PLURAL):
        if m := pattern.search(plain):
            digits = next(g for g in m.groups() if g)
            if _cap(int(digits)):
                return QuantitySaid(int(digits)), [m.span()]
    if bare_number_is_quantity and (m := _ONLY_NUMBER.match(plain)) and _cap(int(m.group(1))):
        return QuantitySaid(int(m.group(1))), [m.span()]
    for m in _Q_WORD.finditer(plain):
        word = m.group(1)
        before = plain[: m.start()].split()[-1:] if m.start() else []
        after = plain[m.end() :].split()[:1]
        if word == "both":
            continue  # "both" names the items, not a count of one of them
        if word == "one":
            counted = before and before[0] in ("just", "only", "need", "want", "take", "buy", "get", "be", "is", "ni")
            counted = counted or _one_before_a_noun(plain, m.start(), m.end())
            # "one tray", "one 90kg bag": a count of packs
            next_two = plain[m.end() :].split()[:2]
            counted = counted or (
                bool(after)
                and (
                    after[0] in COUNT_UNIT_WORDS
                    or bool(MEASURE_TOKEN.fullmatch(after[0]))
                    or (len(next_two) == 2 and bool(MEASURE_TOKEN.fullmatch("".join(next_two))))  # "one 20 litre"
                )
                and not _ASKS_AMOUNT.search(plain)
            )
            answered = bare_number_is_quantity and m.start() == 0  # "one, deliver to Westlands" to "how many?"
            if not (counted or answered):
                continue  # "the black one", "this one" are not counts
        if is_a_minibus(word, before):
            continue  # "a matatu guy", "matatu mbili za Nissan": the minibus
        if word in ("tatu", "sita", "saba", "tano", "nne", "kumi") and after[:1] == ["asubuhi"]:
            continue  # a time of day ("saa tatu asubuhi"), not a count
        if before[-1:] == ["saa"]:
            continue  # "saa tano": five o'clock
        if before[-1:] and before[-1] in ("kwa", "for", "per", "each") and _ASKS_AMOUNT.search(plain):
            continue  # "embe ni ngapi kwa moja": the price of each, not a count
        if (
            before
            and (before[-1] in MEASURE_NAMES or before[-1] in ("elfu", "mia"))
            and not _has_its_amount(plain[: m.start()])
        ) or after[:1] in ([w] for w in MEASURE_NAMES):
            continue  # "lita tatu", "three litres" are measures, "lita elfu moja" a thousand: not counts
        return QuantitySaid(NUMBER_WORDS[word]), [_with_unit(plain, m.span())]
    if (m := _Q_ONE_UNIT.search(plain)) and not _ASKS_AMOUNT.search(plain):
        return QuantitySaid(1), [m.span()]
    return None, []


def extract_method(plain: str, enabled: list[str]) -> tuple[PaymentMethod | None, str | None, list[tuple[int, int]]]:
    """The payment method named: card words, Paybill/Till words, M-Pesa words (a prompt when the
    shop sends prompts, else its Paybill or Till). A method the shop lacks comes back as words."""
    spans: list[tuple[int, int]] = []

    def find(words: tuple[str, ...]) -> str | None:
        for w in sorted(words, key=len, reverse=True):
            for m in re.finditer(rf"(?<!\w){re.escape(w)}(?!\w)", plain):
                if w == "till" and _UNTIL.match(plain, m.end()) and not _PAID_BY.search(plain, 0, m.start()):
                    continue  # "won't be back till after new year": until, not the shop's Till
                spans.append(m.span())
                return w
        return None

    for method, words in (("pesapal", CARD_WORDS), ("mpesa_c2b", C2B_WORDS), ("mpesa_stk", STK_WORDS)):
        said = find(words)
        if said is None:
            continue
        if (
            method == "mpesa_stk"
            and "mpesa_stk" not in enabled
            and "mpesa_c2b" in enabled
            and said
            not in (
                "stk",
                "stk push",
                "prompt",
                "push",
                "mpesa prompt",
                "m pesa prompt",
                "m-pesa prompt",
                "ombi la mpesa",
            )
        ):
            return "mpesa_c2b", None, spans  # "M-Pesa" at a shop without prompts: its Paybill or Till
        if method in enabled:
            return method, None, spans  # type: ignore[return-value]
        return None, said, spans
    return None, None, spans


def says_removal(plain: str) -> bool:
    """Whether a message says to take something out ("toa", "remove", "sitaki")."""
    return _has(plain, REMOVE_WORDS) is not None


def _has(plain: str, words: tuple[str, ...]) -> tuple[int, int] | None:
    for w in sorted(words, key=len, reverse=True):
        if m := re.search(rf"(?<!\w){re.escape(w)}(?!\w)", plain):
            return m.span()
    return None


def _all(plain: str, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """Every place one of ``words`` is said (longest first, not overlapping)."""
    spans: list[tuple[int, int]] = []
    for w in sorted(words, key=len, reverse=True):
        for m in re.finditer(rf"(?<!\w){re.escape(w)}(?!\w)", plain):
            if all(m.end() <= a or m.start() >= b for a, b in spans):
                spans.append(m.span())
    return sorted(spans)


# "nitaichukua", "tutazichukua", "nikuje nichukue": a form of "to pick up" with its subject (and object) said
# "take" said of how many or which she takes ("nitachukua mbili", "kuchukua saizi moja juu", "nitachukua ile
# kubwa"), not of where she takes them from
_TAKES_A_COUNT = re.compile(
    rf"\s+(?:\d{{1,4}}|{_NUMBER_WORD_ALT}|saizi|size|ile|hii|hiyo|zile|hizi|hizo)(?!\w)(?!\s+(?:dukani|shop|store))"
)
_PICKUP_VERB = re.compile(r"(?<!\w)(?:ni|tu|nt)(?:ta|na|ka)?(?:i|zi|ki|vi|li|u|m|wa)?chuku[ae](?!\w)")


# "no delivery needed", "sitaki delivery", "don't deliver", "not pickup": the one said away is the other; never its fee
# ("hakuna delivery charges?", "bila delivery fee"), a time of it ("don't deliver after 6pm") or "why not"
_SAID_AWAY = re.compile(
    r"(?<!\w)(?<!why )(?:not|don t|dont|do not|without|no need to|no need for|sitaki|sihitaji|hakuna|hamna|bila|"
    r"hakuna haja ya|hakuna haja ku)\s*$"
)
_NO_BEFORE = re.compile(r"(?<!\w)no\s*$")  # "no delivery needed": only so ("no, delivery please" is her answer)
_NEEDED = re.compile(r"\s+(?:needed|required)(?!\w)")
_OF_IT = re.compile(
    r"\s+(?:fees?|charges?|costs?|price|prices|ada|gharama|bei|after|before|until|till|on|at|kabla|baada|mpaka)(?!\w)"
)


_ANOTHER_PICKUP = re.compile(r"(?<!\w)(?:the|a|an)\s+(?!(?:shop|store|duka|yard|office|counter)\s)[a-z]+\s+$")


def _said_away(plain: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [
        (a, b)
        for a, b in spans
        if not _OF_IT.match(plain, b)
        and (_SAID_AWAY.search(plain, 0, a) or (_NO_BEFORE.search(plain, 0, a) and _NEEDED.match(plain, b)))
    ]


def extract_mode(plain: str) -> tuple[FulfilmentMode | None, list[tuple[int, int]]]:
    pickup, delivery = _all(plain, PICKUP_WORDS), _all(plain, DELIVERY_WORDS)
    no_delivery, no_pickup = _said_away(plain, delivery), _said_away(plain, pickup)
    delivery = sorted([span for span in delivery if span not in no_delivery] + no_pickup)
    pickup = sorted([span for span in pickup if span not in no_pickup] + no_delivery)
    pickup += [m.span() for m in _PICKUP_VERB.finditer(plain) if all(m.end() <= a or m.start() >= b for a, b in pickup)]
    pickup = [span for span in pickup if not _TAKES_A_COUNT.match(plain, span[1])]  # "nitachukua mbili": I'll take two
    # "at the JKIA pickup", "the school pickup": a pickup of something else, of her story
    pickup = [span for span in pickup if not _ANOTHER_PICKUP.search(plain, 0, span[0])]
    messages = [m.span(1) for m in _SEND_A_MESSAGE.finditer(plain)]
    delivery = [span for span in delivery if span not in messages]  # "nitumie ofa" sends offers, not goods
    if pickup and not delivery:
        return "pickup", pickup
    if delivery and not pickup:
        return "delivery", delivery
    if pickup and delivery:  # "change to pickup, no delivery": the later word wins
        return ("pickup" if pickup[-1][0] > delivery[-1][0] else "delivery"), pickup + delivery
    return None, []


def _places_of(zone: str, areas: list[str]) -> list[str]:
    """The places a zone's name lists ("Kiserian & Ngong": Kiserian, Ngong) and its areas without a word
    for a town ("Ngong Town": Ngong)."""
    listed = re.split(r"\s*(?:&|,|/|\+|\band\b|\bna\b)\s*", zone)
    towns = [re.sub(r"(?i)\s+(?:town|township|centre|center|mjini)$", "", a) for a in areas]
    return [p for p in (*listed, *towns) if p and p not in (zone, *areas)] if len(listed) > 1 or towns else []


def extract_zone(
    plain: str, zones: list[tuple[str, list[str]]]
) -> tuple[str | None, str | None, list[tuple[int, int]]]:
    """The shop's zone named anywhere in the sentence, by its name or one of its areas (the longest
    name wins: "Nairobi West" over "Nairobi"). Returns (zone, the words said, span)."""
    best: tuple[tuple[bool, int], str, str, tuple[int, int]] | None = None
    for zone, areas in zones:
        for candidate in (zone, *areas, *_places_of(zone, areas)):
            needle = normalize(candidate)
            if not needle:
                continue
            m = re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", plain)
            if m is None:
                continue
            # "Ruaka, Joyland area off Limuru road": a place named as the road she lives off is where she is not
            rank = (not _A_ROAD_OF.match(plain, m.end()), len(needle))
            if best is None or rank > best[0]:
                best = (rank, zone, candidate, m.span())
    if best is None:
        return None, None, []
    return best[1], best[2], [best[3]]


_A_ROAD_OF = re.compile(r"\s+(?:road|rd|highway|hwy|bypass|by pass|drive|street|avenue|lane)\b")


# a code said a few words after the word for it ("code ya punguzo ni SAVE10", "promo code for today is
# KARIBU10") or after a verb of using it ("apply WELCOME10", "tumia JUMA20"): it must look like a code
_CODE_WORD = re.compile(
    r"(?<!\w)(?:promo|discount|coupon|voucher|kuponi|code|kodi|punguzo|apply|tumia|use|weka)(?!\w)", re.I
)
_TOKEN_AFTER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_LOOKS_LIKE_A_CODE = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_-]{4,}$|^[A-Z]{4,}[A-Z0-9_-]*$")


def may_name_code(text: str) -> bool:
    """Whether some word of the message looks like a coupon code (then the shop's codes are worth reading)."""
    return any(_LOOKS_LIKE_A_CODE.match(t.group(0)) for t in _TOKEN_AFTER.finditer(text))


_CODE_BEFORE = re.compile(
    r"(?<![\w-])([A-Za-z0-9][A-Za-z0-9_-]{3,31})\s+(?:promo\s+|discount\s+|coupon\s+)?"
    r"(?:code|coupon|voucher|kuponi|promo)(?!\w)",
    re.I,
)


def extract_coupon(text: str, shop_codes: Iterable[str] = ()) -> tuple[str | None, list[tuple[int, int]]]:
    """The coupon code said: one of the shop's own codes anywhere in the message ("hii blackfriday25
    inafanya?"); else right after a word for it ("code KARIBU10", "promo: save10"), a few words after it
    or a verb of using it, or just before it ("the KARIBU15 code": letters and digits), when it looks
    like a code (letters and digits, or capitals)."""
    known = {c.casefold() for c in shop_codes if c}
    if known:
        for found in _TOKEN_AFTER.finditer(text):
            token = found.group(0)
            # a code of plain letters counts in capitals only ("KARIBU", never the greeting "karibu")
            if token.casefold() in known and (token.isupper() or any(ch.isdigit() for ch in token)):
                return token.upper(), [found.span()]
    for m in _CODE.finditer(text):
        token = m.group(1)
        if token.casefold() in _CODE_STOP:
            continue
        # letters and digits, capitals, or one of the shop's own codes: never a word ("no more promo messages")
        if not (any(ch.isdigit() for ch in token) or token.isupper() or token.casefold() in known):
            continue
        return token.upper(), [m.span()]
    for word in _CODE_WORD.finditer(text):
        after = text[word.end() :]
        for found in itertools.islice(_TOKEN_AFTER.finditer(after), 4):
            token = found.group(0)
            if token.casefold() in _CODE_STOP or not _LOOKS_LIKE_A_CODE.match(token):
                continue
            if (
                token.casefold() == "ord"
                or _ORDER_REF.fullmatch(token)
                or (len(token) == 10 and token.isupper() and any(c.isdigit() for c in token))
            ):
                break  # an order number or an M-Pesa confirmation code, not a coupon
            start = word.end() + found.start()
            return token.upper(), [(start, start + len(token))]
    for m in _CODE_BEFORE.finditer(text):
        token = m.group(1)
        if any(ch.isdigit() for ch in token) and _LOOKS_LIKE_A_CODE.match(token) and not _ORDER_REF.fullmatch(token):
            return token.upper(), [m.span(1)]
    return None, []


def extract_phone(text: str) -> tuple[str | None, tuple[int, int] | None]:
    """A Kenyan mobile number in any common form, as +2547XXXXXXXX / +2541XXXXXXXX."""
    for m in _PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(1))
        try:
            return "+" + to_mpesa_msisdn("0" + digits), m.span()
        except InvalidInput:
            continue
    return None, None


def extract_order_ref(text: str) -> str | None:
    m = _ORDER_REF.search(text) or next(
        (m for m in _MISTYPED_ORDER_REF.finditer(text) if any(c.isdigit() for c in m.group(1))), None
    )
    return f"ORD-{m.group(1).upper()}" if m else None


# An M-Pesa confirmation code: ten letters and digits, starting with a letter ("SKL4ABC123").
_MPESA_CODE = re.compile(r"(?<![A-Za-z0-9-])([A-Za-z][A-Za-z0-9]{9})(?![A-Za-z0-9-])")
_PAID_WORDS = re.compile(
    r"\b(?:paid|pay|payment|mpesa|m-pesa|confirmed|confirmation|receipt|transaction|till|buy goods|"
    r"nimelipa|nimetuma|nimeshalipa|lipa|malipo|risiti|namba ya muamala|muamala|nimepay|nmelipa)\b",
    re.I,
)

_COUPON_WORDS = re.compile(r"\b(?:coupon|promo|voucher|discount|offer|kuponi|punguzo|ofa)\b", re.I)


def extract_mpesa_code(text: str) -> str | None:
    """The M-Pesa confirmation code in a message ("SKL4ABC123", alone, in a sentence or in the pasted
    M-Pesa SMS): ten letters and digits, at least one digit and three letters; written in capitals,
    or said with a word about paying, or sent alone; never in a message about a coupon."""
    if _COUPON_WORDS.search(text):
        return None
    alone = len(text.split()) == 1
    for m in _MPESA_CODE.finditer(text):
        token = m.group(1)
        digits = sum(ch.isdigit() for ch in token)
        if not digits or len(token) - digits < 3:
            continue
        if token.isupper() or alone or _PAID_WORDS.search(text):
            return token.upper()
    return None


REMOVE_WORDS = (
    "remove",
    "delete",
    "take out",
    "drop",
    "toa",
    "ondoa",
    "sitaki",
    "no longer want",
    "don t want",
    "dont want",
)
ADD_WORDS = ("add", "also", "plus", "as well", "ongeza", "pia", "na pia", "include")
# a message that opens with "and" goes on with what she was buying ("na masking tape rolls tatu", "and 2 brushes")
AND_OPENINGS = ("na", "and", "n", "pamoja na", "then")


def extract_delta(
    text: str,
    *,
    zones: list[tuple[str, list[str]]],
    enabled_methods: list[str],
    bare_number_is_quantity: bool = False,
    shop_codes: Iterable[str] = (),
) -> FrameDelta:
    """Everything the message says about the sale at once (``shop_codes``: the shop's coupon codes,
    read wherever they are said)."""
    plain = normalize(text)
    delta = FrameDelta()
    phone, _span = extract_phone(text)
    scrubbed = plain
    if phone:
        delta.phone = phone
        # the number's digits are not a quantity
        for digits in re.findall(r"[\d\s.+()-]{9,}", text):
            scrubbed = scrubbed.replace(normalize(digits), " ")
    delta.order_ref = extract_order_ref(text)
    if delta.order_ref:
        scrubbed = re.sub(r"\bord[\s-]?[2-9a-hjkmnp-tv-z]{5}\b", " ", scrubbed)
    delta.coupon_code, _ = extract_coupon(text, shop_codes)
    if delta.coupon_code:
        scrubbed = re.sub(rf"(?<!\w){re.escape(delta.coupon_code.casefold())}(?!\w)", " ", scrubbed)
    delta.quantity, spans = extract_quantity(
        without_negated_counts(scrubbed), bare_number_is_quantity=bare_number_is_quantity
    )
    delta.spans += spans
    delta.mode, spans = extract_mode(scrubbed)
    delta.spans += spans
    delta.zone, delta.place, spans = extract_zone(scrubbed, zones)
    delta.spans += spans
    if delta.zone and delta.mode == "pickup":  # "nitakuja kuchukua ngara": where she collects, not a delivery
        delta.zone = delta.place = None
    if delta.zone and delta.mode is None:
        delta.mode = "delivery"  # "to Westlands", "Kilimani": a place to deliver to
    delta.method, delta.method_words, spans = extract_method(scrubbed, enabled_methods)
    delta.spans += spans
    delta.remove = says_removal(scrubbed)
    goes_on = scrubbed.startswith(tuple(f"{word} " for word in AND_OPENINGS))
    delta.add = (_has(scrubbed, ADD_WORDS) is not None or goes_on) and not delta.remove
    return delta


def residual_words(text: str, delta: FrameDelta) -> str:
    """The message without what the extractors read (quantities, places, methods, codes, numbers):
    what is left may name products."""
    plain = normalize(text)
    for start, end in sorted(delta.spans, reverse=True):
        plain = plain[:start] + " " + plain[end:]
    if delta.coupon_code:
        plain = re.sub(rf"(?<!\w){re.escape(delta.coupon_code.casefold())}(?!\w)", " ", plain)
        plain = re.sub(r"(?<!\w)(?:promo|discount|coupon|voucher|kuponi|code|kodi)(?!\w)", " ", plain)
    if delta.phone:
        plain = re.sub(r"[+\d][\d\s-]{8,}", " ", plain)
    plain = re.sub(r"\bord[\s-]?[2-9a-hjkmnp-tv-z]{5}\b", " ", plain)
    return " ".join(w for w in plain.split() if w not in _PAY_FILLER)


_PAY_FILLER = frozenset(
    """
    i ll ill will pay pays paying with by via using kwa na nitalipa nilipe kulipa lipa to in at from the my
    it them deliver delivered delivery niletee leta tuma please pls tafadhali and also plus remove add ongeza toa
    ondoa make change instead badala badilisha iwe ziwe more zaidi another use tumia apply
    """.split()
)


# how people say sizes and measures of an option ("large" is L, "1 litre" is 1L, "128 gb" is 128GB)
# a size of two dimensions, as beds, mattresses, carpets and prints are sold ("5 by 6", "tano kwa sita", "5 x 6": 5x6)
_DIMENSION_NUMBER = r"\d{1,3}|" + "|".join(sorted((re.escape(w) for w in _PLAIN_NUMBER_WORDS), key=len, reverse=True))
DIMENSIONS = re.compile(rf"(?<![\w.])({_DIMENSION_NUMBER})\s*(?:x|by|kwa|\*|×)\s*({_DIMENSION_NUMBER})(?![\w.])")


_DIMENSION_UNIT = re.compile(r"(?<![\w.])(\d{1,4}x\d{1,4})\s?(?:cm|mm|m|ft|in|inch|inches)(?!\w)")


def dimension_words(m: re.Match[str]) -> str:
    """A size of two dimensions as catalogs write it ("5x6")."""
    return f"{_digits(m.group(1))}x{_digits(m.group(2))}"


def _digits(number: str) -> str:
    return number if number.isdigit() else str(_PLAIN_NUMBER_WORDS[number])


# who an option is for, in one form ("ya mtoto" of "Kids", "ya watu wazima" of "Adult")
_AGE_GROUPS = {
    **dict.fromkeys("kid kids child children childs mtoto watoto toto mtoi".split(), "kids"),
    **dict.fromkeys("adult adults wazima mzima wakubwa".split(), "adult"),
}
_SIZE_WORDS = {
    "small": "s", "medium": "m", "large": "l", "big": "l", "extra large": "xl", "x large": "xl", "xlarge": "xl",
    "double xl": "xxl", "2xl": "xxl", "xx large": "xxl", "extra small": "xs",
}  # fmt: skip
_UNIT_WORDS = {
    "litre": "l", "litres": "l", "liter": "l", "liters": "l", "lita": "l", "ltr": "l", "l": "l", "kilo": "kg",
    "kilos": "kg", "kg": "kg", "kgs": "kg", "gramu": "g", "g": "g", "gm": "g", "gms": "g", "grams": "g", "ml": "ml",
    "gb": "gb", "gig": "gb", "gigs": "gb", "gigabyte": "gb", "gigabytes": "gb", "terabyte": "tb", "terabytes": "tb",
    "tb": "tb", "inch": "inch", "inches": "inch", "inchi": "inch", "futi": "ft", "feet": "ft", "foot": "ft",
}  # fmt: skip
_SIZE_ALT = "|".join(sorted((re.escape(w) for w in _SIZE_WORDS), key=len, reverse=True))
_UNIT_ALT_OPTION = "|".join(sorted((re.escape(w) for w in _UNIT_WORDS), key=len, reverse=True))


# half and quarter measures said in words, as the sizes catalogs write ("nusu lita": 500ml, "robo kilo": 250g)
_FRACTIONS = (
    (re.compile(r"(?<!\w)(?:nusu|half(?: a)?)\s+(?:lita|litre|liter|ltr)(?!\w)"), "500ml"),
    (re.compile(r"(?<!\w)(?:robo|quarter(?: of a| a)?)\s+(?:lita|litre|liter|ltr)(?!\w)"), "250ml"),
    (re.compile(r"(?<!\w)(?:nusu|half(?: a)?)\s+(?:kilo|kg)(?!\w)"), "500g"),
    (re.compile(r"(?<!\w)(?:robo|quarter(?: of a| a)?)\s+(?:kilo|kg)(?!\w)"), "250g"),
)

# any other half or quarter of a thing, as its options write it ("1/2 Acre"; "/" is no word)
_HALF = re.compile(r"(?<!\w)(?:nusu|half)(?:\s+(?:of\s+)?an?|\s+ya|\s+la)?\s+(?=[a-z])")
_QUARTER = re.compile(r"(?<!\w)(?:robo|quarter)(?:\s+(?:of\s+)?an?|\s+ya|\s+la)?\s+(?=[a-z])")

# lengths of time as minutes, as services' options write them ("30 minutes", "1 hour"): "nusu saa", "half an hour",
# "saa nzima", "an hour", "90 min" (never "saa moja" or "saa mbili": seven and eight o'clock in Swahili time)
_DURATIONS = (
    (re.compile(r"(?<!\w)(?:nusu saa|half an hour|half hour|dakika thelathini)(?!\w)"), "30 minutes"),
    (re.compile(r"(?<!\w)(?:saa nzima|lisaa (?:li)?moja|an hour|one hour|full hour)(?!\w)"), "60 minutes"),
    (re.compile(r"(?<![\w.])(\d{1,2})\s*(?:hours?|hrs?)(?!\w)"), lambda m: f"{int(m.group(1)) * 60} minutes"),
    (re.compile(r"(?<![\w.])(\d{1,3})\s*(?:minutes?|mins?|dakika)(?!\w)"), lambda m: f"{int(m.group(1))} minutes"),
)


def option_words(text: str) -> str:
    """Words of an option or of a message in one form: colours in English, size words as sizes, a
    number and its unit joined ("1 litre" -> "1l", "128 gb" -> "128gb"), half and quarter measures as sizes."""
    plain = _and_a_half(_hundreds(normalize(text)))
    for fraction, size in _FRACTIONS:
        plain = fraction.sub(size, plain)
    for duration, minutes in _DURATIONS:
        plain = duration.sub(minutes, plain)
    plain = _HALF.sub("1 2 ", _QUARTER.sub("1 4 ", plain))  # "half an acre", "robo eka": as "1/2 Acre" is written
    plain = " ".join(_AGE_GROUPS.get(w, COLOURS.get(w, w)) for w in measures_in_digits(plain).replace("-", " ").split())
    plain = DIMENSIONS.sub(dimension_words, plain)  # "5 by 6": 5x6
    plain = _DIMENSION_UNIT.sub(r"\1", plain)  # "60x80cm" as "60 by 80" is said: 60x80
    plain = re.sub(
        rf"(?<![\w.])(\d+(?:\.\d+)?)\s*({_UNIT_ALT_OPTION})(?!\w)",
        lambda m: m.group(1) + _UNIT_WORDS[m.group(2)],
        plain,
    )
    # size words after the units are joined: "5 large avocados" is five of the size L, not 5 litres
    return re.sub(rf"(?<!\w)({_SIZE_ALT})(?!\w)", lambda m: _SIZE_WORDS[m.group(1)], plain)


_FOLDED_POSSESSIVE = re.compile(r"(?i)\b((?!(?:size|saizi|the|ya|in|a|an|and|or|na|ni|is|za)\b)[a-z]{2,})\s+s\b(?!-)")


def _uncontracted(text: str) -> str:
    """Without the letters of contractions and possessives ("I'm", "it's", "Samsung's"): never a size."""
    text = re.sub(r"(?i)\b(?:i|you|we|they|it|that|he|she)['’]?(?:m|s|ll|re|d|ve)\b", " ", text)
    text = re.sub(r"['’]s\b", "", text)
    # its apostrophe already folded away ("the old one s waste pipe", "men s shirt"): after a word that never names
    # a size ("size s", "the s", "ya s" still do)
    return _FOLDED_POSSESSIVE.sub(lambda m: m.group(1), text)


_REPLACED = re.compile(r"(?i)(?<!\w)(?:badala ya|instead of|in place of)\s+[^,.;!?]*")
_SIZE_CODES = frozenset(_SIZE_WORDS.values())  # the size words as option_words writes them ("m" of "medium")
_NOT_WORDS = r"sina|sitaki|sio|siyo|bila|without|not|don't want|dont want"  # words that say "not" of what follows
_NOT_THIS = re.compile(
    rf"(?i)(?<!\w)(?:{_NOT_WORDS})\s+(?:the\s+|a\s+|ile\s+)?\w+"
    # "sky blue hapana, iwe cream": the words a "no" ends refused (Swahili says the thing first)
    r"|(?<!\w)\w+(?:\s+\w+)?\s+(?:hapana|no way)(?=\s*(?:[,.;!?]|$))"
)


def adjective_root(word: str) -> str:
    """ "oily" of "oil", "silky" of "silk", "curly" of "curl": an option's adjective and the noun said ("ngozi ya
    mafuta": oil)."""
    return word[:-1] if len(word) >= 4 and word.endswith("y") and word[-2] not in "aeiou" else word


_THOUSANDS = re.compile(r"(?<!\w)(?:elfu|thousand)\s+(\w+)(?!\w)|(?<!\w)(\w+)\s+thousand(?!\w)|(?<!\w)(\d{1,3})k(?!\w)")


def _in_thousands(text: str) -> str:
    """Thousands said in words as digits ("elfu kumi", "ten thousand", "10k": 10000), for options that are amounts."""

    def digits(m: re.Match[str]) -> str:
        said = next(g for g in m.groups() if g)
        value = int(said) if said.isdigit() else NUMBER_WORDS.get(said)
        return str(value * 1000) if value else m.group()

    return _THOUSANDS.sub(digits, text)


# an option that is another's without ("Unpainted" of Painted, "Non-stick", "Without sugar", "No onions")
_NEGATIVE_OPTION = re.compile(r"(?i)^(?:un|non[- ]?|without\s+|no\s+|bila\s+)(\w.*)$")
# a word that says "not" of what follows or of its own verb: "not painted", "bila rangi", "isiyopakwa rangi" (which is
# not painted), "hazijapakwa rangi" (have not been painted)
_NEGATED = re.compile(
    rf"(?i)(?<!\w)(?:{_NOT_WORDS}|non|don t want"
    r"|(?:isiyo|zisizo|visivyo|kisicho|lisilo|usio|yasiyo|asiye|wasio"
    r"|hazija|haija|haiku|hazikuwa)\w*)(?!\w)"
)
NEGATED_WORDS = 3  # the words after a "not" it says "not" of
_HEDGES = frozenset("sure certain yet only just uhakika bado".split())  # "not sure", "sina uhakika", "not yet"
_WITH = re.compile(r"(?i)^\s*(?:with|na)\s+")  # "With sugar", the other of "Without sugar"


# a Swahili verb or adjective that carries its own "not" ("isiyorandwa": not planed; "haijapakwa": not painted)
_NOT_OF_ITSELF = re.compile(
    r"(?i)(?:isiyo|zisizo|visivyo|kisicho|lisilo|usio|yasiyo|asiye|wasio|hazija|haija|haiku)(\w{3,})"
)


def _said_not(text: str) -> Iterator[tuple[int, int, list[str]]]:
    """Each "not" she says, with the words it says it of (where it starts, where they end, the words), but a doubt
    ("not sure, painted i guess", "sina uhakika")."""
    for said in _NEGATED.finditer(text):
        after = re.match(rf"(?:\s*\S+){{1,{NEGATED_WORDS}}}", text[said.end() :])
        next_words = after.group(0).split() if after else []
        if own := _NOT_OF_ITSELF.match(said.group(0)):
            # the word's own root is what is not, with the words of its clause ("isiyopakwa rangi": not painted;
            # "isiyorandwa, rough": not planed, and rough)
            clause = re.match(rf"(?:\s+[^\s,.;!?]+){{0,{NEGATED_WORDS}}}", text[said.end() :])
            words = clause.group(0).split() if clause else []
            yield said.start(), said.end() + (clause.end() if clause else 0), [own.group(1), *words]
            continue
        if next_words and next_words[0].strip(",.;!?") not in _HEDGES:
            yield said.start(), said.end() + (after.end() if after else 0), next_words


def _the_one_without(text: str, options: list[str], name: str) -> str | None:
    """The option that is another's without, when she says "not" of the other ("isiyopakwa rangi": Unpainted, not
    Painted; "bila sukari": Without sugar)."""
    for negative in options:
        m = _NEGATIVE_OPTION.match(without_brackets(negative).strip())
        positive = m and next(
            (
                o
                for o in options
                if o != negative and option_words(_WITH.sub("", without_brackets(o))) == option_words(m.group(1))
            ),
            None,
        )
        if not positive:
            continue
        for _start, _end, next_words in _said_not(text):
            if named_option(_NEGATED.sub(" ", " ".join(next_words)), [positive], name) == positive:
                return negative
    return None


def _the_other_of_two(text: str, options: list[str], name: str) -> str | None:
    """Of two options, the one she did not say "not" of, when she names no option otherwise ("sio kiln dried" of
    Standard and Kiln Dried: Standard)."""
    if len(options) != 2:
        return None
    refused, rest, at = set(), "", 0
    for start, end, next_words in _said_not(text):
        rest, at = rest + text[at:start], end
        if (no := named_option(" ".join(next_words), options, name)) is not None:
            refused.add(no)
    rest += text[at:]
    if len(refused) != 1 or named_option(rest, options, name) is not None:
        return None
    return next(o for o in options if o not in refused)


def named_option(text: str, options: list[str], name: str = "") -> str | None:
    """The one option of a list the message names ("black", "nyeusi", "the 256GB one", "large", "1 litre",
    "size 4" of "Size 4 (52)", "ndefu" of "Long", "miaka 5-7" of "Age 5-7"). ``name``: the item's or service's
    name (and the shop's other words for it), whose words name it, not one of its options ("yoga" of the Private Yoga
    Session is no "Power Yoga")."""
    if (without := _the_one_without(text, options, name)) is not None:
        return without
    if _NEGATED.search(text) and (other := _the_other_of_two(text, options, name)) is not None:
        return other
    if not any(_NOT_THIS.search(f"{o} x") for o in options):  # ("Without sugar" is an option's own name)
        text = _NOT_THIS.sub(" ", text)  # "acoustic, sina electric": the one she does not have or want names nothing
    text = _REPLACED.sub(" ", text)  # "saa nzima badala ya nusu saa", "red instead of black": the old one, unsaid
    literal = {w for o in options for w in normalize(o).split()}  # "rice" of "Beans and Rice": its option too
    own = set(normalize(name).split()) - literal  # as written: "waridi" is the shop's word for the rose, not pink
    others = [w for w in text.split() if normalize(w) not in own]
    # "waridi nyekundu" of a rose the shop calls "waridi" (waridi is also pink): the other words name the option when
    # they name one ("ya maua" alone: floral)
    if (
        own
        and others
        and len(others) < len(text.split())
        and (other := named_option(" ".join(others), options, name)) is not None
    ):
        return other
    text = _in_thousands(text)  # "ya elfu kumi" of "10000"
    if (multiple := multiple_said(text, options)) is not None:  # "outlet mbili", "two outlets": Double Outlet
        return multiple
    said_words = option_words(_uncontracted(text))
    english = option_words(in_english(_uncontracted(text)))
    # each word alone too: a phrase's folding may hide a word's own meaning ("za maua" is "floral"; "maua", "flower")
    english += " " + option_words(" ".join(in_english(w) for w in _uncontracted(text).split()))
    # a word of several meanings may name an option by any of them ("ngege kubwa": big or large, Large)
    english += "".join(f" {option_words(' '.join(m))}" for m in meanings_of(text))
    forms = {o: {option_words(o), option_words(without_brackets(o))} for o in options}
    # "three gang" of "3 Gang", "gang mbili" of "2 Gang": said whole only (never a lone number: "the black one")
    spoken = {o: {w for form in forms[o] if len(form.split()) > 1 for w in _in_number_words(form)} for o in options}
    for words in (said_words, english):
        padded = f" {words} "
        hits = [o for o in options if any(f" {form} " in padded for form in forms[o] | spoken[o])]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            return max(hits, key=len)  # "Light Blue" over "Blue"
    # a number of the option's own words counts beside them ("2 bedroom" is "2 bedrooms", not "1 bedroom")
    numbered = any(re.fullmatch(r"\d+", w) for o in options for form in forms[o] for w in form.split())
    sizes = {w for o in options for form in forms[o] for w in form.split() if w in _SIZE_CODES}
    said = {
        w
        for w in f"{said_words} {english}".split()
        if len(w) >= 3 or (re.search(r"\d", w) and (len(w) >= 2 or numbered)) or w in sizes  # "the medium one"
    }
    if numbered:  # "two bedroom", "vyumba viwili" (never "one": "the blue one" names no number)
        said |= {str(_PLAIN_NUMBER_WORDS[w]) for w in said if w in _PLAIN_NUMBER_WORDS and w not in ("one", "moja")}
    said |= {verb_key(w) for w in said} | {stem(w) for w in said}  # "fry" (of "wakaangwe") is "Fried"
    said -= set(option_words(name).split())
    said |= {adjective_root(w) for w in said}
    overlap = {
        o: len(
            said & {k for form in forms[o] for w in form.split() for k in (w, verb_key(w), stem(w), adjective_root(w))}
        )
        for o in options
    }
    best = max(overlap.values(), default=0)
    if best and list(overlap.values()).count(best) == 1:  # "dry cough" more than "chesty cough"
        return next(o for o, n in overlap.items() if n == best)
    if best:  # as many words of each: the one that says least besides ("mende": Cockroaches, not Bedbugs & Cockroaches)
        tied = [o for o, n in overlap.items() if n == best]
        extra = {o: len({w for form in forms[o] for w in form.split()}) - best for o in tied}
        fewest = min(extra.values())
        if list(extra.values()).count(fewest) == 1:
            return next(o for o, n in extra.items() if n == fewest)
    extreme = _extreme_measure(f"{said_words} {english}".split(), options)  # "vaseline ndogo": the 100ml
    if extreme is not None:
        return extreme
    numbers = said_words.split()
    ranged = [o for o in options if _numbers_said(re.findall(r"\d+", o), numbers)]  # "5-7" of "Age 5-7"
    if len(ranged) == 1:
        return ranged[0]
    within = option_within(text, options)  # "kama mita arobaini" of "Up to 20m" and "20 to 50m": the 20 to 50m
    if within is not None:
        return within
    # "the 128 one": 128GB, when only one option is 128-something; never a count of its unit ("2 pairs", "pakiti 2")
    digits = {
        w
        for n, w in enumerate(numbers)
        if w.isdigit()
        and not (n + 1 < len(numbers) and numbers[n + 1] in COUNT_UNIT_WORDS)
        and not (n > 0 and numbers[n - 1] in COUNT_UNIT_WORDS)
    }
    counted = [o for o in options if any(re.fullmatch(rf"{n}[a-z]+", option_words(o)) for n in digits)]
    return counted[0] if len(counted) == 1 else None


_RANGE_OPTION = (
    (re.compile(r"(?i)^\D*?(\d+(?:\.\d+)?)\s*[a-z]*\s*(?:-|–|to|hadi|mpaka)\s*(\d+(?:\.\d+)?)\D*$"), "between"),
    (re.compile(r"(?i)^\D*\b(?:up to|under|below|less than|chini ya|hadi|mpaka)\s*(\d+(?:\.\d+)?)\D*$"), "up to"),
    (re.compile(r"(?i)^\D*\b(?:over|above|more than|zaidi ya|juu ya)\s*(\d+(?:\.\d+)?)\D*$"), "over"),
    (re.compile(r"(?i)^\D*?(\d+(?:\.\d+)?)\s*[a-z]*\s*\+\D*$"), "over"),  # "50m+"
)


RANGE_ANSWER_WORDS = 5


def option_range(option: str) -> tuple[float, float] | None:
    """The numbers an option covers when it is a range ("20 to 50m", "Up to 20m", "Over 50m", "3-5 rooms", "10+")."""
    for pattern, kind in _RANGE_OPTION:
        if m := pattern.match(without_brackets(option).strip()):
            numbers = [float(g) for g in m.groups()]
            if kind == "between":
                return (min(numbers), max(numbers))
            return (0.0, numbers[0]) if kind == "up to" else (numbers[0], float("inf"))
    return None


MULTIPLES = {"single": 1, "double": 2, "dual": 2, "twin": 2, "triple": 3}


def multiple_said(text: str, options: list[str]) -> str | None:
    """The option named "Single/Double/Triple <thing>" said as the number of its thing ("outlet mbili", "two
    outlets", "2 outlets" of "Double Outlet"): the number right beside one of the option's other words."""
    words = normalize(text).split()
    found = []
    for option in options:
        own = normalize(option).split()
        times = [MULTIPLES[w] for w in own if w in MULTIPLES]
        rest = {w.rstrip("s") for w in own if w not in MULTIPLES}
        if len(times) != 1 or not rest:
            continue
        for n, word in enumerate(words):
            if word.rstrip("s") not in rest:
                continue
            beside = [words[m] for m in (n - 1, n + 1) if 0 <= m < len(words)]
            if any((w.isdigit() and int(w) == times[0]) or _PLAIN_NUMBER_WORDS.get(w) == times[0] for w in beside):
                found.append(option)
                break
    return found[0] if len(found) == 1 else None


def option_within(text: str, options: list[str]) -> str | None:
    """The one range option that holds the one number a short answer says ("about 40 metres", "kama mita arobaini"),
    when every option is a range; a number on the edge of two ranges names none, and a longer message's numbers may
    be its time or its count ("hedge trimming jumamosi saa mbili")."""
    ranges = {o: option_range(o) for o in options}
    if len(options) < 2 or any(r is None for r in ranges.values()):
        return None
    units = {m.group(1) for o in options if (m := re.search(r"\d\s*([a-z]+)\W*$", option_words(o)))}
    measured = (
        [float(m.group(1)) for m in re.finditer(rf"(?<![\w.])(\d+(?:\.\d+)?){units.pop()}\b", option_words(text))]
        if len(units) == 1
        else []
    )
    if len(measured) == 1:  # "ya mbwa mkubwa, ana kilo 20" of "5-25kg": the number said in the ranges' own unit
        inside = [o for o, r in ranges.items() if r is not None and r[0] <= measured[0] <= r[1]]
        return inside[0] if len(inside) == 1 else None
    if len(text.split()) > RANGE_ANSWER_WORDS:
        return None
    said = [float(w) for w in re.findall(r"\d+(?:\.\d+)?", _in_thousands(text))]
    said += [float(NUMBER_WORDS[w]) for w in re.findall(r"[a-z]+", text.lower()) if w in _TENS or w in _UNITS]
    if len(said) != 1:
        return None
    inside = [o for o, r in ranges.items() if r is not None and r[0] <= said[0] <= r[1]]
    return inside[0] if len(inside) == 1 else None


_MEASURED_OPTION = re.compile(r"(\d+(?:\.\d+)?)(ml|l|g|kg|gb|tb|inch)")
_MEASURE_BASE = {
    "ml": ("volume", 1), "l": ("volume", 1000), "g": ("mass", 1), "kg": ("mass", 1000), "gb": ("data", 1),
    "tb": ("data", 1024), "inch": ("length", 1),
}  # fmt: skip
# a size word said of an item whose options are measures: the smallest, the middle or the largest of them
_SMALLEST = frozenset({"s", "smaller", "smallest", "little", "mini"})
_LARGEST = frozenset({"l", "bigger", "biggest", "larger", "largest", "xl"})
SIZE_WORDS_OF_MEASURES = "small smaller smallest little mini big bigger biggest large larger largest medium kubwa"


def measured_options(options: list[str]) -> list[float] | None:
    """The sizes of options that are all measures of one kind ("250ml", "100ml"; "50kg", "25kg"), in one
    unit; None when any is not, or they are of different kinds."""
    sizes, kinds = [], set()
    for option in options:
        m = _MEASURED_OPTION.fullmatch(option_words(without_brackets(option)).replace(" ", ""))
        if m is None:
            return None
        kind, factor = _MEASURE_BASE[m.group(2)]
        kinds.add(kind)
        sizes.append(float(m.group(1)) * factor)
    return sizes if len(sizes) >= 2 and len(kinds) == 1 and len(set(sizes)) == len(sizes) else None


def _extreme_measure(said: list[str], options: list[str]) -> str | None:
    """The option a size word names among options that are measures: small the smallest, big or large the
    largest, medium the middle one of three ("vaseline ndogo" of 250ml and 100ml: 100ml)."""
    sizes = measured_options(options)
    if sizes is None:
        return None
    words = set(said)
    small, large = bool(words & _SMALLEST), bool(words & _LARGEST)
    ranked = sorted(range(len(options)), key=lambda i: sizes[i])
    if small != large:
        return options[ranked[0] if small else ranked[-1]]
    if not small and ("m" in words or "medium" in words) and len(options) == 3:
        return options[ranked[1]]
    return None


_WORDS_OF_DIGITS: dict[str, list[str]] = {}
for _word, _value in NUMBER_WORDS.items():
    if " " not in _word and _value <= 10 and _word != "both":
        _WORDS_OF_DIGITS.setdefault(str(_value), []).append(_word)


def _in_number_words(form: str) -> set[str]:
    """An option's words with its one small number said in words, in either order ("3 gang": "three gang",
    "gang tatu")."""
    words = form.split()
    digits = [n for n, w in enumerate(words) if w in _WORDS_OF_DIGITS]
    if len(digits) != 1:
        return set()
    at = digits[0]
    rest = words[:at] + words[at + 1 :]
    out = set()
    for said in _WORDS_OF_DIGITS[words[at]]:
        out.add(" ".join([*words[:at], said, *words[at + 1 :]]))
        out.add(" ".join([*rest, said]) if at == 0 else " ".join([said, *rest]))
    return out


def _numbers_said(own: list[str], words: list[str]) -> bool:
    """Whether an option's two or more numbers are said one after the other ("5 7" of "Age 5-7")."""
    return len(own) >= 2 and any(words[i : i + len(own)] == own for i in range(len(words)))
