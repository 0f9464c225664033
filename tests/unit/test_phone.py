import pytest

from tulia.domain.phone import mask_phone, normalize_phone, to_mpesa_msisdn
from tulia.errors import InvalidInput


@pytest.mark.parametrize(
    "raw",
    [
        "0712345678",
        "712345678",
        "254712345678",
        "+254 712 345 678",
        "+254-712-345-678",
        " 0712 345 678 ",
        "00254712345678",
    ],
)
def test_every_kenyan_form_is_stored_as_e164(raw: str) -> None:
    assert normalize_phone(raw) == "+254712345678"


def test_new_safaricom_01_numbers_are_accepted() -> None:
    assert normalize_phone("0110123456") == "+254110123456"
    assert to_mpesa_msisdn("0110 123 456") == "254110123456"


def test_international_whatsapp_numbers_are_kept_in_international_form() -> None:
    assert normalize_phone("+44 7911 123456") == "+447911123456"
    assert normalize_phone("15551234567") == "+15551234567"  # a WhatsApp wa_id of a US test number


@pytest.mark.parametrize(
    "raw",
    ["", "abc", "0712", "07123456789", "2547123", "254812345678", "0812345678", "+254 7123", "12345", "+0712345678"],
)
def test_anything_else_is_invalid_input(raw: str) -> None:
    with pytest.raises(InvalidInput) as err:
        normalize_phone(raw)
    assert err.value.field == "phone_e164"


def test_mpesa_needs_a_kenyan_number() -> None:
    assert to_mpesa_msisdn("+254712345678") == "254712345678"
    with pytest.raises(InvalidInput):
        to_mpesa_msisdn("+447911123456")


def test_masked_phone_hides_the_middle_digits() -> None:
    assert mask_phone("+254712345678") == "+254 7** *** 678"
