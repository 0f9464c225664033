"""Payment details only from the tenant's settings: a support answer (from the shop's documents, or
worded by a model) that names a paybill, till, account or phone number that is not the shop's own is
not sent as it is. The sentences carrying it are dropped; the document is flagged for the shop."""

from __future__ import annotations

import re
from collections.abc import Iterable

from tulia.domain.tenant import Tenant
from tulia.nlu.frame_extract import extract_phone

FOREIGN_PAYMENT_FLAG = "payment_details_not_the_shops"

# "Paybill 999999", "till no. 5123456", "business number: 600984", "account 12345678", "akaunti ..."
_LABELLED = re.compile(
    r"(?i)\b(?:pay ?bill|till|buy goods|business (?:number|no)|account|acc|a/c|akaunti|namba ya (?:biashara|till))"
    r"\b[^0-9A-Za-z]{0,12}(?:(?:number|no|namba)\b[^0-9A-Za-z]{0,6})?([A-Za-z]*\d[A-Za-z0-9-]{2,24})"
)
_SENTENCES = re.compile(r"(?<![Nn]o\.)(?<=[.!?])\s+|\n+")  # "till no. 123" is one sentence
_ORDER_REF = re.compile(r"(?i)^ord-?[2-9a-hjkmnp-tv-z]{5}$")


def own_numbers(tenant: Tenant) -> set[str]:
    """The shop's own payment and contact numbers, as digits."""
    p = tenant.payments
    numbers = {tenant.whatsapp.display_phone_number if tenant.whatsapp else ""}
    if p.mpesa_c2b is not None:
        numbers |= {p.mpesa_c2b.paybill or "", p.mpesa_c2b.till or ""}
    if p.mpesa_stk is not None:
        numbers |= {p.mpesa_stk.shortcode, p.mpesa_stk.party_b or ""}
    return {_digits(n) for n in numbers if n}


def _digits(value: str) -> str:
    digits = re.sub(r"\D", "", value)
    return "0" + digits[3:] if digits.startswith("254") and len(digits) == 12 else digits


def foreign_numbers(sentence: str, own: set[str]) -> list[str]:
    """Payment or phone numbers in ``sentence`` that are not the shop's own."""
    found = []
    for m in _LABELLED.finditer(sentence):
        token = m.group(1)
        if not _ORDER_REF.match(token) and _digits(token) not in own:
            found.append(token)
    phone, _span = extract_phone(sentence)
    if phone is not None and _digits(phone) not in own:
        found.append(phone)
    return found


def guard_payment_details(answer: str, own: Iterable[str]) -> tuple[str, list[str]]:
    """``answer`` without the sentences that name someone else's payment or phone numbers, and those
    numbers (empty when the answer is clean)."""
    owned = set(own)
    kept, foreign = [], []
    for sentence in _SENTENCES.split(answer):
        found = foreign_numbers(sentence, owned)
        if found:
            foreign += found
        elif sentence.strip():
            kept.append(sentence.strip())
    return (" ".join(kept) if foreign else answer), foreign
