"""Lambda: the admin API under /admin (Cognito JWT verified by API Gateway).

Thin: everything is in :mod:`tulia.pipeline.admin_app`.
"""

from __future__ import annotations

from typing import Any

from tulia.observability import logger
from tulia.pipeline.admin_app import handle


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return handle(event)
