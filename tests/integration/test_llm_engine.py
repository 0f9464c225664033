"""The ``bedrock`` engine on a scripted chat model with hand-written answers per prompt: what the
model may decide, what it may word, and what happens when it fails, answers out of shape or invents
facts. No model host is ever called, and no answer comes from the rules engine."""

from __future__ import annotations

from typing import Any

import pytest

from tests.chat import Chat, conversations_for
from tests.conftest import SHOP, scripted_llm_engine
from tests.model_answers import SALES, reading
from tulia.llm.scripted import ScriptedChatModel
from tulia.nlu.reader import message_reader
from tulia.services import Services


@pytest.fixture
def model() -> ScriptedChatModel:
    return ScriptedChatModel()  # every answer is queued by the test: an unexpected call fails it


@pytest.fixture
def llm_chat(seeded: Services, model: ScriptedChatModel) -> Chat:
    return Chat(conversations_for(seeded, scripted_llm_engine(model)))


def enable_llm_wording(services: Services) -> None:
    tenant = services.tenants.get(SHOP)
    services.tenants.save(
        tenant.model_copy(update={"persona": tenant.persona.model_copy(update={"llm_wording": True})})
    )


def guard_verdicts(chat: Chat) -> list[dict[str, Any]]:
    return [e for e in chat.last.trace if e.get("kind") == "guard"]


def test_one_structured_call_per_classified_turn_and_none_on_the_fast_path(
    llm_chat: Chat, model: ScriptedChatModel
) -> None:
    model.queue("classify_turn", reading(SALES, 0.9, product="samsung phone"))
    llm_chat.send("I want a samsung phone")
    assert [c["node"] for c in llm_chat.llm_calls()] == ["classify_turn"]
    assert model.calls[-1]["tools"] == 1  # structured output: the schema is bound as a tool, as on Bedrock
    llm_chat.send("1")  # a numbered answer to the shortlist: fast path
    assert llm_chat.llm_calls() == []
    llm_chat.send("STOP")
    assert llm_chat.llm_calls() == []
    model.queue("classify_turn", reading("order_status", 0.95))
    llm_chat.send("where is my order?")
    assert [c["node"] for c in llm_chat.llm_calls()] == ["classify_turn"]
    assert len(model.calls) == 2


def test_the_prompt_carries_the_tenant_its_zones_and_methods_and_the_message(
    llm_chat: Chat, model: ScriptedChatModel
) -> None:
    model.queue("classify_turn", reading(SALES, 0.9, "sw", 0.9, product="simu ya Samsung"))
    llm_chat.send("Nataka simu ya Samsung")
    [call] = model.calls_for("classify_turn")
    assert call["prompt"].endswith("User message: Nataka simu ya Samsung")
    assert "- Allowed: en, sw, sheng" in call["prompt"]
    assert '["Nairobi CBD","Nairobi West","Eastlands","Thika Road","Rest of Kenya"]' in call["prompt"]
    assert '["mpesa_stk","mpesa_c2b","pesapal"]' in call["prompt"]


def test_model_decisions_route_the_turn(llm_chat: Chat, model: ScriptedChatModel) -> None:
    model.queue(
        "classify_turn",
        '{"intent_classify": {"intent": "order_status", "confidence": 0.93, "notes": "tracking"},'
        ' "language_policy": {"response_language": "sw", "confidence": 0.9},'
        ' "governor_spam_casual": {"classification": "business", "confidence": 0.97}}',
    )
    reply = llm_chat.send("mzigo wangu umefika wapi boss")
    assert "orders" in llm_chat.nodes()
    assert llm_chat.state["response_language"] == "sw"
    assert "Sijapata oda yoyote" in reply


def test_an_answer_out_of_shape_twice_falls_back_to_one_clarifying_question(
    llm_chat: Chat, model: ScriptedChatModel
) -> None:
    # prose instead of the tool call, then a call whose intent is not one of the spec's
    model.queue("classify_turn", "I think they want to buy", {"intent_classify": {"intent": "shopping"}})
    reply = llm_chat.send("nataka hii")
    calls = llm_chat.llm_calls()
    assert [(c["node"], c["ok"], c.get("error")) for c in calls] == [
        ("classify_turn", False, "invalid_json"),
        ("classify_turn", False, "invalid_json"),
    ]
    assert "clarify" in llm_chat.nodes()
    assert llm_chat.state["pending"] == "clarify_intent"
    assert "Kununua" in reply  # the menu, in the Swahili the message was written in


def test_a_model_outage_falls_back_to_the_rules_engine(llm_chat: Chat, model: ScriptedChatModel) -> None:
    model.queue("classify_turn", RuntimeError("ServiceUnavailable"))
    reply = llm_chat.send("where is my order ORD-ABCDE?")
    assert "couldn't find order ORD-ABCDE" in reply
    engine_entry = next(e for e in llm_chat.last.trace if e.get("kind") == "engine")
    assert engine_entry["fallback"] == "rules"


