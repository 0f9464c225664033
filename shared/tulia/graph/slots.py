"""What every journey that fills a frame reuses (the sale today, a booking next).

A journey keeps one typed frame in the graph state (the sale's ``OrderFrame`` in ``state.frame``);
every message runs its extractors and fills what it can; a pure ``next_step(frame)`` names the first
slot still missing; one node per question asks it with :func:`ask`, whose buttons and rows carry
their own action ids; :func:`tulia.graph.subgraph.command_journey` compiles the nodes, each returning
``Command(goto=...)`` with ``Literal`` targets, so ``get_graph().draw_mermaid()`` draws the flow.

A booking journey would add a ``BookingFrame(SlotFrame)`` state field, its extractors (day and time
in the customer's words), its ``next_step`` and its ask nodes, and compile them with
:func:`tulia.graph.subgraph.command_journey`; the sale's nodes are not copied. This module imports nothing
of the graph (the state holds frames).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tulia.domain.persisted import Persisted

if TYPE_CHECKING:  # the state holds frames: this module is imported by it, so it imports nothing of the graph
    from tulia.graph.calls import Turn

Node = Callable[..., Any]  # (state, runtime) -> Command[Literal[...]] or a partial update


class SlotFrame(Persisted):
    """A frame that remembers the question asked about it (never what it may hear in answer)."""

    asking: str | None = None
    asking_line: int | None = None  # the line (of several) the question is about


def ask(
    turn: Turn,
    field: str,
    frame: SlotFrame,
    question: str | None,
    options: list[dict[str, Any]],
    line: int | None = None,
) -> None:
    """Record the question asked (or none) on the frame and as the conversation's pending question."""
    frame.asking, frame.asking_line = question, line
    turn.set(**{field: frame}, pending=question, pending_options=options)
