"""What the console needs from the admin API, through the real admin function and moto (Cognito
included): who is calling, the shop's staff (invite, list, remove; one shop never touches another's),
the customer's name and number on tickets and orders, an order's history, orders by payment state and
the customer's number, analytics per day with the funnel, revenue by method and model cost in KES,
and trying a question against the knowledge base."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.chat import Chat
from tests.conftest import BOTO, SALON, SHOP
from tests.integration.test_reaching_customers import CUSTOMER, Admin, _ticket, paid_order
from tulia.admin.api import build_admin_api
from tulia.admin.common import AdminDeps
from tulia.admin.staff import StaffDirectory
from tulia.services import Services
from tulia.store.audit import AuditRepo
from tulia.store.customers import CustomerRepo
from tulia.store.stats import StatsRepo
from tulia.store.tables import CUSTOMERS


@pytest.fixture
def pool() -> tuple[Any, str]:
    idp = BOTO.client("cognito-idp")
    pool_id = idp.create_user_pool(
        PoolName="staff",
        UsernameAttributes=["email"],
        Schema=[{"Name": "tenant_id", "AttributeDataType": "String", "Mutable": False}],
    )["UserPool"]["Id"]
    for group in ("owner", "agent"):
        idp.create_group(GroupName=group, UserPoolId=pool_id)
    return idp, pool_id


@pytest.fixture
def admins(seeded: Services, pool: tuple[Any, str]) -> dict[str, Admin]:
    idp, pool_id = pool
    deps = AdminDeps(
        services=seeded,
        audit=AuditRepo(seeded.db),
        staff=StaffDirectory(lambda: idp, pool_id, send_email=False),
        stats=StatsRepo(seeded.db),
        kes_per_usd=130.0,
    )
    api = build_admin_api(deps)
    return {"shop": Admin(api), "salon": Admin(api, SALON)}


def test_me_names_the_shop_and_the_callers_roles(admins: dict[str, Admin]) -> None:
    status, me = admins["shop"]("GET", "/admin/me", role="agent")
    assert status == 200
    assert me["shop_name"] == "Duka Bora Electronics"
    assert me["roles"] == ["agent"]
    assert me["email"] == "agent@shop.example"
    assert "sw" in me["languages"]


def test_an_owner_invites_an_agent_who_must_choose_a_password(
    admins: dict[str, Admin], pool: tuple[Any, str], seeded: Services
) -> None:
    idp, pool_id = pool
    status, invited = admins["shop"]("POST", "/admin/staff", {"email": "Akinyi@Example.co.ke", "role": "agent"})
    assert status == 200, invited
    assert invited["member"] == {
        "email": "akinyi@example.co.ke",
        "name": None,
        "role": "agent",
        "status": "invited",
        "invited_at": invited["member"]["invited_at"],
        "invited_by": "owner@shop.example",
    }
    user = idp.admin_get_user(UserPoolId=pool_id, Username="akinyi@example.co.ke")
    assert user["UserStatus"] == "FORCE_CHANGE_PASSWORD"
    assert {"Name": "custom:tenant_id", "Value": SHOP} in user["UserAttributes"]
    groups = idp.admin_list_groups_for_user(UserPoolId=pool_id, Username="akinyi@example.co.ke")["Groups"]
    assert [g["GroupName"] for g in groups] == ["agent"]
    first = idp.admin_initiate_auth(  # the temporary password works once, for choosing her own
        UserPoolId=pool_id,
        ClientId=idp.create_user_pool_client(UserPoolId=pool_id, ClientName="c")["UserPoolClient"]["ClientId"],
        AuthFlow="ADMIN_USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": "akinyi@example.co.ke", "PASSWORD": invited["temporary_password"]},
    )
    assert first["ChallengeName"] == "NEW_PASSWORD_REQUIRED"
    status, staff = admins["shop"]("GET", "/admin/staff")
    assert [(m["email"], m["status"]) for m in staff] == [("akinyi@example.co.ke", "invited")]
    assert admins["salon"]("GET", "/admin/staff")[1] == []  # another shop's list is its own
    audit = AuditRepo(seeded.db).list(SHOP).items
    assert audit[0].action == "staff.invite"
    assert audit[0].target == "akinyi@example.co.ke"


@pytest.mark.parametrize(
    "body",
    [
        {"email": "not-an-email", "role": "agent"},
        {"email": "a@b.co.ke", "role": "admin"},
        {"role": "agent"},
        {"email": "a@b.co.ke", "role": "agent", "name": "   "},
        {"email": "a@b.co.ke", "role": "agent", "name": "x" * 81},
    ],
)
def test_a_bad_invitation_is_refused_and_creates_nobody(
    admins: dict[str, Admin], pool: tuple[Any, str], body: dict[str, str]
) -> None:
    idp, pool_id = pool
    status, error = admins["shop"]("POST", "/admin/staff", body)
    assert status == 422
    assert error["code"] == "invalid_input"
    assert idp.list_users(UserPoolId=pool_id)["Users"] == []


def test_staff_are_shown_by_the_name_the_shop_knows_them_by(
    admins: dict[str, Admin], pool: tuple[Any, str], seeded: Services
) -> None:
    """Issue 33, part 7: an invited agent showed as an email (or a UUID); a name is given at the invitation, and
    everyone of the shop can read the names to show beside the work (owners alone see the staff list)."""
    idp, pool_id = pool
    body = {"name": "  Akinyi Otieno ", "email": "akinyi@example.co.ke", "role": "agent"}
    status, invited = admins["shop"]("POST", "/admin/staff", body)
    assert (status, invited["member"]["name"]) == (200, "Akinyi Otieno")
    user = idp.admin_get_user(UserPoolId=pool_id, Username="akinyi@example.co.ke")
    assert {"Name": "name", "Value": "Akinyi Otieno"} in user["UserAttributes"]
    assert [(m["email"], m["name"]) for m in admins["shop"]("GET", "/admin/staff")[1]] == [
        ("akinyi@example.co.ke", "Akinyi Otieno")
    ]
    status, names = admins["shop"]("GET", "/admin/staff/names", role="agent")
    assert (status, names) == (200, [{"email": "akinyi@example.co.ke", "name": "Akinyi Otieno"}])
    assert admins["salon"]("GET", "/admin/staff/names", role="agent")[1] == []  # another shop's people are its own
    # she names herself differently; someone not on the list cannot
    status, me = admins["shop"](
        "PUT", "/admin/me/name", {"name": "Akinyi O."}, role="agent", email="akinyi@example.co.ke"
    )
    assert (status, me["name"], me["email"]) == (200, "Akinyi O.", "akinyi@example.co.ke")
    assert admins["shop"]("GET", "/admin/me", role="agent", email="akinyi@example.co.ke")[1]["name"] == "Akinyi O."
    assert admins["shop"]("PUT", "/admin/me/name", {"name": ""}, role="agent", email="akinyi@example.co.ke")[0] == 422
    assert admins["shop"]("PUT", "/admin/me/name", {"name": "Ghost"}, role="agent", email="nobody@x.co.ke")[0] == 404
    assert admins["shop"]("GET", "/admin/staff/names")[1] == [{"email": "akinyi@example.co.ke", "name": "Akinyi O."}]


def test_only_owners_manage_staff_and_an_email_has_one_account(admins: dict[str, Admin]) -> None:
    assert admins["shop"]("GET", "/admin/staff", role="agent")[0] == 403
    assert admins["shop"]("POST", "/admin/staff", {"email": "x@example.co.ke", "role": "owner"}, role="agent")[0] == 403
    assert admins["shop"]("POST", "/admin/staff", {"email": "x@example.co.ke", "role": "agent"})[0] == 200
    status, error = admins["salon"]("POST", "/admin/staff", {"email": "x@example.co.ke", "role": "owner"})
    assert status == 409
    assert "already has a Tulia account" in error["message"]


def test_removing_staff_never_reaches_another_shops_people(admins: dict[str, Admin], pool: tuple[Any, str]) -> None:
    idp, pool_id = pool
    admins["shop"]("POST", "/admin/staff", {"email": "wafula@example.co.ke", "role": "agent"})
    status, _ = admins["salon"]("DELETE", "/admin/staff/wafula%40example.co.ke")
    assert status == 404
    assert idp.admin_get_user(UserPoolId=pool_id, Username="wafula@example.co.ke")["Enabled"] is True
    status, gone = admins["shop"]("DELETE", "/admin/staff/wafula%40example.co.ke")
    assert (status, gone) == (200, {"deleted": True, "id": "wafula@example.co.ke"})
    assert idp.list_users(UserPoolId=pool_id)["Users"] == []
    assert admins["shop"]("GET", "/admin/staff")[1] == []


def test_a_removed_persons_token_gets_401_on_every_route_at_once(
    admins: dict[str, Admin], pool: tuple[Any, str]
) -> None:
    """Issue 31, part 2: after DELETE /admin/staff/..., the person's ID token (valid for an hour) still read
    customers' phone numbers, claimed hand-overs and replied as the shop."""
    idp, pool_id = pool
    shop = admins["shop"]
    assert shop("POST", "/admin/staff", {"email": "kamau@example.co.ke", "role": "agent"})[0] == 200
    routes = [
        ("GET", "/admin/me", None),
        ("GET", "/admin/customers", None),
        ("GET", "/admin/handoffs", None),
        ("GET", "/admin/orders", None),
        ("POST", "/admin/handoffs/tk_1/claim", {}),
        ("POST", "/admin/handoffs/tk_1/reply", {"text": "hello"}),
    ]
    assert shop("GET", "/admin/customers", role="agent", email="kamau@example.co.ke")[0] == 200  # the token works
    assert shop("DELETE", "/admin/staff/kamau%40example.co.ke")[0] == 200
    spec = shop("GET", "/admin/openapi.json")[1]
    routes += [  # and every other route, even with a body that would not validate (no 422 before the 401)
        (method.upper(), re.sub(r"\{\w+\}", "x", path), {})
        for path, methods in spec["paths"].items()
        for method in methods
    ]
    assert len(routes) > 60
    for method, path, body in routes:  # the same token, taken before the removal
        status, error = shop(method, path, body, role="agent", email="kamau@example.co.ke")
        assert status == 401, (method, path, status, error)
        assert "no longer on this shop's staff" in error["message"]
    assert idp.list_users(UserPoolId=pool_id)["Users"] == []  # signed out everywhere and deleted
    assert shop("GET", "/admin/customers", role="agent")[0] == 200  # other people are untouched
    assert shop("POST", "/admin/staff", {"email": "kamau@example.co.ke", "role": "agent"})[0] == 200
    assert shop("GET", "/admin/me", role="agent", email="kamau@example.co.ke")[0] == 200  # invited again


