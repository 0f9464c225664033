"""Blind conversations (issue 53): customer goals on shops nobody here wrote for, played by a simulated customer
against `tulia dev`, and judged by what the shop's records say at the end.

The goals (``eval/blind/goals.yaml``) and their shops (``eval/packs/``) were written by a helper session that read
only pack files and the goal format: what she wants, how she opens, what she says on her own on the way (a
question, a change, a cancellation) and how she answers each kind of question in her language. This script is the
customer: `tulia dev` runs as `make dev` runs it (its own Graph API, Daraja and PesaPal simulators) with the goals'
packs, and the customer talks through the chat page's API (``/dev/send``: signed webhooks to the real route) and
reads what the Graph API simulator was sent. She reads the bot's questions from the ids of its buttons and list rows
(``tulia.graph.buttons``: the wire codec WhatsApp hands back), never from its wording:

- a shortlist row of the item she wants, a category of it, a time row with the staff member and start she wants:
  tapped (a phone's customer taps a list);
- an option, a count, delivery or pickup, the payment method, a confirmation: typed in her own words from the goal
  when the goal has words for it (that is what is measured), else tapped;
- a hand-over offered: "no" tapped; the menu (the bot did not understand): her next words on her own, if any;
- her own steps: ``next`` once the bot has answered her previous message, ``checkout`` when an order total or
  payment choice first shows.

Payments are made as a customer makes them: the M-Pesa prompt approved on the simulated phone (``/dev/stk``), the
Till paid from the M-Pesa menu with the order's amount (``/dev/c2b``), the card link's checkout page answered
"pay". A goal ends when its outcome holds in the admin API (the paid order with exactly the wanted lines, options,
delivery zone or pickup and payment method; the confirmed booking with the service, options, day, time, staff and
zone; for a cancellation: nothing paid and nothing left pending or held), or after ``MAX_TURNS`` of hers.

Reported (figures only: the goals are blind, their misses are never printed): goals reached, by language and kind;
her turns per reached goal; the share of the bot's replies in her language (a reply's language read by a small
function-word count, this script's own, so that the product's detector does not judge itself; a reply of names,
numbers and prices only counts for every language).

    .venv/bin/python bench/blind_conversations.py [--goals eval/blind/goals.yaml] [--limit N]
    .venv/bin/python bench/blind_conversations.py --goals eval/goals/dev5.yaml --only dv03,dv28 --show  # not blind
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MAX_TURNS = 16
# every goal set was written on Sunday 29 November 2026 and says its days as customers do ("kesho", "friday", "next
# week"): the shops' clock starts on that evening, whatever the machine's time, so a run at night or next month reads
# them as written. Evening: every writer's "Sunday at 14:00" is the next Sunday (the product reads a weekday that is
# today as today while its time is ahead: `tests/unit/test_when.py`)
GOALS_WRITTEN_AT = "2026-11-29T20:00+03:00"
# the buttons of a checkout: an order's ways to pay and its confirmation; a booking's summary with its deposit
# (pay it by the prompt or another way, or confirm one without a deposit): her "at: checkout" step is said there
CHECKOUT_TAPS = frozenset({"pay", "confirm", "bk:stk", "bk:pay", "bk:yes"})
WAIT_SECONDS = 60.0  # one turn's replies; the stack answers in well under a second when it is well

SW_WORDS = frozenset(
    "na ya wa kwa ni za la cha vya hii hiyo hizo yako yako yenu wako tafadhali asante karibu ungependa unataka "
    "nitume tuma lipa kulipa oda jumla bei kiasi ngapi gani je sasa sawa ndiyo hapana tukuletee nitachukua dukani "
    "siku saa leo kesho wiki habari samahani pole ili kama au pia bado tayari imelipwa tumepokea umelipa nimetuma "
    "ombi namba kikapu chako chagua andika unaweza tunaweza nini lini wapi mtu wetu wenu huduma miadi imewekwa "
    "tutakuletea ndani zaidi kila moja mbili tatu hakuna iko ipo zipo kuna hapa huko aje hivi ndivyo".split()
)
EN_WORDS = frozenset(
    "the and of to for is are your you we our please thank thanks would like which what when where how many much "
    "order total pay paid payment send sent prompt delivery deliver pickup pick up it this that with in on at "
    "from here there can will be have has do does not no yes hi hello welcome choose reply type shop today "
    "tomorrow booked booking time staff here's sorry help person team".split()
)


def reply_language(text: str) -> str | None:
    """``en`` or ``sw`` by the count of each language's function words, or None when neither shows."""
    words = re.findall(r"[a-z']+", text.lower())
    sw = sum(w in SW_WORDS for w in words)
    en = sum(w in EN_WORDS for w in words)
    if sw == en:
        return None if sw < 2 else "mixed"
    return "sw" if sw > en else "en"


