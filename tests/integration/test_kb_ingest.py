"""The kb_ingest function: a document uploaded to the KB bucket (moto S3) becomes the shop's knowledge."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote_plus

import boto3
import pytest

from tests.conftest import SALON, SHOP, Caller
from tulia.pipeline.kb_ingest_app import handle
from tulia.services import Services

BUCKET = "tulia-test-kb"
LAYAWAY = b"""# Gift Wrapping

## Wrapping a present
We gift wrap any item for KES 200, with a card and a ribbon.
Ask for gift wrapping when you order and we deliver it wrapped.
"""


@pytest.fixture
def s3(seeded: Services) -> Any:
    client = boto3.client("s3", region_name="eu-west-1")
    client.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
    return client


def upload(s3: Any, services: Services, key: str, body: bytes) -> dict[str, Any]:
    """Put the object, then deliver the S3 ObjectCreated event Lambda would receive."""
    s3.put_object(Bucket=BUCKET, Key=key, Body=body)

    def read(bucket: str, k: str) -> tuple[int, Any]:
        size = s3.head_object(Bucket=bucket, Key=k)["ContentLength"]
        return size, lambda: s3.get_object(Bucket=bucket, Key=k)["Body"].read()

    event = {
        "Records": [
            {
                "eventVersion": "2.1",
                "eventSource": "aws:s3",
                "awsRegion": "eu-west-1",
                "eventName": "ObjectCreated:Put",
                "s3": {
                    "s3SchemaVersion": "1.0",
                    "bucket": {"name": BUCKET, "arn": f"arn:aws:s3:::{BUCKET}"},
                    "object": {"key": quote_plus(key), "size": len(body)},  # S3 URL-encodes keys
                },
            }
        ]
    }
    return handle(event, (services, read))


def test_an_uploaded_document_answers_the_shops_customers_only(s3: Any, seeded: Services) -> None:
    shop, salon = Caller(seeded, SHOP), Caller(seeded, SALON)
    assert shop.ok("kb_retrieve", query="do you do gift wrapping", top_k=3)["answer_found"] is False

    result = upload(s3, seeded, f"{SHOP}/faq/Gift wrapping.md", LAYAWAY)

    assert result["documents"] == [
        {"key": f"{SHOP}/faq/Gift wrapping.md", "status": "indexed", "chunks": 1, "error": ""}
    ]
    top = shop.ok("kb_retrieve", query="do you do gift wrapping", top_k=3)["snippets"][0]
    assert (top["doc_id"], top["title"], top["section"]) == (
        "faq-gift-wrapping",
        "Gift Wrapping",
        "Wrapping a present",
    )
    assert "KES 200" in top["text"]
    assert salon.ok("kb_retrieve", query="do you do gift wrapping", top_k=3)["answer_found"] is False


def test_a_broken_reupload_keeps_the_previous_version_searchable_and_records_why(s3: Any, seeded: Services) -> None:
    upload(s3, seeded, f"{SHOP}/returns-policy.pdf", b"not a pdf at all")
    failed = seeded.kb.document(SHOP, "returns-policy")
    assert failed is not None
    assert failed.status == "failed"
    assert failed.error

    upload(s3, seeded, f"{SHOP}/faq/gift-wrapping.md", LAYAWAY)
    upload(s3, seeded, f"{SHOP}/faq/gift-wrapping.md", b"")  # an empty file replaces nothing
    kept = seeded.kb.document(SHOP, "faq-gift-wrapping")
    assert kept is not None
    assert (kept.status, kept.version, kept.chunk_count) == ("indexed", 1, 1)
    assert kept.error
    assert Caller(seeded, SHOP).ok("kb_retrieve", query="do you do gift wrapping", top_k=3)["answer_found"] is True


def test_an_upload_for_no_known_tenant_is_skipped_and_writes_nothing(s3: Any, seeded: Services) -> None:
    result = upload(s3, seeded, "no-such-shop/faq.md", LAYAWAY)
    assert result["documents"][0]["status"] == "skipped"
    assert seeded.kb.documents("no-such-shop") == []


def test_an_unsupported_file_type_is_recorded_as_failed(s3: Any, seeded: Services) -> None:
    result = upload(s3, seeded, f"{SHOP}/price-list.xlsx", b"PK\x03\x04")
    assert result["documents"][0]["status"] == "failed"
    assert "unsupported document type" in result["documents"][0]["error"]
