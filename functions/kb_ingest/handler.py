"""Lambda: a document uploaded to the KB bucket (S3 ObjectCreated) becomes the tenant's knowledge.

Thin: everything is in :mod:`tulia.pipeline.kb_ingest_app` and :mod:`tulia.rag.ingest`.
"""

from __future__ import annotations

from typing import Any

from tulia.observability import logger
from tulia.pipeline.kb_ingest_app import handle


@logger.inject_lambda_context(clear_state=True)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return handle(event)
