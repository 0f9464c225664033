"""The chat page of `tulia dev` (built-in simulators): its JSON API over HTTP, the PesaPal hosted
checkout, and a purchase with an M-Pesa prompt approved on the simulated phone in headless Chromium
(Playwright's client driving Debian's chromium)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ROOT
from tests.e2e.conftest import DevStack
from tests.e2e.stack import wait_for

OUTPUT = ROOT / "test-output"
SHOP = "demo-shop"


class Page:
    """The chat page's API, as the page's script calls it."""

    def __init__(self, url: str) -> None:
        self.url = url

    def send(self, phone: str, tenant_id: str = SHOP, **message: Any) -> httpx.Response:
        body = {"tenant_id": tenant_id, "phone": phone, **message}
        return httpx.post(f"{self.url}/dev/send", json=body, timeout=20)

    def chat(self, phone: str, tenant_id: str = SHOP) -> dict[str, Any]:
        got = httpx.get(f"{self.url}/dev/chat", params={"tenant_id": tenant_id, "phone": phone}, timeout=10)
        assert got.status_code == 200, got.text
        return dict(got.json())

    def shop_texts(self, phone: str, tenant_id: str = SHOP) -> list[str]:
        out = []
        for m in self.chat(phone, tenant_id)["messages"]:
            if m["direction"] == "out":
                p = m["payload"]
                if p["type"] == "template":  # what the customer reads: the template filled in
                    out.append(str(m.get("template_text") or ""))
                    continue
                if p["type"] == "image":  # a picture: its address and caption
                    out.append(f"[picture {p['image']['link']}] {p['image'].get('caption', '')}")
                    continue
                body = p["text"]["body"] if p["type"] == "text" else p["interactive"]["body"]["text"]
                if p["type"] == "interactive" and p["interactive"]["type"] == "list":
                    rows = [r for s in p["interactive"]["action"]["sections"] for r in s["rows"]]
                    body += "\n" + "\n".join(r["title"] for r in rows)
                out.append(body)
        return out

    def say(self, phone: str, tenant_id: str = SHOP, **message: Any) -> str:
        """Send and return the shop's answer once the turn's trace is stored and all its replies were sent."""
        before = len(self.shop_texts(phone, tenant_id))
        sent = self.send(phone, tenant_id, **message)
        assert sent.status_code == 200, sent.text
        mid = sent.json()["message_id"]

        def answered() -> bool:  # the one turn's state, not the whole chat (the stack answers while it is asked)
            got = httpx.get(f"{self.url}/dev/turn", params={"tenant_id": tenant_id, "message_id": mid}, timeout=10)
            assert got.status_code == 200, got.text
            return not got.json()["pending"]

        wait_for(answered)
        return "\n".join(self.shop_texts(phone, tenant_id)[before:])

    def transcript(self, phone: str, tenant_id: str = SHOP) -> str:
        """The conversation as the shop's records have it, for a failure's message: what each side said and, per
        turn, the nodes and tools it ran."""
        chat = self.chat(phone, tenant_id)
        lines = [
            f"> {m['text']}" if m["direction"] == "in" else f"< {said_by_shop(m['payload'])}" for m in chat["messages"]
        ]
        for turn in chat["turns"]:
            steps = [
                str(e.get("node"))
                if e["kind"] == "node"
                else f"[{e.get('tool', e['kind'])} {e.get('error') or ''}{e.get('booking_ref') or ''}]"
                for e in turn.get("trace") or []
            ]
            lines.append(
                f"turn {turn['message_id']} {turn.get('said')!r} pending={turn.get('pending')}: {' '.join(steps)}"
            )
        return "\n".join(lines)


def said_by_shop(payload: dict[str, Any]) -> str:
    """A message of the shop's in one line: its text and the ids its buttons or rows send back."""
    if payload["type"] != "interactive":
        return str(payload.get("text", {}).get("body") or payload["type"]).replace("\n", " / ")
    action = payload["interactive"]["action"]
    ids = [b["reply"]["id"] for b in action.get("buttons", [])]
    ids += [r["id"] for section in action.get("sections", []) for r in section["rows"]]
    return payload["interactive"]["body"]["text"].replace("\n", " / ") + f" {ids}"