def _names_of(catalog: dict[str, dict[str, str]]) -> list[str]:
    """Every item name and option value of a catalog (``catalog.csv`` rows), longest first."""
    names = {row["name"] for row in catalog.values() if row.get("name")}
    for row in catalog.values():
        for dimension in (row.get("variants") or "").split(";"):
            _, _, options = dimension.partition("=")
            names |= {re.sub(r"\(\+?\d+\)$", "", o).strip() for o in options.split("|") if o.strip()}
    return sorted((n for n in names if len(n) > 2), key=len, reverse=True)


def in_her_language(reply: str, lang: str) -> bool:
    said = reply_language(reply)
    if said in (None, "mixed"):
        return True
    return said == ("en" if lang == "en" else "sw")  # Sheng is answered in Sheng or Swahili: both read as sw


@dataclass
class Goal:
    raw: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.raw["id"])

    @property
    def lang(self) -> str:
        return str(self.raw["lang"])

    @property
    def answers(self) -> dict[str, Any]:
        # YAML 1.1 reads an unquoted key `yes:` as true
        return {{True: "yes", False: "no"}.get(k, k): v for k, v in (self.raw.get("answers") or {}).items()}

    @property
    def outcome(self) -> dict[str, Any]:
        return dict(self.raw.get("outcome") or {})

    @property
    def kind(self) -> str:
        if self.raw.get("kind"):  # the writer's own word for it (`# kind: ...` on the goal's id line)
            return str(self.raw["kind"])
        out = self.outcome
        if "cancelled" in out:
            return "cancel"
        if "booking" in out:
            return "booking"
        steps = self.raw.get("steps") or []
        return "buy+steps" if steps else "buy"

    def wanted_lines(self) -> list[dict[str, Any]]:
        return list((self.outcome.get("order") or {}).get("items") or [])

    def wanted_booking(self) -> dict[str, Any]:
        return dict(self.outcome.get("booking") or {})

    def pay(self) -> str | None:
        order = self.outcome.get("order") or self.outcome.get("booking") or {}
        return order.get("pay")

    def options(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for line in self.wanted_lines():
            out |= {str(k): str(v) for k, v in (line.get("options") or {}).items()}
        return out | {str(k): str(v) for k, v in (self.wanted_booking().get("options") or {}).items()}


@dataclass
class Play:
    goal: Goal
    phone: str
    turns: int = 0
    replies: list[str] = field(default_factory=list)
    said_steps: int = 0
    checkout_seen: bool = False
    used: Counter[str] = field(default_factory=Counter)  # how often each kind of answer was given
    paid: set[str] = field(default_factory=set)  # payments made (checkout ids, order refs)
    transcript: list[str] = field(default_factory=list)
    to_say: str | None = None  # what she says next whatever the bot asked (the Till payment's code)
    last_ask: str = "none"  # the kind of the last question the bot asked with buttons or rows ("none": text only)
    ended: str = "reached"  # how a goal not reached ended: "turns" (she ran out) or "silent" (nothing left to say)
    records: str = ""  # what the shop's records held at the end of a goal not reached (figures only)


class Stack:
    """`tulia dev` with the goals' packs, its own simulators, a short batch window and M-Pesa check."""

    def __init__(self, packs: list[Path], clock: str) -> None:
        from tulia.local.stack import free_port

        self.today = datetime.fromisoformat(clock).date()  # the shops' day when the goals start
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.state = Path(tempfile.mkdtemp(prefix="tulia-goals-"))
        self.log = self.state / "dev.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith("TULIA_")}
        env |= {
            "TULIA_STATE_DIR": str(self.state),
            "TULIA_STK_QUERY_DELAY_SECONDS": "2",
            "TULIA_AGENT_BATCH_WINDOW_SECONDS": "0.3",
            "TULIA_LOG_LEVEL": "WARNING",
        }
        args = [sys.executable, "-m", "tulia.cli", "dev", "--port", str(self.port), "--clock", clock]
        for pack in packs:
            args += ["--pack", str(pack)]
        self.out = self.log.open("w")
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=self.out, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 180
        while "Press Ctrl-C" not in self.log.read_text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("tulia dev did not start: " + self.log.read_text()[-3000:])
            time.sleep(0.2)
        self.http = httpx.Client(base_url=self.url, timeout=WAIT_SECONDS + 30)
        self.tokens: dict[str, str] = {}

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=60)
        self.out.close()

    def token(self, tenant_id: str) -> str:
        if tenant_id not in self.tokens:
            out = subprocess.run(
                [sys.executable, "-m", "tulia.cli", "admin-token", "--tenant-id", tenant_id, "--port", str(self.port)],
                cwd=ROOT,
                env={**os.environ, "TULIA_STATE_DIR": str(self.state)},
                capture_output=True,
                text=True,
                timeout=120,
            )
            if out.returncode != 0:
                raise SystemExit(f"admin-token for {tenant_id}: {out.stderr}")
            self.tokens[tenant_id] = out.stdout.strip()
        return self.tokens[tenant_id]

    def admin(self, tenant_id: str, path: str, **params: Any) -> Any:
        got = self.http.get(path, params=params, headers={"authorization": f"Bearer {self.token(tenant_id)}"})
        got.raise_for_status()
        return got.json()

    def chat(self, tenant_id: str, phone: str) -> dict[str, Any]:
        got = self.http.get("/dev/chat", params={"tenant_id": tenant_id, "phone": phone})
        got.raise_for_status()
        return dict(got.json())

    def send(self, tenant_id: str, phone: str, **message: Any) -> None:
        sent = self.http.post("/dev/send", json={"tenant_id": tenant_id, "phone": phone, "name": "Wanjiku", **message})
        sent.raise_for_status()
        mid = sent.json()["message_id"]
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            turn = self.http.get("/dev/turn", params={"tenant_id": tenant_id, "message_id": mid}).json()
            if not turn["pending"]:
                return
            time.sleep(0.1)
        raise TimeoutError(f"no answer within {WAIT_SECONDS} s")


