"""Words and patterns of the rules engine and the fast path, in English, Swahili and Sheng.

Patterns are matched against text that :func:`normalize` has lower-cased, stripped of accents and
punctuation, and squeezed to single spaces.
"""

from __future__ import annotations

import re
import unicodedata


def normalize(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = re.sub(r"(?!(?<=\d)\.(?=\d))[^\w\s#+-]", " ", plain)  # a decimal point stays: "2.5mm", "1.8L"
    return re.sub(r"\s+", " ", plain).strip()


def any_phrase(text: str, phrases: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text) for p in phrases)


# fmt: off
# Opt-out is decided on the whole message (a lone keyword or a short request), never on a word
# inside a longer sentence: "my charger stopped working" is not an opt-out.
OPT_OUT = re.compile(
    r"^(please |pls |tafadhali )?("
    r"stop|stop all|stop all (messages|messaging)|unsubscribe|unsubscribe me|opt out|optout|cancel subscription|"
    r"end|quit|"
    r"no more (messages|texts)|leave me alone|"
    r"niache|niachie|niache (tafadhali|bana|basi)|usinisumbue|wacha kunisumbua|"
    r"stop (sending|messaging|texting)( me)?( messages| offers| promotions)?|"
    r"(don ?t|do not) (send|message|text) me( any)?( more)?( messages| offers)?|"
    r"acha|acha kunitumia( ujumbe| messages| sms| offers)?|wacha kunitumia( ujumbe| messages| offers)?|"
    r"sitaki (ujumbe|messages|offers|matangazo)( tena)?|usinitumie( ujumbe| messages| offers)?( tena)?|"
    r"niondoe|niondoe kwenye (orodha|list)|ondoa namba yangu|toa namba yangu|"
    r"wacha kunitext|stop kunitumia|stop kunitext|sitaki kusumbuliwa"
    r")( please| tafadhali| pls)?$"
)
OPT_IN = re.compile(
    r"^(please |pls )?(start|subscribe|opt in|optin|unstop|anza|nitumie (offers|ofa|matangazo)|"
    r"nataka (offers|ofa)|send me offers|yes send me offers)( please| tafadhali)?$"
)
HUMAN = (
    "agent", "human", "a person", "real person", "customer care", "customer service", "call me", "talk to someone",
    "speak to someone", "talk to a person", "speak to a person", "manager", "live agent", "representative",
    "nataka kuongea na mtu", "niongee na mtu", "nipigie", "mhudumu", "binadamu", "mtu halisi", "nipe mtu",
    "customer support", "talk to a human", "speak to a human", "talk to the owner", "speak to the owner",
    "the owner", "salesperson", "sales person", "a real human", "someone from the team", "mwenye duka",
    "niongee na mwenyewe",
)
LANGUAGE_REQUESTS = {
    "sw": ("kiswahili", "swahili", "kwa kiswahili", "ongea kiswahili", "in swahili"),
    "en": ("english", "kwa kingereza", "kiingereza", "kingereza", "in english", "speak english"),
    "sheng": ("sheng", "ongea sheng"),
}
# the languages' own names (a request in other words is read by the reader: see fastpath.language_asked)
LANGUAGE_NAMES = {
    "sw": ("kiswahili", "swahili"),
    "en": ("english", "kiingereza", "kingereza", "kizungu"),
    "sheng": ("sheng",),
}
LANGUAGE_REQUEST_FRAME = re.compile(
    r"^(please |pls |can you |could you |tafadhali |naomba |ongea |ongea nami |niongelee |speak |reply |jibu |"
    r"respond |talk )*"
    r"(in |kwa |na )?(kiswahili|swahili|english|kingereza|kiingereza|sheng)"
    r"( please| pls| tafadhali| plz)?( only| tu)?$"
)
YES = (
    "yes", "yeah", "yep", "yes please", "ok", "okay", "sure", "confirm", "confirmed", "correct", "go ahead",
    "proceed", "ndiyo", "ndio", "eeh", "ee", "sawa", "sawa sawa", "poa", "fiti", "sure thing", "yes confirm",
    "ndio tafadhali", "ok sawa", "y", "yea", "alright", "fine", "do it", "endelea",
)
NO = (
    "no", "nope", "nah", "hapana", "la", "sitaki", "cancel", "not now", "hapana asante", "no thanks",
    "hapana sitaki", "n", "sio", "si hivyo", "wrong",
)
INJECTION = re.compile(
    r"(ignore|disregard|forget) (all |the |your |any )*(previous|prior|above|earlier|system)? ?"
    r"(instructions|prompts?|rules)|you are now|act as (a|an|the) |pretend (to be|you are)|"
    r"(reveal|show|print) (me )?(your|the) (system )?(prompt|instructions)|system prompt|developer mode|"
    r"jailbreak|do anything now|new instructions:"
)
ABUSE = (
    "fuck", "fucking", "shit", "bitch", "bastard", "asshole", "idiot", "stupid bot", "mjinga", "malaya", "kuma",
    "msenge", "pumbavu", "mavi", "fala", "shenzi", "mshenzi", "kumamako", "wewe ni mjinga",
)
FRUSTRATION = (
    "unacceptable", "this is unacceptable", "terrible service", "very disappointed", "so disappointed",
    "useless", "not helping", "you are not helping", "waste of time", "this is ridiculous", "annoying", "hauelewi",
    "husaidii", "unanisumbua", "umenichosha", "nimechoka", "ujinga", "bure kabisa", "again?!", "still not",
    "bado tu", "for the last time",
)
PAYMENT_DISPUTE = (
    "i paid but", "paid but", "i have paid but", "nimelipa lakini", "nimelipa but", "nililipa lakini",
    "money was deducted", "pesa imekatwa", "pesa zimekatwa", "deducted but", "charged twice", "double charged",
    "nimekatwa", "paid twice", "nimelipa mara mbili", "payment not reflected", "haijaonyesha", "paid and no",
    "nimetuma pesa lakini",
)
REFUND = (
    "refund", "my money back", "return my money", "rudisha pesa", "nirudishie pesa", "nataka pesa yangu",
    "chargeback", "reverse the payment", "reversal",
)
DELIVERY_COMPLAINT = (
    "is late", "days late", "day late", "hours late", "too late", "still waiting", "still not here", "not yet arrived",
    "have not arrived", "haven t arrived", "havent arrived", "has not come", "hasn t come", "haijaletwa",
    "imechelewa", "mmechelewa", "zimechelewa", "never arrived", "not delivered", "hasn t arrived", "hasnt arrived",
    "has not arrived", "haijafika",
    "bado haijafika", "haikufika", "late delivery", "delivered the wrong", "wrong item", "damaged on arrival",
    "imefika imeharibika", "broken when it arrived", "rider didn t", "rider never",
)
# the words of a topic for a person; of them, a person's own risk goes to a person whatever else the message reads as
# ("is this medicine safe when pregnant"), while the others may name goods a purchase read for sure buys ("medicine
# for a cough", "police whistle")
PERSONAL_RISK = ("pregnant", "suicide", "kill myself")
SENSITIVE = (
    "lawyer", "sue you", "court", "police", "legal action", "mahakama", "wakili", "polisi", "medical", "medicine",
    "dawa ya", *PERSONAL_RISK,
)
# Swahili and Sheng greetings: a greeting is answered in its own language
SWAHILI_GREETINGS = (
    "habari", "habari yako", "habari yenu", "habari za asubuhi", "habari za mchana", "hujambo",
    "hamjambo", "jambo", "shikamoo", "salama", "hodi",
)
SHENG_GREETINGS = (
    "niaje", "niaje msee", "niaje boss", "sasa", "sasa boss", "sasa msee", "vipi", "mambo vipi", "sema", "uko aje",
)
THANKS = (
    "thank you", "thanks", "thanks a lot", "thank you so much", "ok thanks", "asante", "asante sana",
    "asante sana sana", "shukran", "sawa asante", "nashukuru",
)
GOODBYES = ("bye", "bye bye", "goodbye", "good night", "kwaheri", "usiku mwema", "tutaonana", "see you", "siku njema")
GREETINGS = (
    "hi", "hello", "hey", "hallo", "helo", "hi there", "good morning", "good afternoon", "good evening", "mambo",
    "morning", "hey there", "hola", "good day", *SWAHILI_GREETINGS, *SHENG_GREETINGS,
)