def test_the_models_product_reading_finds_what_the_words_alone_do_not(llm_chat: Chat, model: ScriptedChatModel) -> None:
    model.queue(
        "classify_turn",
        reading(SALES, 0.85, product="power bank", fulfilment="pickup", notes="wants a power bank"),
    )
    reply = llm_chat.send("I'd like something to keep my phone charged on a long safari, pick up")
    assert "Power Bank" in reply
    assert "Phone Stand" not in reply  # what the words "phone" and "keep" alone would find
    assert llm_chat.state["frame"].fulfilment.mode == "pickup"


def test_a_model_clarifying_question_with_invented_numbers_is_not_sent(
    llm_chat: Chat, model: ScriptedChatModel
) -> None:
    model.queue("classify_turn", reading(SALES, 0.8))
    model.queue(
        "sales_narrow_query",
        '{"action": "clarify", "question": "Our phones start at KES 4,999. What budget do you have?"}',
    )
    reply = llm_chat.send("I want to buy something")
    assert "4,999" not in reply
    assert "What are you looking for?" in reply  # the template question with the shop's categories


def test_a_model_coupon_code_that_the_customer_did_not_type_is_not_used(
    llm_chat: Chat, model: ScriptedChatModel, seeded: Services
) -> None:
    model.queue("classify_turn", reading("discounts_offers", 0.9, coupon_code="VIP500"))
    reply = llm_chat.send("do you have a code for me?")
    assert "VIP500" not in reply
    frame = llm_chat.state["frame"]
    assert frame is None  # no sale and no code: the offers journey answered


def test_a_zone_or_method_the_shop_lacks_is_not_taken_from_the_model(
    llm_chat: Chat, model: ScriptedChatModel, seeded: Services
) -> None:
    model.queue(
        "classify_turn",
        reading(SALES, 0.9, product="JBL Flip 6", quantity=1, zone="Kisumu Central", payment_method="pesapal"),
    )
    llm_chat.send("1 JBL Flip 6 to Kisumu Central please")
    frame = llm_chat.state["frame"]
    assert frame.fulfilment.zone == "Rest of Kenya"  # the shop's zone for Kisumu, not the model's made-up one


# the fact guard on model wording --------------------------------------------------------------
def test_an_invented_offer_is_caught_by_the_guard(llm_chat: Chat, model: ScriptedChatModel, seeded: Services) -> None:
    enable_llm_wording(seeded)
    model.queue("classify_turn", reading("discounts_offers", 0.93))
    model.queue("offers_answer", "Great news! Use code MEGA50 today for 50% off everything in the shop.")
    reply = llm_chat.send("any offers?")
    assert "MEGA50" not in reply
    assert "50%" not in reply
    assert "WELCOME10" in reply  # the template, from offers_get_applicable
    [verdict] = guard_verdicts(llm_chat)
    assert verdict["verdict"] == "template"
    assert "MEGA50" in verdict["unsupported"]


def test_an_invented_price_in_a_support_answer_is_caught(
    llm_chat: Chat, model: ScriptedChatModel, seeded: Services
) -> None:
    enable_llm_wording(seeded)
    model.queue("classify_turn", reading("support_question", 0.9))
    model.queue("support_rag_answer", "Delivery to Eastlands is only KES 250 and arrives the same day.")
    reply = llm_chat.send("How much is delivery to Eastlands?")
    assert "KES 250" not in reply
    assert "KES 350" in reply
    # the facts shown are Eastlands' alone (the zone asked about): its "next day" makes "same day" an invention too
    assert guard_verdicts(llm_chat)[0]["unsupported"] == ["250", "same day"]


def test_faithful_model_wording_is_sent(llm_chat: Chat, model: ScriptedChatModel, seeded: Services) -> None:
    enable_llm_wording(seeded)
    worded = "Delivery to Eastlands (Buruburu, Donholm, Umoja...) costs KES 350 and arrives the next day."
    model.queue("classify_turn", reading("support_question", 0.9))
    model.queue("support_rag_answer", worded)
    assert llm_chat.send("How much is delivery to Eastlands?") == worded
    assert guard_verdicts(llm_chat) == [{"kind": "guard", "node": "support_rag_answer", "verdict": "model"}]
    [prompt] = [c["prompt"] for c in model.calls_for("support_rag_answer")]
    assert "Eastlands" in prompt
    assert prompt.startswith("Answer the question using ONLY the provided snippets.")


