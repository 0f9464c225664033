"""Text normalisation for search: tokens, light English stemming, stopwords, and the folding of
words to one canonical term: generic words of shopping (English / Swahili / Sheng) for every shop,
and a shop's own vocabulary for the words of its trade.

A shop's names (brands, models) come from its catalog, and typos are handled by the index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import pairwise
from pathlib import Path

from tulia.domain.shop_words import GENERIC_TERMS, GENERIC_WORDS, STOPWORDS, fold

_TOKEN = re.compile(r"[a-z0-9]+")
_MIXED = re.compile(r"[a-z]+|[0-9]+")
_CLOCK = re.compile(r"^\d{1,2}(?:am|pm)$")

__all__ = ["GENERIC_TERMS", "GENERIC_WORDS", "STOPWORDS", "fold"]  # the shop words of the domain, used here

# words that measure or count a thing: never what a message is about ("nyanya kilo mbili"), and a
# name's kind word comes before them ("Roofing Nails 1kg")
MEASURES = frozenset(
    "kg kilo kilos g gm gms ml l ltr litre litres liter lita m mm cm inch inches in ft w v mah gb tb pcs pc pieces "
    "pack packs pakiti pair set roll box bag bags tonne ton tani gauge gen kilogram kilograms gram grams "
    "feet foot futi sqft".split()
)

# words after a kind word that make it the head of what follows: "kava ya simu", "case for iphone"
CONNECTORS = frozenset({"ya", "za", "la", "wa", "cha", "vya", "for", "of", "kwa", "with"})


def stem(token: str) -> str:
    """Very light English plural stripping; numbers and short words are left alone."""
    if len(token) <= 3 or token.isdigit():
        return token
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith(("ches", "shes", "xes", "sses")):
        return token[:-2]
    if token.endswith("oes") and len(token) >= 7:  # "mangoes", "potatoes" (but "shoes", "canoes")
        return token[:-2]
    if token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


# the Swahili "of" agrees with its noun's class ("taa ya mbele", "taa za mbele"; "kitabu cha", "vitabu vya"): in
# a phrase of the lexicon or of a shop any of its forms is the same word
OF_FORMS = frozenset({"ya", "za", "la", "cha", "vya", "wa"})


def phrase_stem(token: str) -> str:
    """A token as the phrases of the lexicon and of the shops are keyed: its stem, any "of" as "ya"."""
    return "ya" if token in OF_FORMS else stem(token)


_SW_UNITS = {"moja": 1, "mbili": 2, "tatu": 3, "nne": 4, "tano": 5, "sita": 6, "saba": 7, "nane": 8, "tisa": 9}
_SW_TENS = {
    "kumi": 10, "ishirini": 20, "thelathini": 30, "arobaini": 40, "hamsini": 50, "sitini": 60, "sabini": 70,
    "themanini": 80, "tisini": 90,
}  # fmt: skip
_SW_HUNDREDS = re.compile(rf"(?<!\w)(mia|elfu)\s+({'|'.join(_SW_UNITS)})(?:\s+na\s+({'|'.join(_SW_TENS)}))?(?!\w)")


def swahili_hundreds_in_digits(text: str) -> str:
    """Hundreds and thousands said in Swahili words, in digits: "watt mia moja" -> "watt 100", "mia mbili na
    hamsini" -> "250" (a size or a model said in words meets the catalog's digits)."""

    def digits(m: re.Match[str]) -> str:
        value = (100 if m.group(1) == "mia" else 1000) * _SW_UNITS[m.group(2)]
        return str(value + (_SW_TENS[m.group(3)] if m.group(3) else 0))

    return _SW_HUNDREDS.sub(digits, text)


def raw_tokens(text: str) -> list[str]:
    """Alphanumeric runs (hundreds said in Swahili words in digits); mixed runs such as ``128gb`` also yield
    ``128`` and ``gb``."""
    out: list[str] = []
    for tok in _TOKEN.findall(swahili_hundreds_in_digits(fold(text))):
        out.append(tok)
        if not tok.isalpha() and not tok.isdigit():
            parts = _MIXED.findall(tok)
            if len(parts) > 1:
                out.extend(parts)
    return out


