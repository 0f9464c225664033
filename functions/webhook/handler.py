"""Lambda: the WhatsApp webhook behind API Gateway (GET verification, POST messages and statuses).

Thin: everything is in :mod:`tulia.pipeline.webhook`. No LangChain or LangGraph is imported here.
"""

from __future__ import annotations

from typing import Any

from tulia.observability import logger
from tulia.pipeline.webhook_app import handle


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return handle(event)
