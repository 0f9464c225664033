"""Issue 34, part 1, in the browser against `tulia dev`: a new owner creates an account on the console's sign-in
page, reads the code in the stack's dev mailbox, verifies her email, makes her shop and lands in it; her shop
is empty of the demo shops' data, and a wrong code is refused in words. At phone size and in Swahili too."""

from __future__ import annotations

import base64
import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import SANDBOX_PASSKEY
from tests.e2e.conftest import DevStack, new_context
from tests.e2e.stack import wait_for
from tests.e2e.test_console import LAPTOP, PHONE, Stack, console_of
from tests.workbooks import workbook
from tulia.pipeline.trial import trial_phone

PASSWORD = "Njeri-Beauty-2026!"


@pytest.fixture(scope="module")
def stack(dev_stack: DevStack) -> Stack:
    return console_of(dev_stack)


def zipped_text(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return "\n".join(archive.read(name).decode("utf-8", "replace") for name in archive.namelist())


def mailed_code(stack: Stack, email: str) -> str:
    def newest() -> str | None:
        mails = httpx.get(f"{stack.url}/dev/mailbox", params={"to": email}, timeout=10).json()["mails"]
        return mails[0]["body"].rsplit(" ", 1)[-1] if mails else None

    code = wait_for(newest, timeout=15)
    assert code is not None
    assert re.fullmatch(r"\d{6}", code)
    return code


def sign_up(page: Any, stack: Stack, name: str, email: str) -> None:
    from playwright.sync_api import expect

    page.goto(stack.console)
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Email").fill(email)
    page.get_by_role("textbox", name="Password").fill("too-easy")
    expect(page.get_by_role("button", name="Create account")).to_be_disabled()  # the pool's rules, as she types
    page.get_by_role("textbox", name="Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_text(f"We emailed a 6-digit code to {email}")).to_be_visible(timeout=15_000)


def test_a_new_owner_signs_up_verifies_and_makes_her_shop(stack: Stack, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    email = "njeri@beauty.example"
    page = new_context(browser, viewport=LAPTOP).new_page()
    sign_up(page, stack, "Njeri Wambui", email)
    code = mailed_code(stack, email)
    page.get_by_label("Code from the email").fill("000000" if code != "000000" else "111111")
    page.get_by_role("button", name="Verify and continue").click()
    expect(page.get_by_role("alert")).to_contain_text("That code is not right")
    page.get_by_label("Code from the email").fill(code)
    page.get_by_role("button", name="Verify and continue").click()

    expect(page.get_by_role("heading", name="Your shop")).to_be_visible(timeout=15_000)
    page.get_by_label("Shop name (as customers know it)").fill("Njeri Beauty Kasarani")
    expect(page.get_by_label("Shop id")).to_have_value("njeri-beauty-kasarani")  # suggested from the name
    page.get_by_label("Shop id").fill("demo-shop")
    expect(page.get_by_text("This id is kept for Tulia")).to_be_visible(timeout=10_000)
    page.get_by_label("Shop id").fill("njeri-beauty-kasarani")
    page.get_by_label("What do you sell?").select_option("beauty")
    page.get_by_label("Sheng").uncheck()
    page.get_by_label("Answer new customers in").select_option("sw")
    page.get_by_label("Your assistant's name").fill("Wambui")
    page.get_by_role("button", name="Create my shop").click()

    # in her shop, with a token that names it, on the steps that get it ready
    expect(page.get_by_test_id("shop-name")).to_have_text("Njeri Beauty Kasarani", timeout=15_000)
    expect(page.get_by_role("heading", name="Get your shop ready")).to_be_visible()
    # part 2: WhatsApp connected in the browser, through the stand-in of Meta's signup popup
    with page.expect_popup() as opened:
        page.get_by_role("button", name="Connect WhatsApp").click()
    popup = opened.value
    popup.get_by_label("Business name").fill("Njeri Beauty")
    popup.get_by_label("WhatsApp number").fill("+254 712 345 999")
    popup.get_by_role("button", name="Connect").click()
    expect(page.get_by_test_id("whatsapp-number")).to_have_text("Connected: +254 712 345 999", timeout=15_000)
    token = page.evaluate("() => Object.entries(localStorage).find(([k]) => k.endsWith('.idToken'))[1]")
    me = httpx.get(f"{stack.url}/admin/me", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    assert (me["tenant_id"], me["roles"], me["languages"], me["default_language"]) == (
        "njeri-beauty-kasarani",
        ["owner"],
        ["en", "sw"],
        "sw",
    )
    for path in ("/admin/orders", "/admin/customers", "/admin/handoffs?status=open"):
        listed = httpx.get(f"{stack.url}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert listed.status_code == 200, path
        assert listed.json()["items"] == [], path
    examples = httpx.get(f"{stack.url}/admin/catalog/items", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert {(i["tenant_id"], i["active"]) for i in examples.json()["items"]} == {("njeri-beauty-kasarani", False)}
    # every route that reads, with the demo shop's ids in its path: nothing of the demo shops comes back
    spec = httpx.get(f"{stack.url}/admin/openapi.json", timeout=10).json()
    demo_ids = {"item_id": "PH-SAM-001", "sku": "PH-SAM-001", "tenant_id": "demo-shop", "customer_id": "cus_demo"}
    read = 0
    for path, methods in spec["paths"].items():
        if "get" not in methods or path.startswith("/admin/platform"):
            continue
        concrete = re.sub(r"\{(\w+)\}", lambda m: demo_ids.get(m.group(1), "ORD-7F3K2"), path)
        got = httpx.get(f"{stack.url}{concrete}", headers={"Authorization": f"Bearer {token}"}, timeout=20)
        text = zipped_text(got.content) if got.headers.get("content-type") == "application/zip" else got.text
        for demo in ("Duka Bora", "Samsung Galaxy", "Glow Studio", "demo-grocer", "Bamburi"):
            assert demo not in text, (concrete, got.status_code, text[:300])
        read += 1
    assert read > 40
    docs = httpx.get(f"{stack.url}/admin/kb/documents", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert [d["doc_id"] for d in docs.json()["items"]] == ["faq-questions-customers-ask"]
    number = httpx.get(f"{stack.url}/admin/whatsapp", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    assert number["connected"] is True
    assert number["display_phone_number"] == "+254 712 345 999"
    templates = httpx.get(f"{stack.url}/admin/templates", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    names = {(t["name"], t["language"]) for t in templates.json()["items"]}
    assert {("order_update", "sw"), ("order_update", "en"), ("staff_alert", "sw")} <= names  # submitted for her
    # part 3: the M-Pesa prompt set up (the sandbox shortcode) and proven by a KES 1 prompt to her own phone
    auth = {"Authorization": f"Bearer {token}"}
    stk = {"shortcode": "174379", "passkey": SANDBOX_PASSKEY}
    assert (
        httpx.patch(
            f"{stack.url}/admin/tenant", json={"payments": {"mpesa_stk": stk}}, headers=auth, timeout=10
        ).status_code
        == 200
    )
    page.reload()
    expect(page.get_by_test_id("check-payment")).to_have_attribute("data-done", "false", timeout=15_000)
    page.get_by_label("Your M-Pesa number").fill("0700654321")
    page.get_by_role("button", name="Send me a test prompt of KES 1").click()
    expect(page.get_by_test_id("mpesa-test")).to_have_text(
        "Check your phone and enter your M-Pesa PIN…", timeout=15_000
    )
    prompts = wait_for(lambda: stack.chat("+254700654321")["stk"])
    assert [(p["amount"], p["shortcode"]) for p in prompts] == [(1, "174379")]
    approved = httpx.post(
        f"{stack.url}/dev/stk",
        json={"checkout_request_id": prompts[0]["checkout_request_id"], "action": "approve"},
        timeout=10,
    )
    assert approved.status_code == 200, approved.text
    expect(page.get_by_test_id("mpesa-test")).to_contain_text("It worked: M-Pesa receipt", timeout=15_000)
    expect(page.get_by_test_id("check-payment")).to_have_attribute("data-done", "true", timeout=15_000)

    # part 3: a Till entered in Settings, proven when Daraja accepts its URLs
    page.goto(stack.console + "settings")
    page.get_by_label("M-Pesa Paybill/Till").check()
    page.get_by_label("Till number").fill("5987654")
    page.get_by_role("button", name="Save settings").click()

    def till_proven() -> bool | None:
        shop = httpx.get(f"{stack.url}/admin/tenant", headers=auth, timeout=10).json()
        return shop.get("c2b_urls_for") == "5987654" or None

    assert wait_for(till_proven, timeout=20)

    # part 4: her catalog from an Excel workbook, with the per-row report; her example items stay hidden
    sheet = tmp_path / "bei.xlsx"
    sheet.write_bytes(
        workbook(
            (
                "Bei",
                [
                    ("sku", "name", "category", "price", "stock", "description"),
                    ("HO-250", "Hair oil 250ml", "Hair care", 650, 20, "Coconut and castor oil for braids"),
                    ("EDGE-1", "Edge control gel", "Hair care", 450.0, 12, "Strong hold, no flakes"),
                ],
            )
        )
    )
    page.goto(stack.console + "catalog")
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Import CSV or Excel").click()
    chooser.value.set_files(str(sheet))
    expect(page.get_by_test_id("import-report")).to_contain_text("2 rows read, 2 saved, 0 with problems")
    page.keyboard.press("Escape")

    # part 5: she tries her bot before going live: her own items, the turn's trace, nothing sent on WhatsApp
    page.goto(stack.console + "setup")
    trial = page.get_by_test_id("try-panel")
    trial.get_by_label("Your message").fill("nataka hair oil")
    trial.get_by_role("button", name="Send").click()
    expect(trial.get_by_test_id("try-reply").first).to_contain_text("Hair oil 250ml", timeout=15_000)
    trial.get_by_text("What the bot did").first.click()
    expect(trial.get_by_test_id("try-trace")).to_contain_text("tool: catalog_search ok")
    payload = token.split(".")[1]
    sub = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["sub"]
    tried = stack.chat(trial_phone(sub), tenant_id="njeri-beauty-kasarani")
    assert tried["messages"] == []  # the Graph API (simulator) was sent nothing for the test customer

    # part 6: the hours set, the checklist complete, the shop goes live
    hours = {"handoff": {"hours": "Tue-Sat 08:00-19:00"}}
    assert httpx.patch(f"{stack.url}/admin/tenant", json=hours, headers=auth, timeout=10).status_code == 200
    page.reload()
    page.get_by_role("button", name="Go live").click()
    expect(page.get_by_test_id("shop-status")).to_have_text(
        "Your shop is live: customers who write get answers.", timeout=15_000
    )
    # a customer on the chat page finds the imported oil, orders it, collects it, and pays by the Till
    customer = "+254711800071"
    shop = "njeri-beauty-kasarani"
    reply = stack.say(customer, tenant_id=shop, type="text", text="nataka hair oil")
    assert "Hair oil 250ml" in reply, stack.transcript(customer, tenant_id=shop)
    assert "example" not in reply.lower()  # the hidden examples are never offered
    stack.say(customer, tenant_id=shop, type="order", items=[{"sku": "HO-250", "quantity": 2}], name="Akinyi")
    stack.say(customer, tenant_id=shop, type="text", text="nitachukua dukani")  # collect at the shop
    steps = stack.say(customer, tenant_id=shop, type="text", text="till")
    ref = re.search(r"ORD-[0-9A-Z]{5}", steps)
    assert ref, stack.transcript(customer, tenant_id=shop)
    assert "5987654" in steps
    assert "1,300" in steps  # two at KES 650, from her sheet
    paid = httpx.post(
        f"{stack.url}/dev/c2b",
        json={"tenant_id": shop, "phone": customer, "amount": 1300, "account": ref.group(0), "name": "Akinyi"},
        timeout=20,
    )
    assert paid.status_code == 200, paid.text
    # a Till (Buy Goods) payment carries no account: the customer sends the code from M-Pesa's message
    confirmed = stack.say(customer, tenant_id=shop, type="text", text=paid.json()["trans_id"])
    assert f"Tumepokea KES 1,300 kwa oda {ref.group(0)}" in confirmed, stack.transcript(customer, tenant_id=shop)
    orders = httpx.get(f"{stack.url}/admin/orders", headers=auth, timeout=10).json()["items"]
    assert [(o["order_id"], o["payment_status"], o["totals"]["total"]) for o in orders] == [
        (ref.group(0), "paid", 1300)
    ]

    # signed out and in again: straight into her shop
    page.context.clear_cookies()
    page.evaluate("() => localStorage.clear()")
    page.goto(stack.console)
    page.get_by_label("Email").fill(email)
    page.get_by_role("textbox", name="Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("shop-name")).to_have_text("Njeri Beauty Kasarani", timeout=15_000)


def test_on_a_phone_in_swahili_an_email_already_used_is_said_so(stack: Stack, browser: Any) -> None:
    from playwright.sync_api import expect

    page = new_context(browser, viewport=PHONE, locale="sw-KE").new_page()
    page.goto(stack.console + "join")
    expect(page.get_by_role("heading", name="Fungua akaunti")).to_be_visible(timeout=15_000)
    page.get_by_label("Jina lako").fill("Mmiliki")
    page.get_by_label("Barua pepe").fill("owner@demo-shop.local")
    page.get_by_role("textbox", name="Nenosiri").fill(PASSWORD)
    page.get_by_role("button", name="Fungua akaunti").click()
    expect(page.get_by_role("alert")).to_contain_text("Akaunti ya barua pepe hii ipo tayari")


def test_an_owner_pauses_her_shop_and_a_customer_is_told_once_then_resumes(stack: Stack, browser: Any) -> None:
    """Part 6 in the browser: the shop's status screen pauses and resumes; the chat page's customer meets it."""
    from playwright.sync_api import expect

    page = new_context(browser, viewport=PHONE).new_page()
    page.goto(stack.console)
    page.get_by_label("Email").fill("owner@demo-grocer.local")
    page.get_by_role("textbox", name="Password").fill("Tulia-owner-2026!")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Customers waiting")).to_be_visible(timeout=15_000)
    page.goto(stack.console + "setup")
    expect(page.get_by_test_id("shop-status")).to_have_text("Your shop is live: customers who write get answers.")
    page.get_by_role("button", name="Pause the assistant").click()
    expect(page.get_by_test_id("shop-status")).to_contain_text("Your shop is paused", timeout=15_000)
    try:
        phone = "+254711800061"
        told = stack.say(phone, tenant_id="demo-grocer", type="text", text="Nataka unga pakiti mbili")
        assert "haijibu kwenye WhatsApp kwa sasa" in told  # a new customer: in the shop's language, Swahili
        assert stack.say(phone, tenant_id="demo-grocer", type="text", text="hello?") == ""  # once
    finally:
        page.get_by_role("button", name="Answer customers again").click()
        expect(page.get_by_test_id("shop-status")).to_contain_text("Your shop is live", timeout=15_000)
    answered = stack.say("+254711800062", tenant_id="demo-grocer", type="text", text="Nataka unga pakiti mbili")
    assert "not answering" not in answered
    assert "haijibu" not in answered


def test_the_platform_operator_sees_every_shop_and_suspends_one_for_a_while(stack: Stack, browser: Any) -> None:
    """Part 8 in the browser: the operator (no shop of their own) lands on every shop's list, suspends one with a
    reason (its customer is told once, as when paused) and lifts it; a shop owner never sees the screen."""
    from playwright.sync_api import expect

    page = new_context(browser, viewport=LAPTOP).new_page()
    page.goto(stack.console)
    page.get_by_label("Email").fill("operator@tulia.local")
    page.get_by_role("textbox", name="Password").fill("Tulia-operator-2026!")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Every shop")).to_be_visible(timeout=15_000)
    grocer = page.locator("[data-testid=platform-shop][data-shop=demo-grocer]")
    expect(grocer.get_by_test_id("platform-status")).to_have_text("live")
    expect(page.locator("[data-testid=platform-shop][data-shop=demo-shop]")).to_contain_text("Duka Bora Electronics")
    page.get_by_label("Reason for a suspension or its end (the shop's owner sees it)").fill("invoice unpaid")
    grocer.get_by_role("button", name="Suspend").click()
    expect(grocer.get_by_test_id("platform-status")).to_have_text("suspended (invoice unpaid)", timeout=15_000)
    try:
        told = stack.say("+254711800081", tenant_id="demo-grocer", type="text", text="nataka sukari")
        assert "haijibu kwenye WhatsApp kwa sasa" in told  # a new customer: in the shop's language, Swahili
    finally:
        page.get_by_label("Reason for a suspension or its end (the shop's owner sees it)").fill("paid")
        grocer.get_by_role("button", name="Resume").click()
        expect(grocer.get_by_test_id("platform-status")).to_contain_text("live", timeout=15_000)
    owner = new_context(browser, viewport=LAPTOP).new_page()
    owner.goto(stack.console)
    owner.get_by_label("Email").fill("owner@demo-grocer.local")
    owner.get_by_role("textbox", name="Password").fill("Tulia-owner-2026!")
    owner.get_by_role("button", name="Sign in").click()
    expect(owner.get_by_role("heading", name="Customers waiting")).to_be_visible(timeout=15_000)
    owner.goto(stack.console + "platform")
    expect(owner.get_by_role("heading", name="Customers waiting")).to_be_visible(timeout=15_000)  # sent back
    expect(owner.get_by_role("heading", name="Every shop")).to_have_count(0)
