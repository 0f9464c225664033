"""kb_retrieve and handoff_create_ticket."""

from __future__ import annotations

import pytest

from tests.conftest import SHOP, Caller, new_customer
from tulia.services import Services


@pytest.mark.parametrize(
    ("question", "doc_id"),
    [
        ("How do I return a faulty phone?", "policy-returns-policy"),
        ("naweza kurudisha simu iliyoharibika?", "policy-returns-policy"),
        ("how long is the warranty on a laptop", "policy-warranty"),
        ("delivery fee to Kasarani", "faq-delivery"),
        ("I paid but did not get a confirmation", "faq-payment-help"),
        ("what are your opening hours", "doc-about-us"),
    ],
)
def test_questions_are_answered_from_the_right_document(shop: Caller, question: str, doc_id: str) -> None:
    out = shop.ok("kb_retrieve", query=question, top_k=3)
    assert out["answer_found"] is True
    assert out["snippets"][0]["doc_id"] == doc_id, [s["doc_id"] for s in out["snippets"]]


def test_snippets_carry_title_section_and_type(shop: Caller) -> None:
    top = shop.ok("kb_retrieve", query="how are refunds paid", top_k=1)["snippets"][0]
    assert (top["title"], top["section"], top["source_type"]) == (
        "Returns and Refunds Policy",
        "How refunds are paid",
        "policy",
    )
    assert "3 working days" in top["text"]


def test_top_k_and_source_types_are_honoured(shop: Caller) -> None:
    assert len(shop.ok("kb_retrieve", query="delivery payment returns warranty", top_k=2)["snippets"]) <= 2
    faq_only = shop.ok("kb_retrieve", query="return a faulty phone refund", top_k=8, source_types=["faq"])
    assert all(s["source_type"] == "faq" for s in faq_only["snippets"])


def test_a_question_the_documents_do_not_answer_finds_nothing(shop: Caller) -> None:
    out = shop.ok("kb_retrieve", query="do you sell bicycles in Kisumu on credit", top_k=3)
    assert out == {"snippets": [], "answer_found": False}


@pytest.mark.parametrize(
    ("args", "field"),
    [({"top_k": 9}, "top_k"), ({"top_k": 0}, "top_k"), ({"top_k": 3, "source_types": ["blog"]}, "source_types[0]")],
)
def test_bad_retrieval_arguments(shop: Caller, args: dict, field: str) -> None:
    err = shop.err("kb_retrieve", query="returns", **args)
    assert (err["code"], err["field"]) == ("invalid_input", field)


SNAPSHOT = {
    "summary": "Customer says an M-Pesa payment went through but the order shows unpaid.",
    "last_messages": [{"from": "customer", "text": "I paid but it says pending"}],
    "actions": ["order_get_status"],
}


def test_handoff_ticket_stores_the_snapshot_and_puts_the_customer_with_a_human(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    ticket = shop.ok(
        "handoff_create_ticket", customer_id=cid, reason="payment dispute", priority="high", context_snapshot=SNAPSHOT
    )
    assert ticket["created"] is True
    assert ticket["ticket_id"].startswith("HND-")
    assert ticket["expected_response"] == "within 30 minutes"  # Monday 10:00, inside the hours
    assert ticket["team_available"] is True
    stored = seeded.handoffs.get(SHOP, ticket["ticket_id"])
    assert (stored.status, stored.priority, stored.context_snapshot) == ("open", "high", SNAPSHOT)
    assert shop.ok("customer_get_or_create", phone_e164="0712345678")["in_handoff"] is True
    listed = seeded.handoffs.list_by_status(SHOP, "open").items
    assert [t.ticket_id for t in listed] == [ticket["ticket_id"]]


def test_a_second_escalation_reuses_the_open_ticket(shop: Caller, seeded: Services) -> None:
    cid = new_customer(shop)
    first = shop.ok(
        "handoff_create_ticket", customer_id=cid, reason="wants a human", priority="normal", context_snapshot={}
    )
    again = shop.ok(
        "handoff_create_ticket", customer_id=cid, reason="still waiting", priority="high", context_snapshot={}
    )
    assert (again["ticket_id"], again["created"]) == (first["ticket_id"], False)
    assert len(seeded.handoffs.list_by_status(SHOP, "open").items) == 1


@pytest.mark.parametrize(
    ("args", "code", "field"),
    [
        ({"priority": "asap"}, "invalid_input", "priority"),
        ({"reason": "   "}, "invalid_input", "reason"),
        ({"context_snapshot": {"blob": "x" * 70_000}}, "invalid_input", "context_snapshot"),
        ({"customer_id": "cus_nobody"}, "not_found", "customer_id"),
        ({"context_snapshot": "not an object"}, "invalid_input", "context_snapshot"),
    ],
)
def test_bad_handoff_requests_open_no_ticket(shop: Caller, seeded: Services, args: dict, code: str, field: str) -> None:
    cid = new_customer(shop)
    base = {"customer_id": cid, "reason": "help", "priority": "normal", "context_snapshot": {}}
    err = shop.err("handoff_create_ticket", **{**base, **args})
    assert (err["code"], err["field"]) == (code, field)
    assert seeded.handoffs.list_by_status(SHOP, "open").items == []
