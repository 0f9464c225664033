"""The local stack's and the tests' moto writes item attributes directly (tulia.local.moto_attribute_values): the
JSON it writes is the JSON moto's own shape-by-shape walk writes, for every kind of attribute and every answer
that carries items."""

from __future__ import annotations

import json
from typing import Any

import pytest
from moto.core.serialize import BaseJSONSerializer, JSONSerializer, XFormedAttributePicker
from moto.core.utils import get_service_model

from tulia.local import moto_attribute_values

EVERY_KIND = {
    "pk": {"S": "demo-shop#ORDER"},
    "unicode": {"S": "Maziwa ya Brookside 🥛 500ml"},
    "amount": {"N": "2610"},
    "ratio": {"N": "0.125"},
    "picture": {"B": b"\x89PNG\r\n\x1a\n\x00\xff"},
    "picture_as_text": {"B": "iVBORw0KGgo="},
    "digests": {"BS": [b"\x01\x02", b"\xfe\xff"]},
    "tags": {"SS": ["phones", "sale"]},
    "sizes": {"NS": ["1", "2.5"]},
    "nothing": {"NULL": True},
    "shown": {"BOOL": False},
    "empty_list": {"L": []},
    "empty_map": {"M": {}},
    "lines": {
        "L": [
            {"M": {"item_id": {"S": "PH-001"}, "qty": {"N": "2"}, "variant": {"M": {"colour": {"S": "Blue"}}}}},
            {"L": [{"N": "1"}, {"BOOL": True}, {"NULL": True}, {"B": b"\x00"}]},
        ]
    },
}


def written(operation: str, result: dict[str, Any]) -> Any:
    model = get_service_model("dynamodb").operation_model(operation)
    serializer = JSONSerializer(operation_model=model, pretty_print=False, value_picker=XFormedAttributePicker())
    return json.loads(serializer.serialize(result)["body"])


@pytest.mark.parametrize(
    ("operation", "result"),
    [
        ("GetItem", {"Item": EVERY_KIND}),
        ("UpdateItem", {"Attributes": EVERY_KIND}),
        ("Query", {"Items": [EVERY_KIND, {"pk": {"S": "x"}}], "Count": 2, "LastEvaluatedKey": {"pk": {"S": "x"}}}),
        ("BatchGetItem", {"Responses": {"test-orders": [EVERY_KIND]}, "UnprocessedKeys": {}}),
        ("TransactGetItems", {"Responses": [{"Item": EVERY_KIND}]}),
    ],
)
def test_items_are_written_as_moto_walks_them(
    operation: str, result: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = written(operation, result)
    assert moto_attribute_values.original_walk is not None  # tests/conftest.py installed the direct copy
    monkeypatch.setattr(BaseJSONSerializer, "_serialize_type_structure", moto_attribute_values.original_walk)
    walked = written(operation, result)
    assert fast == walked
    assert fast[next(iter(result))]  # the answer carries the items (not an empty body on both sides)


def test_the_direct_copy_is_installed_once() -> None:
    installed = BaseJSONSerializer._serialize_type_structure
    moto_attribute_values.write_attribute_values_directly()
    assert BaseJSONSerializer._serialize_type_structure is installed
    assert installed is not moto_attribute_values.original_walk
