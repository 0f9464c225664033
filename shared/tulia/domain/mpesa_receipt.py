"""An M-Pesa confirmation read off a picture (issue 35, part 3): the text a reader (Tesseract, Textract) got from
a customer's screenshot of the M-Pesa SMS or of the M-Pesa app's receipt, turned into the facts Tulia checks.

Only the code decides anything: it goes through the same matching as a typed code (the shop's own M-Pesa
records say whether that money came, how much, from whom). The amount and the Till or Paybill the picture
shows are what the customer claims: a picture naming another business's number is told so before anything is
looked up; a picture's amount never pays anything. Reading is lenient with what OCR does to layouts (line
breaks anywhere, ``Ksh`` / ``KES`` / ``KSh.``, a stray space in the thousands) and strict with the code (ten
capitals and digits, at least one digit and three letters, like Safaricom's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

# the words only an M-Pesa confirmation carries (the SMS, the app's receipt, the SIM toolkit's)
_MPESA_WORDS = re.compile(
    r"\b(?:confirmed|m-?pesa|transaction\s*(?:id|code|cost|ref)|receipt|paid\s+to|sent\s+to|buy\s+goods|"
    r"till\s*(?:number|no)|pay\s*bill|business\s*(?:number|no)|imethibitishwa|umelipa)\b",
    re.I,
)
# a confirmation code: ten capitals and digits (Safaricom's receipts: SKL4ABC123, TKB1X2Y3Z4)
_CODE = re.compile(r"(?<![A-Z0-9])([A-Z][A-Z0-9]{9})(?![A-Z0-9])")
_CODE_LABELLED = re.compile(
    r"(?:transaction\s*(?:id|code|ref(?:erence)?|no\.?|number)|receipt\s*(?:no\.?|number)?|m-?pesa\s*ref)"
    r"\s*[:#.]?\s*([A-Z][A-Z0-9]{9})(?![A-Z0-9])",
    re.I,
)
# an amount: Ksh1,250.00 / KES 1 250 / KSh. 90 / Kshs 2,610.00 / Ksh1, 250.00 (OCR's space after a comma)
_AMOUNT = re.compile(r"\b(?:k\s?shs?|kes)\s*[.:]?\s*(\d{1,3}(?:(?:,\s?|\s)\d{3})+|\d+)(?:\.(\d{1,2}))?", re.I)
# amounts that are not the payment: the balance after it, its cost, the day's limit, Fuliza
# (whole words: a code may end in FEE or COST, as A000000FEE, and still be followed by the payment's amount)
_NOT_THE_PAYMENT = re.compile(r"\b(?:balance|cost|charge|fee|transact|limit|fuliza|salio|gharama)\W*\w*\W*$", re.I)
_SHORTCODE = re.compile(
    r"\b(till|pay\s*bill|business|buy\s+goods|merchant)\s*(?:number|no\.?|num|#)?\s*[:#.]?\s*(\d{5,7})\b", re.I
)
_ACCOUNT = re.compile(r"\baccount\s*(?:number|no\.?|num)?\s*[:#.]?\s*([A-Za-z0-9-]{1,20})", re.I)
_WHEN = re.compile(
    r"\b(\d{1,2}/\d{1,2}/\d{2,4})\s*(?:at|,)?\s*(\d{1,2}:\d{2}(?:\s*[AP]M)?)"
    r"|\b(\d{1,2}\s+[A-Z][a-z]{2,8}\s+\d{4}),?\s*(?:at\s*)?(\d{1,2}:\d{2}(?:\s*[AP]M)?)",
    re.I,
)


@dataclass(frozen=True)
class MpesaReceipt:
    """What a screenshot of an M-Pesa confirmation shows."""

    code: str
    amount: Decimal | None  # KES, as shown
    shortcode: str | None = None  # the Till or Paybill the money went to, when the picture shows it
    shortcode_kind: str | None = None  # "till" or "paybill"
    account: str | None = None  # the Paybill account number, when shown
    when: str | None = None  # the date and time as shown

    @classmethod
    def from_dict(cls, shown: dict[str, Any]) -> MpesaReceipt:
        amount = shown.get("amount")
        try:
            value = Decimal(str(amount)) if amount is not None else None
        except InvalidOperation:
            value = None
        return cls(
            code=str(shown["code"]).upper(),
            amount=value,
            **{k: str(shown[k]) for k in ("shortcode", "shortcode_kind", "account", "when") if shown.get(k)},
        )

    def as_dict(self) -> dict[str, str]:
        out = {"code": self.code}
        if self.amount is not None:
            out["amount"] = str(self.amount)
        for key in ("shortcode", "shortcode_kind", "account", "when"):
            value = getattr(self, key)
            if value:
                out[key] = value
        return out


# where the code stands when OCR has broken it (a letter read twice, a J read as a bracket): before the SMS's
# "Confirmed", after the app's "Transaction ID"
_CODE_PLACE = re.compile(r"(?:^|\s)(\S{8,13})\s+confirmed\b|transaction\s*(?:id|code)\s*[:#.]?\s*(\S{8,13})", re.I)


def _code(text: str) -> str | None:
    """The receipt's code: the one labelled as such, else the first code-like word (the SMS starts with it), else
    the word where the code stands, cleaned, when it is nearly a code's length (matched to the shop's records
    with :func:`same_code`)."""
    labelled = _CODE_LABELLED.search(text)
    candidates = [labelled.group(1).upper()] if labelled else []
    candidates += [m.group(1) for m in _CODE.finditer(text)]
    for token in candidates:
        digits = sum(ch.isdigit() for ch in token)
        if digits and len(token) - digits >= 3:
            return token
    placed = _CODE_PLACE.search(text)
    if placed is not None:
        token = re.sub(r"[^A-Za-z0-9]", "", placed.group(1) or placed.group(2)).upper()
        if 9 <= len(token) <= 11 and token[0].isalpha() and any(ch.isdigit() for ch in token):
            return token
    return None


# what OCR confuses in a code's characters: one shape, several readings
_CONFUSABLE = str.maketrans({"O": "0", "D": "0", "Q": "0", "I": "1", "L": "1", "S": "5", "B": "8", "Z": "2", "G": "6"})


def _shape(code: str) -> str:
    return code.upper().translate(_CONFUSABLE)


def _one_edit(a: str, b: str) -> bool:
    """At most one character inserted, dropped or changed between a and b."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def same_code(read: str, recorded: str) -> bool:
    """Whether a code read off a picture may be this recorded code: the same shapes (0 and O, 1 and I, 5 and S...)
    with at most one character more, less or different. Only ever used with the amount also agreeing, among the
    shop's own open M-Pesa records."""
    return read.upper() == recorded.upper() or _one_edit(_shape(read), _shape(recorded))


