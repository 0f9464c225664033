"""Customers' files (issue 35, part 1): kept in the media bucket under the shop's prefix and the conversation's
opaque id (``<tenant_id>/<conversation_id>/<message_id>.<ext>``: no phone number in a key), encrypted at rest, gone
after 30 days by the bucket's lifecycle rule (CDK; the local stack sets the same rule), listed for a customer's
export and deleted with their erasure. The S3 client is made on first use: functions that never touch a file pay
nothing for it at a cold start.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from tulia.store.scoped import TenantSessions

RETENTION_DAYS = 30  # the bucket's lifecycle rule (infra/ and the local stack)
_SAFE = re.compile(r"[^A-Za-z0-9._=-]")


def media_key(tenant_id: str, conversation_id: str, message_id: str, extension: str) -> str:
    """Where a customer's file is kept: the shop's prefix first (IAM and erasure scope by it)."""
    return f"{tenant_id}/{conversation_id}/{_SAFE.sub('_', message_id)[:200]}.{_SAFE.sub('', extension)[:8]}"


@dataclass
class MediaStore:
    bucket: str
    make_client: Callable[[], Any]  # boto3's S3 client, made on first use (unscoped: the local stack, tests)
    scoped: TenantSessions | None = None  # AWS: every call through the shop's own session (store/scoped)

    @cached_property
    def s3(self) -> Any:
        return self.make_client()

    def for_shop(self, tenant_id: str) -> Any:
        """The S3 client a shop's files are reached with: scoped to its prefix in AWS."""
        return self.scoped.client("s3", tenant_id) if self.scoped is not None else self.s3

    def put(
        self,
        tenant_id: str,
        conversation_id: str,
        message_id: str,
        *,
        data: bytes,
        content_type: str,
        extension: str,
        kind: str,
    ) -> str:
        key = media_key(tenant_id, conversation_id, message_id, extension)
        self.for_shop(tenant_id).put_object(
            Bucket=self.bucket,
            Key=key,
            Body=data,
            ContentType=content_type,
            ServerSideEncryption="AES256",
            Metadata={"kind": kind},
        )
        return key

    def put_object(self, key: str, data: bytes, content_type: str) -> None:
        """A file written beside a customer's own (a voice note's transcript), encrypted like them."""
        self.for_shop(key.split("/", 1)[0]).put_object(
            Bucket=self.bucket, Key=key, Body=data, ContentType=content_type, ServerSideEncryption="AES256"
        )

    def get(self, key: str) -> bytes:
        return bytes(self.for_shop(key.split("/", 1)[0]).get_object(Bucket=self.bucket, Key=key)["Body"].read())

    def _keys(self, tenant_id: str, conversation_id: str) -> list[dict[str, Any]]:
        prefix = f"{tenant_id}/{conversation_id}/"
        found: list[dict[str, Any]] = []
        pages = self.for_shop(tenant_id).get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=prefix)
        for page in pages:
            found += page.get("Contents") or []
        return found

    def list_for(self, tenant_id: str, conversation_id: str) -> list[dict[str, Any]]:
        """A customer's files, for their export: where each is, its size and when it came."""
        return [
            {"key": o["Key"], "bytes": int(o["Size"]), "stored_at": o["LastModified"].isoformat()}
            for o in self._keys(tenant_id, conversation_id)
        ]

    def erase(self, tenant_id: str, conversation_id: str) -> int:
        """Delete a customer's files; returns how many there were."""
        keys = [o["Key"] for o in self._keys(tenant_id, conversation_id)]
        for start in range(0, len(keys), 1000):
            chunk = keys[start : start + 1000]
            self.for_shop(tenant_id).delete_objects(
                Bucket=self.bucket, Delete={"Objects": [{"Key": k} for k in chunk], "Quiet": True}
            )
        return len(keys)


def create_media_bucket(s3: Any, bucket: str, region: str) -> None:
    """The media bucket as the CDK app makes it (the local stack and tests): encrypted, files gone after 30 days."""
    s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": region})
    s3.put_bucket_encryption(
        Bucket=bucket,
        ServerSideEncryptionConfiguration={
            "Rules": [{"ApplyServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}]
        },
    )
    s3.put_bucket_lifecycle_configuration(
        Bucket=bucket,
        LifecycleConfiguration={
            "Rules": [
                {
                    "ID": "customer-media",
                    "Status": "Enabled",
                    "Filter": {"Prefix": ""},
                    "Expiration": {"Days": RETENTION_DAYS},
                }
            ]
        },
    )


PICTURE_TYPES = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}
MAX_PICTURE_BYTES = 5 * 1024 * 1024  # WhatsApp's limit for a picture it sends


@dataclass
class PictureStore:
    """Items' pictures, served publicly (CloudFront in AWS, the local stack's /pictures/ locally): keys
    ``pictures/<tenant_id>/<item_id>-<digest>.<ext>`` (a new picture is a new address: nothing cached goes stale)."""

    bucket: str
    base_url: str  # what a key's address starts with, e.g. https://d123.cloudfront.net (no trailing slash)
    make_client: Callable[[], Any]  # boto3's S3 client, made on first use

    @cached_property
    def s3(self) -> Any:
        return self.make_client()

    def put(self, tenant_id: str, item_id: str, data: bytes, content_type: str, digest: str) -> str:
        """Keep a picture; returns its public address."""
        key = f"pictures/{tenant_id}/{_SAFE.sub('_', item_id)}-{digest[:16]}.{PICTURE_TYPES[content_type]}"
        self.s3.put_object(
            Bucket=self.bucket,
            Key=key,
            Body=data,
            ContentType=content_type,
            CacheControl="public, max-age=31536000, immutable",
            ServerSideEncryption="AES256",
        )
        return f"{self.base_url.rstrip('/')}/{key}"

    def key_of(self, tenant_id: str, url: str) -> str | None:
        """The key of one of this shop's pictures by its address (another address: None, never deleted here)."""
        prefix = f"{self.base_url.rstrip('/')}/"
        key = url[len(prefix) :] if url.startswith(prefix) else ""
        return key if key.startswith(f"pictures/{tenant_id}/") and ".." not in key else None

    def delete(self, key: str) -> None:
        self.s3.delete_object(Bucket=self.bucket, Key=key)

    def get(self, key: str) -> tuple[bytes, str] | None:
        try:
            got = self.s3.get_object(Bucket=self.bucket, Key=key)
        except self.s3.exceptions.NoSuchKey:
            return None
        return bytes(got["Body"].read()), str(got.get("ContentType") or "application/octet-stream")
