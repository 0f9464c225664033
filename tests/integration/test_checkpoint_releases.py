"""Conversations survive a deploy (issue 32, part 1): a checkpoint written by an earlier release loads and
the conversation goes on; a frame holding fields a later release removed or values it no longer accepts
is read with what can be read (logged), never as plain dicts that crash the next turn."""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path
from typing import Any

import ormsgpack
import pytest
from langgraph.checkpoint.serde.jsonplus import EXT_PYDANTIC_V2, _msgpack_enc

from tests.chat import Chat
from tulia.channel.whatsapp import customer_key
from tulia.graph.conversation import Conversations, checkpoint_serde
from tulia.graph.frame import FrameLine, OrderFrame
from tulia.graph.nodes import conversation_id_for
from tulia.graph.persisted import Persisted, reading_checkpoint

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "checkpoints"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def checkpoint_of(saved: dict[str, Any]) -> dict[str, Any]:
    data = base64.b64decode(saved["checkpoint"]["data"])
    return checkpoint_serde().loads_typed((saved["checkpoint"]["type"], data))  # type: ignore[no-any-return]


def restore(conversations: Conversations, saved: dict[str, Any], checkpoint: dict[str, Any]) -> None:
    """Put a checkpoint where the conversation of the fixture's customer is kept (as after a deploy)."""
    thread = conversation_id_for(saved["tenant_id"], customer_key(saved["phone"], None))
    config = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
    conversations.checkpointer.put(config, checkpoint, saved["metadata"], checkpoint["channel_versions"])


def as_written(model: str, values: dict[str, Any]) -> Any:
    """A frame as LangGraph wrote it (module, class, its fields), read back through the checkpoint serializer."""
    packed = ormsgpack.packb(
        ormsgpack.Ext(EXT_PYDANTIC_V2, _msgpack_enc(("tulia.graph.frame", model, values, "model_validate_json")))
    )
    return checkpoint_serde().loads_typed(("msgpack", packed))


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.json")))
def test_a_checkpoint_of_an_earlier_release_loads_and_the_sale_goes_on(
    name: str, conversations: Conversations, chat: Chat
) -> None:
    saved = fixture(name)
    checkpoint = checkpoint_of(saved)
    frame = checkpoint["channel_values"]["frame"]
    assert isinstance(frame, OrderFrame)
    assert all(isinstance(line, FrameLine) for line in frame.lines)
    assert [(line.item_id, line.variant_selection) for line in frame.lines] == [("PB-002", {"colour": "Black"})]
    restore(conversations, saved, checkpoint)
    reply = chat.send("2")  # the answer to "How many would you like?", after the deploy
    assert "2 x Oraimo Traveler 20000mAh Power Bank (Black)" in reply or "2 x Oraimo" in reply, reply
    assert chat.state["frame"].lines[0].quantity == 2


def test_fields_removed_renamed_or_no_longer_valid_are_dropped_and_the_conversation_resumes(
    conversations: Conversations, chat: Chat, caplog: pytest.LogCaptureFixture
) -> None:
    """The reproduction of the issue: a frame field a later release removed made the whole frame fail to
    validate; LangGraph then built it without validation and its lines were plain dicts (AttributeError)."""
    saved = fixture(sorted(p.stem for p in FIXTURES.glob("*.json"))[0])
    checkpoint = checkpoint_of(saved)
    written = checkpoint["channel_values"]["frame"].model_dump()
    written["gift_wrap"] = True  # a field this release does not know (an older or newer release's)
    written["lines"][0]["colour_note"] = "matte"  # one inside a line too
    written["lines"].append({"item_id": "PB-001", "name": "A line without its price"})  # cannot be read
    written["asking"] = "gift_message"  # a question this release does not ask
    with caplog.at_level(logging.INFO):
        frame = as_written("OrderFrame", written)
    assert isinstance(frame, OrderFrame)
    assert [type(line) for line in frame.lines] == [FrameLine]  # the readable line, as a model
    assert (frame.lines[0].item_id, frame.asking) == ("PB-002", None)
    logged = " ".join(
        r.getMessage() + str(getattr(r, "fields", "")) + str(getattr(r, "values", "")) for r in caplog.records
    )
    assert "no longer known" in logged
    assert "gift_wrap" in logged
    assert "lines[1]" in logged
    checkpoint["channel_values"]["frame"] = frame
    restore(conversations, saved, checkpoint)
    chat.send("2")  # the next turn works on what could be read
    assert [(line.item_id, line.quantity) for line in chat.state["frame"].lines] == [("PB-002", 2)]


def test_built_in_code_a_frame_stays_strict() -> None:
    """Leniency is for checkpoints only: a typo or a bad value in code still fails at once."""
    with pytest.raises(ValueError, match="gift_wrap"):
        OrderFrame(gift_wrap=True)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="quantity"):
        FrameLine(item_id="PB-002", name="x", price=1, quantity=5000)


def test_a_model_that_changed_shape_is_migrated_from_the_version_that_wrote_it() -> None:
    class Line(Persisted):
        SCHEMA = 2
        MIGRATIONS = {1: lambda d: {**{k: v for k, v in d.items() if k != "qty"}, "quantity": d.get("qty")}}

        quantity: int | None = None

    with reading_checkpoint():
        assert Line.model_validate({"qty": 3}).quantity == 3  # version 1 named it qty
        assert Line.model_validate({"schema_version": 2, "quantity": 4}).quantity == 4
    assert Line(quantity=5).schema_version == 2