@pytest.fixture(scope="module")
def stack(dev_stack: DevStack) -> Page:
    assert f"Chat with the shops as a WhatsApp customer: {dev_stack.url}/" in dev_stack.log.read_text()
    return Page(dev_stack.url)


def test_the_page_is_served_at_the_root(stack: Page) -> None:
    page = httpx.get(stack.url + "/", timeout=10)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "Tulia local chat" in page.text
    shops = httpx.get(stack.url + "/dev/tenants", timeout=10).json()
    # the demo shops first (a shop made in the console on this stack, with its number connected, comes after them)
    assert [t["tenant_id"] for t in shops["tenants"]][:3] == ["demo-shop", "demo-salon", "demo-grocer"]
    assert all(t["phone_number_id"] for t in shops["tenants"])
    assert shops["simulators"] == {"graph": True, "daraja": True}


def test_bad_input_to_the_page_api_is_refused_and_sends_nothing(stack: Page) -> None:
    phone = "+254711500001"
    assert stack.send(phone, type="text", text="").status_code == 400
    assert stack.send(phone, type="order", items=[{"sku": "CH-002", "quantity": 0}]).status_code == 400
    assert stack.send(phone, type="sticker").status_code == 400
    assert stack.send(phone, type="location", latitude="north", longitude=36.8).status_code == 400
    assert stack.send(phone, type="location", latitude=-91, longitude=36.8).status_code == 400
    assert stack.send("not a number", type="text", text="hi").status_code == 400
    unknown = httpx.post(
        f"{stack.url}/dev/send", json={"tenant_id": "nope", "phone": phone, "type": "text", "text": "hi"}, timeout=10
    )
    assert unknown.status_code == 404
    bad_stk = httpx.post(f"{stack.url}/dev/stk", json={"checkout_request_id": "x", "action": "approve"}, timeout=10)
    assert bad_stk.status_code == 404
    assert stack.chat(phone)["messages"] == []


def test_a_message_from_the_page_is_answered_with_its_trace(stack: Page) -> None:
    phone = "+254711500002"
    answer = stack.say(phone, type="text", text="do you have chargers?")
    assert "Oraimo" in answer
    [turn] = stack.chat(phone)["turns"]
    assert turn["said"] == "do you have chargers?"
    kinds = {e["kind"] for e in turn["trace"]}
    assert {"node", "tool", "route", "engine"} <= kinds
    search = next(e for e in turn["trace"] if e.get("tool") == "catalog_search")
    assert search["ok"] is True
    assert search["latency_ms"] >= 0
    assert "Oraimo" in search["result"]
    engine = next(e for e in turn["trace"] if e["kind"] == "engine")
    assert engine["intent"] == "sales_discovery"
    mine = [m for m in stack.chat(phone)["messages"] if m["direction"] == "in"]
    wait_for(lambda: all(m["read"] for m in [x for x in stack.chat(phone)["messages"] if x["direction"] == "in"]))
    assert len(mine) == 1


def test_a_card_payment_on_the_hosted_checkout_page_confirms_the_order(stack: Page) -> None:
    phone = "+254711500003"
    stack.say(phone, type="order", items=[{"sku": "CH-002", "quantity": 1}])
    stack.say(phone, type="button_reply", id="mode:pickup", title="Pickup")
    link_reply = stack.say(phone, type="text", text="card")
    link = re.search(r"(http://\S+/checkout\?OrderTrackingId=[\w-]+)", link_reply)
    assert link, link_reply
    amount = re.search(r"Pay (KES [\d,]+)", link_reply)
    assert amount, link_reply
    page = httpx.get(link.group(1), timeout=10)
    assert page.status_code == 200
    assert "Pay now" in page.text
    tracking = link.group(1).split("=", 1)[1]
    paid = httpx.post(
        link.group(1).split("?")[0], data={"OrderTrackingId": tracking, "action": "pay"}, timeout=20
    )  # the customer pays; PesaPal sends the IPN and redirects back to the shop
    assert paid.status_code == 303
    assert "/payments/pesapal/return" in paid.headers["location"]
    [confirmation] = wait_for(lambda: [t for t in stack.shop_texts(phone) if "We received" in t])
    assert f"We received {amount.group(1)} for order" in confirmation
    assert "payment confirmation SIM" in confirmation  # PesaPal's code, not called an M-Pesa receipt
    again = httpx.get(link.group(1), timeout=10)
    assert "This payment is complete." in again.text


