"""Small shared types: languages, money, ids, time (sort-key times: ``tulia.domain.times``)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, RootModel, StringConstraints, TypeAdapter, model_validator

from tulia.domain.persisted import Migration, migrated, reading, without_unknown

Lang = Literal["en", "sw", "sheng"]
LangPref = Literal["en", "sw", "sheng", "mixed"]
Currency = Literal["KES"]

NAIROBI = timezone(timedelta(hours=3), "EAT")  # Kenya keeps UTC+3 all year

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{1,47}$")]
TENANT_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{1,47}$")

# Crockford-style alphabet without look-alikes (0/O, 1/I/L, U), so a reference is easy to read aloud.
_REF_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"


class Model(BaseModel):
    """Base for stored domain models: strict about unknown fields when built, immutable by copy; read
    from storage as written by any release (migrated from its version, fields no longer known dropped:
    ``tulia.domain.persisted``)."""

    # a field with a default is required in a serialization-mode schema (every stored or answered model holds it)
    model_config = ConfigDict(
        extra="forbid", validate_assignment=True, json_schema_serialization_defaults_required=True
    )

    SCHEMA: ClassVar[int] = 1
    MIGRATIONS: ClassVar[dict[int, Migration]] = {}

    @model_validator(mode="wrap")
    @classmethod
    def _as_stored_by_any_release(cls, data: Any, handler: Callable[[Any], Any]) -> Any:
        if not isinstance(data, dict) or not reading():
            return handler(data)
        data = dict(data)
        version = int(data.pop("schema_version", None) or 1)
        return handler(without_unknown(cls, migrated(cls, data, version)))


class LocalText(RootModel[str | dict[Lang, str]]):
    """A shop's free text (an ETA, a response time, a pickup note) as the pack gives it: one text for
    every language, or one per language (``{en: ..., sw: ..., sheng: ...}``) so that a Swahili reply
    is Swahili throughout. A language without its own text falls back to Swahili for Sheng, then to
    the shop's default language, then to English."""

    root: str | dict[Lang, str]

    @model_validator(mode="before")
    @classmethod
    def _text_or_languages(cls, value: object) -> object:
        if isinstance(value, LocalText):
            return value.root
        if isinstance(value, dict):
            unknown = sorted(str(k) for k in value if k not in ("en", "sw", "sheng"))
            if unknown:
                raise ValueError(f"languages are en, sw or sheng (not {', '.join(unknown)})")
            if not all(isinstance(v, str) for v in value.values()):
                raise ValueError("each language's value must be a text")
        elif not isinstance(value, str):
            raise ValueError("give a text, or one text per language ({en: ..., sw: ...})")
        return value

    @model_validator(mode="after")
    def _not_empty(self) -> LocalText:
        values = [self.root] if isinstance(self.root, str) else list(self.root.values())
        if not values or any(not v.strip() for v in values):
            raise ValueError("give a text, or a non-empty text for each language listed")
        if any(len(v) > MAX_LOCAL_TEXT for v in values):
            raise ValueError(f"at most {MAX_LOCAL_TEXT} characters")
        return self

    def in_language(self, lang: str | None, default: str = "en") -> str:
        if isinstance(self.root, str):
            return self.root
        order = [lang, "sw" if lang == "sheng" else None, default, "en", "sw", "sheng"]
        return next(self.root[o] for o in [*order, *self.root] if o in self.root)


MAX_LOCAL_TEXT = 300


def utc_now() -> datetime:
    return datetime.now(UTC)


_DATETIME = TypeAdapter(datetime)


def iso(dt: datetime) -> str:
    """The one text form of a time in the store: UTC, exactly as pydantic writes model fields, so a
    condition such as ``updated_at = :before`` compares like with like."""
    return str(_DATETIME.dump_python(dt.astimezone(UTC), mode="json"))


def new_id(prefix: str, nbytes: int = 8) -> str:
    return f"{prefix}_{secrets.token_hex(nbytes)}"


def new_reference(prefix: str, length: int = 5) -> str:
    """A short, human-friendly reference such as ``ORD-7F3K2``."""
    return prefix + "-" + "".join(secrets.choice(_REF_ALPHABET) for _ in range(length))


def format_kes(amount: int) -> str:
    return f"KES {amount:,}"
