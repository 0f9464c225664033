"""What a shop made in the console starts from: its trade's words (the vocabulary the search folds customers'
words with), an example FAQ document and example items she can edit or delete. Nothing in a starter states a
fact about her shop to a customer (prices, stock, hours, fees, numbers come only from her settings and catalog
through the tools): the FAQ says how ordering, paying and delivery work with Tulia, which holds for every shop,
and the example items are hidden (``active`` no, named "(example)", stock 0) until she sets her own price and
stock and shows them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from tulia.domain.catalog import CatalogItem
from tulia.domain.catalog_rows import rows_from_csv

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Starter:
    trade: str
    name: dict[str, str]  # by language: en, sw
    books: bool  # sells services with a time (appointments): the shop gets an appointment book

    @property
    def vocabulary(self) -> dict[str, list[str]]:
        path = HERE / f"{self.trade}.vocabulary.yaml"
        return dict(yaml.safe_load(path.read_text(encoding="utf-8")) or {}) if path.is_file() else {}

    def catalog(self, tenant_id: str) -> list[CatalogItem]:
        """The example items, read as any catalog sheet is (none for a trade without examples)."""
        path = HERE / f"{self.trade}.catalog.csv"
        if not path.is_file():
            return []
        rows = rows_from_csv(path.read_text(encoding="utf-8"), tenant_id)
        if rows.problems or rows.invalid:  # a broken starter is a bug of ours: the tests read every one
            raise ValueError(f"{path.name}: {rows.problems or [str(e) for r in rows.invalid for e in r.errors]}")
        return rows.valid

    def faq(self, shop: str) -> str:
        """The example FAQ in Markdown, naming the shop."""
        extra = BOOKING_FAQ if self.books else GOODS_FAQ
        return (COMMON_FAQ + extra).replace("{shop}", shop)


STARTERS: tuple[Starter, ...] = (
    Starter("electronics", {"en": "Phones and electronics", "sw": "Simu na vifaa vya elektroniki"}, books=False),
    Starter("beauty", {"en": "Salon, barber and beauty", "sw": "Saluni, kinyozi na urembo"}, books=True),
    Starter("grocery", {"en": "Groceries and household", "sw": "Vyakula na bidhaa za nyumbani"}, books=False),
    Starter("hardware", {"en": "Hardware and building", "sw": "Vifaa vya ujenzi"}, books=False),
    Starter("other", {"en": "Something else", "sw": "Biashara nyingine"}, books=False),
)


@cache
def starter(trade: str) -> Starter | None:
    return next((s for s in STARTERS if s.trade == trade), None)


COMMON_FAQ = """# Questions customers ask {shop}

## How do I order?
Tell us in this chat what you want, in English, Swahili or Sheng. We show what we have with its price, ask what
we need (size, colour, how many) and put your order together. You can change or remove anything before you pay.

## How do I pay?
By M-Pesa: we send a payment prompt to your phone, or give you our Till or Paybill number and your order's
reference. Your order is confirmed as soon as the money reaches us, and you get the receipt in this chat.

## I paid but have no confirmation
Send us the M-Pesa code from your confirmation message. We check it against your order and confirm, or a person
from {shop} looks into it.

## Can I talk to a person?
Yes. Say "I want to talk to a person" and someone from {shop} answers you here.

## How do I stop messages?
Send STOP at any time and we stop at once. Send START to hear from us again.

# Maswali ya wateja wa {shop}

## Naagizaje?
Tuambie hapa unachotaka, kwa Kiingereza, Kiswahili au Sheng. Tunakuonyesha tulicho nacho na bei yake na kukuandalia
oda yako.

## Nalipaje?
Kwa M-Pesa: tunakutumia ombi la malipo kwenye simu yako, au tunakupa nambari ya Till au Paybill na kumbukumbu ya oda
yako. Oda inathibitishwa pesa zikitufikia.

## Nataka kuongea na mtu
Sema "nataka kuongea na mtu" na mtu wa {shop} atakujibu hapa.
"""

GOODS_FAQ = """
## Do you deliver?
Tell us your area when you order: we say whether we deliver there, the fee and when it arrives, or where to
collect it.
"""

BOOKING_FAQ = """
## How do I book?
Tell us the service and when you would like to come ("kesho saa nne"). We offer the free times, hold the one you
choose and confirm it here. You can move or cancel it in this chat too.
"""
