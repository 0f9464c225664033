"""Tables and queues come from the code's own definitions, with the properties the issue asks for."""

from __future__ import annotations

from typing import Any

import pytest
from aws_cdk.assertions import Match
from infra.config import ContextError

from tests.infra.conftest import synth
from tulia.store.tables import ALL_TABLES


def test_every_table_of_the_code_is_deployed_with_its_keys_ttl_and_indexes(dev: Any) -> None:
    tables = dev.find_resources("AWS::DynamoDB::Table")
    by_name = {t["Properties"]["TableName"]: t["Properties"] for t in tables.values()}
    assert set(by_name) == {f"tulia-dev-{d.logical_name}" for d in ALL_TABLES}
    for d in ALL_TABLES:
        props = by_name[f"tulia-dev-{d.logical_name}"]
        assert props["KeySchema"] == [
            {"AttributeName": d.pk, "KeyType": "HASH"},
            {"AttributeName": d.sk, "KeyType": "RANGE"},
        ]
        assert props["BillingMode"] == "PAY_PER_REQUEST"
        assert props["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
        assert props["SSESpecification"] == {"SSEEnabled": True}
        ttl = props.get("TimeToLiveSpecification")
        assert ttl == ({"AttributeName": d.ttl_attribute, "Enabled": True} if d.ttl_attribute else None)
        assert sorted(g["IndexName"] for g in props.get("GlobalSecondaryIndexes", [])) == sorted(g.name for g in d.gsis)


def test_the_checkpoint_table_has_the_key_schema_dynamodbsaver_expects(dev: Any) -> None:
    dev.has_resource_properties(
        "AWS::DynamoDB::Table",
        {
            "TableName": "tulia-dev-checkpoints",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
            "TimeToLiveSpecification": {"AttributeName": "ttl", "Enabled": True},
        },
    )


def test_prod_keeps_its_data_when_the_stack_is_destroyed(dev: Any, prod: Any) -> None:
    assert {t["DeletionPolicy"] for t in prod.find_resources("AWS::DynamoDB::Table").values()} == {"Retain"}
    assert {t["DeletionPolicy"] for t in dev.find_resources("AWS::DynamoDB::Table").values()} == {"Delete"}


def test_the_inbound_queue_is_fifo_with_a_fifo_dead_letter_queue(dev: Any) -> None:
    queues = dev.find_resources("AWS::SQS::Queue")
    by_name = {q["Properties"]["QueueName"]: (lid, q["Properties"]) for lid, q in queues.items()}
    dlq_id, dlq = by_name["tulia-dev-inbound-dlq.fifo"]
    _, inbound = by_name["tulia-dev-inbound.fifo"]
    assert inbound["FifoQueue"] is True
    assert inbound["ContentBasedDeduplication"] is False  # the code sets deduplication ids
    assert dlq["FifoQueue"] is True
    assert inbound["RedrivePolicy"] == {"deadLetterTargetArn": {"Fn::GetAtt": [dlq_id, "Arn"]}, "maxReceiveCount": 8}
    assert inbound["VisibilityTimeout"] >= 6 * 60  # six times the agent's 60 s timeout
    assert inbound["SqsManagedSseEnabled"] is True
    _, checks = by_name["tulia-dev-payment-checks"]
    assert "FifoQueue" not in checks  # delayed messages need a standard queue
    assert "RedrivePolicy" in checks


def test_every_queue_refuses_plain_http(dev: Any) -> None:
    policies = dev.find_resources("AWS::SQS::QueuePolicy")
    assert len(policies) == 6  # inbound, payment checks, outreach, and their dead-letter queues
    dev.has_resource_properties(
        "AWS::SQS::QueuePolicy",
        {
            "PolicyDocument": {
                "Statement": Match.array_with(
                    [Match.object_like({"Effect": "Deny", "Condition": {"Bool": {"aws:SecureTransport": "false"}}})]
                )
            }
        },
    )


def test_two_stages_have_no_name_in_common(dev: Any, prod: Any) -> None:
    def names(t: Any) -> set[str]:
        out = set()
        for kind, key in (("AWS::DynamoDB::Table", "TableName"), ("AWS::SQS::Queue", "QueueName")):
            out |= {r["Properties"][key] for r in t.find_resources(kind).values()}
        return out

    assert names(dev).isdisjoint(names(prod))


CERT = "arn:aws:acm:eu-west-1:123456789012:certificate/0b5a6f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b"


def test_callbacks_use_the_apis_own_domain_when_given(dev: Any) -> None:
    own = synth(stage="dev", apiDomain="api.dukabora.example", apiCertificateArn=CERT)
    (domain,) = own.find_resources("AWS::ApiGatewayV2::DomainName").values()
    assert domain["Properties"]["DomainName"] == "api.dukabora.example"
    assert domain["Properties"]["DomainNameConfigurations"][0]["CertificateArn"] == CERT
    for fn in own.find_resources("AWS::Lambda::Function").values():
        env = fn["Properties"].get("Environment", {}).get("Variables", {})
        if "TULIA_PUBLIC_BASE_URL" in env:
            assert env["TULIA_PUBLIC_BASE_URL"] == "https://api.dukabora.example"
    assert dev.find_resources("AWS::ApiGatewayV2::DomainName") == {}


@pytest.mark.parametrize(
    ("context", "says"),
    [
        ({}, "context value 'stage' is missing"),
        ({"stage": "staging"}, "context value 'stage' is 'staging'; allowed: dev, prod"),
        (
            {"stage": "dev", "agentBatchSize": "eleven"},
            "'agentBatchSize' is 'eleven'; allowed: a whole number from 1 to 10",
        ),
        ({"stage": "dev", "agentReservedConcurrency": "-1"}, "'agentReservedConcurrency' is '-1'"),
        ({"stage": "dev", "apiDomain": "api.shop.example"}, "'apiDomain' and 'apiCertificateArn' go together"),
        (
            {"stage": "dev", "apiDomain": "pay-mpesa.shop.example", "apiCertificateArn": CERT},
            "Daraja refuses callback URLs with that word",
        ),
        ({"stage": "dev", "apiDomain": "api.shop.example", "apiCertificateArn": "mine"}, "an ACM certificate ARN"),
        ({"stage": "dev", "bundle": "maybe"}, "'bundle' is 'maybe'; allowed: true, false"),
    ],
)
def test_bad_context_stops_synthesis_with_a_message_naming_the_value(context: dict[str, str], says: str) -> None:
    with pytest.raises(ContextError, match=says.replace("(", r"\(").replace(")", r"\)")):
        synth(**context)


def test_the_app_entry_point_refuses_a_missing_stage_in_words(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys

    from tests.infra.conftest import ROOT

    out = subprocess.run(
        [sys.executable, str(ROOT / "infra" / "app.py")],
        capture_output=True,
        text=True,
        env={**os.environ, "CDK_OUTDIR": str(tmp_path)},
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 2
    assert "cdk synth stopped: context value 'stage' is missing" in out.stderr


def test_the_knowledge_base_bucket_is_a_stack_output(dev: Any) -> None:
    outputs = dev.find_outputs("KnowledgeBaseBucket")
    [output] = outputs.values()
    kb = [k for k, v in dev.find_resources("AWS::S3::Bucket").items() if "KnowledgeBase" in k or "Kb" in k]
    assert output["Value"] == {"Ref": kb[0]}