def test_an_owner_cannot_remove_herself_or_the_last_owner(admins: dict[str, Admin]) -> None:
    admins["shop"]("POST", "/admin/staff", {"email": "owner@shop.example", "role": "owner"})
    status, error = admins["shop"]("DELETE", "/admin/staff/owner@shop.example")
    assert status == 409
    assert "cannot remove yourself" in error["message"]
    admins["shop"]("POST", "/admin/staff", {"email": "mama@example.co.ke", "role": "owner"})
    assert admins["shop"]("DELETE", "/admin/staff/mama@example.co.ke")[0] == 200
    # owner@shop.example is now the shop's only owner on its list: nobody removes her, not even another owner
    status, error = admins["shop"]("DELETE", "/admin/staff/owner@shop.example", email="boss@shop.example")
    assert status == 409
    assert "last owner" in error["message"]
    assert admins["shop"]("DELETE", "/admin/staff/owner@shop.example", role="agent")[0] == 403


def test_tickets_and_orders_name_the_customer(
    admins: dict[str, Admin], chat: Chat, seeded: Services, setup: Any
) -> None:
    ticket_id = _ticket(chat, seeded)
    named = seeded.customers.get(SHOP, chat.state["customer_id"]).model_copy(update={"display_name": "Wanjiru Kamau"})
    seeded.db.put(CUSTOMERS, CustomerRepo.profile_item(named))
    status, page = admins["shop"]("GET", "/admin/handoffs", role="agent")
    assert status == 200
    [ticket] = [t for t in page["items"] if t["ticket_id"] == ticket_id]
    assert ticket["customer"] == {"customer_id": chat.state["customer_id"], "name": "Wanjiru Kamau", "phone": CUSTOMER}
    assert admins["shop"]("GET", f"/admin/handoffs/{ticket_id}", role="agent")[1]["customer"]["phone"] == CUSTOMER
    assert admins["salon"]("GET", f"/admin/handoffs/{ticket_id}", role="agent")[0] == 404


