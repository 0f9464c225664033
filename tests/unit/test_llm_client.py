"""The chat-model client: JSON validation with one retry, fallbacks, circuit breaker, accounting;
and the prompt templates of spec 6.1 / Appendix B."""

from __future__ import annotations

import pytest

from tulia.config import Settings
from tulia.llm.client import LlmClient, parse_json_object, price_of
from tulia.llm.prompts import (
    NODE_PROMPTS,
    RETRY_JSON,
    PromptContext,
    classify_turn_prompt,
    node_of,
    render,
    user_message_of,
)
from tulia.llm.schemas import ClassifyTurnOut, IntentOut
from tulia.llm.scripted import ScriptedChatModel
from tulia.nlu.engine import build_engine

CTX = PromptContext(tenant_id="demo-shop", tenant_name="Duka Bora", bot_name="Bora", response_language="sw")
GOOD = '{"intent": "order_status", "confidence": 0.91, "notes": "asks for order", "suggested_journey": "orders"}'


def client(*answers: str | Exception) -> tuple[LlmClient, ScriptedChatModel]:
    model = ScriptedChatModel().queue("intent_classify", *answers)
    return LlmClient(model, "eu.amazon.nova-micro-v1:0"), model


def ask(llm: LlmClient):  # type: ignore[no-untyped-def]
    return llm.json("intent_classify", CTX, render("intent_classify", user_message="oda yangu iko wapi"), IntentOut)


def test_valid_json_is_parsed_validated_and_accounted() -> None:
    llm, model = client(GOOD)
    result = ask(llm)
    assert result.value is not None
    assert result.value.intent == "order_status"
    assert result.failure is None
    assert len(model.calls) == 1
    [call] = result.calls
    assert call["ok"]
    assert call["model"] == "eu.amazon.nova-micro-v1:0"
    assert call["input_tokens"] > 0
    assert call["output_tokens"] > 0
    expected = (call["input_tokens"] * 0.035 + call["output_tokens"] * 0.14) / 1_000_000
    assert call["cost_usd"] == pytest.approx(expected)


def test_invalid_json_is_retried_once_with_return_valid_json_only() -> None:
    llm, model = client("Sure! The intent is order status.", GOOD)
    result = ask(llm)
    assert result.value is not None
    assert result.value.intent == "order_status"
    assert [c["ok"] for c in result.calls] == [False, True]
    assert result.calls[0]["error"] == "invalid_json"
    assert model.calls[1]["messages"] == 4  # system, prompt, the bad answer, the retry instruction
    assert RETRY_JSON == "Your previous answer was not valid JSON for this task. Return valid JSON only."


def test_json_that_breaks_the_schema_counts_as_invalid() -> None:
    llm, _ = client('{"intent": "buy_stuff", "confidence": 2}', '{"intent": "order_status"}')
    result = ask(llm)
    assert result.value is None
    assert result.failure == "invalid_json"
    assert len(result.calls) == 2


def test_a_provider_error_is_unavailable_and_repeated_errors_open_the_circuit() -> None:
    llm, model = client(*(RuntimeError("ThrottlingException") for _ in range(3)))
    for _ in range(3):
        assert ask(llm).failure == "unavailable"
    assert len(model.calls) == 3
    skipped = ask(llm)
    assert skipped.failure == "unavailable"
    assert skipped.calls[0]["error"] == "circuit_open"
    assert len(model.calls) == 3  # the open circuit did not call the model


@pytest.mark.parametrize(
    "raw",
    [GOOD, f"```json\n{GOOD}\n```", f"Here you go: {GOOD} Hope it helps."],
)
def test_the_json_object_is_found_in_fences_and_prose(raw: str) -> None:
    assert parse_json_object(raw)["intent"] == "order_status"


def test_prices_know_inference_profiles_and_are_pessimistic_for_unknown_models() -> None:
    assert price_of("eu.amazon.nova-lite-v1:0") == price_of("amazon.nova-lite-v1:0") == (0.06, 0.24)
    assert price_of("someone.new-model") == (1.0, 5.0)


def test_every_node_prompt_is_recognised_and_carries_its_inputs() -> None:
    for name, template in NODE_PROMPTS.items():
        assert node_of(template) == name
    prompt = classify_turn_prompt(CTX, "nataka simu ya Samsung")
    assert node_of(prompt) == "classify_turn"
    assert user_message_of(prompt) == "nataka simu ya Samsung"
    for task in ("intent_classify", "language_policy", "governor_spam_casual"):
        assert f"### {task}" in prompt
    assert "If confidence < 0.75, choose default_language." in prompt
    assert '"suggested_journey": "sales|support|orders|offers|prefs|governance"' in prompt


def test_system_base_names_the_tenant_and_the_language() -> None:
    system = CTX.system()
    assert system.startswith("- You are Bora, the shop's WhatsApp assistant.")
    assert "You serve ONLY tenant: Duka Bora (tenant_id=demo-shop)." in system
    assert "Language: respond in sw; if uncertain use en." in system
    assert "Never invent prices/discounts/stock/delivery/order/payment facts." in system


def test_classify_turn_output_is_three_node_outputs() -> None:
    out = ClassifyTurnOut.model_validate(
        {
            "intent_classify": {"intent": "sales_discovery", "confidence": 0.9},
            "language_policy": {"response_language": "sw", "confidence": 0.8},
            "governor_spam_casual": {"classification": "business", "confidence": 0.95},
        }
    )
    assert (out.intent_classify.intent, out.language_policy.response_language) == ("sales_discovery", "sw")


def test_the_bedrock_engine_uses_the_model_ids_of_settings_without_calling_them() -> None:
    engine = build_engine(
        "bedrock", Settings(bedrock_classifier_model="eu.amazon.nova-micro-v1:0", bedrock_writer_model="x.writer")
    )
    assert engine.name == "bedrock"
    assert engine.classifier.model_id == "eu.amazon.nova-micro-v1:0"  # type: ignore[attr-defined]
    assert engine.writer.model_id == "x.writer"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="not an engine"):
        build_engine("gpt")
