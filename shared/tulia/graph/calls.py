"""Calling tools from nodes: always through the registry, in the trusted context, with a trace."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.domain.literals import Handover
from tulia.graph.context import EngineContext
from tulia.graph.routing import CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE
from tulia.graph.state import ConversationState
from tulia.nlg.messages import OutboundMessage
from tulia.nlg.templates import template_language
from tulia.tools.context import ToolContext
from tulia.tools.registry import call_tool

Target = TypeVar("Target", bound=str)  # a node a Command may hand over to
END: Final[Literal["__end__"]] = "__end__"  # langgraph's END, typed as the literal it is


@dataclass
class Turn:
    """What one node adds to the state: replies, trace entries and field updates."""

    state: ConversationState
    runtime: Runtime[EngineContext]
    node: str
    updates: dict[str, Any] = field(default_factory=dict)
    replies: list[OutboundMessage] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)
    tool_errors: int | None = None

    @property
    def ctx(self) -> EngineContext:
        return self.runtime.context

    @property
    def lang(self) -> str:
        return str(self.updates.get("response_language") or self.state.response_language)

    @property
    def text_lang(self) -> str:
        """The language the reply's templates and the shop's texts are in (Sheng as the shop chose)."""
        return template_language(self.lang, str(self.get("sheng_fallback")))

    def get(self, name: str) -> Any:
        return self.updates[name] if name in self.updates else getattr(self.state, name)

    def tool(self, name: str, **args: Any) -> dict[str, Any]:
        """Run a tool; return ``{"ok": ...}``. Failures are counted for the escalation rule."""
        customer_id = self.get("customer_id")
        tool_ctx = ToolContext(
            tenant_id=self.ctx.tenant_id,
            request_id=self.state.request_id,
            conversation_id=self.state.conversation_id,
            services=self.ctx.services,
            customer_id=customer_id,
            message_id=self.ctx.message_id,
            language=self.text_lang,
            node=self.node,
        )
        started = time.perf_counter()
        result = call_tool(
            name,
            {
                "tenant_id": self.ctx.tenant_id,
                "request_id": self.state.request_id,
                "conversation_id": self.state.conversation_id,
                **args,
            },
            tool_ctx,
        )
        entry: dict[str, Any] = {
            "kind": "tool",
            "node": self.node,
            "tool": name,
            "ok": result["ok"],
            "latency_ms": round((time.perf_counter() - started) * 1000, 2),
        }
        if not result["ok"]:
            entry["error"] = result["error"]["code"]
            if result["error"]["code"] in ("provider_unavailable", "internal_error"):
                self.tool_errors = (self.tool_errors or self.state.consecutive_tool_errors) + 1
        else:
            entry["result"] = brief(result["data"])
            if name == "catalog_search":  # the shop's analytics count searches that found nothing
                entry["query"] = str(result["data"].get("query") or args.get("query") or "")[:80]
                entry["matches"] = int(result["data"].get("total_matches_estimate") or 0)
            elif name == "handoff_create_ticket":
                entry["reason"] = str(args.get("reason") or "")[:60]
            facts = event_facts(name, result["data"])
            if facts:
                entry["facts"] = facts
            if self.node != "load_context":  # loading tenant and customer says nothing of the journey's tools
                self.tool_errors = 0
        self.trace.append(entry)
        return result

    def say(self, message: OutboundMessage) -> None:
        self.replies.append(message)

    def set(self, **updates: Any) -> None:
        self.updates.update(updates)

    def goto(self, target: Target) -> Command[Target]:
        """End this node with its updates and hand over to ``target`` (a node of the same graph; the node's
        ``Command[Literal[...]]`` return type names the targets it may take, and mypy checks each)."""
        return Command(update=self.done(), goto=target)

    def hand_over(self, entry: Handover) -> None:
        """Give the rest of the turn to another journey: when this one ends (``goto(END)``), the orchestrator
        goes on in the journey whose node ``entry`` is (the booking, or the sale's payment), which starts there."""
        self.set(handover=entry)

    def done(self) -> dict[str, Any]:
        out = dict(self.updates)
        out["trace"] = [{"kind": "node", "node": self.node}, *self.trace]
        if self.replies:
            out["outbox"] = [m.model_dump() for m in self.replies]
        if self.tool_errors is not None:
            out["consecutive_tool_errors"] = self.tool_errors
            if self.tool_errors >= CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE:  # spec 4.5: the journey hands over now
                out.setdefault("escalation_reason", "repeated_tool_errors")
        return out


TRACE_RESULT_CHARS = 240
PAYMENT_METHODS = {"payment_initiate_stk_push": "mpesa_stk", "payment_initiate_card": "pesapal"}


def event_facts(tool: str, data: Any) -> dict[str, str | int]:
    """The few facts the conversation log shows for a tool that makes an event (a hand-over, an order, a payment
    asked for), kept whole beside the trace's cut-short result line."""
    if not isinstance(data, dict):
        return {}
    if tool == "handoff_create_ticket":
        return {"ticket_id": str(data["ticket_id"]), "reason": str(data["reason"])}
    if tool == "order_create":
        return {"order_id": str(data["order_id"]), "total": int(data["totals"]["total"])}
    if tool in PAYMENT_METHODS:
        return {"order_id": str(data["order_ref"]), "amount": int(data["amount"]), "method": PAYMENT_METHODS[tool]}
    return {}


def brief(data: Any) -> str:
    """A tool result as one short line for the turn's trace (the chat page shows it)."""
    line = json.dumps(data, ensure_ascii=False, default=str, separators=(",", ":"))
    return line if len(line) <= TRACE_RESULT_CHARS else line[: TRACE_RESULT_CHARS - 3] + "..."
