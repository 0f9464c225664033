"""Buckets, secrets, the staff user pool and the knowledge-base search collection."""

from __future__ import annotations

import json
from typing import Any

from tests.infra.test_functions import _functions, _role_statements, _statements


def _by(t: Any, kind: str, key: str) -> dict[str, dict[str, Any]]:
    return {r["Properties"].get(key, lid): {"id": lid, **r["Properties"]} for lid, r in t.find_resources(kind).items()}


def _bucket_ids(t: Any) -> dict[str, str]:
    """logical id prefix (KnowledgeBase, CheckpointOffload, AccessLogs) -> logical id"""
    out = {}
    for lid in t.find_resources("AWS::S3::Bucket"):
        for name in ("KnowledgeBase", "CheckpointOffload", "AccessLogs"):
            if lid.startswith(f"Buckets{name}"):
                out[name] = lid
    return out


def test_every_bucket_blocks_public_access_is_encrypted_and_refuses_plain_http(dev: Any) -> None:
    buckets = dev.find_resources("AWS::S3::Bucket")
    assert set(_bucket_ids(dev)) == {"KnowledgeBase", "CheckpointOffload", "AccessLogs"}
    for bucket in buckets.values():
        props = bucket["Properties"]
        assert props["PublicAccessBlockConfiguration"] == {
            "BlockPublicAcls": True,
            "BlockPublicPolicy": True,
            "IgnorePublicAcls": True,
            "RestrictPublicBuckets": True,
        }
        rule = props["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]
        assert rule["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
    policies = {
        p["Properties"]["Bucket"]["Ref"]: p["Properties"] for p in dev.find_resources("AWS::S3::BucketPolicy").values()
    }
    for lid in buckets:
        denies = [
            s
            for s in policies[lid]["PolicyDocument"]["Statement"]
            if s["Effect"] == "Deny" and s.get("Condition") == {"Bool": {"aws:SecureTransport": "false"}}
        ]
        assert denies, f"{lid} accepts plain HTTP"


def test_an_upload_to_the_kb_bucket_triggers_ingestion(dev: Any) -> None:
    ids = _bucket_ids(dev)
    notifications = dev.find_resources("Custom::S3BucketNotifications")
    (notification,) = notifications.values()
    assert notification["Properties"]["BucketName"] == {"Ref": ids["KnowledgeBase"]}
    config = notification["Properties"]["NotificationConfiguration"]["LambdaFunctionConfigurations"]
    ingest = _functions(dev)["tulia-dev-kb_ingest"]["id"]
    assert [(c["Events"], c["LambdaFunctionArn"]) for c in config] == [
        (["s3:ObjectCreated:*"], {"Fn::GetAtt": [ingest, "Arn"]})
    ]
    kb = dev.find_resources("AWS::S3::Bucket")[ids["KnowledgeBase"]]["Properties"]
    assert kb["VersioningConfiguration"] == {"Status": "Enabled"}
    assert "LoggingConfiguration" in kb


def test_large_checkpoints_go_to_their_bucket_which_expires_them_as_the_saver_expects(dev: Any) -> None:
    ids = _bucket_ids(dev)
    bucket = dev.find_resources("AWS::S3::Bucket")[ids["CheckpointOffload"]]["Properties"]
    (rule,) = bucket["LifecycleConfiguration"]["Rules"]
    assert rule["Id"] == "root-ttl-expiration-30d"  # the id DynamoDBSaver looks for
    assert rule["TagFilters"] == [{"Key": "ttl-days", "Value": "30"}]
    assert rule["ExpirationInDays"] == 30
    env = _functions(dev)["tulia-dev-agent"]["Environment"]["Variables"]
    assert env["TULIA_CHECKPOINT_BUCKET"] == {"Ref": ids["CheckpointOffload"]}
    agent = str(_role_statements(dev, "tulia-dev-agent"))
    assert "s3:PutObjectTagging" in agent
    assert "s3:PutLifecycleConfiguration" not in agent


def test_secrets_are_named_by_stage_and_each_function_reads_only_its_own(dev: Any) -> None:
    secrets = _by(dev, "AWS::SecretsManager::Secret", "Name")
    assert set(secrets) == {"tulia/dev/meta", "tulia/dev/payments", "tulia/dev/webpush"}
    vapid = secrets["tulia/dev/webpush"]["GenerateSecretString"]  # 43 base64url characters: a P-256 private key
    assert (vapid["GenerateStringKey"], vapid["PasswordLength"], vapid["ExcludePunctuation"]) == (
        "vapid_private_key",
        43,
        True,
    )
    generated = secrets["tulia/dev/meta"]["GenerateSecretString"]
    assert generated["GenerateStringKey"] == "verify_token"
    assert json.loads(generated["SecretStringTemplate"]) == {"app_secret": "", "access_token": ""}
    functions = _functions(dev)
    for name in ("webhook", "agent", "payments"):
        assert functions[f"tulia-dev-{name}"]["Environment"]["Variables"]["TULIA_SECRETS_PREFIX"] == "tulia/dev/"
    meta, payments = secrets["tulia/dev/meta"]["id"], secrets["tulia/dev/payments"]["id"]
    webpush = secrets["tulia/dev/webpush"]["id"]  # staff alerts: the outreach worker signs, the admin API's key
    assert webpush in str(_role_statements(dev, "tulia-dev-agent"))
    assert webpush in str(_role_statements(dev, "tulia-dev-admin"))
    for other in ("webhook", "payments", "kb_ingest"):
        assert webpush not in str(_role_statements(dev, f"tulia-dev-{other}"))
    webhook = str(_role_statements(dev, "tulia-dev-webhook"))
    assert meta in webhook
    assert payments not in webhook
    assert "tenants/*" not in webhook
    payment_fn = str(_role_statements(dev, "tulia-dev-payments"))
    assert payments in payment_fn
    assert ":secret:tulia/dev/tenants/*" in payment_fn
    assert meta not in payment_fn
    admin = str(_role_statements(dev, "tulia-dev-admin"))  # inbox replies; a shop's own payment keys
    assert meta in admin
    assert payments not in admin
    assert "secretsmanager:PutSecretValue" in admin
    assert ":secret:tulia/dev/tenants/*" in admin
    for reader in ("webhook", "agent", "payments"):
        assert "PutSecretValue" not in str(_role_statements(dev, f"tulia-dev-{reader}"))
    assert "secretsmanager" not in str(_role_statements(dev, "tulia-dev-kb_ingest"))


def test_staff_sign_in_with_email_and_cannot_change_their_tenant(dev: Any) -> None:
    (pool,) = dev.find_resources("AWS::Cognito::UserPool").values()
    props = pool["Properties"]
    assert props["UsernameAttributes"] == ["email"]
    assert props["AdminCreateUserConfig"]["AllowAdminCreateUserOnly"] is False  # owners sign up (issue 34)
    assert props["AutoVerifiedAttributes"] == ["email"]
    assert props["VerificationMessageTemplate"]["DefaultEmailOption"] == "CONFIRM_WITH_CODE"
    assert props["Policies"]["PasswordPolicy"]["MinimumLength"] == 12  # the console checks the same rules
    (tenant,) = [a for a in props["Schema"] if a["Name"] == "tenant_id"]
    assert tenant["Mutable"] is False
    (client,) = dev.find_resources("AWS::Cognito::UserPoolClient").values()
    assert "custom:tenant_id" in client["Properties"]["ReadAttributes"]
    assert "custom:tenant_id" not in client["Properties"]["WriteAttributes"]
    assert "email" not in client["Properties"]["WriteAttributes"]  # the staff list's key: nobody renames herself
    assert client["Properties"]["GenerateSecret"] is False
    groups = {g["Properties"]["GroupName"] for g in dev.find_resources("AWS::Cognito::UserPoolGroup").values()}
    assert groups == {"owner", "agent", "platform"}


def test_a_persons_shop_reaches_her_token_only_through_the_trigger_which_reads_only_that_record(dev: Any) -> None:
    (pool,) = dev.find_resources("AWS::Cognito::UserPool").values()
    trigger = pool["Properties"]["LambdaConfig"]["PreTokenGeneration"]
    functions = dev.find_resources("AWS::Lambda::Function")
    (name,) = [n for n, f in functions.items() if f["Properties"].get("FunctionName") == "tulia-dev-token_trigger"]
    assert trigger == {"Fn::GetAtt": [name, "Arn"]}
    assert functions[name]["Properties"]["Handler"] == "handler.handler"
    statements = _role_statements(dev, "tulia-dev-token_trigger")
    reads = [s for s in statements if "dynamodb" in str(s["Action"])]
    assert len(reads) == 1
    assert reads[0]["Action"] == "dynamodb:GetItem"
    assert reads[0]["Condition"] == {"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["PERSON#*"]}}
    assert "secretsmanager" not in str(statements)
    permissions = dev.find_resources("AWS::Lambda::Permission")
    assert any(
        p["Properties"]["Principal"] == "cognito-idp.amazonaws.com"
        and p["Properties"]["FunctionName"] == {"Fn::GetAtt": [name, "Arn"]}
        for p in permissions.values()
    )


def test_the_kb_collection_is_encrypted_and_readable_only_by_the_three_roles(dev: Any) -> None:
    (collection,) = dev.find_resources("AWS::OpenSearchServerless::Collection").values()
    assert (collection["Properties"]["Name"], collection["Properties"]["Type"]) == ("tulia-dev-kb", "VECTORSEARCH")
    policies = _by(dev, "AWS::OpenSearchServerless::SecurityPolicy", "Type")
    encryption = json.loads(policies["encryption"]["Policy"])
    assert encryption["Rules"][0]["Resource"] == ["collection/tulia-dev-kb"]
    assert encryption["AWSOwnedKey"] is True
    assert set(collection["DependsOn"]) == {policies["encryption"]["id"], policies["network"]["id"]}
    (access,) = dev.find_resources("AWS::OpenSearchServerless::AccessPolicy").values()
    text = json.dumps(access["Properties"]["Policy"])
    functions = _functions(dev)
    roles = {name: functions[f"tulia-dev-{name}"]["Role"]["Fn::GetAtt"][0] for name in functions_named(functions)}
    for name in ("agent", "admin", "kb_ingest"):
        assert roles[name] in text
    for name in ("webhook", "payments"):
        assert roles[name] not in text
    for name in ("agent", "admin", "kb_ingest"):
        env = functions[f"tulia-dev-{name}"]["Environment"]["Variables"]
        assert "TULIA_OPENSEARCH_ENDPOINT" in env
        assert "aoss:APIAccessAll" in str(_role_statements(dev, f"tulia-dev-{name}"))
    assert "aoss:" not in str(_role_statements(dev, "tulia-dev-webhook"))


def functions_named(functions: dict[str, Any]) -> list[str]:
    return [name.removeprefix("tulia-dev-") for name in functions if name.startswith("tulia-dev-")]


def test_no_statement_outside_cdk_helpers_grants_every_resource(dev: Any) -> None:
    for statement in _statements(dev):
        resources = statement["Resource"] if isinstance(statement["Resource"], list) else [statement["Resource"]]
        actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        if "*" in resources:  # only X-Ray and Textract's DetectDocumentText (no resource-level permissions: it
            # reads the bytes it is sent), CDK's S3 notification setup and its console deployment's cache invalidation
            allowed = (
                "xray:",
                "textract:DetectDocumentText",
                "s3:PutBucketNotification",
                "cloudfront:CreateInvalidation",
                "cloudfront:GetInvalidation",
            )
            assert all(a.startswith(allowed) for a in actions), actions


def test_the_dashboard_draws_every_business_metric_the_code_publishes(dev: Any) -> None:
    from tulia.observability.metrics import UNITS

    (dashboard,) = dev.find_resources("AWS::CloudWatch::Dashboard").values()
    body = json.dumps(dashboard["Properties"]["DashboardBody"])
    for name in UNITS:
        assert f'\\\\"{name}\\\\"' in body or f'\\"{name}\\"' in body, name
    assert '\\"Tulia\\"' in body