def same_number(read: str, ours: str) -> bool:
    """Whether the Till or Paybill a picture shows may be the shop's (one digit misread, dropped or doubled): only
    a number clearly another business's is told as such; the money itself is always the shop's records' to say."""
    return read == ours or _one_edit(read, ours)


def resolve_code(read: MpesaReceipt, records: list[tuple[str, Decimal | None]]) -> str:
    """The code of the shop's record a picture names: its own code when recorded, else the one record (code,
    amount) whose code it may be (:func:`same_code`) for exactly the amount shown; else the code as read (which
    then finds nothing, and the customer is told so)."""
    if any(code.upper() == read.code for code, _amount in records):
        return read.code
    near = {code.upper() for code, amount in records if amount == read.amount and same_code(read.code, code)}
    return near.pop() if len(near) == 1 else read.code


def _amount(text: str) -> Decimal | None:
    for m in _AMOUNT.finditer(text):
        if _NOT_THE_PAYMENT.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        whole = re.sub(r"[,\s]", "", m.group(1))
        try:
            value = Decimal(f"{whole}.{m.group(2) or '0'}")
        except InvalidOperation:
            continue
        if value > 0:
            return value
    return None


def looks_like_mpesa(text: str) -> bool:
    """Whether a picture's text carries M-Pesa's words (then it is a payment, even when its code is unreadable)."""
    flat = re.sub(r"\s+", " ", text or "")
    return bool(re.search(r"\bm-?pesa\b", flat, re.I)) and bool(_MPESA_WORDS.search(flat))


def read_receipt(text: str) -> MpesaReceipt | None:
    """The confirmation a picture's text shows, or None when it is not an M-Pesa confirmation (a code, an amount
    and M-Pesa's words are all needed: a product photo with a price tag is not one)."""
    flat = re.sub(r"\s+", " ", text or "").strip()
    if not flat or not _MPESA_WORDS.search(flat):
        return None
    code, amount = _code(flat), _amount(flat)
    if code is None or amount is None:
        return None
    number = _SHORTCODE.search(flat)
    kind = None
    if number is not None:
        label = number.group(1).lower().replace(" ", "")
        kind = "paybill" if label in ("paybill", "business") else "till"
    account = _ACCOUNT.search(flat) if kind == "paybill" or number is None else None
    when = _WHEN.search(flat)
    return MpesaReceipt(
        code=code,
        amount=amount,
        shortcode=number.group(2) if number else None,
        shortcode_kind=kind,
        account=account.group(1) if account else None,
        when=" ".join(p for p in when.groups() if p) if when else None,
    )
