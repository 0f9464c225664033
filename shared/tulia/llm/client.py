"""Calling a chat model for one node: JSON parsing and validation with one retry, text calls, a
circuit breaker, and accounting (tokens, estimated cost, latency) for every call.

The model is any LangChain chat model: ``ChatBedrockConverse`` in AWS, a scripted model in tests.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ValidationError

from tulia.llm.prompts import RETRY_JSON, RETRY_STRUCTURED, PromptContext
from tulia.observability import logger as log
from tulia.observability import traced

T = TypeVar("T", bound=BaseModel)

# On-demand USD per million tokens (input, output); an estimate, as spec 8.4 allows.
PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "amazon.nova-micro-v1:0": (0.035, 0.14),
    "amazon.nova-lite-v1:0": (0.06, 0.24),
    "amazon.nova-pro-v1:0": (0.80, 3.20),
    "anthropic.claude-3-haiku-20240307-v1:0": (0.25, 1.25),
    "anthropic.claude-3-5-haiku-20241022-v1:0": (0.80, 4.00),
    "anthropic.claude-3-5-sonnet-20240620-v1:0": (3.00, 15.00),
}
UNKNOWN_MODEL_PRICE = (1.00, 5.00)  # deliberately pessimistic


def price_of(model_id: str) -> tuple[float, float]:
    base = re.sub(r"^(?:eu|us|apac|global)\.", "", model_id)  # cross-region inference profiles
    return PRICES_PER_MTOK.get(base, UNKNOWN_MODEL_PRICE)


def estimate_tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))


@dataclass
class CircuitBreaker:
    """After ``threshold`` consecutive provider failures, skip the model for ``cooldown_s`` seconds."""

    threshold: int = 3
    cooldown_s: float = 60.0
    failures: int = 0
    open_until: float = 0.0

    def allows(self) -> bool:
        return time.monotonic() >= self.open_until

    def record(self, ok: bool) -> None:
        if ok:
            self.failures = 0
            return
        self.failures += 1
        if self.failures >= self.threshold:
            self.open_until = time.monotonic() + self.cooldown_s
            self.failures = 0


Failure = Literal["unavailable", "invalid_json"]


@dataclass
class LlmResult(Generic[T]):
    value: T | None = None
    text: str | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)
    failure: Failure | None = None


def parse_json_object(raw: str) -> Any:
    """The JSON object in a model answer, tolerating code fences and a sentence around it."""
    body = raw.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", body, re.S)
    if fenced:
        body = fenced.group(1).strip()
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object in the answer")
    return json.loads(body[start : end + 1])


class LlmClient:
    def __init__(
        self, model: BaseChatModel, model_id: str, *, breaker: CircuitBreaker | None = None, role: str = "model"
    ) -> None:
        self.model, self.model_id, self.role = model, model_id, role
        self.breaker = breaker or CircuitBreaker()

    def _invoke(self, node: str, messages: list[BaseMessage], attempt: int) -> tuple[str | None, dict[str, Any]]:
        answer, record = self._call(node, self.model, messages, attempt)
        if answer is None:
            return None, record
        return (answer.text if isinstance(answer, AIMessage) else str(answer.content)), record

    def _call(
        self, node: str, runnable: Runnable[Any, Any], messages: list[BaseMessage], attempt: int
    ) -> tuple[Any, dict[str, Any]]:
        """Invoke ``runnable`` (the model, or the model with a structured output), with the circuit
        breaker and the accounting record; ``None`` when the provider failed."""
        record: dict[str, Any] = {"kind": "llm", "node": node, "model": self.model_id, "attempt": attempt}
        if not self.breaker.allows():
            record.update(ok=False, error="circuit_open", input_tokens=0, output_tokens=0, cost_usd=0.0)
            record["latency_ms"] = 0.0
            return None, record
        started = time.perf_counter()
        try:
            with traced("model", self.model_id, node=node):
                result = runnable.invoke(messages, config={"metadata": {"tulia_node": node}})
        except Exception as exc:  # noqa: BLE001 - any provider error (throttling, timeout, access) means: fall back
            self.breaker.record(False)
            log.warning("llm call failed", extra={"node": node, "model": self.model_id, "error": type(exc).__name__})
            record.update(
                ok=False,
                error=type(exc).__name__,
                input_tokens=0,
                output_tokens=0,
                cost_usd=0.0,
                latency_ms=round((time.perf_counter() - started) * 1000, 2),
            )
            return None, record
        self.breaker.record(True)
        answer = result["raw"] if isinstance(result, dict) else result
        text = answer.text if isinstance(answer, AIMessage) else str(getattr(answer, "content", ""))
        if isinstance(answer, AIMessage) and answer.tool_calls:
            text += json.dumps([c["args"] for c in answer.tool_calls], default=str)
        usage = getattr(answer, "usage_metadata", None) or {}
        tokens_in = int(usage.get("input_tokens") or sum(estimate_tokens(str(m.content)) for m in messages))
        tokens_out = int(usage.get("output_tokens") or estimate_tokens(text))
        price_in, price_out = price_of(self.model_id)
        record.update(
            ok=True,
            input_tokens=tokens_in,
            output_tokens=tokens_out,
            estimated_tokens=not usage,
            cost_usd=round((tokens_in * price_in + tokens_out * price_out) / 1_000_000, 10),
            latency_ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return result, record

    def structured(self, node: str, ctx: PromptContext, prompt: str, schema: type[T]) -> LlmResult[T]:
        """The model's structured output (``with_structured_output``: tool calling on Bedrock),
        validated against ``schema``; one retry when the answer does not fit, then the caller falls back."""
        runnable = self.model.with_structured_output(schema, include_raw=True)
        messages: list[BaseMessage] = [SystemMessage(ctx.system()), HumanMessage(prompt)]
        result: LlmResult[T] = LlmResult()
        for attempt in (1, 2):
            out, record = self._call(node, runnable, messages, attempt)
            result.calls.append(record)
            if out is None:
                result.failure = "unavailable"
                return result
            parsed = out.get("parsed")
            if isinstance(parsed, schema):
                result.value = parsed
                return result
            record["ok"] = False
            record["error"] = "invalid_json"
            why = out.get("parsing_error") or "no structured answer"
            log.info(
                "llm answer did not fit the schema", extra={"node": node, "attempt": attempt, "why": str(why)[:200]}
            )
            messages = [*messages[:2], HumanMessage(prompt + "\n\n" + RETRY_STRUCTURED)]
        result.failure = "invalid_json"
        return result

    def json(self, node: str, ctx: PromptContext, prompt: str, schema: type[T]) -> LlmResult[T]:
        """Ask for JSON; parse and validate; retry once with "return valid JSON only"."""
        messages: list[BaseMessage] = [SystemMessage(ctx.system()), HumanMessage(prompt)]
        result: LlmResult[T] = LlmResult()
        for attempt in (1, 2):
            raw, record = self._invoke(node, messages, attempt)
            result.calls.append(record)
            if raw is None:
                result.failure = "unavailable"
                return result
            try:
                result.value = schema.model_validate(parse_json_object(raw))
                return result
            except (ValueError, ValidationError) as exc:
                record["ok"] = False
                record["error"] = "invalid_json"
                log.info(
                    "llm answer was not valid JSON", extra={"node": node, "attempt": attempt, "why": str(exc)[:200]}
                )
                messages = [*messages, AIMessage(raw), HumanMessage(RETRY_JSON)]
        result.failure = "invalid_json"
        return result

    def picture(self, node: str, ctx: PromptContext, prompt: str, data: bytes, mime_type: str) -> LlmResult[BaseModel]:
        """The model's words about a picture (sent inline, base64, with the prompt): one call, no retry."""
        import base64

        image = {
            "type": "image",
            "source": {"type": "base64", "media_type": mime_type, "data": base64.b64encode(data).decode("ascii")},
        }
        message = HumanMessage(content=[image, {"type": "text", "text": prompt}])
        raw, record = self._invoke(node, [SystemMessage(ctx.system()), message], 1)
        result: LlmResult[BaseModel] = LlmResult(text=(raw or "").strip() or None, calls=[record])
        if raw is None:
            result.failure = "unavailable"
        return result

    def text(self, node: str, ctx: PromptContext, prompt: str) -> LlmResult[BaseModel]:
        raw, record = self._invoke(node, [SystemMessage(ctx.system()), HumanMessage(prompt)], 1)
        result: LlmResult[BaseModel] = LlmResult(text=(raw or "").strip() or None, calls=[record])
        if raw is None:
            result.failure = "unavailable"
        return result