def test_a_swahili_question_about_an_english_document_is_answered_in_swahili(
    llm_chat: Chat, model: ScriptedChatModel, seeded: Services
) -> None:
    """Issue 30, part 7: the English document is found from the Swahili question, and the model, told
    to answer in the customer's language, words it in Swahili (the guard checks its facts)."""
    enable_llm_wording(seeded)
    model.queue("classify_turn", reading("support_question", 0.9, language="sw"))
    worded = "Tunakubali simu za zamani (trade-in) zinazowaka na ambazo hazijafungwa kwa akaunti."
    model.queue("support_rag_answer", worded)
    assert llm_chat.send("mnakubali trade in ya simu ya zamani?") == worded
    [call] = model.calls_for("support_rag_answer")
    assert "we accept trade-in of old smartphones" in call["prompt"]  # the English document's snippet
    assert "respond in sw" in call["system"]
    assert guard_verdicts(llm_chat) == [{"kind": "guard", "node": "support_rag_answer", "verdict": "model"}]


def test_the_shops_stated_hours_are_worded_by_the_model_from_the_fact_alone_in_her_language(
    llm_chat: Chat, model: ScriptedChatModel, seeded: Services
) -> None:
    """Issue 53: a question the settings answer is worded from the stated fact (already in her language), and an
    hour the fact does not hold is caught by the guard: the fact is said as it is."""
    enable_llm_wording(seeded)
    model.queue("classify_turn", reading("support_question", 0.9, language="sw"))
    model.queue("support_rag_answer", "Tunafungua kila siku saa 2 asubuhi hadi saa 3 usiku.")  # 9 pm: invented
    reply = llm_chat.send("mnafunga saa ngapi jioni?")
    assert (
        reply
        == "Tunafungua Jumatatu hadi Jumamosi saa 2 asubuhi hadi saa 1 usiku, Jumapili saa 4 asubuhi hadi saa 10 jioni."
    )
    [call] = model.calls_for("support_rag_answer")
    assert "Jumapili saa 4 asubuhi hadi saa 10 jioni" in call["prompt"]  # the fact, not a document
    assert guard_verdicts(llm_chat)[0]["verdict"] == "template"


def test_an_invented_handoff_time_is_caught(llm_chat: Chat, model: ScriptedChatModel, seeded: Services) -> None:
    enable_llm_wording(seeded)
    model.queue("handoff_message", "A person will reply within 5 minutes, promise!")
    reply = llm_chat.send("I want to talk to a human")
    assert "5 minutes" not in reply
    assert "within 30 minutes" in reply  # the tenant's handoff policy, from the ticket


def test_without_llm_wording_the_model_never_words_replies(llm_chat: Chat, model: ScriptedChatModel) -> None:
    model.queue("classify_turn", reading("discounts_offers", 0.92), reading("support_question", 0.9))
    llm_chat.send("any offers?")
    llm_chat.send("How are refunds paid?")
    assert {c["node"] for c in model.calls} == {"classify_turn"}


def test_model_calls_are_accounted_per_turn(llm_chat: Chat, model: ScriptedChatModel) -> None:
    model.queue("classify_turn", reading(SALES, 0.9, product="samsung phone"))
    llm_chat.send("I want a samsung phone")
    assert llm_chat.llm_calls()
    for call in llm_chat.llm_calls():
        assert call["model"] == "eu.amazon.nova-micro-v1:0"
        assert call["input_tokens"] > 0
        assert call["output_tokens"] > 0
        assert call["cost_usd"] > 0
        assert call["latency_ms"] >= 0


@pytest.fixture
def shortcut_chat(seeded: Services, model: ScriptedChatModel) -> Chat:
    """The product's default: the message reader answers the turns it is sure of (0.70)."""
    return Chat(conversations_for(seeded, scripted_llm_engine(model, reader_threshold=0.70)))


def test_a_message_the_reader_is_sure_of_needs_no_model_call(shortcut_chat: Chat, model: ScriptedChatModel) -> None:
    reply = shortcut_chat.send("where is my order ORD-ABCDE?")
    assert model.calls == []  # nothing was queued: a call would have failed the turn
    assert shortcut_chat.llm_calls() == []
    assert "orders" in shortcut_chat.nodes()
    assert "couldn't find order ORD-ABCDE" in reply
    assert "sure: no model call" in str(shortcut_chat.state["understanding"])


def test_a_message_the_reader_cannot_place_is_read_by_the_model(shortcut_chat: Chat, model: ScriptedChatModel) -> None:
    assert message_reader().read("hmm so about that thing from before").label == "unknown"
    model.queue("classify_turn", reading("order_status", 0.95))
    shortcut_chat.send("hmm so about that thing from before")
    assert [c["node"] for c in shortcut_chat.llm_calls()] == ["classify_turn"]
    assert "orders" in shortcut_chat.nodes()  # the model's reading routed the turn
