"""Text normalisation for search: tokens, light English stemming, stopwords, and a small
English / Swahili / Sheng lexicon that maps everyday shop words to one canonical term.

The lexicon is deliberately about *kinds of things people buy and ask about*; a shop's own
names (brands, models) come from its catalog, and typos are handled by the index.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import pairwise

_TOKEN = re.compile(r"[a-z0-9]+")
_MIXED = re.compile(r"[a-z]+|[0-9]+")

STOPWORDS = frozenset(
    """
    a an and any are as at be by can do does for from get give have i im in is it its me my of on or our please
    show some that the this to u want we what which with you your need looking find buy sell selling hi hello hey
    there much how many price cost available got tell about like would could nataka ninataka nataa natafuta tafuta
    nipe niletee naomba omba una mna mko uko iko ziko kuna ya wa za la kwa na ni je gani bei ngapi hii hizi hiyo
    hizo hapa sasa tu pia au lakini kama sana mimi wewe yangu naweza nauliza uliza nisaidie saidia tafadhali karibu
    habari sasa niaje mambo vipi poa boss bro sista msee ama ile hiyo kitu vitu nini
    """.split()
)

# fmt: off
# Canonical term <- words that mean the same thing to a shopper (EN synonyms, SW, Sheng).
_LEXICON: dict[str, tuple[str, ...]] = {
    "phone": (
        "phone", "phones", "smartphone", "smartphones", "mobile", "simu", "rununu", "handset", "cellphone", "fon",
        "mlami",
    ),
    "featurephone": ("kadudu", "kabambe", "katululu", "mulika", "featurephone"),
    "charger": ("charger", "chaja", "charja", "adapter", "adaptor", "plug"),
    "cable": ("cable", "cables", "kebo", "waya", "cord", "usb"),
    "earphone": (
        "earphone", "earphones", "earbud", "earbuds", "earpiece", "headphone", "headphones", "headset", "earpods",
        "buds", "airpods",
    ),
    "powerbank": ("powerbank", "powerbanks", "banki"),
    "battery": ("battery", "batteries", "betri"),
    "laptop": ("laptop", "laptops", "notebook", "kompyuta", "tarakilishi", "laptopu", "computer", "pc"),
    "tv": ("tv", "tvs", "television", "televisheni", "runinga", "telly"),
    "speaker": ("speaker", "speakers", "spika", "woofer", "subwoofer", "soundbar", "sound"),
    "watch": ("watch", "watches", "saa", "smartwatch"),
    "case": ("case", "cases", "cover", "covers", "kava", "kifuniko", "pouch"),
    "protector": ("protector", "protectors", "glass", "tempered", "screenguard"),
    "memory": ("memory", "memorycard", "sd", "microsd", "memori", "kumbukumbu"),
    "tablet": ("tablet", "tablets", "tab", "ipad", "tabuleti"),
    "router": ("router", "routers", "wifi", "mifi", "modem"),
    "fridge": ("fridge", "refrigerator", "friji", "jokofu"),
    "iron": ("iron", "pasi"),
    "black": ("black", "nyeusi", "mweusi"),
    "white": ("white", "nyeupe", "mweupe"),
    "blue": ("blue", "bluu", "samawati"),
    "red": ("red", "nyekundu", "mwekundu"),
    "green": ("green", "kijani"),
    "gold": ("gold", "dhahabu"),
    "silver": ("silver", "fedha"),
    "pink": ("pink", "pinki"),
    "cheap": ("cheap", "affordable", "budget", "rahisi", "cheaper", "cheapest"),
    "hair": ("hair", "nywele"),
    "braid": ("braid", "braids", "braiding", "kusuka", "kusukwa", "nisukwe", "nisuke", "msuko", "rasta", "rastas"),
    "haircut": ("haircut", "cut", "kunyoa", "kunyolewa", "ninyoe", "kinyozi", "shave", "trim", "fade"),
    "nail": ("nail", "nails", "kucha", "manicure", "pedicure", "gel", "kupakwa"),
    "massage": ("massage", "masaji", "kukandwa"),
    "facial": ("facial", "uso", "face"),
    "wash": ("wash", "kuosha", "shampoo"),
    "makeup": ("makeup", "make", "urembo"),
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
    "hours": ("hours", "open", "opening", "close", "closing", "mnafungua", "mnafunga"),
    "location": ("location", "where", "wapi", "address", "shop", "duka", "located", "mahali"),
    "fee": ("fee", "fees", "charge", "charges", "gharama", "ada"),
    "time": ("time", "long", "days", "muda", "siku", "when", "lini"),
    "booking": ("booking", "book", "appointment", "reserve", "bukisha", "miadi"),
}

# Two-word names of one kind of thing, folded into one term before the lexicon applies.
PHRASES: dict[tuple[str, str], str] = {
    ("feature", "phone"): "featurephone", ("feature", "phones"): "featurephone", ("basic", "phone"): "featurephone",
    ("button", "phone"): "featurephone", ("mulika", "mwizi"): "featurephone", ("power", "bank"): "powerbank",
    ("power", "banks"): "powerbank", ("screen", "protector"): "protector", ("screen", "protectors"): "protector",
    ("screen", "guard"): "protector", ("memory", "card"): "memory", ("sd", "card"): "memory",
    ("flash", "disk"): "flashdisk", ("flash", "drive"): "flashdisk", ("smart", "watch"): "watch",
    ("ring", "light"): "ringlight", ("hard", "drive"): "harddrive", ("hard", "disk"): "harddrive",
    ("home", "theatre"): "hometheatre", ("sound", "bar"): "speaker", ("ear", "phones"): "earphone",
    ("head", "phones"): "earphone",
}

# fmt: on

CANONICAL: dict[str, str] = {}
for _canon, _words in _LEXICON.items():
    for _w in _words:
        CANONICAL.setdefault(_w, _canon)


def fold(text: str) -> str:
    """Lowercase and strip accents."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def stem(token: str) -> str:
    """Very light English plural stripping; numbers and short words are left alone."""
    if len(token) <= 3 or token.isdigit():
        return token
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith(("ches", "shes", "xes", "sses")):
        return token[:-2]
    if token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


@lru_cache(maxsize=50_000)
def canonical(token: str) -> str:
    if token in CANONICAL:
        return CANONICAL[token]
    stemmed = stem(token)
    return CANONICAL.get(stemmed, stemmed)


def raw_tokens(text: str) -> list[str]:
    """Alphanumeric runs; mixed runs such as ``128gb`` also yield ``128`` and ``gb``."""
    out: list[str] = []
    for tok in _TOKEN.findall(fold(text)):
        out.append(tok)
        if not tok.isalpha() and not tok.isdigit():
            parts = _MIXED.findall(tok)
            if len(parts) > 1:
                out.extend(parts)
    return out


def _fold_phrases(toks: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(toks):
        folded = PHRASES.get((toks[i], toks[i + 1])) if i + 1 < len(toks) else None
        if folded is not None:
            out.append(folded)
            i += 2
        else:
            out.append(toks[i])
            i += 1
    return out


def terms(text: str, *, drop_stopwords: bool = True) -> list[str]:
    """Canonical search terms of ``text``, in order, without duplicates."""
    toks = _fold_phrases(raw_tokens(text))
    # join a number with the unit that follows ("128 gb" -> also "128gb")
    joined = [a + b for a, b in pairwise(toks) if a.isdigit() and b.isalpha() and len(b) <= 3]
    seen: dict[str, None] = {}
    for tok in [*toks, *joined]:
        if drop_stopwords and tok in STOPWORDS:
            continue
        seen.setdefault(canonical(tok), None)
    return list(seen)
