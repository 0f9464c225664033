"""The model-backed understanding engine (``TULIA_LLM=bedrock``).

The message reader answers first: when it is sure what the message is about (its calibrated
confidence at least ``llm_reader_threshold``, spec 4.1's 0.70) the turn needs no model. Otherwise one
structured-output call (``with_structured_output``) answers the three classifier prompts of Appendix B
together and reads the sale's slots (the order frame's delta); each classifier node still gets its own
output. Facts the customer typed (order references, codes, phone numbers, budgets) and the escalation
signals of spec 4.5 are read deterministically, as in the rules engine, so a model can never invent
them. When the model is unavailable (errors, open circuit) the rules engine answers; when it answers
twice with an answer that does not fit the schema the turn falls back to a clarifying question.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel

from tulia.llm.client import LlmClient, LlmResult
from tulia.llm.prompts import PromptContext, classify_turn_prompt, render
from tulia.llm.schemas import ClassifyTurnOut, NarrowOut
from tulia.nlu.rules import MAX_TEXT, RulesEngine, detect_language
from tulia.nlu.types import JOURNEY_OF, CatalogWords, Understanding

if TYPE_CHECKING:
    from tulia.config import Settings

PROMPT_TEXT_LIMIT = 2000  # characters of the customer's message a prompt carries


class LlmEngine:
    name = "bedrock"

    def __init__(
        self,
        classifier: LlmClient,
        writer: LlmClient | None = None,
        *,
        reader_threshold: float = 0.70,
        vision: LlmClient | None = None,
    ) -> None:
        self.classifier = classifier
        self.writer = writer or classifier
        self.vision = vision or self.writer
        self.rules = RulesEngine()
        self.reader_threshold = reader_threshold  # the message reader answers alone when this sure

    def understand(
        self,
        text: str,
        *,
        catalog: CatalogWords | None = None,
        context: PromptContext | None = None,
    ) -> Understanding:
        text = text[:MAX_TEXT]
        read = self.rules.understand(text, catalog=catalog)  # slots and signals, and the reader's intent
        if read.intent_confidence >= self.reader_threshold and read.intent != "unknown":
            return replace(read, notes=f"{read.notes} (sure: no model call)")
        ctx = context or PromptContext(tenant_id="-", tenant_name="-")
        result = self.classifier.structured("classify_turn", ctx, classify_turn_prompt(ctx, text), ClassifyTurnOut)
        calls = tuple(result.calls)
        if result.failure == "unavailable":
            return replace(read, llm_calls=calls, fallback="rules")
        if result.value is None:
            language, language_confidence = detect_language(text)
            return Understanding(
                intent="unknown",
                intent_confidence=0.6,  # the clarify band of spec 4.1: ask one question
                journey="unknown",
                language=language,
                language_confidence=language_confidence,
                governor="business",
                governor_confidence=0.6,
                slots=read.slots,
                signals=read.signals,
                notes="model answer was not valid JSON twice",
                llm_calls=calls,
                fallback="clarify",
            )
        out = result.value
        return Understanding(
            intent=out.intent_classify.intent,
            intent_confidence=out.intent_classify.confidence,
            journey=JOURNEY_OF[out.intent_classify.intent],
            language=out.language_policy.response_language,
            language_confidence=out.language_policy.confidence,
            governor=out.governor_spam_casual.classification,
            governor_confidence=out.governor_spam_casual.confidence,
            slots=read.slots,
            signals=read.signals,
            notes=out.intent_classify.notes,
            llm_calls=calls,
            sale=out.sale,
        )

    def narrow(self, text: str, *, context: PromptContext) -> LlmResult[NarrowOut] | None:
        prompt = render("sales_narrow_query", user_message=text[:PROMPT_TEXT_LIMIT])
        return self.classifier.json("sales_narrow_query", context, prompt, NarrowOut)

    def write(self, node: str, *, context: PromptContext, values: dict[str, Any]) -> LlmResult[Any] | None:
        return self.writer.text(node, context, render(node, **values))

    def describe_photo(
        self, data: bytes, mime_type: str, *, caption: str, context: PromptContext
    ) -> LlmResult[Any] | None:
        """A customer's photo as the words of a search for it (kind of product, brand, size); the model's
        answer ``NONE`` (not a product) comes back as no text."""
        prompt = render("describe_photo", caption=caption[:300] or "(none)")
        result = self.vision.picture("describe_photo", context, prompt, data, mime_type)
        words = (result.text or "").strip().strip('"').strip()
        result.text = None if not words or words.upper().startswith("NONE") else words[:200]
        return result


def bedrock_engine(settings: Settings, *, models: dict[str, BaseChatModel] | None = None) -> LlmEngine:
    """Chat models for the two node classes from settings; ``models`` replaces them (tests)."""
    if models is None:
        from botocore.config import Config
        from langchain_aws import ChatBedrockConverse

        region = settings.bedrock_region or settings.aws_region
        config = Config(
            connect_timeout=settings.llm_timeout_seconds,
            read_timeout=settings.llm_timeout_seconds,
            retries={"max_attempts": 2, "mode": "standard"},
        )
        models = {
            role: ChatBedrockConverse(
                model_id=model_id, region_name=region, temperature=0, max_tokens=600, config=config
            )
            for role, model_id in (
                ("classifier", settings.bedrock_classifier_model),
                ("writer", settings.bedrock_writer_model),
                ("vision", settings.bedrock_vision_model),
            )
        }
    return LlmEngine(
        LlmClient(models["classifier"], settings.bedrock_classifier_model, role="classifier"),
        LlmClient(models["writer"], settings.bedrock_writer_model, role="writer"),
        reader_threshold=settings.llm_reader_threshold,
        vision=LlmClient(models["vision"], settings.bedrock_vision_model, role="vision")
        if "vision" in models
        else None,
    )
