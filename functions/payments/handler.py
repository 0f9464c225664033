"""Lambda: payment provider callbacks (Daraja STK) behind API Gateway.

Thin: everything is in :mod:`tulia.pipeline.payments`.
"""

from __future__ import annotations

from typing import Any

from tulia.observability import logger
from tulia.pipeline.payments_app import handle


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return handle(event)
