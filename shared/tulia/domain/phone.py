"""Phone numbers: one canonical E.164 form for customers, and the M-Pesa MSISDN form.

Kenyan numbers arrive in every shape (``0712 345 678``, ``712345678``, ``254712345678``,
``+254 712 345 678``) and are stored as ``+254712345678``. Numbers of other countries are accepted
only in international form (with ``+`` or as a WhatsApp ``wa_id``), because WhatsApp customers of a
Nairobi shop are sometimes abroad.
"""

from __future__ import annotations

import re

from tulia.errors import InvalidInput

_SEPARATORS = re.compile(r"[\s\-().]")
_KENYA_MOBILE = re.compile(r"^254(7|1)\d{8}$")


def normalize_phone(raw: str, *, field: str = "phone_e164") -> str:
    """Return ``raw`` as E.164 (``+2547XXXXXXXX``), or raise :class:`InvalidInput`."""
    if not isinstance(raw, str):
        raise InvalidInput("Phone number must be a string.", field=field)
    cleaned = _SEPARATORS.sub("", raw.strip())
    has_plus = cleaned.startswith("+")
    digits = cleaned[1:] if has_plus else cleaned
    if cleaned.startswith("00"):
        has_plus, digits = True, cleaned[2:]
    if not digits.isdigit():
        raise InvalidInput(f"'{raw}' is not a phone number.", field=field)

    if not has_plus:
        if len(digits) == 10 and digits[0] == "0" and digits[1] in "71":
            digits = "254" + digits[1:]
        elif len(digits) == 9 and digits[0] in "71":
            digits = "254" + digits
    if digits.startswith("254"):
        if not _KENYA_MOBILE.match(digits):
            raise InvalidInput(
                f"'{raw}' is not a valid Kenyan mobile number (expected 07XX XXX XXX or +254 7XX XXX XXX).",
                field=field,
            )
        return "+" + digits
    # International numbers: country code first, 8..15 digits in all (E.164), never a leading 0.
    if digits[0] == "0" or not 8 <= len(digits) <= 15 or (not has_plus and len(digits) < 11):
        raise InvalidInput(f"'{raw}' is not a valid phone number in international format.", field=field)
    return "+" + digits


def to_mpesa_msisdn(raw: str, *, field: str = "phone_e164") -> str:
    """Return the Daraja form ``2547XXXXXXXX`` / ``2541XXXXXXXX`` or raise :class:`InvalidInput`."""
    e164 = normalize_phone(raw, field=field)
    msisdn = e164[1:]
    if not _KENYA_MOBILE.match(msisdn):
        raise InvalidInput("M-Pesa needs a Kenyan Safaricom number such as 0712 345 678.", field=field)
    return msisdn


def mask_phone(e164: str) -> str:
    """``+254712345678`` -> ``+254 7** *** 678`` for messages and logs that must not carry the number."""
    if len(e164) < 7:
        return "***"
    return f"{e164[:4]} {e164[4]}** *** {e164[-3:]}"
