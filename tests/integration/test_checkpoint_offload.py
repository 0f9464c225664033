"""Checkpoints too large for a DynamoDB item go to the S3 bucket the CDK app creates, and come back."""

from __future__ import annotations

from typing import Any

import boto3

from tulia.graph.conversation import CHECKPOINT_TTL_DAYS, dynamodb_checkpointer

BUCKET = "test-checkpoint-offload"


def _checkpoint(notes: str) -> dict[str, Any]:
    from langgraph.checkpoint.base import empty_checkpoint

    checkpoint = empty_checkpoint()
    checkpoint["channel_values"] = {"notes": notes}
    checkpoint["channel_versions"] = {"notes": 1}
    return checkpoint


def test_a_large_checkpoint_is_offloaded_to_s3_and_read_back(dynamodb: Any) -> None:
    s3 = boto3.client("s3", region_name="eu-west-1")
    s3.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
    saver = dynamodb_checkpointer("test-checkpoints", region_name="eu-west-1", offload_bucket=BUCKET)
    config = {"configurable": {"thread_id": "shop#+254700000001", "checkpoint_ns": ""}}
    big = "".join(f"line {n}: a long conversation note\n" for n in range(20_000))  # ~640 KB
    assert len(big) > 400_000

    saved = saver.put(config, _checkpoint(big), {"source": "loop", "step": 1}, {"notes": 1})

    objects = s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])
    assert objects, "the checkpoint should have been offloaded to S3"
    tags = s3.get_object_tagging(Bucket=BUCKET, Key=objects[0]["Key"])["TagSet"]
    assert {"Key": "ttl-days", "Value": str(CHECKPOINT_TTL_DAYS)} in tags
    restored = dynamodb_checkpointer("test-checkpoints", region_name="eu-west-1", offload_bucket=BUCKET).get_tuple(
        saved
    )
    assert restored is not None
    assert restored.checkpoint["channel_values"]["notes"] == big


def test_a_small_checkpoint_stays_in_dynamodb(dynamodb: Any) -> None:
    s3 = boto3.client("s3", region_name="eu-west-1")
    s3.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
    saver = dynamodb_checkpointer("test-checkpoints", region_name="eu-west-1", offload_bucket=BUCKET)
    config = {"configurable": {"thread_id": "shop#+254700000002", "checkpoint_ns": ""}}
    saved = saver.put(config, _checkpoint("short"), {"source": "loop", "step": 1}, {"notes": 1})
    assert s3.list_objects_v2(Bucket=BUCKET).get("KeyCount", 0) == 0
    restored = saver.get_tuple(saved)
    assert restored is not None
    assert restored.checkpoint["channel_values"]["notes"] == "short"
