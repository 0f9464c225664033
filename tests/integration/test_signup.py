"""A shop starts on its own (issue 34, part 1): a person who signed up and verified her email makes her shop
through the admin API; its id is checked unique; the shop reaches her token only through the token trigger,
from the record the server wrote; until then her token opens the sign-up routes and nothing else.
Through the real admin function and moto."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qsl

import pytest

from tests.conftest import SHOP
from tests.conftest import Caller as ToolCaller
from tests.integration.test_webhook import api_event
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.pipeline import admin_app
from tulia.pipeline.token_trigger import add_shop
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.staff import StaffRepo
from tulia.store.stats import StatsRepo

NEW_SHOP = {
    "name": "Mama Njeri Beauty",
    "tenant_id": "mama-njeri-beauty",
    "trade": "beauty",
    "default_language": "sw",
    "languages": ["sw", "en"],
    "bot_name": "Njeri",
    "tone": "warm_chatty",
}


class Person:
    """A caller of the admin API with a verified token of the staff pool, as API Gateway passes its claims."""

    def __init__(self, api: Any, sub: str, email: str, *, verified: bool = True, tenant_id: str | None = None) -> None:
        self.api, self.sub, self.email, self.verified, self.tenant_id = api, sub, email, verified, tenant_id
        self.groups: list[str] = []

    def __call__(
        self, method: str, path: str, body: Any = None, *, file: tuple[bytes, str] | None = None
    ) -> tuple[int, Any]:
        """``file``: a raw body and its content type (sent base64-encoded as API Gateway passes binary bodies)."""
        raw = json.dumps(body).encode() if body is not None else None
        content_type = "application/json"
        if file is not None:
            raw, content_type = file
        path, _, query = path.partition("?")
        event = api_event(
            method,
            path=path,
            body=raw,
            headers={"content-type": content_type},
            params=dict(parse_qsl(query)),
            base64_body=file is not None,
        )
        claims = {"sub": self.sub, "email": self.email, "email_verified": str(self.verified).lower(), "token_use": "id"}
        if self.tenant_id:
            claims["custom:tenant_id"] = self.tenant_id
        if self.groups:
            claims["cognito:groups"] = f"[{' '.join(self.groups)}]"
        event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
        response = admin_app.handle(event, self.api)
        if response.get("isBase64Encoded"):  # a file: its bytes
            return response["statusCode"], base64.b64decode(response["body"])
        try:
            return response["statusCode"], json.loads(response["body"])
        except ValueError:  # a CSV export
            return response["statusCode"], response["body"]

    def signs_in_again(self, services: Services) -> None:
        """A new token, as Cognito issues it with the pool's trigger."""
        event = {
            "version": "1",
            "triggerSource": "TokenGeneration_RefreshTokens",
            "request": {
                "userAttributes": {"sub": self.sub, "email": self.email, "email_verified": "true"},
                "groupConfiguration": {"groupsToOverride": []},
            },
            "response": {"claimsOverrideDetails": None},
        }
        changes = add_shop(event, services.tenants)["response"]["claimsOverrideDetails"]
        if changes:
            self.tenant_id = changes["claimsToAddOrOverride"]["custom:tenant_id"]
            self.groups = changes["groupOverrideDetails"]["groupsToOverride"]


@pytest.fixture
def api(seeded: Services) -> Any:
    return build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db), stats=StatsRepo(seeded.db)))


@pytest.fixture
def njeri(api: Any) -> Person:
    return Person(api, "sub-njeri", "njeri@example.co.ke")


