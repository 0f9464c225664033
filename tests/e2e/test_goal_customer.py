"""The simulated customer of the blind conversations (bench/blind_conversations.py) against `tulia dev`, on goals of
the demo shops (eval/goals/demo.yaml, not blind): she reaches a paid order, a Till payment and a confirmed booking,
and cancels a hold; and the judge reads the shop's records, so a goal whose outcome the conversation did not make
(one speaker more than she bought) is not reached."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

import pytest
from bench.blind_conversations import GOALS_WRITTEN_AT, Customer, Goal, Stack, in_her_language, load_goals

ROOT = Path(__file__).resolve().parents[2]
GOALS = {g.id: g for g in load_goals(ROOT / "eval" / "goals" / "demo.yaml")}


@pytest.fixture(scope="module")
def customer() -> Iterator[Customer]:
    dirs = [ROOT / "packs" / name for name in ("demo-shop", "demo-grocer", "demo-salon")]
    stack = Stack(dirs, GOALS_WRITTEN_AT)
    try:
        yield Customer.of_packs(stack, dirs)
    finally:
        stack.close()


@pytest.mark.parametrize(
    ("goal_id", "phone"),
    [("d01", "0728100001"), ("d02", "0728100002"), ("d03", "0728100003"), ("d05", "0728100005")],
)
def test_she_reaches_the_goal_and_the_shops_records_say_so(customer: Customer, goal_id: str, phone: str) -> None:
    reached, play = customer.play(GOALS[goal_id], phone)
    assert reached, "\n".join(play.transcript)
    assert play.turns <= 8


def test_a_goal_the_conversation_did_not_make_is_not_reached(customer: Customer) -> None:
    raw = copy.deepcopy(GOALS["d01"].raw)
    raw["outcome"]["order"]["items"][0]["qty"] = 3  # she asks for two: the shop's order has two
    reached, play = customer.play(Goal(raw), "0728100009")
    assert not reached
    assert any("M-Pesa" in reply for reply in play.replies)  # she went all the way to the payment


def test_a_reply_is_judged_in_her_language_by_its_function_words() -> None:
    assert in_her_language("Ungependa kulipa KES 480 vipi? Tafadhali chagua", "sw")
    assert not in_her_language("How would you like to pay for your order?", "sw")
    assert in_her_language("How would you like to pay for your order?", "en")
    assert in_her_language("Samsung Galaxy A15 - KES 21,500", "sheng")  # names and prices only: any language