# numbers written in words, English and Swahili (the rules engine skips them as topics; the fact guard
# reads them as numbers)
NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "sifuri": 0, "moja": 1, "mbili": 2, "tatu": 3, "nne": 4,
    "tano": 5, "sita": 6, "saba": 7, "nane": 8, "tisa": 9, "kumi": 10, "ishirini": 20, "thelathini": 30,
    "arobaini": 40, "hamsini": 50, "sitini": 60, "sabini": 70, "themanini": 80, "tisini": 90,
}  # fmt: skip
SCALES_AFTER = {"hundred": 100, "thousand": 1000, "million": 1_000_000}  # "two thousand"
SCALES_BEFORE = {"mia": 100, "elfu": 1000, "milioni": 1_000_000}  # "elfu mbili"

EVERYTHING = (
    "everything", "all items", "all products", "full catalog", "catalogue", "catalog", "list everything", "see all",
    "show all", "vitu vyote", "bidhaa zote", "kila kitu", "orodha yote", "price list",
)
DELIVERY_WORDS = (
    "deliver", "delivery", "send it", "bring it", "leta", "niletee", "tuma", "rider", "boda", "home delivery",
    "to my place", "kwa nyumba", "nyumbani",
)
PICKUP_WORDS = (
    "pickup", "pick up", "pick it up", "collect", "nitakuja", "nitachukua", "kuchukua", "at the shop", "dukani",
    "in store", "i will come",
)

