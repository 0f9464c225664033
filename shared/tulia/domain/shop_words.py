"""The words every shop shares, in English, Swahili and Sheng: the stopwords of a shopping message, the
generic words of buying, paying, delivery and support folded to one term each, and how text is folded
(lowercase, accents stripped). The domain checks a shop's own vocabulary against them; search folds
every message and catalog with them."""

from __future__ import annotations

import unicodedata

STOPWORDS = frozenset(
    """
    a an and any are as at be by can do does for from get give have i im in is it its me my of on or our please
    show some that the this to u want we what which with you your need looking find buy sell selling hi hello hey
    there much how many price cost available got tell about like would could nataka ninataka nataa natafuta tafuta
    nipe niletee naomba omba una mna mko uko iko ziko kuna ya wa za la kwa na ni je gani bei ngapi hii hizi hiyo
    hizo hapa sasa tu pia au lakini kama sana mimi wewe yangu naweza nauliza uliza nisaidie saidia tafadhali karibu
    habari sasa niaje mambo vipi poa boss bro sista msee ama ile hiyo kitu vitu nini today tonight tomorrow now leo
    kesho wait ok okay sorry kindly actually just so then umm hmm eh aki bana basi ebu hebu yaani alafu halafu
    until mpaka hadi lenu yenu wenu zenu chenu vyenu kwenu lako yako wako zako chako vyako kwako liko lipo
    naeza unaeza mnaeza unaweza mnaweza tunaweza ninaweza ambayo ambao ambaye ambazo ambacho ambavyo
    ina hata kabla if doesnt dont didnt isnt wont doesn don didn isn wasn won t them those these they him us
    """.split()
)


def _request_verbs() -> frozenset[str]:
    """Swahili asks for things with a verb carrying "me" (ni-) and, mostly, the applicative ending (-ia/-ea:
    "for me"): nipe, nipatie, niletee, niuzie, unitumie, mniwekee, nipatieni. Built from the roots of getting,
    bringing, sending, selling, buying, setting aside, packing, weighing and finding, in every person who may
    be asked (u-, m-, a-), singular and plural, so any of their forms is a word of asking, not of the item."""
    stems = (  # the applied stem without its final -e ("pati" + e: nipatie; "lete" + e: niletee)
        "pati",
        "lete",
        "tumi",
        "uzi",
        "chukuli",
        "agizi",
        "weke",
        "eke",
        "tafuti",
        "nunuli",
        "pakuli",
        "paki",
        "fungi",
        "pimi",
        "hifadhi",
        "shikili",
        "bebe",
        "peleke",
        "tengeneze",
        "kati",
        "chaguli",
    )
    out = {"nipe", "nipeni", "unipe", "mnipe", "anipe", "nipee", "nisort", "nisorte"}
    for stem in stems:
        for person in ("ni", "uni", "mni", "ani"):
            out.update({f"{person}{stem}e", f"{person}{stem}eni"})
    return frozenset(out)


# the verbs of asking for something ("nipatie", "mniletee"): never words of an item
REQUEST_VERBS = _request_verbs()
STOPWORDS = STOPWORDS | REQUEST_VERBS

# fmt: off
# Words of buying, paying, delivery and support that mean one thing in every shop (EN, SW, Sheng),
# folded to one term. The words of a trade (phones, braids, cement, flour) are not here: they come
# from the shop's own vocabulary (``vocabulary.yaml`` in its pack) and from its catalog.
GENERIC_LEXICON: dict[str, tuple[str, ...]] = {
    "black": ("black", "nyeusi", "mweusi"),
    "white": ("white", "nyeupe", "mweupe"),
    "blue": ("blue", "bluu", "buluu", "samawati"),
    "red": ("red", "nyekundu", "mwekundu"),
    "green": ("green", "kijani"),
    "gold": ("gold", "dhahabu"),
    "silver": ("silver", "fedha"),
    "pink": ("pink", "pinki", "waridi"),
    "cheap": ("cheap", "affordable", "budget", "rahisi", "cheaper", "cheapest"),
    "faulty": (
        "faulty", "broken", "damaged", "defective", "spoilt", "spoiled", "dead", "imeharibika", "iliyoharibika",
        "ameharibika", "mbovu", "haifanyi", "haiwaki", "imevunjika", "iliyovunjika", "ikiharibika", "ikivunjika",
    ),
    "return": (
        "return", "returns", "returning", "refund", "refunds", "rudisha", "kurudisha", "exchange", "badilisha",
        "kubadilisha", "rejesha", "marejesho", "mnarudisha", "mtarudisha", "nirudishiwe", "kurudishiwa", "mnarefund",
        "mnabadilisha", "mtabadilisha", "nibadilishiwe",
    ),
    "delivery": (
        "delivery", "deliver", "deliveries", "shipping", "ship", "kuleta", "leta", "kufikisha", "usafirishaji",
        "rider", "boda",
    ),
    "warranty": ("warranty", "guarantee", "dhamana", "waranti"),
    "payment": (
        "payment", "pay", "paying", "paid", "malipo", "lipa", "kulipa", "nimelipa", "mpesa", "till", "paybill",
    ),
    "hours": (
        "hours", "open", "opening", "close", "closing", "mnafungua", "mnafunga", "mtafungua", "mtafunga", "kufungua",
        "kufunga", "fungua", "funga",
    ),
    "location": ("location", "where", "wapi", "address", "shop", "duka", "located", "mahali"),
    "fee": ("fee", "fees", "charges", "gharama", "ada"),
    "time": ("time", "long", "days", "muda", "siku", "when", "lini"),
    "w": ("watt", "watts", "wati"),  # "100 watts" is the "100W" of a name
    # measures said in words are the units of names: "kilo tano" meets "1kg", "lita tatu" "3L"
    "kg": ("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramu"),
    "g": ("g", "gm", "gms", "gram", "grams", "gramu", "gramme", "grammes"),
    "l": ("l", "ltr", "ltrs", "litre", "litres", "liter", "liters", "lita"),
    "m": ("metre", "metres", "meter", "meters", "mita"),
    "v": ("volt", "volts", "volti"),
    "booking": ("booking", "book", "appointment", "reserve", "bukisha", "miadi"),
}
# fmt: on

GENERIC_WORDS: dict[str, str] = {}
for _canon, _words in GENERIC_LEXICON.items():
    for _w in _words:
        GENERIC_WORDS.setdefault(_w, _canon)
GENERIC_TERMS = frozenset(GENERIC_LEXICON)


def fold(text: str) -> str:
    """Lowercase and strip accents."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