def test_an_order_shows_its_customer_and_history_and_lists_filter_by_payment_and_number(
    admins: dict[str, Admin], chat: Chat, seeded: Services, setup: Any
) -> None:
    ref = paid_order(chat, seeded, setup, "TKL1234567")
    status, detail = admins["shop"]("POST", f"/admin/orders/{ref}/ready", role="agent")
    assert status == 200, detail
    assert detail["customer"]["phone"] == CUSTOMER
    events = [h["event"] for h in detail["history"]]
    assert events[0] == "created"
    assert events[-1] == "ready_for_pickup"
    assert {"payment_started", "payment_paid", "paid"} <= set(events)
    assert detail["history"][-1]["by"] == "agent@shop.example"
    assert detail["order"]["marks"][0]["event"] == "ready_for_pickup"
    for number in ("0712345678", "+254 712 345 678"):
        status, page = admins["shop"]("GET", f"/admin/orders?phone={number.replace(' ', '%20').replace('+', '%2B')}")
        assert status == 200, page
        assert [o["order_id"] for o in page["items"]] == [ref]
        assert page["items"][0]["customer"]["phone"] == CUSTOMER
    assert admins["shop"]("GET", "/admin/orders?phone=0799999999")[1]["items"] == []  # nobody with that number
    assert admins["shop"]("GET", "/admin/orders?phone=12")[0] == 422
    assert [o["order_id"] for o in admins["shop"]("GET", "/admin/orders?payment=paid")[1]["items"]] == [ref]
    assert admins["shop"]("GET", "/admin/orders?payment=pending")[1]["items"] == []
    assert admins["shop"]("GET", "/admin/orders?payment=bogus")[0] == 422
    assert admins["salon"]("GET", "/admin/orders?phone=0712345678")[1]["items"] == []


