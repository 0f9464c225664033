"""Generated admin inputs (Hypothesis) over the admin function in process: every answer is a clear
4xx or a success, never a 500, and a refused request writes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import SHOP
from tests.integration.test_webhook import api_event
from tulia.admin.api import build_admin_api
from tulia.config import Settings
from tulia.pipeline import admin_app
from tulia.services import Services
from tulia.store import keys
from tulia.store.tables import CATALOG

CASES = 100  # per property; the figures are in BENCHMARKS.md
# a hundred generated requests each: a few seconds quiet, more beside a CPU hog (make test-busy); the suite's 120 s
# timeout is for a hung test, which this is not
pytestmark = pytest.mark.timeout(600)


@pytest.fixture
def api(seeded: Services) -> Any:
    return build_admin_api(admin_app.build_deps(Settings(table_prefix="test-"), seeded))


def call(api: Any, method: str, path: str, *, body: bytes | None = None, params: dict[str, str] | None = None,
         content_type: str = "application/json", base64_body: bool = False) -> dict[str, Any]:  # fmt: skip
    event = api_event(
        method, path=path, body=body, params=params, headers={"content-type": content_type}, base64_body=base64_body
    )
    claims = {"sub": "u-1", "email": "owner@shop.example", "custom:tenant_id": SHOP, "cognito:groups": "[owner]"}
    event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
    response = admin_app.handle(event, api)
    assert response["statusCode"] < 500, (path, response["body"][:300])
    return response


WRITES = ("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems")


class CatalogWrites:
    """Every write to the catalog table, as the DynamoDB client is asked for it (botocore's before-parameter-build
    event), so "a refused request writes nothing" is checked per request at no cost; a count of the shop's items
    sees an item added or removed but not one changed, and costs a query over the whole table (in moto) per check."""

    def __init__(self, seeded: Services) -> None:
        self.table, self.events = seeded.db.name(CATALOG), seeded.db.client.meta.events
        self.seen: list[str] = []
        for operation in WRITES:
            self.events.register(f"before-parameter-build.dynamodb.{operation}", self._record)

    def close(self) -> None:
        for operation in WRITES:
            self.events.unregister(f"before-parameter-build.dynamodb.{operation}", self._record)

    def _record(self, model: Any, params: dict[str, Any], **_: Any) -> None:
        tables = {params.get("TableName")} | set(params.get("RequestItems") or {})
        for entry in params.get("TransactItems") or []:
            tables |= {part.get("TableName") for part in entry.values()}
        if self.table in tables:
            self.seen.append(model.name)

    def count(self) -> int:
        return len(self.seen)


@pytest.fixture
def catalog_writes(seeded: Services) -> Iterator[CatalogWrites]:
    writes = CatalogWrites(seeded)
    yield writes
    writes.close()


def catalog_count(seeded: Services) -> int:
    """The shop's catalog items, counted by DynamoDB (a COUNT query: no items move)."""
    response = seeded.db.client.query(
        TableName=seeded.db.name(CATALOG),
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.catalog_pk(SHOP)}},
        Select="COUNT",
    )
    return int(response["Count"])


def test_the_write_recorder_sees_what_the_api_writes(api: Any, catalog_writes: CatalogWrites) -> None:
    """The check the properties below rely on can fail: an item saved and a sheet imported are seen as written."""
    item = {"name": "Fuzz Check", "category": "Misc", "price": 100, "stock": 3, "description": "x"}
    assert call(api, "PUT", "/admin/catalog/items/X-SEEN", body=json.dumps(item).encode())["statusCode"] == 200
    assert catalog_writes.count() >= 1
    before = catalog_writes.count()
    sheet = b"sku,name,category,price,stock,description\nX-SEEN-2,Seen,Misc,100,5,Hot\n"
    assert call(api, "POST", "/admin/catalog/import", body=sheet, content_type="text/csv")["statusCode"] == 200
    assert catalog_writes.count() > before


def test_the_inputs_the_attack_found_are_clear_4xx(api: Any, seeded: Services, catalog_writes: CatalogWrites) -> None:
    before = catalog_count(seeded)
    assert call(api, "GET", "/admin/orders", params={"from": "9999-12-31"})["statusCode"] == 422
    assert call(api, "GET", "/admin/orders", params={"to": "9999-12-31"})["statusCode"] == 422
    assert call(api, "GET", "/admin/analytics", params={"from": "9999-12-31"})["statusCode"] == 422
    latin1 = "sku,name,category,price,stock,description\nX-1,Caf\u00e9 au lait,Drinks,100,5,Hot\n".encode("latin-1")
    refused = call(api, "POST", "/admin/catalog/import", body=latin1, content_type="text/csv", base64_body=True)
    assert refused["statusCode"] == 422
    assert "UTF-8" in refused["body"]
    huge = b"sku,name,category,price,stock,description\nX-2,Big,Misc,100,5," + b"a" * 1_000_000 + b"\n"
    assert call(api, "POST", "/admin/catalog/import", body=huge, content_type="text/csv")["statusCode"] == 422
    deep = b"[" * 5_000 + b"]" * 5_000
    assert call(api, "POST", "/admin/catalog/import", body=deep)["statusCode"] == 422
    assert catalog_count(seeded) == before
    assert catalog_writes.count() == 0


texts = st.text(max_size=60)
csv_cells = st.one_of(texts, st.integers(-(10**12), 10**12).map(str), st.just(""), st.just("a" * 3000))


