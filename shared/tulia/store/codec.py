"""Between domain models and stored items: add keys on the way in, strip them on the way out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from tulia.domain.persisted import reading_stored

M = TypeVar("M", bound=BaseModel)

KEY_ATTRIBUTES = frozenset({"pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk", "expires_at"})


def to_item(model: BaseModel, **keys: Any) -> dict[str, Any]:
    """The stored item; a class past its first shape also stores its ``schema_version``."""
    version: int = getattr(type(model), "SCHEMA", 1)
    return {**model.model_dump(mode="json"), **({"schema_version": version} if version > 1 else {}), **keys}


def from_item(cls: type[M], item: Mapping[str, Any]) -> M:
    """The model of a stored item, as any release wrote it (migrated, fields no longer known dropped)."""
    with reading_stored():
        return cls.model_validate({k: v for k, v in item.items() if k not in KEY_ATTRIBUTES})