def shown(payload: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """A message's text and its buttons or rows (id, title)."""
    kind = payload.get("type")
    if kind == "text":
        return str(payload["text"]["body"]), []
    if kind == "interactive":
        node = payload["interactive"]
        text = str(node.get("body", {}).get("text", ""))
        action = node.get("action", {})
        rows = [(b["reply"]["id"], b["reply"]["title"]) for b in action.get("buttons", [])]
        rows += [(r["id"], r["title"]) for s in action.get("sections", []) for r in s.get("rows", [])]
        if node.get("type") == "cta_url":
            text += "\n" + str(action.get("parameters", {}).get("url", ""))
        return text, rows
    if kind == "image":
        return str(payload["image"].get("caption", "")), []
    if kind == "template":
        return "", []
    return "", []


class Customer:
    def __init__(self, stack: Stack, tenant_ids: dict[str, str], catalogs: dict[str, dict[str, dict[str, str]]]):
        self.stack = stack
        self.tenant_ids = tenant_ids  # pack folder -> tenant id
        self.catalogs = catalogs  # tenant id -> sku -> row
        self.names: dict[str, list[str]] = {}  # tenant id -> its items' names and options, longest first

    @classmethod
    def of_packs(cls, stack: Stack, dirs: list[Path]) -> Customer:
        """A customer of the shops of these pack folders (she knows their items by the packs' catalogs)."""
        import csv

        tenant_ids, catalogs = {}, {}
        for d in dirs:
            tenant_id = yaml.safe_load((d / "tenant.yaml").read_text(encoding="utf-8"))["tenant_id"]
            tenant_ids[d.name] = tenant_id
            with (d / "catalog.csv").open(encoding="utf-8") as f:
                catalogs[tenant_id] = {row["sku"]: row for row in csv.DictReader(f)}
        return cls(stack, tenant_ids, catalogs)

    def without_names(self, tenant: str, text: str) -> str:
        """A reply without the shop's own names (its items and their options, a row's title cut short with "…"):
        the shop's data, in whatever language the shop wrote it, is no word of the bot's language."""
        for name in self.names.setdefault(tenant, _names_of(self.catalogs.get(tenant, {}))):
            text = re.sub(re.escape(name), " ", text, flags=re.I)
        return re.sub(r"\S*…", " ", text)

    # --- one goal ---------------------------------------------------------------------------------
    def play(self, goal: Goal, phone: str) -> tuple[bool, Play]:
        tenant = self.tenant_ids[goal.raw["pack"]]
        play = Play(goal, phone)
        seen = 0
        message: dict[str, Any] | None = {"type": "text", "text": str(goal.raw["opening"])}
        while message is not None and play.turns < MAX_TURNS:
            self.stack.send(tenant, phone, **message)
            play.turns += 1
            play.transcript.append(f"customer> {message.get('text') or message.get('title')}")
            chat = self.stack.chat(tenant, phone)
            outs = [m for m in chat["messages"] if m["direction"] == "out"]
            new = outs[seen:]
            seen = len(outs)
            texts, rows = [], []
            for m in new:
                text, its_rows = shown(m["payload"])
                texts.append(text + "\n" + "\n".join(t for _, t in its_rows))
                play.replies.append(self.without_names(tenant, texts[-1]))
                play.transcript.append("bot> " + texts[-1].strip().replace("\n", "\n     "))
                rows = its_rows or rows
            play.last_ask = _ask_kind(rows) or play.last_ask
            paid = self.pay_what_is_asked(tenant, play, chat, "\n".join(texts))
            if self.reached(tenant, goal, play, wait=paid):
                play.replies += self.later_replies(tenant, play, seen)
                return True, play
            message = self.next_message(tenant, play, "\n".join(texts), rows)
        if self.reached(tenant, goal, play, wait=True):
            return True, play
        play.ended = "turns" if message is not None else "silent"
        play.records = self.what_was_recorded(tenant, goal, play)
        return False, play

    def later_replies(self, tenant: str, play: Play, seen: int) -> list[str]:
        """What the bot sent after her last turn (a payment's receipt): judged for its language too."""
        outs = [m for m in self.stack.chat(tenant, play.phone)["messages"] if m["direction"] == "out"]
        return [shown(m["payload"])[0] for m in outs[seen:]]

    def next_message(self, tenant: str, play: Play, text: str, rows: list[tuple[str, str]]) -> dict[str, Any] | None:
        from tulia.graph.buttons import parse_tap

        goal = play.goal
        if play.to_say:
            words, play.to_say = play.to_say, None
            return {"type": "text", "text": words}
        steps = list(goal.raw.get("steps") or [])
        if any((tap := parse_tap(i)) is not None and tap.kind in CHECKOUT_TAPS for i, _ in rows):
            play.checkout_seen = True
        if play.said_steps < len(steps):
            step = steps[play.said_steps]
            if step.get("at", "next") == "next" or (step.get("at") == "checkout" and play.checkout_seen):
                play.said_steps += 1
                return {"type": "text", "text": str(step["say"])}
        taps = [(parse_tap(i), i, t) for i, t in rows]
        taps = [(tap, i, t) for tap, i, t in taps if tap is not None]
        if not taps:
            return self.say_what_is_missing(play)
        kind = taps[0][0].kind
        answers = goal.answers

        def tap(match: Any) -> dict[str, Any] | None:
            for t, i, title in taps:
                if match(t):
                    return {"type": "list_reply" if len(rows) > 3 else "button_reply", "id": i, "title": title}
            return None

        def typed(key: str, default: dict[str, Any] | None = None) -> dict[str, Any] | None:
            words = answers.get(key)
            if isinstance(words, str) and words and play.used[key] < 2:
                play.used[key] += 1
                return {"type": "text", "text": words}
            return default

        skus = {line["sku"] for line in goal.wanted_lines()} | {goal.wanted_booking().get("sku")}
        if "cancelled" in goal.outcome and kind in ("item", "cat", "bk:slot"):
            return tap(lambda t: True)  # whatever she starts, she will cancel: the first one shown
        if kind == "item":
            return tap(lambda t: t.last in skus) or self.name_it(play, tenant, skus)
        if kind == "cat":
            cats = {self.catalogs[tenant].get(s or "", {}).get("category") for s in skus}
            return tap(lambda t: t.last in cats) or self.say_what_is_missing(play)
        if kind in ("var", "bk:var"):
            dim = taps[0][0].parts[-2]
            want = goal.options().get(dim)
            if want is None:
                return tap(lambda t: True)
            said = (answers.get("option") or {}).get(want)
            if said and play.used[f"option:{want}"] < 1:
                play.used[f"option:{want}"] += 1
                return {"type": "text", "text": str(said)}
            return tap(lambda t: t.last.lower() == want.lower()) or {"type": "text", "text": want}
        if kind == "qty":
            sku = taps[0][0].parts[0]
            want = next((int(line.get("qty", 1)) for line in goal.wanted_lines() if line["sku"] == sku), 1)
            said = (answers.get("qty") or {}).get(sku)
            if said and play.used[f"qty:{sku}"] < 1:
                play.used[f"qty:{sku}"] += 1
                return {"type": "text", "text": str(said)}
            return tap(lambda t: t.last == str(want)) or {"type": "text", "text": str(want)}
        if kind in ("mode", "zone", "bk:zone"):
            delivery = (goal.outcome.get("order") or {}).get("delivery") or goal.wanted_booking().get("zone")
            if delivery is None and "pickup" in answers:  # a goal that says no place (a cancellation): her words
                delivery = "pickup"
            if delivery == "pickup":
                return typed("pickup", tap(lambda t: t.last == "pickup"))
            anywhere = delivery is None and kind != "mode"  # no place wanted: the first zone offered
            return typed("place", tap(lambda t: t.last in ("delivery", delivery) or anywhere))
        if kind == "pay":
            method = {"mpesa": "mpesa_stk", "till": "mpesa_c2b", "card": "pesapal"}.get(goal.pay() or "", "")
            return typed("pay", tap(lambda t: t.last == method))
        if kind == "confirm":
            return typed("yes", tap(lambda t: t.last == "yes"))
        if kind == "bk:slot":
            booking = goal.wanted_booking()
            start = f"{booking.get('day', '')}T{booking.get('time', '')}".replace("-", "").replace(":", "")
            hit = tap(lambda t: t.parts[0].startswith(start[:13]) and t.parts[1] in (booking.get("staff"), None))
            if hit:
                return hit
            for key in ("day", "time", "staff"):
                said = typed(key)
                if said:
                    return said
            return None
        if kind in ("bk:stk", "bk:pay", "bk:yes"):
            method = goal.pay()
            if kind == "bk:yes":
                return typed("yes", tap(lambda t: t.kind == "bk:yes"))
            if method == "mpesa":
                return tap(lambda t: t.kind == "bk:stk")
            return typed("pay", tap(lambda t: t.kind == "bk:pay"))
        if kind == "esc":
            return tap(lambda t: t.last == "no")
        return self.say_what_is_missing(play)

    def name_it(self, play: Play, tenant: str, skus: set[str | None]) -> dict[str, Any] | None:
        """Her item is not on the list: she names it once, as the shop names it."""
        for sku in sorted(s for s in skus if s):
            if play.used[f"name:{sku}"] < 1:
                play.used[f"name:{sku}"] += 1
                return {"type": "text", "text": self.catalogs[tenant][sku]["name"]}
        return self.say_what_is_missing(play)

    def say_what_is_missing(self, play: Play) -> dict[str, Any] | None:
        """No question she can read: what she has not said yet, in her words (where, how she pays), else nothing."""
        for key in ("place", "pickup", "pay"):
            words = play.goal.answers.get(key)
            if isinstance(words, str) and words and play.used[key] < 1:
                play.used[key] += 1
                return {"type": "text", "text": words}
        return None

    # --- money, as a customer pays ---------------------------------------------------------------------
    def pay_what_is_asked(self, tenant: str, play: Play, chat: dict[str, Any], text: str) -> bool:
        """Pays what the bot asked her to pay; True when she paid something."""
        paid = False
        for prompt in chat.get("stk") or []:
            if prompt["checkout_request_id"] not in play.paid:
                play.paid.add(prompt["checkout_request_id"])
                self.stack.http.post(
                    "/dev/stk", json={"checkout_request_id": prompt["checkout_request_id"], "action": "approve"}
                ).raise_for_status()
                paid = True
        for url in re.findall(r"https?://\S+", text):
            query = parse_qs(urlparse(url).query)
            tracking = (query.get("OrderTrackingId") or [""])[0]
            if tracking and tracking not in play.paid:
                play.paid.add(tracking)
                parsed = urlparse(url)
                httpx.post(
                    f"{parsed.scheme}://{parsed.netloc}/checkout",
                    data={"OrderTrackingId": tracking, "action": "pay"},
                    timeout=30,
                )
                paid = True
        # the Till is paid once the bot says its number ("Till number: 5370777"), never when "M-Pesa Till" is only one
        # of the ways to pay offered (she has not chosen yet, and may still change her order)
        if play.goal.pay() == "till" and re.search(r"\bTill\b[^\n]*?\d{5,}", text, re.I):
            for order in self.orders(tenant, play.phone):
                ref = order["order_id"]
                if order["payment_status"] != "paid" and order["status"] != "cancelled" and ref not in play.paid:
                    play.paid.add(ref)
                    due = int(order["totals"]["total"]) - int(order.get("paid_amount") or 0)
                    sent = self.stack.http.post(
                        "/dev/c2b", json={"tenant_id": tenant, "phone": play.phone, "amount": due, "account": ref}
                    )
                    sent.raise_for_status()
                    code = sent.json()["trans_id"]  # what M-Pesa's SMS tells her, and the bot asks for
                    words = play.goal.answers.get("paid")
                    play.to_say = (
                        words.replace("{code}", code) if isinstance(words, str) and "{code}" in words else code
                    )
                    paid = True
        return paid

    # --- the outcome, from the shop's records -------------------------------------------------------------
    def orders(self, tenant: str, phone: str) -> list[dict[str, Any]]:
        return [o.get("order", o) for o in self.stack.admin(tenant, "/admin/orders", phone=phone)["items"]]

    def reached(self, tenant: str, goal: Goal, play: Play, *, wait: bool = False) -> bool:
        deadline = time.monotonic() + (10 if wait else 0)
        while True:
            if self._holds(tenant, goal, play):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.5)

    def _holds(self, tenant: str, goal: Goal, play: Play) -> bool:
        out = goal.outcome
        orders = self.orders(tenant, play.phone)
        if "order" in out:
            return any(self.order_matches(tenant, o, out["order"]) for o in orders if o["payment_status"] == "paid")
        bookings = self.bookings(tenant, play.phone)
        if "booking" in out:
            return any(self.booking_matches(tenant, b, out["booking"]) for b in bookings)
        if "cancelled" in out:
            started = bool(orders or bookings)
            open_orders = [o for o in orders if o["payment_status"] in ("paid", "pending") or o["status"] not in
                           ("cancelled", "expired")]  # fmt: skip
            live = [b for b in bookings if b["status"] in ("held", "confirmed")]
            return started and not live and not open_orders
        return False

    def what_was_recorded(self, tenant: str, goal: Goal, play: Play) -> str:
        """Where a goal not reached stopped, from the shop's records: a class, never a message."""
        orders = self.orders(tenant, play.phone)
        bookings = self.bookings(tenant, play.phone)
        out = goal.outcome
        if "order" in out:
            if not orders:
                return "no order"
            want = out["order"]
            skus = sorted(w["sku"] for w in want["items"])
            for order in orders:
                if sorted(ln["item_id"] for ln in order["lines"]) == skus:
                    lines_ok = self.order_matches(tenant, order, {"items": want["items"]})
                    if not lines_ok:
                        return "order: the right items, a count or option wrong"
                    if order["payment_status"] != "paid":
                        return "order: the right lines, not paid"
                    return "order: paid, the place or way to pay wrong"
            return "order: other items"
        if "booking" in out:
            if not bookings:
                return "no booking"
            want = out["booking"]
            same = [b for b in bookings if b["item_id"] == want["sku"]]
            if not same:
                return "booking: another service"
            if all(b["status"] not in ("held", "confirmed") for b in same):
                return "booking: cancelled or expired"
            if any(b["status"] == "held" for b in same):
                return "booking: held, not confirmed"
            return "booking: confirmed, a day, time, person or option wrong"
        if "cancelled" in out:
            if not orders and not bookings:
                return "cancel: nothing was started"
            return "cancel: still open"
        return "other"

    def order_matches(self, tenant: str, order: dict[str, Any], want: dict[str, Any]) -> bool:
        lines = sorted(
            (ln["item_id"], int(ln["quantity"]), _folded(ln.get("variant_selection") or {})) for ln in order["lines"]
        )
        wanted = sorted((w["sku"], int(w.get("qty", 1)), _folded(w.get("options") or {})) for w in want["items"])
        if lines != wanted:
            return False
        delivery = order.get("delivery") or {}
        if want.get("delivery") == "pickup":
            if delivery.get("mode") != "pickup":
                return False
        elif want.get("delivery") and delivery.get("zone") != want["delivery"]:
            return False
        detail = self.stack.admin(tenant, f"/admin/orders/{order['order_id']}")
        methods = {p["method"] for p in detail["payments"] if p["status"] in ("succeeded", "paid", "confirmed")}
        method = {"mpesa": "mpesa_stk", "till": "mpesa_c2b", "card": "pesapal"}.get(str(want.get("pay")))
        return method in methods if method else True

    def bookings(self, tenant: str, phone: str) -> list[dict[str, Any]]:
        today = self.stack.today
        number = "+254" + phone[-9:]
        found = []
        for weeks in range(0, 6, 2):  # the book is read two weeks at a time (its limit): six weeks, a shop's horizon
            day = today + timedelta(weeks=weeks)
            calendar = self.stack.admin(tenant, "/admin/bookings", day=day.isoformat(), days=14)
            found += [b for b in calendar["bookings"] if (b.get("customer") or {}).get("phone") == number]
        return found

    def booking_matches(self, tenant: str, booking: dict[str, Any], want: dict[str, Any]) -> bool:
        from datetime import datetime

        from tulia.domain.common import NAIROBI

        start = datetime.fromisoformat(booking["start"]).astimezone(NAIROBI)
        confirmed = booking["status"] == "confirmed" or (want.get("pay") in (None, "none") and booking["status"] in
                                                          ("held", "confirmed"))  # fmt: skip
        return (
            confirmed
            and booking["item_id"] == want["sku"]
            and start.strftime("%Y-%m-%d") == str(want.get("day"))
            and start.strftime("%H:%M") == str(want.get("time"))
            and (not want.get("staff") or booking["staff_id"] == want["staff"])
            and (not want.get("zone") or booking.get("zone") == want["zone"])
            and _folded(booking.get("variant_selection") or {}) == _folded(want.get("options") or {})
        )


