"""The basket is an invariant, like money: random conversations of adds (one item or several in one
message, said "also" or not), count changes, corrections, removals, her address and questions (about the shop
or a line of her basket), in English and Swahili, keep the order frame's lines equal to a plain reference basket
(item -> count): a line leaves only when she takes it out.

A Hypothesis state machine drives the real graph (rules engine, checkpointed in moto) with the grocer's
items; after every message the lines are compared with the reference. Each example is a new customer.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tests.chat import Chat
from tests.conftest import GROCER

# a run's size: a small one in `make test`; bench/basket_machine.py runs a large one (BENCHMARKS.md)
EXAMPLES = int(os.environ.get("BASKET_MACHINE_EXAMPLES", "20"))
STEPS = int(os.environ.get("BASKET_MACHINE_STEPS", "8"))

# the grocer's items without options, as customers name them (Swahili, English) and by brand alone
ITEMS: dict[str, tuple[str, str, str]] = {
    "GR-UNG-01": ("Jogoo unga", "Jogoo maize flour", "Jogoo"),
    "GR-SUG-01": ("sukari Mumias", "Mumias sugar", "Mumias"),
    "GR-SAL-01": ("chumvi Kensalt", "Kensalt salt", "Kensalt"),
    "GR-MLK-01": ("maziwa Brookside", "Brookside milk", "Brookside"),
    "GR-BRD-01": ("mkate Festive", "Festive bread", "Festive"),
    "GR-SOP-01": ("sabuni Menengai", "Menengai soap", "Menengai"),
}
SW_NUMBERS = {1: "moja", 2: "mbili", 3: "tatu", 4: "nne", 5: "tano", 6: "sita", 7: "saba", 8: "nane", 9: "tisa"}
EN_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}
SIDE_QUESTIONS = ("do you deliver on sunday?", "mnafunga saa ngapi?", "what time do you open tomorrow?")
# her address answering "where should we deliver?": a zone with the words of a home (a house number is no count)
ADDRESSES = (
    "Kasarani, Mwiki road, house 12",
    "Roysambu, TRM drive, flat B4",
    "niko Ruiru, Kimbo estate nyumba 7",
    "Kahawa West, near the stage, gate 3",
)
# a question about a line of her basket, at any step: answered, and never a new search that drops her basket
LINE_QUESTIONS = ("what if the {en} arrives spoilt?", "na {sw} ikifika imeharibika je?")

items = st.sampled_from(sorted(ITEMS))
counts = st.integers(min_value=1, max_value=9)
langs = st.sampled_from(["sw", "en"])
_phones = itertools.count(1)
RUN = {"examples": 0, "messages": 0}  # what a run drove (bench/basket_machine.py prints it)


def said(n: int, lang: str, *, words: bool) -> str:
    if not words:
        return str(n)
    return SW_NUMBERS[n] if lang == "sw" else EN_NUMBERS[n]


def test_random_edits_keep_the_basket_equal_to_a_reference_basket(chat: Chat) -> None:
    conversations = chat.conversations

    class Basket(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.chat = Chat(conversations, tenant_id=GROCER, phone=f"+2547119{next(_phones):05d}")
            self.reference: dict[str, int] = {}
            self.log: list[str] = []
            RUN["examples"] += 1

        def send(self, message: str) -> None:
            RUN["messages"] += 1
            self.log.append(message)
            self.chat.send(message)

        def lines(self) -> dict[str, Any]:
            frame = self.chat.state.get("frame") if self.chat.last is not None else None
            return {line.item_id: line.quantity for line in (frame.lines if frame is not None else [])}

        @initialize(item=items, n=counts, lang=langs, words=st.booleans())
        def first_item(self, item: str, n: int, lang: str, words: bool) -> None:
            self.add_one(item, n, lang, words)  # every conversation starts with an item (all edits possible)

        @rule(item=items, n=counts, lang=langs, words=st.booleans())
        def add_one(self, item: str, n: int, lang: str, words: bool) -> None:
            sw, en, _brand = ITEMS[item]
            count = said(n, lang, words=words)
            if not self.reference:
                self.send(f"nataka {sw} {count}" if lang == "sw" else f"I want {count} {en}")
            else:
                self.send(f"ongeza pia {sw} {count}" if lang == "sw" else f"also add {count} {en}")
            self.reference[item] = min(self.reference.get(item, 0) + n, 1000)

        @rule(
            pair=st.lists(items, min_size=2, max_size=3, unique=True),
            ns=st.lists(counts, min_size=3, max_size=3),
            lang=langs,
            bare=st.booleans(),
        )
        def add_several(self, pair: list[str], ns: list[int], lang: str, bare: bool) -> None:
            # a list said to an open basket adds to it, with "also add" or without (bare): it never replaces it
            if lang == "sw":
                parts = [f"{ITEMS[i][0]} {SW_NUMBERS[n]}" for i, n in zip(pair, ns, strict=False)]
                listed = ", ".join(parts[:-1]) + " na " + parts[-1]
                self.send(f"ongeza pia {listed}" if self.reference and not bare else f"nataka {listed}")
            else:
                parts = [f"{n} {ITEMS[i][1]}" for i, n in zip(pair, ns, strict=False)]
                listed = ", ".join(parts[:-1]) + " and " + parts[-1]
                self.send(f"also add {listed}" if self.reference and not bare else f"I need {listed}")
            for i, n in zip(pair, ns, strict=False):
                self.reference[i] = min(self.reference.get(i, 0) + n, 1000)

        @precondition(lambda self: 0 < len(self.reference) < len(ITEMS))
        @rule(data=st.data(), n=counts, lang=langs, words=st.booleans())
        def name_another(self, data: st.DataObject, n: int, lang: str, words: bool) -> None:
            # a thing named without "also" while the basket is open joins it: a basket is never silently replaced
            item = data.draw(st.sampled_from(sorted(set(ITEMS) - set(self.reference))))
            sw, en, _brand = ITEMS[item]
            count = said(n, lang, words=words)
            self.send(f"nataka {sw} {count}" if lang == "sw" else f"I want {count} {en}")
            self.reference[item] = n

        @precondition(lambda self: bool(self.reference))
        @rule(address=st.sampled_from(ADDRESSES))
        def where_to_deliver(self, address: str) -> None:
            self.send(address)  # her place is no thing to find: the basket stays as it is

        @precondition(lambda self: bool(self.reference))
        @rule(data=st.data(), question=st.sampled_from(LINE_QUESTIONS))
        def ask_about_a_line(self, data: st.DataObject, question: str) -> None:
            sw, en, _brand = ITEMS[data.draw(st.sampled_from(sorted(self.reference)))]
            self.send(question.format(sw=sw, en=en))

        @precondition(lambda self: bool(self.reference))
        @rule(data=st.data(), n=counts, lang=langs)
        def set_count(self, data: st.DataObject, n: int, lang: str) -> None:
            item = data.draw(st.sampled_from(sorted(self.reference)))
            brand = ITEMS[item][2]
            if lang == "sw":
                self.send(f"{brand} ziwe {SW_NUMBERS[n]}")
            else:  # "make the Festive one" would name an item, not a count
                self.send(f"make the {brand} {EN_NUMBERS[n]}" if n > 1 else f"just one {brand}")
            self.reference[item] = n

        @precondition(lambda self: bool(self.reference))
        @rule(data=st.data(), n=counts, lang=langs)
        def correct_count(self, data: st.DataObject, n: int, lang: str) -> None:
            item = data.draw(st.sampled_from(sorted(self.reference)))
            old = self.reference[item]
            if old == n:
                return
            brand = ITEMS[item][2]
            if lang == "sw":
                self.send(f"hapana, {brand} ni {SW_NUMBERS[n]} sio {SW_NUMBERS.get(old, str(old))}")
            else:
                self.send(f"no, {brand} should be {EN_NUMBERS[n]} not {EN_NUMBERS.get(old, str(old))}")
            self.reference[item] = n

        @precondition(lambda self: len(self.reference) >= 2)
        @rule(data=st.data(), lang=langs)
        def remove(self, data: st.DataObject, lang: str) -> None:
            item = data.draw(st.sampled_from(sorted(self.reference)))
            brand = ITEMS[item][2]
            self.send(f"ondoa {brand}" if lang == "sw" else f"remove the {brand}")
            del self.reference[item]

        @precondition(lambda self: bool(self.reference))
        @rule(question=st.sampled_from(SIDE_QUESTIONS))
        def side_question(self, question: str) -> None:
            self.send(question)

        @invariant()
        def basket_equals_reference(self) -> None:
            if self.chat.last is not None:
                assert self.lines() == self.reference, self.log

    run_state_machine_as_test(
        Basket,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            database=None,  # every run draws fresh conversations
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        ),
    )
    print(f"basket machine run: {RUN['examples']} examples, {RUN['messages']} messages")  # noqa: T201 (bench/basket_machine.py reads it)
