"""moto's DynamoDB answers with their item attributes written as they are, not walked shape by shape.

moto 5.2 writes every answer through a serializer that walks botocore's shapes member by member, and asks each
member's value under several aliases. An item attribute (DynamoDB's recursive ``AttributeValue``) is a dictionary
already in DynamoDB's own JSON form, so that walk only copies it, slowly: a 5 KB shop profile took about 30 ms to
read and a page of 100 catalog items about a second, the largest single cost of the local stack and of the tests.

:func:`write_attribute_values_directly` replaces the walk for that one shape with a direct copy that writes what
the walk writes: only the shape's ten members, strings as ``str()``, binaries in base64 (moto's ``_base64``),
maps and lists recursively, booleans as they are. ``tests/unit/test_moto_attribute_values.py`` checks the two
write the same JSON for every kind of attribute, so a moto upgrade that changes the walk fails there first."""

from __future__ import annotations

from typing import Any

ATTRIBUTE_VALUE = "AttributeValue"
_STRINGS = frozenset({"S", "N"})
_STRING_SETS = frozenset({"SS", "NS"})
_installed = False
original_walk: Any = None  # moto's own walk, kept for the test that compares the two


def attribute_value(value: dict[str, Any], base64: Any) -> dict[str, Any]:
    """One ``AttributeValue`` as moto's JSON serializer writes it (``base64``: the serializer's ``_base64``)."""
    out: dict[str, Any] = {}
    for kind, member in value.items():
        if member is None:
            continue
        if kind in _STRINGS:
            out[kind] = member if isinstance(member, str) else str(member)
        elif kind in _STRING_SETS:
            out[kind] = [m if isinstance(m, str) else str(m) for m in member]
        elif kind == "B":
            out[kind] = base64(member)
        elif kind == "BS":
            out[kind] = [base64(m) for m in member]
        elif kind == "M":
            out[kind] = {k: attribute_value(v, base64) for k, v in member.items()}
        elif kind == "L":
            out[kind] = [attribute_value(v, base64) for v in member]
        elif kind in ("NULL", "BOOL"):
            out[kind] = member
    return out


def write_attribute_values_directly() -> None:
    """Install the direct copy into moto's JSON serializer (once per process; later calls do nothing)."""
    global _installed, original_walk
    if _installed:
        return
    from moto.core.serialize import BaseJSONSerializer

    walk = original_walk = BaseJSONSerializer._serialize_type_structure

    def serialize_structure(self: Any, serialized: Any, value: Any, shape: Any, key: str) -> None:
        if key and shape.name == ATTRIBUTE_VALUE and isinstance(value, dict):
            serialized[self.get_serialized_name(shape, key)] = attribute_value(value, self._base64)
            return
        walk(self, serialized, value, shape, key)

    BaseJSONSerializer._serialize_type_structure = serialize_structure  # type: ignore[method-assign]
    _installed = True