def test_analytics_gives_every_day_of_the_range_with_the_funnel_revenue_by_method_and_cost_in_kes(
    admins: dict[str, Admin], seeded: Services
) -> None:
    stats = StatsRepo(seeded.db)
    day = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    trace = [
        {"kind": "tool", "tool": "catalog_search", "ok": True},
        {"kind": "tool", "tool": "catalog_search", "ok": True},
        {"kind": "tool", "tool": "order_create", "ok": True},
        {"kind": "tool", "tool": "payment_initiate_stk_push", "ok": True},
        {"kind": "tool", "tool": "handoff_create_ticket", "ok": True},
        {"kind": "llm", "input_tokens": 100, "output_tokens": 10, "cost_usd": 0.01},
    ]
    stats.record_turn(SHOP, at=day, trace=trace, messages=1, customer="c1")
    stats.record_turn(SHOP, at=day, trace=trace[:1], messages=1, customer="c2")
    stats.record_payment(SHOP, at=day, method="mpesa_stk", status="paid", amount=2010)
    stats.record_payment(SHOP, at=day + timedelta(days=2), method="pesapal", status="paid", amount=5000)
    status, a = admins["shop"]("GET", "/admin/analytics?from=2026-11-23&to=2026-11-26")
    assert status == 200, a
    assert [d["date"] for d in a["days"]] == ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26"]
    quiet, busy = a["days"][0], a["days"][1]
    assert quiet["conversations"] == 0
    assert quiet["funnel"] == {"searches": 0, "orders_created": 0, "payment_prompts": 0, "orders_paid": 0}
    assert busy["conversations"] == 2
    assert busy["funnel"] == {"searches": 3, "orders_created": 1, "payment_prompts": 1, "orders_paid": 1}
    assert busy["revenue_by_method"] == {"mpesa_stk": 2010, "mpesa_c2b": 0, "pesapal": 0}
    assert busy["escalation_rate"] == 0.5
    assert busy["llm_cost_kes"] == 1.3  # USD 0.01 at KES 130
    assert a["days"][3]["revenue_by_method"]["pesapal"] == 5000
    assert a["revenue_by_method"] == {"mpesa_stk": 2010, "mpesa_c2b": 0, "pesapal": 5000}
    assert a["funnel"]["searches"] == 3
    assert a["llm_estimated_cost_kes"] == 1.3
    assert admins["salon"]("GET", "/admin/analytics?from=2026-11-23&to=2026-11-26")[1]["conversations"] == 0