def test_a_person_buys_a_phone_in_the_browser_and_approves_the_mpesa_prompt(stack: Page, browser: Any) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(stack.url + "/")
    expect(page.locator("#tenant option")).to_have_count(3)  # the three demo packs
    page.fill("#phone", "+254711500004")
    page.fill("#name", "Achieng")
    page.click("#open")

    def say(words: str) -> None:
        page.fill("#text", words)
        page.press("#text", "Enter")

    shop = page.locator(".msg.out")
    say("I want a Samsung phone")
    page.locator(".msg.out .list-open").last.click()  # the shortlist is a WhatsApp list
    page.locator(".list-row", has_text="Samsung Galaxy A15").click()
    page.locator(".msg.out").last.locator(".reply-btn", has_text="Blue").first.click()
    expect(shop.last).to_contain_text("Which storage would you like?")
    page.locator(".msg.out .list-open").last.click()  # storage options differ in price: a list with prices
    page.locator(".list-row", has_text="128GB").click()
    expect(shop.last).to_contain_text("How many would you like?")
    page.locator(".msg.out .list-open").last.click()  # quantities are a list: 1, 2, 3, another number
    page.locator(".list-row").filter(has_text=re.compile(r"^\s*1\s*$")).click()
    expect(shop.last).to_contain_text("pick it up")
    page.locator(".msg.out").last.locator(".reply-btn", has_text="Pickup").click()
    expect(shop.last).to_contain_text("How would you like to pay")
    expect(page.locator(".msg.out", has_text="KES 21,500").last).to_be_visible()
    page.locator(".msg.out").last.locator(".reply-btn", has_text="M-Pesa prompt").click()
    page.locator(".msg.out").last.locator(".reply-btn", has_text="Yes, send it").click()

    prompt = page.locator("#stk")
    expect(prompt).to_be_visible(timeout=20_000)  # the M-Pesa prompt on the simulated phone
    expect(page.locator("#stk-text")).to_contain_text("Ksh21,500")
    page.fill("#stk-pin", "1234")
    page.click("#stk-ok")
    expect(prompt).to_be_hidden()
    receipt = page.locator(".msg.out", has_text="We received KES 21,500")
    expect(receipt).to_be_visible(timeout=20_000)  # without reloading the page
    expect(receipt).to_contain_text(re.compile(r"M-Pesa receipt T[0-9A-F]{9}"))
    expect(page.locator("#trace .turn").first).to_be_visible()
    expect(page.locator("#trace")).to_contain_text("payment_initiate_stk_push")
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "chat-page-purchase.png"), full_page=True)
    assert errors == []


def test_a_broadcast_and_an_order_update_show_on_the_page_as_a_phone_shows_them(stack: Page, browser: Any) -> None:
    from playwright.sync_api import expect

    phone = "+254711500009"
    assert "offers" in stack.say(phone, type="text", text="send me offers").lower()
    token = subprocess.run(
        [sys.executable, "-m", "tulia.cli", "admin-token", "--tenant-id", SHOP, "--port", stack.url.rsplit(":", 1)[1]],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if not k.startswith("TULIA_")},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.strip()

    def admin(method: str, path: str, body: Any = None) -> Any:
        answer = httpx.request(
            method, stack.url + path, json=body, headers={"authorization": f"Bearer {token}"}, timeout=20
        )
        assert answer.status_code == 200, answer.text
        return answer.json()

    admin("PATCH", "/admin/tenant", {"messaging": {"marketing_hours": "daily 00:00-23:59"}})  # any time, for the test
    offer = {"template": "weekly_offer", "parameters": ["{name}", "Duka Bora", "20% off all chargers"]}
    assert admin("POST", "/admin/broadcasts/dry-run", offer)["recipients"] >= 1
    admin("POST", "/admin/broadcasts", offer)
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone's screen
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(stack.url + "/")
    page.fill("#phone", phone)
    page.click("#open")
    shown = page.locator(".msg.out", has_text="This week at Duka Bora: 20% off all chargers")
    expect(shown).to_be_visible(timeout=20_000)  # the template's approved text, filled in, without a reload
    expect(shown.locator(".template-tag")).to_contain_text("Template · weekly_offer (en)")
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "chat-page-broadcast.png"), full_page=True)
    assert errors == []


