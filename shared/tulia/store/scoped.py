"""AWS credentials scoped to one shop (tenant isolation by construction, down to IAM): customers' files and their
transcription jobs are reached only through a session of the media role whose session policy names the shop's
prefix. A bug that built another shop's key would be refused by S3 itself, not trusted to the code.

``TenantSessions.client(service, tenant_id)`` assumes the media role (CDK: ``TULIA_MEDIA_ROLE_ARN``; the agent and
the admin function may assume it, and hold no media rights themselves) with the session policy of
:func:`media_policy`: objects under ``<tenant_id>/`` of the media bucket, listing that prefix only, and Transcribe
jobs named for that shop. Sessions last 15 minutes and are made again 2 minutes before they end. Unset (the local
stack, tests), the caller's own client is used.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SESSION_SECONDS = 900
RENEW_BEFORE_SECONDS = 120


def media_policy(*, partition: str, account: str, region: str, bucket: str, tenant_id: str, job_prefix: str) -> str:
    """The session policy of one shop's media session (the role's own policy is the upper bound)."""
    statements = [
        {
            "Effect": "Allow",
            "Action": ["s3:PutObject", "s3:GetObject", "s3:DeleteObject"],
            "Resource": f"arn:{partition}:s3:::{bucket}/{tenant_id}/*",
        },
        {
            "Effect": "Allow",
            "Action": "s3:ListBucket",
            "Resource": f"arn:{partition}:s3:::{bucket}",
            "Condition": {"StringLike": {"s3:prefix": [f"{tenant_id}/*"]}},
        },
        {
            "Effect": "Allow",
            "Action": "transcribe:StartTranscriptionJob",
            "Resource": f"arn:{partition}:transcribe:{region}:{account}:transcription-job/{job_prefix}{tenant_id}.*",
        },
    ]
    return json.dumps({"Version": "2012-10-17", "Statement": statements}, separators=(",", ":"))


@dataclass
class TenantSessions:
    role_arn: str  # arn:<partition>:iam::<account>:role/<name>
    bucket: str
    region: str
    job_prefix: str
    make_sts: Callable[[], Any]
    endpoint_url: str | None = None
    clock: Callable[[], float] = time.time
    # tenant_id -> (when its session ends, its clients by service): one AssumeRole per shop session
    _sessions: dict[str, tuple[float, dict[str, Any]]] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def policy(self, tenant_id: str) -> str:
        parts = self.role_arn.split(":")
        return media_policy(
            partition=parts[1],
            account=parts[4],
            region=self.region,
            bucket=self.bucket,
            tenant_id=tenant_id,
            job_prefix=self.job_prefix,
        )

    def client(self, service: str, tenant_id: str) -> Any:
        """A client of ``service`` (s3, transcribe) that can reach this shop's media and nothing else."""
        now = self.clock()
        with self._lock:
            cached = self._sessions.get(tenant_id)
            if cached is not None and cached[0] - RENEW_BEFORE_SECONDS > now:
                session_ends, clients = cached
            else:
                session_ends, clients = now + SESSION_SECONDS, {"session": self._assume(tenant_id)}
                self._sessions[tenant_id] = (session_ends, clients)
            if service not in clients:
                clients[service] = clients["session"].client(service, endpoint_url=self.endpoint_url)
            return clients[service]

    def _assume(self, tenant_id: str) -> Any:
        import boto3

        answer = self.make_sts().assume_role(
            RoleArn=self.role_arn,
            RoleSessionName=f"tulia-media-{tenant_id}"[:64],
            Policy=self.policy(tenant_id),
            DurationSeconds=SESSION_SECONDS,
        )
        creds = answer["Credentials"]
        return boto3.session.Session(
            aws_access_key_id=creds["AccessKeyId"],
            aws_secret_access_key=creds["SecretAccessKey"],
            aws_session_token=creds["SessionToken"],
            region_name=self.region,
        )
