"""Between domain models and stored items: add keys on the way in, strip them on the way out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

KEY_ATTRIBUTES = frozenset({"pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk", "expires_at"})


def to_item(model: BaseModel, **keys: Any) -> dict[str, Any]:
    return {**model.model_dump(mode="json"), **keys}


def from_item(cls: type[M], item: Mapping[str, Any]) -> M:
    return cls.model_validate({k: v for k, v in item.items() if k not in KEY_ATTRIBUTES})
