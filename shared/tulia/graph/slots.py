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
from typing import TYPE_CHECKING, Any, Self

from tulia.domain.persisted import Persisted

if TYPE_CHECKING:  # the state holds frames: this module is imported by it, so it imports nothing of the graph
    from tulia.graph.calls import Turn

Node = Callable[..., Any]  # (state, runtime) -> Command[Literal[...]] or a partial update


class SlotFrame(Persisted):
    """A frame that remembers the question asked about it and the answers offered with it (never what it may
    hear in answer). The conversation's open question is derived from it (``ConversationState.pending``)."""

    asking: str | None = None
    asking_line: int | None = None  # the line (of several) the question is about
    asking_options: list[dict[str, Any]] = []  # [{id, title, ...}]: the buttons or rows it was asked with

    def unasked(self) -> Self:
        """A copy of this frame that asks nothing (what was said is kept)."""
        return self.model_copy(update={"asking": None, "asking_line": None, "asking_options": []})


def ask(
    turn: Turn,
    field: str,
    frame: SlotFrame,
    question: str | None,
    options: list[dict[str, Any]],
    line: int | None = None,
) -> None:
    """Record the question asked (or none) on the frame: from now on it is the conversation's open question (the
    conversation's own question and the other frame's are closed; a frame's question is only ever its own)."""
    frame.asking, frame.asking_line, frame.asking_options = question, line, options
    updates: dict[str, Any] = {field: frame, "question": None, "question_options": []}
    for other in ("frame", "booking"):
        current = turn.get(other)
        if other != field and isinstance(current, SlotFrame) and current.asking is not None:
            updates[other] = current.unasked()
    turn.set(**updates)


def close_questions(turn: Turn) -> None:
    """Nothing the bot asked is open any more (a person takes the conversation over): neither the conversation's
    own question nor any frame's (the frames keep what was said)."""
    updates: dict[str, Any] = {"question": None, "question_options": []}
    for name in ("frame", "booking"):
        current = turn.get(name)
        if isinstance(current, SlotFrame) and current.asking is not None:
            updates[name] = current.unasked()
    turn.set(**updates)