SHOP_LEXICON_FILE = Path(__file__).with_name("lexicon.txt")


def lexicon_meanings(path: Path = SHOP_LEXICON_FILE) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    """The general shop lexicon (``lexicon.txt``): the stemmed tokens of a Swahili or Sheng word or phrase
    -> every English meaning it is listed under (the words of buying above are left out)."""
    meanings: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        english, _, variants = line.partition("|")
        target = tuple(_TOKEN.findall(fold(english)))
        for variant in variants.split(","):
            key = tuple(phrase_stem(w) for w in _TOKEN.findall(fold(variant)))
            if key and key != target and not (len(key) == 1 and key[0] in GENERIC_WORDS):
                meanings.setdefault(key, set()).add(target)
    return meanings


def load_shop_lexicon(path: Path = SHOP_LEXICON_FILE) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The lexicon's rewrites of the words with one meaning: stemmed Swahili or Sheng tokens -> the English
    tokens they mean. A word listed under two meanings is rewritten only for a shop whose catalog uses
    the words of one of them (:class:`Folding`)."""
    return {key: next(iter(found)) for key, found in lexicon_meanings(path).items() if len(found) == 1}


_MEANINGS = lexicon_meanings()
SHOP_LEXICON = {key: next(iter(found)) for key, found in _MEANINGS.items() if len(found) == 1}
# words of two or more meanings ("waya": wire or cable; "taa": bulb, light or lamp), each meaning sorted
AMBIGUOUS_LEXICON = {key: sorted(found) for key, found in _MEANINGS.items() if len(found) > 1}
_LONGEST_ENTRY = max((len(k) for k in SHOP_LEXICON), default=1)


_CLASS_PREFIXES = ("ki", "vi", "mi", "ma", "wa", "m")  # Swahili adjectives agree with their noun: ki-kavu, m-refu
_CITED_PREFIXES = ("n", "ki", "m")  # the forms a lexicon cites an adjective in: n-dogo, ki-dogo, m-dogo

# Swahili verbs: negation (ha-, si-), subject (wa-, zi-, i-, ...), tense (-na-, -li-, -ta-, -me-), relative (-yo-,
# -cho-, ...), object (-ni-, -i-, -m-, ...), the root, then the applied -i-/-e-, passive -w- and the final vowel:
# negative perfect -ja- ("si-ja-fungu-a": I have not opened); "wa-kaang-w-e" (let them be fried), "i-li-yo-kaang-w-a"
# (fried), "ku-i-rudish-a" (to return it), "m-ni-rudish-ie"
# (return to me), "i-na-rudish-wa" (it is returned), "ha-u-rudish-wi" (it is not returned)
_VERB_PREFIX = re.compile(
    r"(?:ha|si)?(?:ku|wa|zi|i|li|ya|ki|vi|u|mu|m|a|tu|ni)?(?:na|li|ta|me|ka|nge|ja)?(?:yo|cho|vyo|zo|lo|o|ye)?"
    r"(?:ni|ku|mw|m|tu|wa|i|zi|li|ya|ki|vi)?"
)
# "haujafungu-liw-a": not yet opened; the stative -ik-/-ek- ("haki-ja-tum-ik-a": not yet used, "i-na-rudish-ik-a")
_VERB_SUFFIX = re.compile(r"(?:[ie]|li|le)?k?w?[aei]")
# the roots of the lexicon's verbs, cited as infinitives ("kukaanga": kaang -> fry)
_VERB_ROOTS = (
    {
        key[0][2:-1]: english
        for key, english in SHOP_LEXICON.items()
        if len(key) == 1 and key[0].startswith("ku") and key[0].endswith("a") and len(key[0]) >= 6
    }
    | {  # and the generic words' verbs ("kurudisha": return, "kulipa": payment), as their term
        word[2:-1]: (term,)
        for word, term in GENERIC_WORDS.items()
        if word.startswith("ku") and word.endswith("a") and len(word) >= 6
    }
)


def _verb_meaning(token: str) -> tuple[str, ...] | None:
    """A form of one of the lexicon's verbs: "wakaangwe", "zikaangwe", "ilikaangwa" -> fry."""
    for start in range(len(token)):
        if not _VERB_PREFIX.fullmatch(token[:start]):
            continue
        for end in range(len(token) - 1, start + 2, -1):
            found = _VERB_ROOTS.get(token[start:end])
            if found is not None and _VERB_SUFFIX.fullmatch(token[end:]):
                return found
    return None


