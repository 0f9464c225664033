"""A shop's files are reached through a session of the media role scoped to that shop (store/scoped): the session
policy names the shop's prefix of the media bucket, its listing and its Transcribe jobs, and nothing of another
shop; sessions are reused until two minutes before they end. With moto, the whole media path runs through such
sessions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber
from moto import mock_aws

from tulia.store.media import MediaStore, create_media_bucket
from tulia.store.scoped import SESSION_SECONDS, TenantSessions, media_policy

ROLE = "arn:aws:iam::123456789012:role/tulia-dev-media"


def policy_of(tenant_id: str) -> dict[str, Any]:
    return dict(
        json.loads(
            media_policy(
                partition="aws",
                account="123456789012",
                region="eu-west-1",
                bucket="tulia-dev-media",
                tenant_id=tenant_id,
                job_prefix="tulia-dev-",
            )
        )
    )


def test_a_shops_session_policy_names_its_prefix_its_listing_and_its_jobs_only() -> None:
    statements = policy_of("mama-mboga")["Statement"]
    objects, listing, jobs = statements
    assert objects["Resource"] == "arn:aws:s3:::tulia-dev-media/mama-mboga/*"
    assert sorted(objects["Action"]) == ["s3:DeleteObject", "s3:GetObject", "s3:PutObject"]
    assert listing["Condition"] == {"StringLike": {"s3:prefix": ["mama-mboga/*"]}}
    assert jobs["Resource"] == "arn:aws:transcribe:eu-west-1:123456789012:transcription-job/tulia-dev-mama-mboga.*"
    other = json.dumps(policy_of("mama-mboga-2"))
    assert "mama-mboga/" not in other  # a shop whose id starts like another's reaches nothing of it
    assert all(s["Effect"] == "Allow" for s in statements)
    assert len(json.dumps(policy_of("x" * 48), separators=(",", ":"))) < 2048  # STS's limit for a session policy


def test_sessions_are_assumed_per_shop_and_reused_until_near_their_end() -> None:
    now = [1_000_000.0]
    sts = boto3.client("sts", region_name="eu-west-1")
    sessions = TenantSessions(ROLE, "tulia-dev-media", "eu-west-1", "tulia-dev-", lambda: sts, clock=lambda: now[0])
    expires = datetime.now(UTC) + timedelta(minutes=15)
    creds = {"AccessKeyId": "AKIAEXAMPLE12345", "SecretAccessKey": "s" * 40, "SessionToken": "t", "Expiration": expires}
    with Stubber(sts) as stub:
        for tenant in ("mama-mboga", "mama-mboga", "jua-kali"):
            stub.add_response(
                "assume_role",
                {"Credentials": creds},
                {
                    "RoleArn": ROLE,
                    "RoleSessionName": f"tulia-media-{tenant}",
                    "Policy": sessions.policy(tenant),
                    "DurationSeconds": SESSION_SECONDS,
                },
            )
        first = sessions.client("s3", "mama-mboga")
        assert sessions.client("s3", "mama-mboga") is first  # reused: no second AssumeRole
        sessions.client("transcribe", "mama-mboga")  # the same session: no second AssumeRole either
        now[0] += SESSION_SECONDS - 119  # two minutes before the end: made again
        assert sessions.client("s3", "mama-mboga") is not first
        assert sessions.client("s3", "jua-kali") is not first  # another shop: its own session
        stub.assert_no_pending_responses()


def test_an_unknown_call_is_not_made_silently() -> None:
    sts = boto3.client("sts", region_name="eu-west-1")
    sessions = TenantSessions(ROLE, "b", "eu-west-1", "p-", lambda: sts)
    with Stubber(sts) as stub:
        stub.add_client_error(
            "assume_role",
            "AccessDenied",
            expected_params={"RoleArn": ROLE, "RoleSessionName": ANY, "Policy": ANY, "DurationSeconds": ANY},
        )
        with pytest.raises(Exception, match="AccessDenied"):
            sessions.client("s3", "mama-mboga")


@pytest.fixture
def aws() -> Iterator[None]:
    with mock_aws():
        yield


def test_the_media_path_runs_through_the_shops_sessions(aws: None) -> None:
    iam = boto3.client("iam", region_name="eu-west-1")
    role = iam.create_role(RoleName="tulia-dev-media", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
    s3 = boto3.client("s3", region_name="eu-west-1")
    create_media_bucket(s3, "tulia-dev-media", "eu-west-1")
    sessions = TenantSessions(
        role, "tulia-dev-media", "eu-west-1", "tulia-dev-", lambda: boto3.client("sts", region_name="eu-west-1")
    )
    store = MediaStore("tulia-dev-media", lambda: s3, scoped=sessions)
    key = store.put(
        "mama-mboga", "conv_1", "wamid.1", data=b"OggS...", content_type="audio/ogg", extension="ogg", kind="audio"
    )
    assert store.get(key) == b"OggS..."
    assert [f["key"] for f in store.list_for("mama-mboga", "conv_1")] == ["mama-mboga/conv_1/wamid.1.ogg"]
    assert set(sessions._sessions) == {"mama-mboga"}  # every call went through the shop's session
    assert store.erase("mama-mboga", "conv_1") == 1
