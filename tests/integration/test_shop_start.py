"""Issue 34, parts 2 and 6: a shop connects its WhatsApp number in the browser (Meta's Embedded Signup), then goes
live with its checklist complete. Through the real admin function against the Graph simulator's stand-in of the
popup and of the Graph calls: the code is exchanged once, the app subscribed, the number registered with a PIN we
keep, the token and PIN land in the shop's secret (never DynamoDB), the number routes to the shop, and the
templates Tulia needs are submitted where missing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import httpx
import pytest

from tests.conftest import SANDBOX_PASSKEY, SHOP
from tests.integration.test_signup import NEW_SHOP, Person
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.admin.handoffs import WhatsAppAccess
from tulia.admin.whatsapp_connect import SignupDialog
from tulia.channel.onboarding import MetaOnboarding
from tulia.config import Settings
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.graph import SIGNUP_DIALOG, GraphSimulator
from tulia.local.simulators.pesapal import PesapalSimulator
from tulia.services import Services, build_services
from tulia.store.audit import AuditRepo
from tulia.store.tables import ALL_TABLES, create_tables
from tulia.store.templates import TemplateRepo

PREFIX = "tulia/test/"


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=5) as client:
        yield client


def admin_api(services: Services, graph: GraphSimulator, http: httpx.Client) -> Any:
    deps = AdminDeps(
        services=services,
        audit=AuditRepo(services.db),
        whatsapp=WhatsAppAccess(http, graph.base_url, "deployment-token"),
        onboarding=MetaOnboarding(http, graph.base_url, "local-app", "local-app-secret"),
        signup_dialog=SignupDialog("simulator", "local-app", "local", f"{graph.base_url}{SIGNUP_DIALOG}"),
    )
    return build_admin_api(deps)


def popup(
    graph: GraphSimulator, http: httpx.Client, name: str = "Njeri Beauty", number: str = "+254 712 000 111"
) -> dict[str, str]:
    """What the owner does in the signup popup: the code and ids the browser gets."""
    answer = http.post(
        f"{graph.base_url}{SIGNUP_DIALOG}/finish", json={"business_name": name, "display_phone_number": number}
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


@pytest.fixture
def njeri(seeded: Services, graph: GraphSimulator, http: httpx.Client) -> Person:
    person = Person(admin_api(seeded, graph, http), "sub-njeri", "njeri@example.co.ke")
    assert person("POST", "/admin/signup/shop", NEW_SHOP)[0] == 200
    person.signs_in_again(seeded)
    return person


def test_the_owner_connects_the_number_chosen_in_the_popup(
    njeri: Person, seeded: Services, graph: GraphSimulator, http: httpx.Client
) -> None:
    assert njeri("GET", "/admin/whatsapp")[1] == {
        "connected": False,
        "phone_number_id": None,
        "display_phone_number": None,
        "verified_name": None,
        "business_account_id": None,
        "templates_submitted": [],
        "templates_approved": 0,
    }
    config = njeri("GET", "/admin/whatsapp/signup")[1]
    assert (config["mode"], config["dialog_url"]) == ("simulator", f"{graph.base_url}{SIGNUP_DIALOG}")
    chosen = popup(graph, http)
    status, connected = njeri("POST", "/admin/whatsapp/connect", chosen)
    assert status == 200, connected
    assert connected["display_phone_number"] == "+254 712 000 111"
    assert connected["verified_name"] == "Njeri Beauty"
    assert sorted(connected["templates_submitted"]) == sorted(
        f"{name}/{lang}"
        for name in (
            "order_update",
            "payment_receipt",
            "staff_reply",
            "staff_alert",
            "unpaid_reminder",
            "booking_reminder",
        )
        for lang in ("en", "sw")
    )  # the shop writes in Swahili and English: both; none of them existed on the new account
    tenant = seeded.tenants.get("mama-njeri-beauty")
    assert tenant.whatsapp is not None
    assert tenant.whatsapp.phone_number_id == chosen["phone_number_id"]
    assert tenant.whatsapp.business_account_id == chosen["waba_id"]
    assert tenant.whatsapp.access_token is not None
    assert tenant.whatsapp.access_token.startswith("EAAsim")
    assert seeded.tenants.tenant_for_phone_number_id(chosen["phone_number_id"]) == "mama-njeri-beauty"  # routed
    assert graph.numbers[chosen["phone_number_id"]]["registered"] is True
    assert graph.numbers[chosen["phone_number_id"]]["pin"] == tenant.whatsapp.registration_pin
    assert chosen["waba_id"] in graph.subscribed
    # the templates are the shop's: listed (pending until Meta's review) and, once reviewed, approved
    stored = {(t.name, t.language): t.status for t in TemplateRepo(seeded.db).list("mama-njeri-beauty")}
    assert stored[("order_update", "sw")] in ("pending", "approved")
    # nothing of the token reaches the browser
    assert tenant.whatsapp.access_token not in json.dumps(njeri("GET", "/admin/tenant")[1])
    assert tenant.whatsapp.access_token not in json.dumps(connected)


def test_a_code_works_once_and_a_refused_code_changes_nothing(
    njeri: Person, seeded: Services, graph: GraphSimulator, http: httpx.Client
) -> None:
    chosen = popup(graph, http)
    assert njeri("POST", "/admin/whatsapp/connect", chosen)[0] == 200
    status, error = njeri("POST", "/admin/whatsapp/connect", {**chosen})
    assert (status, error["code"]) == (502, "meta_error")
    other = popup(graph, http, number="+254 712 000 222")
    status, error = njeri("POST", "/admin/whatsapp/connect", {**other, "code": "not-a-code"})
    assert status == 502
    assert seeded.tenants.get("mama-njeri-beauty").whatsapp.phone_number_id == chosen["phone_number_id"]  # unchanged


def test_another_shops_number_cannot_be_taken(
    njeri: Person, seeded: Services, graph: GraphSimulator, http: httpx.Client
) -> None:
    chosen = popup(graph, http)
    demo_number = seeded.tenants.get(SHOP).whatsapp.phone_number_id
    graph.numbers[demo_number] = {**graph.numbers.pop(chosen["phone_number_id"]), "waba_id": chosen["waba_id"]}
    status, error = njeri("POST", "/admin/whatsapp/connect", {**chosen, "phone_number_id": demo_number})
    assert status == 422, error
    assert seeded.tenants.tenant_for_phone_number_id(demo_number) == SHOP
    assert seeded.tenants.get("mama-njeri-beauty").whatsapp is None


def test_only_the_owner_connects_and_a_server_without_embedded_signup_says_so(
    seeded: Services, graph: GraphSimulator, http: httpx.Client
) -> None:
    api = admin_api(seeded, graph, http)
    agent = Person(api, "sub-agent", "agent@shop.example", tenant_id=SHOP)
    agent.groups = ["agent"]
    assert agent("POST", "/admin/whatsapp/connect", popup(graph, http))[0] == 403
    bare = build_admin_api(AdminDeps(services=seeded, audit=AuditRepo(seeded.db)))
    owner = Person(bare, "sub-owner", "owner@shop.example", tenant_id=SHOP)
    owner.groups = ["owner"]
    status, error = owner("GET", "/admin/whatsapp/signup")
    assert (status, error["code"]) == (503, "embedded_signup_off")


def test_the_token_and_pin_go_to_the_shops_secret_never_to_dynamodb(
    dynamodb: Any, demo_packs: Any, graph: GraphSimulator, http: httpx.Client
) -> None:
    create_tables(dynamodb, "aws-", ALL_TABLES)
    services = build_services(
        Settings(table_prefix="aws-", secrets_prefix=PREFIX, public_base_url="https://tulia.example"),
        dynamodb=dynamodb,
        http=http,
    )
    njeri = Person(admin_api(services, graph, http), "sub-njeri", "njeri@example.co.ke")
    assert njeri("POST", "/admin/signup/shop", NEW_SHOP)[0] == 200
    njeri.signs_in_again(services)
    assert njeri("POST", "/admin/whatsapp/connect", popup(graph, http))[0] == 200
    item = dynamodb.get_item(
        TableName="aws-tenants", Key={"pk": {"S": "mama-njeri-beauty#TENANT"}, "sk": {"S": "PROFILE"}}
    )["Item"]
    tenant = services.tenants.get("mama-njeri-beauty")
    assert tenant.whatsapp is not None
    assert tenant.whatsapp.access_token is not None
    assert tenant.whatsapp.access_token not in json.dumps(item)
    assert tenant.whatsapp.registration_pin not in json.dumps(item)
    kept = json.loads(
        boto3.client("secretsmanager", region_name="eu-west-1").get_secret_value(
            SecretId=f"{PREFIX}tenants/mama-njeri-beauty"
        )["SecretString"]
    )
    assert kept == {
        "whatsapp_access_token": tenant.whatsapp.access_token,
        "whatsapp_registration_pin": tenant.whatsapp.registration_pin,
    }


def missing(person: Person) -> dict[str, Any]:
    status, listed = person("GET", "/admin/shop/checklist")
    assert status == 200, listed
    return {c["item"]: c["missing"] for c in listed["checks"] if not c["done"]}


def test_the_checklist_says_what_is_missing_until_the_shop_can_go_live(
    njeri: Person, seeded: Services, graph: GraphSimulator, http: httpx.Client, daraja: DarajaSimulator
) -> None:
    assert set(missing(njeri)) == {"whatsapp", "payment", "catalog", "hours", "templates"}
    status, error = njeri("POST", "/admin/shop/go-live")
    assert (status, error["code"]) == (422, "checklist_incomplete")
    assert sorted(error["details"]["missing"]) == ["catalog", "hours", "payment", "templates", "whatsapp"]

    assert njeri("POST", "/admin/whatsapp/connect", popup(graph, http))[0] == 200
    # connected, and the templates it needs submitted and (the simulator's review is at once) approved
    assert set(missing(njeri)) == {"payment", "catalog", "hours"}

    item = {
        "name": "Knotless braids",
        "category": "Braids",
        "price": 3500,
        "stock": 10,
        "description": "Medium",
    }
    assert njeri("PUT", "/admin/catalog/items/BR-1", item)[0] == 200
    status, patched = njeri("PATCH", "/admin/tenant", {"handoff": {"hours": "Tue-Sat 08:00-19:00"}})
    assert status == 200, patched
    assert set(missing(njeri)) == {"payment"}

    status, patched = njeri("PATCH", "/admin/tenant", {"payments": {"mpesa_c2b": {"till": "5987654"}}})
    assert status == 200, patched
    assert missing(njeri) == {}  # the Till's URLs registered with Daraja: its payments reach the shop
    assert any("/mpesa/c2b/" in r.path for r in daraja.requests)

    status, live = njeri("POST", "/admin/shop/go-live")
    assert (status, live["status"], live["complete"]) == (200, "live", True)
    assert seeded.tenants.get("mama-njeri-beauty").status == "live"
    assert njeri("POST", "/admin/shop/go-live")[0] == 422  # live already


def test_the_m_pesa_prompt_is_offered_once_a_kes_1_test_to_the_owners_phone_succeeds(
    njeri: Person, seeded: Services, daraja: DarajaSimulator, setup: dict[str, Any]
) -> None:
    """Part 3: the shop's Daraja keys and passkey entered in the console are proven by a KES 1 prompt to the
    owner's own phone; until then customers are not offered the prompt."""
    stk = {"shortcode": "174379", "passkey": SANDBOX_PASSKEY, "consumer_key": "k" * 12, "consumer_secret": "s" * 12}
    status, patched = njeri("PATCH", "/admin/tenant", {"payments": {"mpesa_stk": stk}})
    assert status == 200, patched
    assert "payment" in missing(njeri)  # set up, not proven
    callbacks = setup["callbacks"]

    def prompted(phone: str, result_code: int) -> dict[str, Any]:
        status, test = njeri("POST", "/admin/payments/tests", {"phone": phone})
        assert status == 200, test
        assert (test["status"], test["amount"], test["phone_masked"]) == ("pending", 1, "+254 7** *** 321")
        sent = daraja.stk[
            next(
                c
                for c in daraja.stk
                if daraja.stk[c].body["PhoneNumber"] == "254700654321" and daraja.stk[c].result_code is None
            )
        ]
        assert (sent.body["Amount"], sent.body["BusinessShortCode"]) == (1, "174379")
        body = daraja.complete(sent.checkout_request_id, result_code, send_callback=False)
        token = sent.body["CallBackURL"].rstrip("/").rsplit("/", 1)[-1]
        raw = json.dumps(body).encode()
        assert callbacks.stk_callback(token, raw).status == 200
        assert callbacks.stk_callback(token, raw).status == 200  # a duplicate changes nothing
        return dict(njeri("GET", f"/admin/payments/tests/{test['test_id']}")[1])

    failed = prompted("0700654321", 1032)  # she cancelled it on the phone
    assert (failed["status"], failed["tested"]) == ("failed", False)
    assert failed["result_desc"]
    assert seeded.tenants.get("mama-njeri-beauty").payments_tested == {}
    succeeded = prompted("0700654321", 0)
    assert (succeeded["status"], succeeded["tested"]) == ("succeeded", True)
    assert succeeded["receipt"]
    tested = seeded.tenants.get("mama-njeri-beauty").payments_tested
    assert tested is not None
    assert "mpesa_stk" in tested
    assert "payment" not in missing(njeri)


