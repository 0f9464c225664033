"""Models that outlive the release that wrote them: stored records and conversation checkpoints.

A checkpoint lives 30 days and a record for years, so the release that reads one is often not the one
that wrote it (and a rollback reads what a newer release wrote). Both kinds are versioned: a class that
changes its shape raises ``SCHEMA`` and adds a migration from the previous version (``MIGRATIONS[n]`` turns
version n's dict into version n+1's), run on load. Read from storage (inside :func:`reading_stored`):

- stored records (:class:`tulia.domain.common.Model`): fields no longer known are dropped (logged); a value
  that does not validate is an error, never guessed at (money facts live here). The version travels as the
  item's ``schema_version`` attribute, written by the store's codec once a class is past version 1;
- checkpointed models (:class:`Persisted`: the order and booking frames and their parts) carry
  ``schema_version`` as a field; besides unknown fields, a value that no longer validates is dropped too (a
  list loses the element, a field takes its default), so the conversation resumes with what can be read.

Built in code, both stay strict: unknown fields and bad values raise. (Without this, LangGraph's serializer
fell back to ``model_construct`` for a frame that did not validate, and its lines came back as plain dicts:
the next turn raised ``AttributeError``.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from pydantic_core import ErrorDetails

from tulia.observability import logger as log

Migration = Callable[[dict[str, Any]], dict[str, Any]]

_READING = ContextVar("reading_stored", default=False)
MAX_REPAIRS = 50  # values dropped from one model before giving up (it is then not read at all)


@contextmanager
def reading_stored() -> Iterator[None]:
    """Models validated inside are read as stored by any release (see the module's docstring)."""
    token = _READING.set(True)
    try:
        yield
    finally:
        _READING.reset(token)


def migrated(cls: type[BaseModel], data: dict[str, Any], version: int) -> dict[str, Any]:
    """``data`` as written at ``version``, brought to the class's current ``SCHEMA``."""
    target: int = getattr(cls, "SCHEMA", 1)
    migrations: dict[int, Migration] = getattr(cls, "MIGRATIONS", {})
    while version < target:
        data = migrations[version](data)
        version += 1
    return data


def without_unknown(cls: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the fields the class no longer knows (logged)."""
    unknown = sorted(set(data) - set(cls.model_fields))
    if not unknown:
        return data
    log.info("stored fields no longer known were dropped", extra={"model": cls.__name__, "fields": unknown})
    return {k: v for k, v in data.items() if k not in unknown}


def reading() -> bool:
    return _READING.get()


class Persisted(BaseModel):
    """A model kept in checkpoints: versioned, migrated on load, read leniently from a checkpoint."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    SCHEMA: ClassVar[int] = 1
    MIGRATIONS: ClassVar[dict[int, Migration]] = {}

    schema_version: int = 1

    @model_validator(mode="wrap")
    @classmethod
    def _read_from_any_release(cls, data: Any, handler: Callable[[Any], Any]) -> Any:
        if not isinstance(data, dict):  # an instance (assignment, copies): nothing to migrate
            return handler(data)
        data = migrated(cls, dict(data), int(data.get("schema_version") or 1))
        data["schema_version"] = cls.SCHEMA
        if not _READING.get():
            return handler(data)
        data = without_unknown(cls, data)
        dropped: list[str] = []
        for _ in range(MAX_REPAIRS):
            try:
                model = handler(data)
                break
            except ValidationError as exc:
                if not _drop_unreadable(cls, data, exc.errors(), dropped):
                    raise
        else:
            raise ValueError(f"{cls.__name__}: more than {MAX_REPAIRS} values could not be read")
        if dropped:
            log.warning(
                "checkpoint values that no longer validate were dropped",
                extra={"model": cls.__name__, "values": dropped},
            )
        return model


def _drop_unreadable(
    cls: type[BaseModel], data: dict[str, Any], errors: list[ErrorDetails], dropped: list[str]
) -> bool:
    """Drop what the errors name: a list's element, else the field (when it has a default). False when a
    required field itself cannot be read (the model cannot be read)."""
    elements: dict[str, set[int]] = {}
    fields: set[str] = set()
    for error in errors:
        loc = error["loc"]
        if not loc or not isinstance(loc[0], str) or loc[0] not in cls.model_fields:
            return False
        name = loc[0]
        if len(loc) >= 2 and isinstance(loc[1], int) and isinstance(data.get(name), list):
            elements.setdefault(name, set()).add(loc[1])
        elif cls.model_fields[name].is_required():
            return False
        else:
            fields.add(name)
    for name, indexes in elements.items():
        if name in fields:
            continue
        data[name] = [v for i, v in enumerate(data[name]) if i not in indexes]
        dropped += [f"{name}[{i}]" for i in sorted(indexes)]
    for name in fields:
        data.pop(name, None)
        dropped.append(name)
    return bool(elements or fields)
