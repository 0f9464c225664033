"""`tulia dev --data-dir` (what `make dev` runs): the demo shop's orders, customers and conversations
survive a restart of the stack, and a `kill -9` loses nothing it had accepted."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import boto3
import httpx
import pytest

from tests.conftest import ROOT, SANDBOX_PASSKEY
from tests.e2e.stack import SECRET, VERIFY, Stack, wait_for
from tests.integration.test_webhook import SALON_NUMBER, meta_payload, text_message, value
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.graph import GraphSimulator
from tulia.local.stack import free_port

# each test starts, kills and restarts whole stacks: about 35 s quiet, over two minutes beside a CPU hog (make
# test-busy); the suite's 120 s timeout is for a hung test, which these are not
pytestmark = pytest.mark.timeout(600)


@contextmanager
def dev(
    data_dir: Path,
    graph: GraphSimulator,
    daraja: DarajaSimulator,
    log: Path,
    *,
    kill: bool = False,
    port: int | None = None,
    args: tuple[str, ...] = (),
    **settings: str,
) -> Iterator[Stack]:
    """``tulia dev --data-dir`` in its own process; stopped with SIGTERM (Ctrl-C), or SIGKILL with ``kill``."""
    port = port or free_port()
    env = {
        **os.environ,
        "TULIA_META_APP_SECRET": SECRET,
        "TULIA_META_VERIFY_TOKEN": VERIFY,
        "TULIA_WHATSAPP_API_BASE": graph.base_url,
        "TULIA_MPESA_API_BASE": daraja.base_url,
        "TULIA_PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
        "TULIA_AGENT_BATCH_WINDOW_SECONDS": "0.3",
        "TULIA_LOG_LEVEL": "WARNING",
        "TULIA_STATE_DIR": str(data_dir.parent / "state"),
        **settings,
    }
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tulia.cli", "dev", "--port", str(port), "--data-dir", str(data_dir), *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_for(lambda: "Press Ctrl-C" in log.read_text(), timeout=120)
            yield Stack(f"http://127.0.0.1:{port}", graph, daraja)
        finally:
            if kill:
                proc.kill()  # SIGKILL: no chance to save anything
            else:
                proc.terminate()  # SIGTERM, like Ctrl-C: the stack saves its data and stops
            proc.wait(timeout=60)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def test_the_demo_shop_keeps_its_orders_and_conversations_across_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    phone = "254711900001"
    with GraphSimulator() as graph, DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as daraja:
        with dev(data, graph, daraja, tmp_path / "first.log") as stack:
            stack.say(phone, "I want 1 JBL Flip 6, I'll pick it up")
            summary = stack.say(phone, "black")
            [ref] = re.findall(r"Order (ORD-\w{5})", summary)
        assert (data / "tables.json").exists()
        with dev(data, graph, daraja, tmp_path / "second.log") as stack:
            assert re.search(r"Data directory: .* \(\d+ records restored", (tmp_path / "second.log").read_text())
            status = stack.say(phone, "where is my order?")
    assert ref in status  # the order and the customer came back
    assert "waiting for you to choose how to pay" in status


def owner_token(state: Path, port: int) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "tulia.cli", "admin-token", "--tenant-id", "demo-shop", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, "TULIA_STATE_DIR": str(state)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_killed_stack_answers_every_message_it_accepted_resumes_pending_prompts_and_keeps_staff(
    tmp_path: Path,
) -> None:
    data, state = tmp_path / "data", tmp_path / "state"
    payer, first, second = "254711900011", "254711900012", "254711900013"
    port = free_port()  # the same address after the restart: the prompt's callback URL names it
    # a 2-second quiet window: messages answered 200 are still waiting in the queue when the kill comes;
    # the prompt's status check is due 8 s after it was sent
    slow = {"TULIA_AGENT_BATCH_WINDOW_SECONDS": "2", "TULIA_STK_QUERY_DELAY_SECONDS": "8"}
    with GraphSimulator() as graph, DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as daraja:
        with dev(data, graph, daraja, tmp_path / "first.log", kill=True, port=port, **slow) as stack:
            stack.say(payer, "I want an oraimo 20000mAh power bank")
            stack.say(payer, "black")
            stack.say(payer, "1")
            stack.say(payer, "pickup")
            assert "Please confirm" in stack.say(payer, "M-Pesa prompt")
            assert "I've sent an M-Pesa prompt" in stack.say(payer, "yes")
            invited = httpx.post(
                f"{stack.url}/admin/staff",
                json={"email": "wanjiru@example.co.ke", "role": "agent"},
                headers={"authorization": f"Bearer {owner_token(state, port)}"},
                timeout=20,
            )
            assert invited.status_code == 200, invited.text
            temporary = invited.json()["temporary_password"]
            accepted = []
            for phone, words in ((first, "hello, do you sell JBL speakers?"), (second, "what are your opening hours?")):
                mid = f"wamid.kill-{phone}"
                answer = stack.post(meta_payload(value(text_message(words, mid=mid, sender=phone), wa_id=phone)))
                assert answer.status_code == 200
                accepted.append(phone)
            # killed now: the two messages were accepted, the prompt's check is not due yet
        [stk] = [r for r in daraja.stk.values() if r.body["PhoneNumber"] == payer]
        daraja.complete(stk.checkout_request_id, 1032, send_callback=False)  # cancelled while we were down
        before = len(stack.texts_to(payer))

        with dev(data, graph, daraja, tmp_path / "second.log", port=port, **slow) as stack:
            # every accepted message is answered, once
            answers = {phone: wait_for(lambda phone=phone: stack.texts_to(phone), timeout=60)[0] for phone in accepted}
            for phone, answer in answers.items():
                stack.say(phone, "thanks")  # the customer's queue is in order: everything before it is done
                assert stack.texts_to(phone).count(answer) == 1, stack.texts_to(phone)
            # the prompt left pending is checked again: the customer hears it was cancelled and can pay
            told = "\n".join(wait_for(lambda: stack.texts_to(payer)[before:], timeout=60))
            assert "was cancelled, so nothing was paid" in told
            assert "Please confirm" in stack.say(payer, "M-Pesa prompt")
            assert "I've sent an M-Pesa prompt" in stack.say(payer, "yes")
            assert len([r for r in daraja.stk.values() if r.body["PhoneNumber"] == payer]) == 2
            # the invited agent is still invited and can sign in with her temporary password
            staff = httpx.get(
                f"{stack.url}/admin/staff", headers={"authorization": f"Bearer {owner_token(state, port)}"}, timeout=20
            ).json()
            assert {"email": "wanjiru@example.co.ke", "status": "invited"}.items() <= next(
                m for m in staff if m["email"] == "wanjiru@example.co.ke"
            ).items()
            pool = json.loads((state / f"dev-{port}.json").read_text())
            challenge = boto3.client(
                "cognito-idp",
                region_name="eu-west-1",
                endpoint_url=pool["endpoint"],
                aws_access_key_id="local",
                aws_secret_access_key="local",
            ).initiate_auth(
                ClientId=pool["client_id"],
                AuthFlow="USER_PASSWORD_AUTH",
                AuthParameters={"USERNAME": "wanjiru@example.co.ke", "PASSWORD": temporary},
            )
            assert challenge["ChallengeName"] == "NEW_PASSWORD_REQUIRED"
    log = (tmp_path / "second.log").read_text()
    assert re.search(r"\(\d+ records restored, [1-9]\d* queued messages and checks resumed", log), log


def test_tulia_dev_runs_the_shops_clock_from_the_time_given(tmp_path: Path) -> None:
    """Issue 32, part 9: `tulia dev --clock` tries hours, the 24-hour window and reminders by hand."""
    phone = "254711900021"
    with GraphSimulator() as graph, DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as daraja:
        clock = ("--clock", "2026-12-01T08:00+03:00")  # a Tuesday morning in Nairobi
        with dev(tmp_path / "data", graph, daraja, tmp_path / "dev.log", args=clock) as stack:
            body = meta_payload(
                value(text_message("A pedicure tomorrow at 10am please", mid="wamid.clock-1", sender=phone),
                      number=SALON_NUMBER, wa_id=phone)
            )  # fmt: skip
            assert stack.post(body).status_code == 200
            [offer] = wait_for(lambda: stack.texts_to(phone))
    assert "Wed 2 Dec" in offer, offer  # "tomorrow" on the stack's clock, not the machine's
    assert "Clock: the shops' time started at 2026-12-01T08:00:00+03:00" in (tmp_path / "dev.log").read_text()