def test_trying_a_question_gives_the_bots_answer_from_the_shops_own_documents(admins: dict[str, Admin]) -> None:
    status, answer = admins["shop"]("POST", "/admin/kb/ask", {"question": "what is your return policy?"})
    assert status == 200, answer
    assert answer["answer_found"] is True
    assert answer["sources"]
    assert "(From our " in answer["answer"]
    top = answer["sources"][0]
    said, source = answer["answer"].split("\n\n(From our ")
    assert source.startswith(top["title"])  # the answer names the document it comes from
    assert set(said.split()) <= set(top["text"].split())  # and says only what that document says
    status, swahili = admins["shop"](
        "POST", "/admin/kb/ask", {"question": "what is your return policy?", "language": "sw"}
    )
    assert "(Chanzo: " in swahili["answer"]
    status, salon = admins["salon"]("POST", "/admin/kb/ask", {"question": "what is your return policy?"})
    shop_docs = {s["doc_id"] for s in answer["sources"]}
    assert shop_docs.isdisjoint({s["doc_id"] for s in salon["sources"]})  # never another shop's documents
    assert admins["shop"]("POST", "/admin/kb/ask", {"question": ""})[0] == 422
    assert admins["shop"]("POST", "/admin/kb/ask", {"question": "returns?"}, role="agent")[0] == 403


def test_a_question_nothing_answers_shows_the_closest_passages_and_why(admins: dict[str, Admin]) -> None:
    status, answer = admins["shop"](
        "POST", "/admin/kb/ask", {"question": "do you repair drones flown over lake victoria at night?"}
    )
    assert status == 200, answer
    assert answer["answer_found"] is False
    assert answer["sources"] == []
    assert answer["closest"], "the owner sees which passages came nearest"
    for passage in answer["closest"]:
        assert passage["coverage"] < answer["min_coverage"]  # each short of the threshold: that is why
        assert passage["score"] > 0
        assert passage["title"]
    status, found = admins["shop"]("POST", "/admin/kb/ask", {"question": "what is your return policy?"})
    assert found["answer_found"] is True
    assert found["closest"] == []
    assert all(s["coverage"] >= found["min_coverage"] for s in found["sources"])


def test_a_swahili_question_finds_the_english_document(admins: dict[str, Admin], english: dict[str, Any]) -> None:
    status, answer = admins["shop"]("POST", "/admin/kb/ask", {"question": "mnarudisha pesa kama simu imeharibika?"})
    assert status == 200, answer
    assert answer["answer_found"] is True
    assert answer["sources"][0]["title"] == english["sources"][0]["title"]  # the same document as in English


@pytest.fixture
def english(admins: dict[str, Admin]) -> dict[str, Any]:
    return admins["shop"]("POST", "/admin/kb/ask", {"question": "do you return money if the phone is faulty?"})[1]
