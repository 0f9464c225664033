"""Lambda: the agent, fed by the inbound SQS FIFO queue (batches, partial batch failures).

Thin: everything is in :mod:`tulia.pipeline.agent`.
"""

from __future__ import annotations

from typing import Any

from tulia.observability import logger
from tulia.pipeline.agent_app import handle


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return handle(event)