def _ask_kind(rows: list[tuple[str, str]]) -> str | None:
    from tulia.graph.buttons import parse_tap

    for row_id, _ in rows:
        tap = parse_tap(row_id)
        if tap is not None:
            return str(tap.kind)
    return None


def _folded(options: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k).lower(), str(v).lower()) for k, v in options.items()))


def load_goals(path: Path) -> list[Goal]:
    """The goals of a file, each with the kind its writer noted on its id line (``- id: g01  # kind: buy``)."""
    text = path.read_text(encoding="utf-8")
    kinds = dict(re.findall(r"^- id: (\S+)\s+# kind: (\S+)", text, re.M))
    return [Goal({**g, "kind": g.get("kind") or kinds.get(str(g["id"]))}) for g in yaml.safe_load(text)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--goals", default=str(ROOT / "eval" / "blind" / "goals.yaml"))
    parser.add_argument("--limit", type=int)
    parser.add_argument(
        "--clock",
        default=GOALS_WRITTEN_AT,
        help="the shops' clock at the start (ISO 8601 with its zone): the goals' own day, whatever the machine's",
    )
    parser.add_argument(
        "--show", action="store_true", help="print each transcript (only for goals that are not blind: eval/goals/)"
    )
    parser.add_argument("--only", help="comma-separated goal ids (only for goals that are not blind: eval/goals/)")
    ns = parser.parse_args()
    if (ns.show or ns.only) and Path(ns.goals).resolve().is_relative_to(ROOT / "eval" / "blind"):
        raise SystemExit("the blind goals are measured whole, and their conversations are never printed")
    goals = load_goals(Path(ns.goals))[: ns.limit]
    if ns.only:
        goals = [g for g in goals if g.id in ns.only.split(",")]
    folders = sorted({g.raw["pack"] for g in goals})
    dirs = [d for f in folders for d in (ROOT / "eval" / "packs" / f, ROOT / "packs" / f) if d.exists()]
    started = time.monotonic()
    stack = Stack(dirs, ns.clock)
    customer = Customer.of_packs(stack, dirs)
    results: list[tuple[Goal, bool, Play]] = []
    try:
        for n, goal in enumerate(goals):
            phone = f"07{20_000_000 + n * 7919 % 9_999_999:08d}"
            try:
                ok, play = customer.play(goal, phone)
            except (httpx.HTTPError, TimeoutError) as exc:
                print(f"goal {n + 1}: the stack failed ({exc.__class__.__name__})", file=sys.stderr)
                ok, play = False, Play(goal, phone)
            results.append((goal, ok, play))
            if ns.show:
                print(f"--- {goal.id}: {'reached' if ok else 'NOT reached'} in {play.turns} turns")
                for line in play.transcript:
                    print(line)
    finally:
        stack.close()
    report(results, time.monotonic() - started)


def report(results: list[tuple[Goal, bool, Play]], seconds: float) -> None:
    def share(rows: list[tuple[Goal, bool, Play]]) -> str:
        won = sum(ok for _, ok, _ in rows)
        return f"{100 * won / len(rows):.0f}% ({won}/{len(rows)})" if rows else "-"

    by_lang: dict[str, list[Any]] = defaultdict(list)
    by_kind: dict[str, list[Any]] = defaultdict(list)
    for row in results:
        by_lang[row[0].lang].append(row)
        by_kind[row[0].kind].append(row)
    replies = [(g.lang, r) for g, _, p in results for r in p.replies]
    in_lang = sum(in_her_language(r, lang) for lang, r in replies)
    turns = [p.turns for _, ok, p in results if ok]
    print(f"| blind conversations ({len(results)} goals) | reached | |")
    print("|---|---|---|")
    print(f"| all | {share(results)} | |")
    for lang in ("en", "sw", "sheng"):
        print(f"| {lang} | {share(by_lang[lang])} | |")
    for kind in sorted(by_kind):
        print(f"| {kind} | {share(by_kind[kind])} | |")
    mean_turns = sum(turns) / len(turns) if turns else 0
    print(f"\n- her turns per reached goal: mean {mean_turns:.1f}, max {max(turns, default=0)}")
    print(f"- replies in her language: {100 * in_lang / max(1, len(replies)):.1f}% ({in_lang}/{len(replies)})")
    missed = [p for _, ok, p in results if not ok]
    if missed:  # classes of where they stopped, counted: never a goal or a message
        print("\n| goals not reached: where they stopped | goals |\n|---|---:|")
        for (ended, records), n in sorted(Counter((p.ended, p.records) for p in missed).items()):
            print(f"| {'out of turns' if ended == 'turns' else 'nothing left to say'}; {records} | {n} |")
        print("\n| goals not reached: the bot's last question | goals |\n|---|---:|")
        for ask, n in sorted(Counter(p.last_ask for p in missed).items()):
            print(f"| {ask} | {n} |")
    print(f"- {seconds:.0f} s in all")


if __name__ == "__main__":
    main()
