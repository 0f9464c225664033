"""Handle one inbound customer message: resume (or start) the customer's thread and return the replies.

This is what the agent Lambda and the local stack call. The thread id is derived from tenant and
customer phone, so each customer of each shop has one conversation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langgraph.types import Command

from tulia.graph.context import EngineContext
from tulia.graph.graph import TURN_STEP_LIMIT, build_graph
from tulia.graph.nodes import conversation_id_for
from tulia.nlg.messages import OutboundMessage
from tulia.nlu.engine import UnderstandingEngine
from tulia.services import Services


@dataclass
class TurnResult:
    replies: list[OutboundMessage]
    trace: list[dict[str, Any]]
    state: dict[str, Any]


class Conversations:
    def __init__(self, services: Services, engine: UnderstandingEngine, checkpointer: Any) -> None:
        self.services = services
        self.engine = engine
        self.graph = build_graph(checkpointer)

    def handle(
        self, *, tenant_id: str, phone_e164: str, inbound: dict[str, Any], display_name: str | None = None
    ) -> TurnResult:
        """``inbound``: ``{"type": "text"|"interactive"|..., "text": str, "reply_id": str?, "message_id": str}``."""
        thread = conversation_id_for(tenant_id, phone_e164)
        config: dict[str, Any] = {"configurable": {"thread_id": thread}, "recursion_limit": TURN_STEP_LIMIT}
        context = EngineContext(
            tenant_id=tenant_id,
            phone_e164=phone_e164,
            services=self.services,
            engine=self.engine,
            display_name=display_name,
            message_id=inbound.get("message_id"),
        )
        waiting = bool(self.graph.get_state(config).next)
        payload: Any = Command(resume=inbound) if waiting else {"inbound": inbound}
        values = self.graph.invoke(payload, config, context=context, durability="exit")
        return TurnResult(
            replies=[OutboundMessage.model_validate(m) for m in values.get("outbox", [])],
            trace=list(values.get("trace", [])),
            state=values,
        )


def dynamodb_checkpointer(table_name: str, *, region_name: str, endpoint_url: str | None = None) -> Any:
    from langgraph_checkpoint_aws import DynamoDBSaver

    return DynamoDBSaver(table_name=table_name, region_name=region_name, endpoint_url=endpoint_url)
