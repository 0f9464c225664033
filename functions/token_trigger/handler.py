"""Lambda: the staff user pool's pre token generation trigger (a person's shop into her token).

Thin: everything is in :mod:`tulia.pipeline.token_trigger`.
"""

from __future__ import annotations

from typing import Any

from tulia.observability import logger
from tulia.pipeline.token_trigger import add_shop


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return add_shop(event)