# language markers
SWAHILI = frozenset(
    """
    niletee nileteeni leta letea tuma nitumie nipigie nipe nionyeshe nataka ningependa napenda tafadhali karibu
    ati ama kwani kiasi kitu vitu kijana ofa yoyote yeyote wowote zozote matangazo tena
    nyumbani kazini mtaa barabara hapo pale huko nitachukua nitakuja nikuje nimelipa nimeona sijapata haijafika
    acha wacha kunitumia usinitumie ujumbe niondoe ondoa kuongea ongea mhudumu kurudisha rudisha imeharibika
    imepita imefika iko ziko nini lini saa ngapi muda siku wiki mwezi mwaka leo kesho asubuhi jioni usiku
    na ya wa za la kwa ni nini gani hii hiyo hizi sana tu pia lakini kama mimi wewe yeye sisi nyinyi wao nataka
    ninataka natafuta naomba tafadhali asante habari nzuri sawa ndiyo ndio hapana bei ngapi simu viatu nguo mko uko
    iko kuna una ina leo kesho jana lini wapi vipi aje nipe niletee nitumie kununua kulipa nimelipa yangu yako wangu
    wako bado tena sasa hivi ile hapa pale mzigo oda pesa shilingi elfu mia moja mbili tatu nne tano sita saba nane
    tisa kumi rangi nyeusi nyeupe ndogo kubwa rahisi ghali duka dukani mtu watu kwenye kutoka hadi mpaka baada kabla
    kwa sababu je hakuna sijui sitaki nikuje nilipe lipa karibu
    """.split()
)
SHENG = frozenset(
    """
    niaje msee mse manze maze poa fiti form ganji doh mullah thao ngiri kaa mbogi mathe buda fala ngori kadudu mtoi
    dem chali rada sherehe bazu mnoma noma mnaa walai vako uko aje mresh
    mrefu venye vile sana wasee mbao finje punch ngwai cheki chill chillax bana bro boss uliza ju juu manzi mdosi
    dough mbleina sijui saa hii kadha kifaa nipee nikuje msupa kibao
    """.split()
)
ENGLISH = frozenset(
    """
    the a an is are was were i you he she it we they my your his her its our their this that these those what which
    who where when why how want need buy have has do does did can could would should will shall please thanks thank
    price cost much many order phone pay paid deliver delivery and or but not no yes with for from to of in on at by
    about any some all more most less than then there here get got send show tell me us
    be been being am if so just also only still yet already today tomorrow yesterday soon later after before
    because until into over under again very too left arrived coming came sent received
    """.split()
)
# fmt: on

# Swahili (and common misspelt) colour words -> the English names catalogs use for variants
# fmt: off
COLOURS = {
    "nyeusi": "black", "nyeupe": "white", "bluu": "blue", "buluu": "blue", "samawati": "blue", "nyekundu": "red",
    "kijani": "green", "njano": "yellow", "manjano": "yellow", "kijivu": "grey", "gray": "grey", "zambarau": "purple",
    "pinki": "pink", "waridi": "pink", "dhahabu": "gold", "fedha": "silver", "kahawia": "brown",
    "machungwa": "orange", "rangi ya chungwa": "orange",
}
# fmt: on
