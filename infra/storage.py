"""S3 buckets: the knowledge-base uploads, the checkpoint offload, customers' photos and voice notes, and their
access logs.

Every bucket blocks public access, is encrypted (SSE-S3), refuses plain HTTP and logs access to the
stage's log bucket."""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_s3 as s3
from constructs import Construct

from infra.config import StageConfig
from tulia.graph.conversation import CHECKPOINT_TTL_DAYS
from tulia.store.media import RETENTION_DAYS


class Buckets(Construct):
    def __init__(self, scope: Construct, cid: str, *, config: StageConfig) -> None:
        super().__init__(scope, cid)
        removal = RemovalPolicy.RETAIN if config.retain_data else RemovalPolicy.DESTROY
        common = {
            "block_public_access": s3.BlockPublicAccess.BLOCK_ALL,
            "encryption": s3.BucketEncryption.S3_MANAGED,
            "enforce_ssl": True,
            "removal_policy": removal,
            "auto_delete_objects": not config.retain_data,  # dev: `cdk destroy` empties and removes the buckets
        }
        self.access_logs = s3.Bucket(
            self,
            "AccessLogs",
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,  # S3 log delivery writes here
            lifecycle_rules=[s3.LifecycleRule(id="expire-access-logs", expiration=Duration.days(90))],
            **common,
        )
        self.kb = s3.Bucket(
            self,
            "KnowledgeBase",
            versioned=True,  # an overwritten or deleted document can be recovered
            lifecycle_rules=[
                s3.LifecycleRule(id="expire-old-versions", noncurrent_version_expiration=Duration.days(30))
            ],
            server_access_logs_bucket=self.access_logs,
            server_access_logs_prefix="kb/",
            **common,
        )
        # DynamoDBSaver tags offloaded checkpoints ttl-days=<n> and expects a rule with this id
        # (it would otherwise try to add one itself, which needs bucket-configuration rights)
        self.checkpoints = s3.Bucket(
            self,
            "CheckpointOffload",
            lifecycle_rules=[
                s3.LifecycleRule(
                    id=f"root-ttl-expiration-{CHECKPOINT_TTL_DAYS}d",
                    tag_filters={"ttl-days": str(CHECKPOINT_TTL_DAYS)},
                    expiration=Duration.days(CHECKPOINT_TTL_DAYS),
                )
            ],
            server_access_logs_bucket=self.access_logs,
            server_access_logs_prefix="checkpoints/",
            **common,
        )
        # customers' photos and voice notes (tulia.store.media: <tenant_id>/<conversation>/...): 30 days, then gone
        self.media = s3.Bucket(
            self,
            "CustomerMedia",
            lifecycle_rules=[
                s3.LifecycleRule(id=f"customer-media-{RETENTION_DAYS}d", expiration=Duration.days(RETENTION_DAYS))
            ],
            server_access_logs_bucket=self.access_logs,
            server_access_logs_prefix="media/",
            **common,
        )
        # items' pictures shops upload in the console, served by the console's CloudFront distribution at /pictures/*
        # (WhatsApp fetches them from there): shop data, kept like the tables
        self.pictures = s3.Bucket(
            self,
            "ItemPictures",
            server_access_logs_bucket=self.access_logs,
            server_access_logs_prefix="pictures/",
            **common,
        )
