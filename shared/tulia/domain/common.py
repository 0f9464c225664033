"""Small shared types: languages, money, ids, time."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta, timezone
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints, TypeAdapter

Lang = Literal["en", "sw", "sheng"]
LangPref = Literal["en", "sw", "sheng", "mixed"]
Currency = Literal["KES"]

NAIROBI = timezone(timedelta(hours=3), "EAT")  # Kenya keeps UTC+3 all year

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{1,47}$")]
TENANT_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{1,47}$")

# Crockford-style alphabet without look-alikes (0/O, 1/I/L, U), so a reference is easy to read aloud.
_REF_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"


class Model(BaseModel):
    """Base for stored domain models: strict about unknown fields, immutable by copy."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


def utc_now() -> datetime:
    return datetime.now(UTC)


_DATETIME = TypeAdapter(datetime)


def iso(dt: datetime) -> str:
    """The one text form of a time in the store: UTC, exactly as pydantic writes model fields, so a
    condition such as ``updated_at = :before`` compares like with like."""
    return str(_DATETIME.dump_python(dt.astimezone(UTC), mode="json"))


def sortable(dt: datetime) -> str:
    """Fixed-width UTC time for sort keys, so keys order exactly as times do."""
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_id(prefix: str, nbytes: int = 8) -> str:
    return f"{prefix}_{secrets.token_hex(nbytes)}"


def new_reference(prefix: str, length: int = 5) -> str:
    """A short, human-friendly reference such as ``ORD-7F3K2``."""
    return prefix + "-" + "".join(secrets.choice(_REF_ALPHABET) for _ in range(length))


def format_kes(amount: int) -> str:
    return f"KES {amount:,}"