def test_a_salon_customer_books_and_pays_the_deposit_on_the_simulated_phone(stack: Page, browser: Any) -> None:

    from tests.e2e.test_console import next_open_day

    day = next_open_day()
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(stack.url + "/")
    page.select_option("#tenant", "demo-salon")
    page.fill("#phone", "+254711500021")
    page.fill("#name", "Wambui")
    page.click("#open")
    try:
        book_and_pay(page, day)
    except AssertionError as failed:  # what the shop's records say happened, turn by turn
        raise AssertionError(f"{failed}\n{stack.transcript('+254711500021', 'demo-salon')}") from failed
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "chat-page-booking.png"), full_page=True)
    assert errors == []


def book_and_pay(page: Any, day: Any) -> None:
    from playwright.sync_api import expect

    page.fill("#text", f"Hi, I want knotless braids on {day.day}/{day.month} at 10am")
    page.press("#text", "Enter")
    shop = page.locator(".msg.out")
    expect(shop.last).to_contain_text("Which length would you like?")
    page.locator(".msg.out .list-open").last.click()  # the lengths change the price: a list with prices
    page.locator(".list-row", has_text="Mid-back").click()
    summary = page.locator(".msg.out", has_text="Please confirm your booking")
    expect(summary.last).to_contain_text("10:00 with Wanjiru")
    expect(summary.last).to_contain_text("Deposit to pay now: KES 1,200 (the rest, KES 2,800, at the appointment)")
    summary.last.locator(".reply-btn", has_text="Pay deposit M-Pesa").click()
    prompt = page.locator("#stk")
    expect(prompt).to_be_visible(timeout=20_000)  # the deposit's M-Pesa prompt on the simulated phone
    expect(page.locator("#stk-text")).to_contain_text("Ksh1,200")
    page.fill("#stk-pin", "1234")
    page.click("#stk-ok")
    booked = page.locator(".msg.out", has_text="Booked! Knotless Braids (medium) (Mid-back)")
    expect(booked).to_be_visible(timeout=20_000)
    expect(booked).to_contain_text("10:00 with Wanjiru")
    expect(booked).to_contain_text("You pay the balance of KES 2,800 at the appointment.")
    expect(page.locator("#trace")).to_contain_text("booking_create")


def test_a_customer_shares_a_location_pin_from_the_page_and_the_order_goes_to_its_zone(
    stack: Page, browser: Any
) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(stack.url + "/")
    expect(page.locator("#tenant option")).to_have_count(3)
    page.fill("#phone", "+254711500077")
    page.fill("#name", "Otieno")
    page.click("#open")
    shop = page.locator(".msg.out")
    page.fill("#text", "I want an oraimo 20000mAh power bank")
    page.press("#text", "Enter")
    expect(shop.last).to_contain_text("Which colour would you like?")
    page.locator(".msg.out").last.locator(".reply-btn", has_text="Black").first.click()
    expect(shop.last).to_contain_text("How many would you like?")
    page.fill("#text", "1")
    page.press("#text", "Enter")
    expect(shop.last).to_contain_text("delivery or will you pick it up")
    page.click("#pin-open")
    page.fill("#pin-lat", "-1.2925")
    page.fill("#pin-lon", "36.7880")
    page.fill("#pin-name", "Yaya Centre")
    page.click("#pin-send")
    expect(page.locator(".msg.in").last).to_contain_text("📍 Yaya Centre, -1.29250, 36.78800")
    expect(page.locator(".msg.out", has_text="Delivery (Nairobi West")).to_have_count(1, timeout=20_000)
    assert errors == []


