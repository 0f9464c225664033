"""What the bot did not understand at a shop, and what its owner says it meant (issue 53, part 5).

A message is *not understood* when the reader was unsure of it (below the spec's 0.50), when it was answered with
the menu or "I didn't get that", when the customer sent it again right after (the answer did not help), or when the
conversation went to a person right after a misreading. The owner labels it in the console: what it meant (an intent)
and, for a purchase, which item and how many. Her labels make her shop's reading layer
(:mod:`tulia.nlu.shop_layer`) and export as corpus lines (``eval/corpus/messages.txt``'s format).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Literal

from pydantic import Field

from tulia.domain.common import Model
from tulia.domain.literals import Intent

MisreadWhy = Literal["unsure", "not_understood", "repeated", "handed_over"]
MISREAD_WHYS: tuple[MisreadWhy, ...] = ("unsure", "not_understood", "repeated", "handed_over")
CorpusLang = Literal["en", "sw", "sheng"]
MAX_MISREAD_TEXT = 500


def misread_id(text: str) -> str:
    """One id per message as the shop's customers write it (cases and spaces aside): the same words sent by many
    customers are one row, counted."""
    folded = " ".join(text.casefold().split())
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()[:16]


class MisreadLabel(Model):
    """What the owner says a message meant."""

    intent: Intent
    item_id: str | None = Field(default=None, max_length=64, description="For a purchase: the item meant")
    quantity: int | None = Field(default=None, ge=1, le=1000, description="For a purchase: how many")
    by: str = Field(max_length=200, description="Who labelled it (the staff member's email)")
    at: datetime


class Misread(Model):
    """A message the bot did not understand, with why and how often."""

    tenant_id: str
    misread_id: str = Field(max_length=32)
    text: str = Field(min_length=1, max_length=MAX_MISREAD_TEXT)
    lang: CorpusLang = "en"
    why: MisreadWhy
    read_as: str = Field(max_length=40, description="The intent the bot read it as")
    confidence: float = Field(ge=0.0, le=1.0)
    first_at: datetime
    last_at: datetime
    times: int = Field(default=1, ge=1)
    label: MisreadLabel | None = None

    def corpus_line(self) -> str | None:
        """The labelled message as a line of ``eval/corpus/messages.txt`` (``label | lang | message``)."""
        if self.label is None:
            return None
        return f"{self.label.intent} | {self.lang} | {' '.join(self.text.split())}"
