"""WhatsApp message templates: the only messages WhatsApp lets a business send more than 24 hours
after the customer's last message (PROTOCOLS.md 1.5, 1.6). Meta approves each one (name, language,
category, body with ``{{1}}``-style parameters); a shop keeps its own list, synchronised from the
WhatsApp Business Management API."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import Field, field_validator

from tulia.domain.common import Lang, Model

TemplateCategory = Literal["utility", "marketing", "authentication"]
TemplateStatus = Literal["approved", "pending", "rejected", "paused", "disabled"]
NAME_PATTERN = r"^[a-z0-9_]{1,512}$"  # Meta's rule for template names
_PLACEHOLDER = re.compile(r"\{\{\s*(\d{1,2})\s*\}\}")

# Meta's language codes for ours; a template in "en_US" or "en_GB" serves English too.
META_LANGUAGE = {"en": "en", "sw": "sw"}
_OUR_LANGUAGE = {"en": "en", "en_us": "en", "en_gb": "en", "sw": "sw"}


def our_language(meta_code: str) -> Lang | None:
    """The reply language a Meta template language code serves (None: one we do not speak)."""
    lang = _OUR_LANGUAGE.get(meta_code.strip().lower().replace("-", "_"))
    return lang  # type: ignore[return-value]


class MessageTemplate(Model):
    """One template in one language, as Meta knows it."""

    name: str = Field(pattern=NAME_PATTERN)
    language: str = Field(min_length=2, max_length=10, description="Meta's code: en, en_US, sw ...")
    category: TemplateCategory
    status: TemplateStatus = "pending"
    body: str = Field(min_length=1, max_length=1024, description="The body text with {{1}}, {{2}} ... parameters")
    meta_id: str | None = None
    rejected_reason: str | None = Field(default=None, max_length=300)
    updated_at: datetime | None = None

    @field_validator("body")
    @classmethod
    def _numbered_parameters(cls, body: str) -> str:
        numbers = sorted({int(n) for n in _PLACEHOLDER.findall(body)})
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError("parameters must be numbered {{1}}, {{2}} ... without gaps")
        return body

    @property
    def parameter_count(self) -> int:
        return len({int(n) for n in _PLACEHOLDER.findall(self.body)})

    @property
    def serves(self) -> Lang | None:
        return our_language(self.language)

    def filled(self, parameters: list[str]) -> str:
        """The body as the customer reads it."""
        return _PLACEHOLDER.sub(lambda m: parameters[int(m.group(1)) - 1], self.body)


def pick(templates: list[MessageTemplate], name: str, lang: str, default_lang: str) -> MessageTemplate | None:
    """The approved template ``name`` in the customer's language, else in the shop's default
    language, else in English, else in any language Meta approved it in."""
    approved = [t for t in templates if t.name == name and t.status == "approved"]
    for wanted in (lang if lang != "sheng" else "sw", default_lang if default_lang != "sheng" else "sw", "en"):
        found = next((t for t in approved if t.serves == wanted), None)
        if found is not None:
            return found
    return approved[0] if approved else None