def test_a_customer_sends_a_photo_with_a_caption_from_the_page_and_gets_the_shortlist(
    stack: Page, browser: Any, tmp_path: Path
) -> None:
    """The page's 📷 uploads the file as a phone does (to Meta, its id in the webhook); the agent fetches it, keeps
    it, and searches by the caption typed with it."""
    from PIL import Image, ImageDraw
    from playwright.sync_api import expect

    picture = tmp_path / "packet.jpg"
    image = Image.new("RGB", (480, 360), (120, 90, 60))
    ImageDraw.Draw(image).rectangle((140, 60, 340, 300), fill=(240, 200, 40))
    image.save(picture, "JPEG")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(stack.url + "/")
    expect(page.locator("#tenant option")).to_have_count(3)
    page.fill("#phone", "+254711500078")
    page.fill("#name", "Akinyi")
    page.click("#open")
    page.fill("#text", "mko na oraimo power bank?")
    page.set_input_files("#photo-file", str(picture))
    expect(page.locator(".msg.in").last).to_contain_text("📷 Photo: mko na oraimo power bank?")
    expect(page.locator(".msg.out", has_text="Hivi ndivyo nimepata:")).to_have_count(1, timeout=20_000)  # Swahili
    expect(page.locator("#text")).to_have_value("")  # the caption went with the photo
    assert errors == []


def test_a_customer_sends_a_demo_voice_note_from_the_page_and_is_answered_as_if_typed(
    stack: Page, browser: Any
) -> None:
    """The page's 🎤 sends a real OGG/Opus voice note (uploaded to Meta, its id in the webhook); the stand-in
    transcriber hears its words and the agent answers them, with nothing said for the voice note itself."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(stack.url + "/")
    expect(page.locator("#tenant option")).to_have_count(3)
    page.fill("#phone", "+254711500079")
    page.fill("#name", "Baraka")
    page.click("#open")
    page.click("#voice-open")
    page.locator(".voice-demo", has_text="I want an oraimo power bank").click()
    expect(page.locator(".msg.in").last).to_contain_text("🎤 Voice note")
    expect(page.locator(".msg.out", has_text="Here's what I found:")).to_have_count(1, timeout=20_000)
    expect(page.locator(".msg.out")).to_have_count(1)  # the answer only: no "listening…", nothing for the file
    assert errors == []


def test_a_paybill_payment_with_a_mistyped_account_is_matched_by_the_customers_screenshot(stack: Page) -> None:
    """`make dev` as a customer meets it: she pays the shop's Paybill from her M-Pesa menu with the account
    mistyped, then sends the screenshot of M-Pesa's message; the stack's Tesseract reads the code and the order is
    paid, once."""
    import base64

    from tests.screenshots import Receipt, draw

    phone = "+254711500081"
    stack.say(phone, type="text", text="I want an oraimo 20000mAh power bank")
    stack.say(phone, type="text", text="black")
    stack.say(phone, type="text", text="1")
    stack.say(phone, type="text", text="pickup")
    steps = stack.say(phone, type="text", text="paybill")
    ref = re.search(r"ORD-[0-9A-Z]{5}", steps)
    due = re.search(r"Amount: KES ([0-9,]+)", steps)
    assert ref, steps
    assert due, steps
    amount = int(due.group(1).replace(",", ""))
    paid = httpx.post(
        f"{stack.url}/dev/c2b",
        json={"tenant_id": SHOP, "phone": phone, "amount": amount, "account": "oda yangu", "name": "Wanjiku"},
        timeout=20,
    )
    assert paid.status_code == 200, paid.text
    code = paid.json()["trans_id"]
    shot = draw(Receipt(code, amount, "600984", kind="paybill", business="DEMO SHOP", account="oda yangu"), "sms")
    answer = stack.say(phone, type="image", mime_type="image/png", data=base64.b64encode(shot).decode())
    assert f"We received KES {amount:,} for order {ref.group(0)} (M-Pesa receipt {code})" in answer, answer
    again = stack.say(phone, type="image", mime_type="image/png", data=base64.b64encode(shot).decode())
    assert f"We received KES {amount:,} for order {ref.group(0)}" in again  # said again (the ledger: paid once)