def test_a_new_owner_makes_her_shop_and_her_next_token_opens_it(njeri: Person, seeded: Services) -> None:
    assert njeri("GET", "/admin/signup/me")[1]["tenant_id"] is None
    assert njeri("GET", "/admin/me")[0] == 401  # no shop in her token: only the sign-up routes answer
    status, free = njeri("GET", "/admin/signup/shop-ids/mama-njeri-beauty")
    assert (status, free["available"]) == (200, True)
    status, made = njeri("POST", "/admin/signup/shop", NEW_SHOP)
    assert status == 200, made
    assert made == {
        "tenant_id": "mama-njeri-beauty",
        "name": "Mama Njeri Beauty",
        "status": "setup",
        "trade": "beauty",
        "documents": ["faq-questions-customers-ask"],
        "example_items": 4,
    }
    assert njeri("GET", "/admin/signup/me")[1] == {
        "email": "njeri@example.co.ke",
        "name": None,
        "tenant_id": "mama-njeri-beauty",
        "token_names_shop": False,
    }
    assert njeri("GET", "/admin/me")[0] == 401  # the old token still names no shop

    njeri.signs_in_again(seeded)
    assert (njeri.tenant_id, njeri.groups) == ("mama-njeri-beauty", ["owner"])
    status, me = njeri("GET", "/admin/me")
    assert status == 200, me
    assert (me["shop_name"], me["roles"], me["default_language"]) == ("Mama Njeri Beauty", ["owner"], "sw")
    assert me["languages"] == ["sw", "en"]
    assert me["takes_bookings"] is True  # a beauty shop books appointments
    tenant = njeri("GET", "/admin/tenant")[1]
    assert tenant["persona"]["bot_name"] == "Njeri"
    assert tenant["status"] == "setup"
    assert tenant["whatsapp"] is None  # connected later, in the browser
    assert "braid" in tenant["vocabulary"]  # the trade's starter words
    assert [m.email for m in StaffRepo(seeded.db).list("mama-njeri-beauty")] == ["njeri@example.co.ke"]
    docs = njeri("GET", "/admin/kb/documents")[1]
    assert [d["doc_id"] for d in docs["items"]] == ["faq-questions-customers-ask"]
    answer = njeri("POST", "/admin/kb/ask", {"question": "how do I pay?", "language": "en"})[1]
    assert answer["answer_found"] is True, answer
    assert "M-Pesa" in json.dumps(answer)
    assert "Mama Njeri Beauty" in json.dumps(answer)
    examples = njeri("GET", "/admin/catalog/items")[1]["items"]
    assert {i["item_id"] for i in examples} == {"EX-BRAIDS-1", "EX-CUT-1", "EX-NAILS-1", "EX-WASH-1"}
    assert all(i["active"] is False and i["type"] == "service" and "(example)" in i["name"] for i in examples)


def test_her_new_shop_sees_nothing_of_another_shop(njeri: Person, seeded: Services) -> None:
    njeri("POST", "/admin/signup/shop", NEW_SHOP)
    njeri.signs_in_again(seeded)
    assert njeri("GET", "/admin/orders")[1]["items"] == []
    assert {i["item_id"] for i in njeri("GET", "/admin/catalog/items")[1]["items"]} == {
        "EX-BRAIDS-1", "EX-CUT-1", "EX-NAILS-1", "EX-WASH-1"
    }  # her own hidden examples only  # fmt: skip
    assert njeri("GET", "/admin/customers")[1]["items"] == []
    assert njeri("GET", "/admin/handoffs?status=open")[1]["items"] == []


