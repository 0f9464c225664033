"""The kb_ingest function: an S3 ``ObjectCreated`` event on the KB bucket -> the tenant's document.

Objects are keyed ``<tenant_id>/<path>``. Each record is read and ingested on its own; a record that
names no known tenant is logged and skipped (retrying cannot help), while a failure to reach S3 or
DynamoDB fails the invocation so S3's asynchronous retry delivers it again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import unquote_plus

from tulia.domain.common import TENANT_ID_PATTERN
from tulia.errors import NotFound
from tulia.observability import logger as log
from tulia.observability import request_scope
from tulia.rag.ingest import ingest_upload
from tulia.services import Services

ObjectReader = Callable[[str, str], tuple[int, Callable[[], bytes]]]  # (bucket, key) -> (size, load)


@lru_cache(maxsize=1)
def service() -> tuple[Services, ObjectReader]:
    import boto3

    from tulia.config import get_settings
    from tulia.services import build_services

    settings = get_settings()
    s3 = boto3.client("s3", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)

    def read(bucket: str, key: str) -> tuple[int, Callable[[], bytes]]:
        size = int(s3.head_object(Bucket=bucket, Key=key)["ContentLength"])
        return size, lambda: bytes(s3.get_object(Bucket=bucket, Key=key)["Body"].read())

    return build_services(settings), read


def handle(event: dict[str, Any], deps: tuple[Services, ObjectReader] | None = None) -> dict[str, Any]:
    from aws_lambda_powertools.utilities.data_classes import S3Event

    services, read = deps or service()
    results: list[dict[str, Any]] = []
    for record in S3Event(event).records:
        key = unquote_plus(record.s3.get_object.key)  # S3 events URL-encode keys
        tenant_id = key.partition("/")[0]
        correlation = str(record.s3.get_object.get("sequencer") or key)  # S3 sets it; a hand-made event may not
        with request_scope(correlation, tenant_id if TENANT_ID_PATTERN.fullmatch(tenant_id) else None):
            try:
                doc = ingest_upload(services, key, *read(record.s3.bucket.name, key))
            except NotFound as exc:
                log.warning("KB upload skipped", extra={"key": key, "why": exc.message})
                results.append({"key": key, "status": "skipped", "reason": exc.message})
                continue
            log.info("KB document ingested", extra={"key": key, "status": doc.status, "chunks": doc.chunk_count})
        results.append({"key": key, "status": doc.status, "chunks": doc.chunk_count, "error": doc.error or ""})
    return {"documents": results}
