"""Models kept in conversation checkpoints, readable by every later release.

A checkpoint lives 30 days, so the release that reads it is often not the one that wrote it. Every
model the graph keeps in its state (the order frame, the booking frame and their parts) derives from
:class:`Persisted`:

- it carries ``schema_version``; a class that changes its shape raises ``SCHEMA`` and adds a migration
  from the previous version (``MIGRATIONS[n]`` turns version n's dict into version n+1's), run on load;
- read from a checkpoint (:func:`reading_checkpoint`), fields no longer known are dropped, and a value that
  no longer validates is dropped too (a list loses the element, a field falls back to its default), so the
  conversation resumes with what can be read; both are logged. Built in code, the models stay strict
  (unknown fields and bad values raise).

Without this, LangGraph's serializer falls back to ``model_construct`` for a model that does not
validate, and the frame's lines come back as plain dicts: the next turn raised ``AttributeError``.
This module imports nothing of the graph (the frames import it).
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

_READING = ContextVar("reading_checkpoint", default=False)
MAX_REPAIRS = 50  # values dropped from one model before giving up (it is then not read at all)


@contextmanager
def reading_checkpoint() -> Iterator[None]:
    """Models validated inside are read leniently: as a checkpoint written by another release."""
    token = _READING.set(True)
    try:
        yield
    finally:
        _READING.reset(token)


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
        data = dict(data)
        version = int(data.get("schema_version") or 1)
        while version < cls.SCHEMA:
            data = cls.MIGRATIONS[version](data)
            version += 1
        data["schema_version"] = cls.SCHEMA
        if not _READING.get():
            return handler(data)
        unknown = sorted(set(data) - set(cls.model_fields))
        for name in unknown:
            data.pop(name)
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
        if unknown:
            log.info("checkpoint fields no longer known were dropped", extra={"model": cls.__name__, "fields": unknown})
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
