"""Handle one inbound customer message: resume (or start) the customer's thread and return the replies.

This is what the agent Lambda and the local stack call. The thread id is derived from tenant and
customer phone, so each customer of each shop has one conversation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from langgraph.types import Command

from tulia.channel.whatsapp import conversation_id_for, customer_key
from tulia.domain.literals import BOOKING_QUESTIONS, CONVERSATION_QUESTIONS, SALE_QUESTIONS
from tulia.domain.persisted import reading_stored
from tulia.graph.booking_frame import BOOKING_MODELS
from tulia.graph.context import EngineContext
from tulia.graph.frame import FRAME_MODELS
from tulia.graph.graph import TURN_STEP_LIMIT, build_graph
from tulia.graph.slots import SlotFrame
from tulia.graph.state import with_open_question
from tulia.nlg.messages import OutboundMessage
from tulia.nlu.engine import UnderstandingEngine
from tulia.observability import logger as log
from tulia.services import Services

# the typed parts of the state a checkpoint may hold (nothing else is unpickled)
STATE_MODELS = (*FRAME_MODELS, *BOOKING_MODELS)


@dataclass
class TurnResult:
    replies: list[OutboundMessage]
    trace: list[dict[str, Any]]
    state: dict[str, Any]


@cache
def _graph() -> Any:
    """The conversation graph, compiled once per process (its nodes hold no state); each ``Conversations`` takes a
    copy with its own checkpointer."""
    return build_graph(None)


class Conversations:
    def __init__(self, services: Services, engine: UnderstandingEngine, checkpointer: Any) -> None:
        self.services = services
        self.engine = engine
        self.checkpointer = checkpointer
        self.graph = _graph().copy(update={"checkpointer": checkpointer})

    def handle(
        self,
        *,
        tenant_id: str,
        phone_e164: str | None,
        inbound: dict[str, Any],
        display_name: str | None = None,
        wa_user_id: str | None = None,
        engine: UnderstandingEngine | None = None,
        services: Services | None = None,
    ) -> TurnResult:
        """``inbound``: ``{"type": "text"|"interactive"|..., "text": str, "reply_id": str?, "message_id": str}``.

        The customer is the phone when Meta shares it, else the business-scoped user id. ``services``: the
        tools' collaborators for this turn only (the console's trial chat moves no money)."""
        thread = conversation_id_for(tenant_id, customer_key(phone_e164, wa_user_id))
        config: dict[str, Any] = {"configurable": {"thread_id": thread}, "recursion_limit": TURN_STEP_LIMIT}
        context = EngineContext(
            tenant_id=tenant_id,
            phone_e164=phone_e164,
            services=services or self.services,
            engine=engine or self.engine,  # the rules engine when the shop's model budget is spent
            display_name=display_name,
            message_id=inbound.get("message_id"),
            wa_user_id=wa_user_id,
        )
        peek = getattr(self.checkpointer, "peek", None)
        if peek is not None:
            latest = peek(config)  # read once: the graph's own read of this turn reuses it
            waiting = latest is not None and any(w[1] == INTERRUPT for w in latest.pending_writes or ())
        else:
            waiting = bool(self.graph.get_state(config).next)
        payload: Any = Command(resume=inbound) if waiting else {"inbound": inbound}
        values = self.graph.invoke(payload, config, context=context, durability="exit")
        return TurnResult(
            replies=[OutboundMessage.model_validate(m) for m in values.get("outbox", [])],
            trace=list(values.get("trace", [])),
            state=with_open_question(values),
        )

    def language_of(self, tenant_id: str, phone_e164: str | None, wa_user_id: str | None = None) -> str | None:
        """The language the bot last answered this customer in (None: no conversation yet): news sent
        unasked (an order update) is in the language of the conversation."""
        thread = conversation_id_for(tenant_id, customer_key(phone_e164, wa_user_id))
        values = self.graph.get_state({"configurable": {"thread_id": thread}}).values or {}
        language = values.get("response_language") if isinstance(values, dict) else None
        return str(language) if language else None


INTERRUPT = "__interrupt__"  # the pending-write channel LangGraph records an interrupt() on


def migrated(saved: Any) -> Any:
    """A checkpoint tuple of an earlier release in today's shape (in place). Until issue 32 the open question was
    stored as ``pending`` / ``pending_options`` beside the frames' own ``asking`` (and won where they differed): now
    it is the conversation's ``question`` when it was one of its own, and otherwise the question of the frame it
    belongs to (with its answers); a frame whose question it was not asks nothing (a frame's question under one of
    the conversation's own stays, to be asked again after it)."""
    values = saved.checkpoint.get("channel_values", {}) if saved is not None else {}
    if "pending" not in values:
        return saved
    pending, options = values.pop("pending"), values.pop("pending_options", None) or []
    if pending in CONVERSATION_QUESTIONS:
        values.setdefault("question", pending)
        values.setdefault("question_options", options)
        owner = None
    else:
        owner = "frame" if pending in SALE_QUESTIONS else "booking" if pending in BOOKING_QUESTIONS else None
    for key in ("frame", "booking"):
        asked = values.get(key)
        if isinstance(asked, SlotFrame) and key == owner:
            values[key] = asked.model_copy(update={"asking": pending, "asking_options": options})
        elif isinstance(asked, SlotFrame) and pending not in CONVERSATION_QUESTIONS:  # it was not the one asking
            values[key] = asked.unasked()
    log.info("checkpoint of an earlier release migrated", extra={"open_question": str(pending)})
    return saved


def checkpoint_serde() -> Any:
    """The checkpoints' serializer: the typed frames are kept as themselves (only these models may be
    read back) and read leniently, as written by any release (``tulia.domain.persisted``)."""
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    class CheckpointSerde(JsonPlusSerializer):
        def loads_typed(self, data: tuple[str, bytes]) -> Any:
            with reading_stored():
                return super().loads_typed(data)

    return CheckpointSerde(allowed_msgpack_modules=[(model.__module__, model.__name__) for model in STATE_MODELS])


CHECKPOINT_TTL_DAYS = 30  # the CDK app's lifecycle rule for offloaded checkpoints uses the same figure


def dynamodb_checkpointer(
    table_name: str,
    *,
    region_name: str,
    endpoint_url: str | None = None,
    ttl_days: int | None = CHECKPOINT_TTL_DAYS,
    offload_bucket: str | None = None,
    session: Any = None,
) -> Any:
    """``DynamoDBSaver`` that reads a thread's latest checkpoint once per turn (see ``peek``).

    Checkpoint history expires after ``ttl_days`` (the table's TTL attribute). With
    ``offload_bucket``, checkpoints over DynamoDB's item size (the saver's 350 KB threshold) are kept in
    that S3 bucket, tagged ``ttl-days`` so the bucket's lifecycle rule expires them with the rest. ``session``: a
    boto3 session whose loaded service models the saver's clients share (else it makes its own)."""
    from langgraph.checkpoint.base import get_checkpoint_id
    from langgraph_checkpoint_aws import DynamoDBSaver

    class TurnScopedSaver(DynamoDBSaver):  # type: ignore[misc]  # the package ships no types
        def __init__(self) -> None:
            super().__init__(
                table_name=table_name,
                session=session,
                region_name=region_name,
                endpoint_url=endpoint_url,
                ttl_seconds=ttl_days * 86_400 if ttl_days else None,
                s3_offload_config=(
                    {"bucket_name": offload_bucket, **({"endpoint_url": endpoint_url} if endpoint_url else {})}
                    if offload_bucket
                    else None
                ),
            )
            self._peeked: dict[str, Any] = {}
            # the typed order frame is checkpointed as itself; only these models may be read back
            self.serde = self.serializer.serde = checkpoint_serde()

        def peek(self, config: Any) -> Any:
            """Read the latest checkpoint and keep it for the graph's next read of the same thread."""
            latest = migrated(super().get_tuple(config))
            self._peeked[config["configurable"]["thread_id"]] = latest
            return latest

        def get_tuple(self, config: Any) -> Any:
            conf = config["configurable"]
            if (
                get_checkpoint_id(config) is None
                and not conf.get("checkpoint_ns")
                and conf["thread_id"] in self._peeked
            ):
                return self._peeked.pop(conf["thread_id"])
            return migrated(super().get_tuple(config))

    return TurnScopedSaver()