def test_a_shop_id_is_unique_and_checked_and_a_second_shop_is_refused(
    njeri: Person, api: Any, seeded: Services
) -> None:
    for bad, problem in (("Mama Njeri", "malformed"), ("-x", "malformed"), ("admin", "reserved"), (SHOP, "reserved")):
        assert njeri("GET", f"/admin/signup/shop-ids/{bad}")[1]["problem"] == problem
    status, error = njeri("POST", "/admin/signup/shop", {**NEW_SHOP, "tenant_id": SHOP})
    assert (status, error["field"]) == (422, "tenant_id")
    assert seeded.tenants.get(SHOP).name == "Duka Bora Electronics"  # untouched
    assert njeri("POST", "/admin/signup/shop", NEW_SHOP)[0] == 200
    status, error = njeri("POST", "/admin/signup/shop", {**NEW_SHOP, "tenant_id": "njeri-two"})
    assert status == 409
    assert not seeded.tenants.exists("njeri-two")
    # someone else cannot take her id
    wanjiku = Person(api, "sub-wanjiku", "wanjiku@example.co.ke")
    taken = {"tenant_id": "mama-njeri-beauty", "available": False, "problem": "taken"}
    assert wanjiku("GET", "/admin/signup/shop-ids/mama-njeri-beauty")[1] == taken
    status, error = wanjiku("POST", "/admin/signup/shop", {**NEW_SHOP, "name": "Wanjiku"})
    assert (status, error["field"]) == (409, "tenant_id")
    assert seeded.tenants.get("mama-njeri-beauty").name == "Mama Njeri Beauty"
    assert seeded.tenants.shop_of_person("sub-wanjiku") is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"tenant_id": "Has Spaces"}, "tenant_id"),
        ({"trade": "rockets"}, "trade"),
        ({"default_language": "en", "languages": ["sw"]}, ""),
        ({"name": ""}, "name"),
        ({"languages": ["fr"]}, "languages.0"),
    ],
)
def test_a_bad_shop_is_refused_with_the_field_and_nothing_is_made(
    njeri: Person, seeded: Services, change: dict[str, Any], field: str
) -> None:
    status, error = njeri("POST", "/admin/signup/shop", {**NEW_SHOP, **change})
    assert status == 422, error
    fields = [e["field"].removeprefix("body.") for e in error.get("errors", [])] or [error.get("field")]
    assert any(f.startswith(field) for f in fields if f is not None), error
    assert seeded.tenants.shop_of_person("sub-njeri") is None
    assert not seeded.tenants.exists("mama-njeri-beauty")


def test_an_unverified_email_or_a_shop_token_cannot_make_a_shop(api: Any, seeded: Services) -> None:
    unverified = Person(api, "sub-x", "x@example.co.ke", verified=False)
    status, error = unverified("POST", "/admin/signup/shop", NEW_SHOP)
    assert (status, error["code"]) == (403, "email_not_verified")
    staff = Person(api, "sub-owner", "owner@shop.example", tenant_id=SHOP)
    assert staff("POST", "/admin/signup/shop", NEW_SHOP)[0] == 409
    assert not seeded.tenants.exists("mama-njeri-beauty")


def test_the_trigger_leaves_invited_staff_and_people_without_a_shop_as_they_are(seeded: Services) -> None:
    invited = {
        "request": {"userAttributes": {"sub": "s1", "custom:tenant_id": SHOP}, "groupConfiguration": {}},
        "response": {"claimsOverrideDetails": None},
    }
    assert add_shop(invited, seeded.tenants)["response"]["claimsOverrideDetails"] is None
    newcomer = {"request": {"userAttributes": {"sub": "s2"}}, "response": {"claimsOverrideDetails": None}}
    assert add_shop(newcomer, seeded.tenants)["response"]["claimsOverrideDetails"] is None


def test_the_trades_to_start_from(njeri: Person) -> None:
    status, trades = njeri("GET", "/admin/signup/trades")
    assert status == 200
    by_trade = {t["trade"]: t for t in trades}
    assert {"electronics", "beauty", "grocery", "hardware", "other"} <= set(by_trade)
    assert by_trade["beauty"]["books"] is True
    assert by_trade["grocery"]["name"]["sw"] == "Vyakula na bidhaa za nyumbani"


def _zipped_text(data: bytes) -> str:
    """Every file of a zip (a shop's pack), as text."""
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return "\n".join(archive.read(name).decode("utf-8", "replace") for name in archive.namelist())


