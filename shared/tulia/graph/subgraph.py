"""Journeys as LangGraph subgraphs (spec Appendix C) inside the orchestrator.

A journey is a ``StateGraph`` over the same ``ConversationState``, compiled without a checkpointer
of its own (the orchestrator's thread is checkpointed once per turn). The orchestrator calls it as
one node: the subgraph returns its whole state, so the per-turn lists it appends to (``outbox``,
``trace``) are handed back as just the new entries, and the message window is left to the
orchestrator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from langgraph.graph import START, StateGraph
from langgraph.runtime import Runtime

from tulia.graph.context import EngineContext
from tulia.graph.slots import Node as CommandNode
from tulia.graph.state import ConversationState

APPENDED = ("outbox", "trace")


def as_node(name: str, graph: Any) -> Any:
    """The orchestrator's node that runs the journey subgraph and returns only what it changed."""

    def run(state: ConversationState, runtime: Runtime[EngineContext]) -> dict[str, Any]:
        before = {key: len(getattr(state, key)) for key in APPENDED}
        values = {f.name: getattr(state, f.name) for f in fields(state)}
        out = graph.invoke(values, context=runtime.context)
        update = {k: v for k, v in out.items() if k not in ("messages", *APPENDED)}
        update["outbox"] = out.get("outbox", [])[before["outbox"] :]
        update["trace"] = [{"kind": "node", "node": name}, *out.get("trace", [])[before["trace"] :]]
        return update

    run.__name__ = name
    run.graph = graph  # type: ignore[attr-defined]  # the compiled subgraph, for inspection
    return run


def command_journey(name: str, nodes: Sequence[tuple[str, CommandNode]], entry: str) -> Any:
    """Compile a journey of nodes that route themselves with ``Command(goto=...)``."""
    g: StateGraph[ConversationState, EngineContext, Any, Any] = StateGraph(
        ConversationState, context_schema=EngineContext
    )
    for node_name, fn in nodes:
        g.add_node(node_name, fn)
    g.add_edge(START, entry)
    return g.compile(checkpointer=False, name=name)