def test_a_test_prompt_needs_the_m_pesa_prompt_set_up_and_a_kenyan_number(njeri: Person) -> None:
    status, error = njeri("POST", "/admin/payments/tests", {"phone": "0700654321"})
    assert (status, error["code"]) == (422, "method_unavailable")
    stk = {"shortcode": "174379", "passkey": "p" * 20}
    assert njeri("PATCH", "/admin/tenant", {"payments": {"mpesa_stk": stk}})[0] == 200
    status, error = njeri("POST", "/admin/payments/tests", {"phone": "+44 20 7946 0958"})
    assert (status, error["field"]) == (422, "phone")


def test_card_payments_are_offered_once_a_kes_1_checkout_the_owner_pays_succeeds(
    njeri: Person, seeded: Services, pesapal: PesapalSimulator, setup: dict[str, Any]
) -> None:
    """Part 3, PesaPal: the shop's PesaPal keys are proven by a KES 1 checkout she pays on PesaPal's page; its
    notification (under her shop's own URL) settles the test from PesaPal's status, once."""
    status, error = njeri("POST", "/admin/payments/tests", {"method": "pesapal"})
    assert (status, error["code"]) == (422, "method_unavailable")  # not set up yet
    keys = {"enabled": True, "consumer_key": "ck-" + "k" * 20, "consumer_secret": "cs-" + "s" * 20}
    assert njeri("PATCH", "/admin/tenant", {"payments": {"pesapal": keys}})[0] == 200
    callbacks = setup["callbacks"]

    def paid_on_the_page(outcome: int) -> dict[str, Any]:
        status, test = njeri("POST", "/admin/payments/tests", {"method": "pesapal"})
        assert status == 200, test
        assert (test["status"], test["amount"], test["tested"]) == ("pending", 1, False)
        tracking = test["checkout_url"].rsplit("OrderTrackingId=", 1)[-1]
        order = pesapal.orders[tracking]
        assert (order.body["amount"], order.body["id"]) == (1, f"TULIATEST-{test['test_id']}")
        assert order.body["billing_address"]["email_address"] == "njeri@example.co.ke"
        pesapal.complete(tracking, outcome)
        note = {"OrderTrackingId": tracking, "OrderMerchantReference": order.body["id"]}
        for _ in range(2):  # a duplicate changes nothing
            answered = callbacks.pesapal_ipn("mama-njeri-beauty", note)
            assert (answered.status, json.loads(answered.body)["status"]) == (200, 200)
        return dict(njeri("GET", f"/admin/payments/tests/{test['test_id']}")[1])

    declined = paid_on_the_page(2)
    assert (declined["status"], declined["tested"]) == ("failed", False)
    assert seeded.tenants.get("mama-njeri-beauty").payments_tested == {}  # a console shop: nothing proven yet
    paid = paid_on_the_page(1)
    assert (paid["status"], paid["tested"]) == ("succeeded", True)
    assert paid["receipt"]
    tested = seeded.tenants.get("mama-njeri-beauty").payments_tested
    assert tested is not None
    assert set(tested) == {"pesapal"}
    # another shop's notification URL cannot settle her test
    assert (
        callbacks.pesapal_ipn(SHOP, {"OrderTrackingId": "x" * 12, "OrderMerchantReference": "TULIATEST-x"}).status
        == 200
    )


def test_the_m_pesa_test_needs_a_phone(njeri: Person) -> None:
    status, error = njeri("POST", "/admin/payments/tests", {"method": "mpesa_stk"})
    assert (status, error["code"]) == (422, "invalid_input")