def test_every_admin_route_keeps_a_new_owner_out_of_the_demo_shops_data(
    njeri: Person, api: Any, seeded: Services, shop: Any
) -> None:
    """The cross-shop matrix for a shop made in the console: its owner calls every route of the admin API, naming
    the demo shop's own ids in the paths; nothing of the demo shop comes back and nothing of it changes."""
    import re

    njeri("POST", "/admin/signup/shop", NEW_SHOP)
    njeri.signs_in_again(seeded)
    customer_id = shop.ok("customer_get_or_create", phone_e164="0711000333")["customer_id"]
    shop.customer_id = customer_id
    order = shop.ok(
        "order_create",
        customer_id=customer_id,
        items=[{"item_id": "SG-002", "quantity": 1}],
        delivery={"mode": "pickup"},
    )
    ids = {
        "order_id": order["order_id"],
        "order_ref": order["order_ref"],
        "customer_id": customer_id,
        "item_id": "SG-002",
        "sku": "SG-002",
        "tenant_id": SHOP,
    }
    before = (seeded.catalog.get_many(SHOP, ["SG-002"]), seeded.orders.get(SHOP, order["order_id"]).status)
    spec = njeri("GET", "/admin/openapi.json")[1]
    secrets_of_the_demo_shop = (
        "Duka Bora Electronics",
        "Samsung Galaxy A15 Tempered Glass",
        "0711000333",
        "254711000333",
    )
    calls = 0
    for path, methods in spec["paths"].items():
        concrete = re.sub(r"\{(\w+)\}", lambda m: ids.get(m.group(1), order["order_id"]), path)
        for method in methods:
            status, body = njeri(method.upper(), concrete, {})
            calls += 1
            text = _zipped_text(body) if isinstance(body, bytes) else json.dumps(body)
            for secret in secrets_of_the_demo_shop:
                assert secret not in text, (method, concrete, status, text[:300])
    assert calls > 80
    # the same routes do show these to the demo shop's own owner: what was looked for is what a leak would show
    demo_owner = Person(api, "sub-demo-owner", "owner@shop.example", tenant_id=SHOP)
    demo_owner.groups = ["owner"]
    assert "0711000333" in json.dumps(demo_owner("GET", "/admin/customers")[1]).replace("+254", "0")
    assert "Duka Bora Electronics" in json.dumps(demo_owner("GET", "/admin/me")[1])
    assert (seeded.catalog.get_many(SHOP, ["SG-002"]), seeded.orders.get(SHOP, order["order_id"]).status) == before
    assert seeded.tenants.get(SHOP).status == "live"


def test_example_items_stay_hidden_from_customers_and_the_checklist_until_she_shows_one(
    njeri: Person, seeded: Services
) -> None:
    njeri("POST", "/admin/signup/shop", {**NEW_SHOP, "trade": "grocery", "tenant_id": "njeri-grocer"})
    njeri.signs_in_again(seeded)
    catalog = [c for c in njeri("GET", "/admin/shop/checklist")[1]["checks"] if c["item"] == "catalog"]
    assert catalog == [{"item": "catalog", "done": False, "missing": "Show customers at least one product or service"}]
    bot = ToolCaller(seeded, "njeri-grocer")
    assert bot.ok("catalog_search", query="maize flour", limit=6)["results"] == []  # the bot never offers examples
    changes = {"name": "Jogoo maize flour 2kg", "stock": 30, "active": True}
    status, flour = njeri("PATCH", "/admin/catalog/items/EX-FLOUR-1", changes)
    assert (status, flour["active"], flour["stock"], flour["price"]) == (200, True, 30, 180)
    [found] = bot.ok("catalog_search", query="maize flour", limit=6)["results"]
    assert (found["name"], found["price"]) == ("Jogoo maize flour 2kg", 180)
    catalog = [c for c in njeri("GET", "/admin/shop/checklist")[1]["checks"] if c["item"] == "catalog"]
    assert catalog == [{"item": "catalog", "done": True, "missing": None}]


def test_a_shop_may_start_without_example_items(njeri: Person, seeded: Services) -> None:
    status, made = njeri("POST", "/admin/signup/shop", {**NEW_SHOP, "example_items": False})
    assert (status, made["example_items"]) == (200, 0)
    assert list(seeded.catalog.iter_all("mama-njeri-beauty")) == []