@st.composite
def csv_files(draw: st.DrawFn) -> bytes:
    header = draw(st.one_of(st.just("sku,name,category,price,stock,description"), texts))
    rows = draw(st.lists(st.lists(csv_cells, min_size=0, max_size=8), max_size=5))
    text = header + "\n" + "\n".join(",".join(json.dumps(c) if "," in c else c for c in row) for row in rows)
    return draw(st.sampled_from([text.encode("utf-8"), text.encode("utf-16"), text.encode("utf-8") + b"\xff\x00"]))


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), texts),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=5)),
    max_leaves=25,
)


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=csv_files(), partial=st.booleans())
def test_generated_catalog_sheets_never_break_the_import(
    api: Any, catalog_writes: CatalogWrites, body: bytes, partial: bool
) -> None:
    before = catalog_writes.count()
    response = call(
        api,
        "POST",
        "/admin/catalog/import",
        body=body,
        params={"partial": str(partial).lower()},
        content_type="text/csv",
        base64_body=True,
    )
    if response["statusCode"] >= 400:
        assert catalog_writes.count() == before  # refused: nothing written


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=json_values)
def test_generated_json_imports_and_item_bodies_never_break_the_api(
    api: Any, catalog_writes: CatalogWrites, data: Any
) -> None:
    body = json.dumps(data).encode()
    for method, path in (
        ("POST", "/admin/catalog/import"),
        ("PUT", "/admin/catalog/items/X-FUZZ"),
        ("PATCH", "/admin/catalog/items/PH-SAM-001"),
        ("PATCH", "/admin/tenant"),
        ("POST", "/admin/offers"),
    ):
        before = catalog_writes.count()
        response = call(api, method, path, body=body)
        if response["statusCode"] >= 400 and path.startswith("/admin/catalog"):
            assert catalog_writes.count() == before  # refused: nothing written


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(params=st.dictionaries(st.sampled_from(["from", "to", "status", "customer", "limit", "cursor"]), texts))
def test_generated_list_filters_are_answered_or_refused_clearly(api: Any, params: dict[str, str]) -> None:
    query = {k: quote(v, safe="") for k, v in params.items()}
    for path in ("/admin/orders", "/admin/analytics", "/admin/customers", "/admin/payments/overpayments"):
        call(api, "GET", path, params=query)


# every route with the poison of issue 31 (part 4): long ids, lone surrogates, deep nesting, odd encodings
ROUTES = [
    ("DELETE", "/admin/bookings/blocks/{id}"), ("DELETE", "/admin/catalog/items/{id}"),
    ("DELETE", "/admin/kb/documents/{id}"), ("DELETE", "/admin/offers/{id}"), ("DELETE", "/admin/staff/{id}"),
    ("DELETE", "/admin/templates/{id}"), ("GET", "/admin/bookings/{id}"), ("GET", "/admin/broadcasts/{id}"),
    ("GET", "/admin/catalog/items/{id}"), ("GET", "/admin/customers/{id}"), ("GET", "/admin/handoffs/{id}"),
    ("GET", "/admin/kb/documents/{id}"), ("GET", "/admin/offers/{id}"), ("GET", "/admin/orders/{id}"),
    ("PATCH", "/admin/catalog/items/{id}"), ("PATCH", "/admin/tenant"), ("POST", "/admin/bookings/{id}/mark"),
    ("POST", "/admin/bookings/{id}/move"), ("POST", "/admin/bookings/{id}/cancel"),
    ("POST", "/admin/bookings/{id}/refunded"), ("POST", "/admin/bookings/blocks"), ("POST", "/admin/broadcasts"),
    ("POST", "/admin/broadcasts/{id}/cancel"), ("POST", "/admin/broadcasts/dry-run"),
    ("POST", "/admin/handoffs/{id}/claim"), ("POST", "/admin/handoffs/{id}/reply"),
    ("POST", "/admin/orders/{id}/cancel"), ("POST", "/admin/orders/{id}/dispatch"), ("POST", "/admin/staff"),
    ("PUT", "/admin/catalog/items/{id}"), ("PUT", "/admin/offers/{id}"),
    ("POST", "/admin/payments/overpayments/mpesa_c2b/{id}/close"), ("POST", "/admin/payments/unmatched/{id}/apply"),
    ("GET", "/admin/payments/unmatched/{id}/suggestions"),
]  # fmt: skip
surrogates = st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=5)
poison_ids = st.one_of(
    st.text(min_size=300, max_size=3000),
    surrogates.map(lambda s: quote(s.encode("utf-8", "surrogatepass"), safe="")),
    st.sampled_from(["%23", "..", "%00", "a%2Fb", "\u202e"]),
)


@st.composite
def poison_bodies(draw: st.DrawFn) -> tuple[bytes, bool]:
    kind = draw(st.sampled_from(["surrogate", "deep", "latin-1", "utf-16", "long"]))
    if kind == "surrogate":
        return b'{"name": "\\ud800 x", "text": "\\udfff", "email": "a\\ud800@b.co", "start": "\\ud800"}', False
    if kind == "deep":
        depth = draw(st.integers(100, 5000))
        return b'{"a": ' + b"[" * depth + b"]" * depth + b"}", False
    if kind == "long":
        return json.dumps({"name": "x" * 5000, "email": "e" * 3000 + "@x.co", "staff_id": "s" * 3000}).encode(), False
    text = json.dumps({"name": "Caf\u00e9 \u00e0 la carte", "text": "jambo \u00e9"}, ensure_ascii=False)
    return text.encode(kind), True


@settings(max_examples=CASES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), ident=poison_ids, body=poison_bodies())
def test_poison_ids_and_bodies_on_every_route_are_never_a_server_error(
    api: Any, catalog_writes: CatalogWrites, route: tuple[str, str], ident: str, body: tuple[bytes, bool]
) -> None:
    method, template = route
    before = catalog_writes.count()
    raw, binary = body
    response = call(api, method, template.replace("{id}", ident), body=raw, base64_body=binary)
    if response["statusCode"] >= 400:
        assert catalog_writes.count() == before  # refused: nothing written