def verbs_said(text: str) -> set[str]:
    """The English meanings of the Swahili verb forms ``text`` says ("viatu vioshwe": wash): actions, never the
    thing asked for."""
    return {word for token in raw_tokens(text) if len(token) >= 6 for word in _verb_meaning(token) or ()}


def _sw_root_meaning(token: str) -> tuple[str, ...] | None:
    """A Swahili word the lexicon has in another form: a place ("mgongoni": on the back), an adjective
    with its noun's class prefix ("kikavu", "mrefu", "dogo" of "ndogo") or a verb in any person, tense or
    voice ("wakaangwe" of "kukaanga")."""
    if token.endswith("ni") and len(token) > 4 and (found := SHOP_LEXICON.get((token[:-2],))):
        return found
    for form in _cited_forms(token):
        if (found := SHOP_LEXICON.get((form,))) is not None:
            return found
    return _verb_meaning(token) if len(token) >= 5 else None


def _cited_forms(token: str) -> list[str]:
    """The forms a lexicon may cite a Swahili adjective or noun by, beside the one said: without its class prefix
    and with each cited prefix ("vizima": zima, nzima, kizima, mzima)."""
    roots = [token] + [token[len(p) :] for p in _CLASS_PREFIXES if token.startswith(p) and len(token) - len(p) >= 3]
    forms = [form for root in roots for form in [root, *(cited + root for cited in _CITED_PREFIXES)]]
    return list(dict.fromkeys(f for f in forms if f != token))


_BRACKETED = re.compile(r"\s*\([^)]*\)")


def without_brackets(name: str) -> str:
    """A name without what it says in brackets, which is how it is packed or counted ("Avocado (each)",
    "Eggs (tray of 30)", the option "Size 4 (52)"); the name itself when it is all brackets."""
    return _BRACKETED.sub(" ", name).strip() or name


def verb_key(word: str) -> str:
    """An English verb, its past participle and its -ing form as one key: "fried" and "fry", "cleaned",
    "cleaning" and "clean", "scaled" and "scale", "roasted" and "roast" (never "string": too short a stem)."""
    if len(word) > 6 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ied"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def meanings_of(text: str) -> list[tuple[str, ...]]:
    """Every English meaning of ``text``'s Swahili words of several meanings ("kubwa": big, large)."""
    out = []
    for t in _TOKEN.findall(fold(text)):
        said = AMBIGUOUS_LEXICON.get((stem(t),))
        if said is None and (stem(t),) not in SHOP_LEXICON:  # "vizima" of "nzima": whole or full
            said = next((m for f in _cited_forms(t) if (m := AMBIGUOUS_LEXICON.get((f,)))), None)
        out += said or []
    return out


def in_english(text: str) -> str:
    """``text``'s words with the general lexicon's Swahili and Sheng words and phrases as their English
    ones ("pedi ndefu" -> "pad long", "kikohozi kikavu" -> "cough dry"), other words as they are; a
    place word ("mgongoni", on the back) is read as its noun."""
    toks = _TOKEN.findall(fold(text))
    out: list[str] = []
    i = 0
    while i < len(toks):
        for n in range(min(_LONGEST_ENTRY, len(toks) - i), 0, -1):
            english = SHOP_LEXICON.get(tuple(phrase_stem(t) for t in toks[i : i + n]))
            if english is None and n == 1:
                english = _sw_root_meaning(toks[i])
            if english is not None:
                out.extend(english)
                i += n
                break
        else:
            out.append(toks[i])
            i += 1
    return " ".join(out)


# the things shops sell, by the general lexicon's English words ("fish", "ladder", "diaper"): a word
# among them that a shop's catalog lacks names something that shop does not sell
SHOP_NOUNS = frozenset(stem(w) for english in SHOP_LEXICON.values() for w in english if len(w) > 2)


