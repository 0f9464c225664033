"""A scripted chat model: recorded answers per node instead of a live model.

Tests and benchmarks drive the ``bedrock`` engine with it; no model host is ever called. Answers
are queued per node (the node is recognised from the prompt it receives); when a node's queue is
empty the ``responder`` answers, and without a responder the call fails loudly. Every call is
counted and kept, so tests can assert what the model was asked.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from tulia.llm.client import estimate_tokens
from tulia.llm.prompts import node_of, user_message_of

Answer = str | Exception
Responder = Callable[[str, str], Answer]


class ScriptedChatModel(BaseChatModel):
    script: dict[str, list[Answer]] = Field(default_factory=dict)
    responder: Responder | None = None
    calls: list[dict[str, Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def queue(self, node: str, *answers: Answer) -> ScriptedChatModel:
        self.script.setdefault(node, []).extend(answers)
        return self

    def calls_for(self, node: str) -> list[dict[str, Any]]:
        return [c for c in self.calls if c["node"] == node]

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = str(messages[1].content) if len(messages) > 1 else str(messages[0].content)
        node = node_of(prompt) or "unknown_prompt"
        self.calls.append({"node": node, "prompt": prompt, "messages": len(messages)})
        queued = self.script.get(node)
        if queued:
            answer: Answer = queued.pop(0)
        elif self.responder is not None:
            answer = self.responder(node, prompt)
        else:
            raise AssertionError(f"the scripted model has no answer for node {node!r}")
        if isinstance(answer, Exception):
            raise answer
        tokens_in = sum(estimate_tokens(str(m.content)) for m in messages)
        message = AIMessage(
            answer,
            usage_metadata={
                "input_tokens": tokens_in,
                "output_tokens": estimate_tokens(answer),
                "total_tokens": tokens_in + estimate_tokens(answer),
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


def rules_responder(is_catalog_word: Callable[[str], bool] | None = None) -> Responder:
    """Answer classifier and narrowing prompts the way the rules engine reads the message: a
    stand-in for recorded model answers across a whole conversation test set. ``is_catalog_word``
    plays the model's world knowledge of what the shop sells."""
    from tulia.nlu.rules import RulesEngine

    engine = RulesEngine()

    def respond(node: str, prompt: str) -> Answer:
        u = engine.understand(user_message_of(prompt), is_catalog_word=is_catalog_word)
        if node == "classify_turn":
            return json.dumps(
                {
                    "intent_classify": {
                        "intent": u.intent,
                        "confidence": u.intent_confidence,
                        "notes": u.notes,
                        "suggested_journey": u.journey,
                    },
                    "language_policy": {
                        "response_language": u.language,
                        "confidence": u.language_confidence,
                        "should_ask_language_question": False,
                    },
                    "governor_spam_casual": {
                        "classification": u.governor,
                        "confidence": u.governor_confidence,
                        "recommended_action": "proceed" if u.governor == "business" else "redirect",
                    },
                }
            )
        if node == "sales_narrow_query":
            if not u.slots.query:
                question = "Unatafuta nini hasa?" if u.language in ("sw", "sheng") else "What are you looking for?"
                return json.dumps({"action": "clarify", "question": question, "options": []})
            return json.dumps(
                {
                    "action": "search",
                    "query": u.slots.query,
                    "filters": {"type": "any", "max_price": u.slots.budget_max, "min_price": u.slots.budget_min},
                    "limit": 6,
                }
            )
        raise AssertionError(f"no recorded answer for node {node!r}")

    return respond
