"""A scripted chat model: hand-written answers per node instead of a live model.

Tests and benchmarks drive the ``bedrock`` engine with it; no model host is ever called. Answers
are queued per node (the node is recognised from the prompt it receives); when a node's queue is
empty the ``responder`` answers, and without a responder the call fails loudly. Every call is
counted and kept, so tests can assert what the model was asked.

It supports tool calling the way Bedrock's Converse API does, so ``with_structured_output`` works
on it as on ``ChatBedrockConverse``: an answer that is a dict (or a JSON object string) becomes the
arguments of a call of the bound tool; any other string is a prose answer with no tool call (a model
that ignored the tool: a malformed answer).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from tulia.llm.client import estimate_tokens
from tulia.llm.prompts import node_of, user_message_of

Answer = str | dict[str, Any] | Exception
Responder = Callable[[str, str], Answer]
_call_ids = itertools.count(1)


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

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], tool_choice=tool_choice, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        asked = messages[1] if len(messages) > 1 else messages[0]
        prompt, images = _words_of(asked.content)
        node = node_of(prompt) or "unknown_prompt"
        tools = kwargs.get("tools") or []
        system = str(messages[0].content) if len(messages) > 1 else ""
        self.calls.append(
            {
                "node": node,
                "prompt": prompt,
                "system": system,
                "messages": len(messages),
                "tools": len(tools),
                "images": images,
            }
        )
        queued = self.script.get(node)
        if queued:
            answer: Answer = queued.pop(0)
        elif self.responder is not None:
            answer = self.responder(node, prompt)
        else:
            raise AssertionError(f"the scripted model has no answer for node {node!r}")
        if isinstance(answer, Exception):
            raise answer
        tokens_in = sum(estimate_tokens(_words_of(m.content)[0]) for m in messages)
        args = answer if isinstance(answer, dict) else _json_object(answer)
        if tools and args is not None:
            text = json.dumps(args)
            message = AIMessage(
                "",
                tool_calls=[{"name": tools[0]["function"]["name"], "args": args, "id": f"call_{next(_call_ids)}"}],
            )
        else:
            text = answer if isinstance(answer, str) else json.dumps(answer)
            message = AIMessage(text)
        message.usage_metadata = {
            "input_tokens": tokens_in,
            "output_tokens": estimate_tokens(text),
            "total_tokens": tokens_in + estimate_tokens(text),
        }
        return ChatResult(generations=[ChatGeneration(message=message)])


def _words_of(content: Any) -> tuple[str, list[dict[str, str]]]:
    """A message's words, and the pictures it carries (their type and size: what a test may check)."""
    if not isinstance(content, list):
        return str(content), []
    words = "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
    images = [
        {"media_type": str(b["source"].get("media_type")), "base64_chars": str(len(str(b["source"].get("data"))))}
        for b in content
        if isinstance(b, dict) and b.get("type") == "image" and isinstance(b.get("source"), dict)
    ]
    return words, images


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def answers_by_message(table: dict[str, dict[str, Any]], *, node: str = "classify_turn") -> Responder:
    """Hand-written answers of ``node`` keyed by the customer's message: a recorded conversation. A
    message the table does not have fails the test loudly."""

    def respond(asked: str, prompt: str) -> Answer:
        message = user_message_of(prompt).strip()
        if asked != node or message not in table:
            raise AssertionError(f"no hand-written {asked!r} answer for the message {message!r}")
        return table[message]

    return respond