# Swahili noun classes: a plural's prefix and its singular's ("mi-fereji": m-fereji, "vi-atu": ki-atu)
_SW_PLURALS = (("mi", "m"), ("vi", "ki"), ("vy", "ch"), ("ma", ""), ("ma", "ji"), ("wa", "m"))


# a Swahili verb: who, when, then the root ("mnaleta": m-na-leta, "tulinunua": tu-li-nunua)
_SW_VERB = re.compile(r"(?:ni|u|a|tu|m|mu|wa|ha|si|hatu|ham|hawa)?(?:na|li|ta|me|ja|nge)([a-z]{3,})")


# Swahili verb prefixes put before a borrowed word ("ku-ni-train", "nime-order", "tuta-print"), longest first
_VERB_PREFIXES = tuple(
    sorted("kuni kum kuw ku nime nita nili nika tuta tume tuli wame wata wali ame ata ali mta mme".split(), key=len)[
        ::-1
    ]
)


class Folding:
    """How one shop's words fold to search terms: the generic words above, the shop's own vocabulary
    (``{term: [word or phrase, ...]}``; a phrase of two or three words becomes one term), then the general
    shop lexicon for the Swahili and Sheng words neither names ("viatu" -> shoe, "dawa ya meno" ->
    toothpaste): the same folding for the catalog and the customer's words, so either language finds
    the other."""

    def __init__(
        self,
        vocabulary: Mapping[str, Iterable[str]] | None = None,
        shop_text: Iterable[str] = (),
        shop_names: Iterable[str] = (),
    ) -> None:
        """``shop_text``: the words the shop writes its catalog in (names, categories, tags, descriptions); a
        lexicon word of several meanings takes the one meaning whose words the shop uses ("waya" is cable in a
        shop that sells cable and no wire, "taa" a lamp in a shop of lamps). ``shop_names``: its items' names;
        a lexicon word that names one of its items while the shop also writes the word's translation is the
        shop's own name for a thing of its own ("Mala" beside "Brookside Milk"), never folded into the other."""
        self.words: dict[str, str] = dict(GENERIC_WORDS)
        self.phrases: dict[tuple[str, ...], str] = {}
        for term, entries in (vocabulary or {}).items():
            for entry in entries:
                words = tuple(_TOKEN.findall(fold(entry)))
                if len(words) == 1:
                    self.words.setdefault(words[0], term)
                elif words:
                    self.phrases.setdefault(tuple(phrase_stem(w) for w in words), term)  # "power banks" too
            self.words.setdefault(term, term)
        self._longest = max((len(p) for p in self.phrases), default=1)
        own = set(self.words)  # the generic and the shop's words are never rewritten
        self.rewrites = {k: v for k, v in SHOP_LEXICON.items() if not (len(k) == 1 and k[0] in own)}
        shop_stems = {stem(w) for text in shop_text for w in _TOKEN.findall(fold(text))}
        self.shop_stems = frozenset(shop_stems)
        name_stems = {stem(w) for text in shop_names for w in _TOKEN.findall(fold(text))}
        for key, english in list(self.rewrites.items()):
            if len(key) == 1 and key[0] in name_stems and all(stem(w) in shop_stems for w in english):
                del self.rewrites[key]
        if shop_stems:
            for key, meanings in AMBIGUOUS_LEXICON.items():
                if len(key) == 1 and key[0] in own:
                    continue
                fitting = sorted((m for m in meanings if all(stem(w) in shop_stems for w in m)), key=len)
                # one meaning the shop uses, or meanings that say more and more of one thing ("goat", "goat
                # meat"): the one that says the most
                if fitting and all(set(a) <= set(b) for a, b in pairwise(fitting)):
                    self.rewrites[key] = fitting[-1]
        self._longest_rewrite = max((len(k) for k in self.rewrites), default=1)
        self._cache: dict[str, str] = {}

    def canonical(self, token: str) -> str:
        found = self._cache.get(token)
        if found is None:
            found = self.words.get(token) or self.words.get(stem(token)) or self._loan_verb(token) or stem(token)
            if len(self._cache) < 50_000:
                self._cache[token] = found
        return found

    def _fold_phrases(self, toks: list[str]) -> list[str]:
        """The shop's phrases as their terms, then the lexicon's words and phrases as their English words."""
        stems = [phrase_stem(t) for t in toks]
        out: list[str] = []
        i = 0
        while i < len(toks):
            for n in range(min(self._longest, len(toks) - i), 1, -1):
                folded = self.phrases.get(tuple(stems[i : i + n]))
                if folded is not None:
                    out.append(folded)
                    i += n
                    break
            else:
                for n in range(min(self._longest_rewrite, len(toks) - i), 0, -1):
                    english = self.rewrites.get(tuple(stems[i : i + n]))
                    if english is not None:
                        out.extend(english)
                        i += n
                        break
                else:
                    out.extend(self._singular(toks[i]))
                    i += 1
        return out

    def _singular(self, token: str) -> tuple[str, ...]:
        """A Swahili plural or verb that the shop's words or the lexicon have in another form ("mifereji":
        mfereji, "vitanda": kitanda, "mnaleta": leta), as that word; any other word as it is."""
        if token in self.words or not token.isalpha():
            return (token,)
        forms = [singular + token[len(plural) :] for plural, singular in _SW_PLURALS if token.startswith(plural)]
        if (verb := _SW_VERB.fullmatch(token)) is not None:  # "mnaleta": m-na-leta, you bring
            forms += [verb.group(1), "ku" + verb.group(1)]
        for form in forms:
            if len(form) < 3:
                continue
            if form in self.words:
                return (form,)
            if (english := self.rewrites.get((form,))) is not None:
                return english
        if len(token) >= 6 and (english := _verb_meaning(token)) is not None:
            return english  # "wakaangwe", "zikaangwe": a form of the lexicon's "kukaanga", fry
        return (token,)

    def _loan_verb(self, token: str) -> str | None:
        """A word of the shop's said as a Swahili verb ("kunitrain": to train me, "nimeorder", "kuprint"): the word,
        when the shop writes it and not the whole."""
        if not self.shop_stems or stem(token) in self.shop_stems:
            return None
        for prefix in _VERB_PREFIXES:
            rest = token[len(prefix) :]
            if not token.startswith(prefix) or len(rest) < 4:
                continue
            for word in (f"{rest}ing", rest):  # the shop names the service by the doing ("Personal Training")
                if stem(word) in self.shop_stems:
                    return self.words.get(word) or stem(word)
        return None

    def tokens(self, text: str) -> list[str]:
        """Every word of ``text`` folded to its term, in order, stopwords and repeats kept."""
        return [t if t in STOPWORDS else self.canonical(t) for t in self._fold_phrases(raw_tokens(text))]

    def terms(self, text: str, *, drop_stopwords: bool = True) -> list[str]:
        """Canonical search terms of ``text``, in order, without duplicates."""
        toks = self._fold_phrases(raw_tokens(text))
        # join a number with the unit that follows ("128 gb" -> also "128gb") or that comes before it ("watt 100",
        # "watt mia moja": "100w")
        joined = []
        for a, b in pairwise(toks):
            unit_after, unit_before = self.canonical(b), self.canonical(a)
            if a.isdigit() and unit_after.isalpha() and len(unit_after) <= 3:
                joined.append(a + unit_after)
            elif b.isdigit() and unit_before in MEASURES and unit_before.isalpha() and len(unit_before) <= 3:
                joined.append(b + unit_before)
        # a clock time ("8am", "7pm", "10:30") is about time: "what time do you close?" meets the hours
        timed = ["time"] if any(_CLOCK.match(t) for t in toks) else []
        seen: dict[str, None] = {}
        for tok in [*toks, *joined, *timed]:
            if drop_stopwords and tok in STOPWORDS:
                continue
            seen.setdefault(self.canonical(tok), None)
        return list(seen)


GENERIC = Folding()


def canonical(token: str) -> str:
    """A word's term with the generic words only (no shop's vocabulary)."""
    return GENERIC.canonical(token)


def terms(text: str, *, drop_stopwords: bool = True) -> list[str]:
    """Canonical search terms of ``text`` with the generic words only (no shop's vocabulary)."""
    return GENERIC.terms(text, drop_stopwords=drop_stopwords)
