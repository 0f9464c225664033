"""Lambda functions, their event sources, routes and permissions."""

from __future__ import annotations

from typing import Any


def _functions(t: Any) -> dict[str, dict[str, Any]]:
    return {
        f["Properties"]["FunctionName"]: {"id": lid, **f["Properties"]}
        for lid, f in t.find_resources("AWS::Lambda::Function").items()
        if "FunctionName" in f["Properties"]
    }


def _statements(t: Any) -> list[dict[str, Any]]:
    """Every statement of every inline and managed policy (CDK moves overflow into managed ones)."""
    return [
        statement
        for kind in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy")
        for policy in t.find_resources(kind).values()
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def _role_statements(t: Any, function_name: str) -> list[dict[str, Any]]:
    """The statements of the policies attached to one function's role."""
    role = _functions(t)[function_name]["Role"]["Fn::GetAtt"][0]
    return [
        s
        for kind in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy")
        for p in t.find_resources(kind).values()
        if {"Ref": role} in p["Properties"].get("Roles", [])
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]


def env_of(t: Any, name: str) -> dict[str, Any]:
    return dict(_functions(t)[f"tulia-dev-{name}"]["Environment"]["Variables"])


def _layer_ids(t: Any) -> dict[str, str]:
    return {
        layer["Properties"]["LayerName"]: lid
        for lid, layer in t.find_resources("AWS::Lambda::LayerVersion").items()
        if "LayerName" in layer["Properties"]  # (CDK's console deployment brings its own unnamed AWS CLI layer)
    }


def test_functions_run_python_3_12_on_arm64_with_tracing_and_powertools(dev: Any) -> None:
    functions = _functions(dev)
    assert {"tulia-dev-webhook", "tulia-dev-agent", "tulia-dev-payments"} <= set(functions)
    for name in ("webhook", "agent", "payments"):
        f = functions[f"tulia-dev-{name}"]
        assert (f["Runtime"], f["Architectures"], f["Handler"]) == ("python3.12", ["arm64"], "handler.handler")
        assert f["TracingConfig"] == {"Mode": "Active"}
        env = f["Environment"]["Variables"]
        assert env["POWERTOOLS_SERVICE_NAME"] == f"tulia-{name}"
        assert env["POWERTOOLS_METRICS_NAMESPACE"] == "Tulia"
        assert env["TULIA_TABLE_PREFIX"] == "tulia-dev-"
        assert "TULIA_INBOUND_QUEUE_URL" in env
        assert env["TULIA_WHATSAPP_API_BASE"] == "https://graph.facebook.com/v21.0"
        assert env["TULIA_MPESA_API_BASE"] == "https://sandbox.safaricom.co.ke"  # dev: the sandboxes
    assert (functions["tulia-dev-agent"]["MemorySize"], functions["tulia-dev-agent"]["Timeout"]) == (1024, 60)
    assert functions["tulia-dev-agent"]["Environment"]["Variables"]["TULIA_LLM"] == "bedrock"


def test_each_function_carries_only_the_layers_it_imports(dev: Any) -> None:
    functions, layers = _functions(dev), _layer_ids(dev)
    base, agent, documents, search, alerts, sheets = (
        {"Ref": layers[f"tulia-dev-{name}-deps"]}
        for name in ("base", "agent", "documents", "search", "alerts", "sheets")
    )
    assert functions["tulia-dev-webhook"]["Layers"] == [base]  # the webhook never carries LangGraph
    assert functions["tulia-dev-payments"]["Layers"] == [base]
    assert functions["tulia-dev-agent"]["Layers"] == [base, agent, search, alerts]  # alerts: Web Push to staff
    # erasure deletes checkpoints; sheets: Excel catalog imports (Lambda's limit is five layers)
    assert functions["tulia-dev-admin"]["Layers"] == [base, agent, search, alerts, sheets]
    assert functions["tulia-dev-kb_ingest"]["Layers"] == [base, agent, documents, search]  # Titan via langchain-aws


def test_the_agent_reads_the_inbound_queue_with_partial_batch_failures(dev: Any) -> None:
    queues = {q["Properties"]["QueueName"]: lid for lid, q in dev.find_resources("AWS::SQS::Queue").items()}
    functions = _functions(dev)
    dev.has_resource_properties(
        "AWS::Lambda::EventSourceMapping",
        {
            "EventSourceArn": {"Fn::GetAtt": [queues["tulia-dev-inbound.fifo"], "Arn"]},
            "FunctionName": {"Ref": functions["tulia-dev-agent"]["id"]},
            "BatchSize": 10,
            "FunctionResponseTypes": ["ReportBatchItemFailures"],
        },
    )
    # SQS FIFO event sources have no batching window: the agent waits for quick messages itself
    [inbound_mapping] = [
        m["Properties"]
        for m in dev.find_resources("AWS::Lambda::EventSourceMapping").values()
        if m["Properties"]["EventSourceArn"] == {"Fn::GetAtt": [queues["tulia-dev-inbound.fifo"], "Arn"]}
    ]
    assert "MaximumBatchingWindowInSeconds" not in inbound_mapping
    env = _functions(dev)["tulia-dev-agent"]["Environment"]["Variables"]
    assert "TULIA_AGENT_BATCH_WINDOW_SECONDS" not in env  # the product's default quiet time, as locally
    # broadcast batches and reminders: one per invocation, paced by the outreach queue's delays
    dev.has_resource_properties(
        "AWS::Lambda::EventSourceMapping",
        {
            "EventSourceArn": {"Fn::GetAtt": [queues["tulia-dev-outreach"], "Arn"]},
            "FunctionName": {"Ref": functions["tulia-dev-agent"]["id"]},
            "BatchSize": 1,
            "FunctionResponseTypes": ["ReportBatchItemFailures"],
        },
    )


def test_reserved_concurrency_and_batch_size_come_from_context() -> None:
    from tests.infra.conftest import synth

    t = synth(stage="dev", agentReservedConcurrency="7", agentBatchSize="5")
    assert _functions(t)["tulia-dev-agent"]["ReservedConcurrentExecutions"] == 7
    t.has_resource_properties("AWS::Lambda::EventSourceMapping", {"BatchSize": 5})


PUBLIC_ROUTES = {
    "GET /webhooks/whatsapp",
    "POST /webhooks/whatsapp",
    "GET /payments/{proxy+}",
    "POST /payments/{proxy+}",
    "GET /admin/openapi.json",  # the admin API's description: no data
}
ADMIN_ROUTES = {"ANY /admin", "ANY /admin/{proxy+}"}


def test_public_routes_have_no_authorizer_and_every_admin_route_has_the_staff_jwt(dev: Any) -> None:
    routes = {
        r["Properties"]["RouteKey"]: r["Properties"] for r in dev.find_resources("AWS::ApiGatewayV2::Route").values()
    }
    assert set(routes) == PUBLIC_ROUTES | ADMIN_ROUTES
    assert {routes[k].get("AuthorizationType", "NONE") for k in PUBLIC_ROUTES} == {"NONE"}
    authorizers = dev.find_resources("AWS::ApiGatewayV2::Authorizer")
    assert len(authorizers) == 1
    ((authorizer_id, authorizer),) = authorizers.items()
    for key in ADMIN_ROUTES:
        assert routes[key]["AuthorizationType"] == "JWT"
        assert routes[key]["AuthorizerId"] == {"Ref": authorizer_id}
    jwt = authorizer["Properties"]["JwtConfiguration"]
    clients = dev.find_resources("AWS::Cognito::UserPoolClient")
    assert jwt["Audience"] == [{"Ref": next(iter(clients))}]
    pool = next(iter(dev.find_resources("AWS::Cognito::UserPool")))
    assert "cognito-idp" in str(jwt["Issuer"])
    assert pool in str(jwt["Issuer"])
    assert authorizer["Properties"]["IdentitySource"] == ["$request.header.Authorization"]


def test_the_api_is_throttled(dev: Any) -> None:
    dev.has_resource_properties(
        "AWS::ApiGatewayV2::Stage",
        {"DefaultRouteSettings": {"ThrottlingRateLimit": 20, "ThrottlingBurstLimit": 40}},
    )


def test_no_policy_grants_wildcard_actions_or_resources_on_data(dev: Any) -> None:
    statements = _statements(dev)
    assert len(statements) > 20
    for statement in statements:
        actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
        assert "*" not in actions
        assert not any(a.endswith(":*") for a in actions if a.startswith(("dynamodb", "sqs")))
        if any(a.startswith("dynamodb:") for a in actions):
            resources = statement["Resource"] if isinstance(statement["Resource"], list) else [statement["Resource"]]
            assert "*" not in resources


def test_the_webhook_may_not_touch_orders_or_customers(dev: Any) -> None:
    tables = {t["Properties"]["TableName"]: lid for lid, t in dev.find_resources("AWS::DynamoDB::Table").items()}
    text = str(_role_statements(dev, "tulia-dev-webhook"))
    assert tables["tulia-dev-messages"] in text
    assert tables["tulia-dev-orders"] not in text
    assert tables["tulia-dev-customers"] not in text


def test_the_agent_and_the_trial_chat_may_invoke_only_the_configured_bedrock_models(dev: Any) -> None:
    statements = [
        s
        for s in _statements(dev)
        if "bedrock:InvokeModel" in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])
    ]
    chat = [s for s in statements if "InvokeModelWithResponseStream" in str(s["Action"])]
    embed = [s for s in statements if s not in chat]
    assert len(chat) == 2  # the agent, and the admin function (the console's trial chat runs the engine)
    assert chat[0] == chat[1]
    # the agent and the admin function (questions) and kb_ingest (chunks) embed with Titan v2 in the
    # stack's region, nothing else
    assert len(embed) == 3
    for statement in embed:
        assert statement["Action"] == "bedrock:InvokeModel"
        assert "foundation-model/amazon.titan-embed-text-v2:0" in str(statement["Resource"])
        assert "AWS::Region" in str(statement["Resource"])
    for name in ("agent", "kb_ingest", "admin"):
        env = _functions(dev)[f"tulia-dev-{name}"]["Environment"]["Variables"]
        assert env["TULIA_EMBEDDINGS"] == "bedrock"
        assert env["TULIA_BEDROCK_EMBEDDING_MODEL"] == "amazon.titan-embed-text-v2:0"
    resources = str(chat[0]["Resource"])
    assert "inference-profile/eu.amazon.nova-micro-v1:0" in resources
    assert "foundation-model/amazon.nova-lite-v1:0" in resources
    assert "'*'" not in resources
    for name in ("agent", "admin"):
        env = _functions(dev)[f"tulia-dev-{name}"]["Environment"]["Variables"]
        assert (env["TULIA_LLM"], env["TULIA_BEDROCK_CLASSIFIER_MODEL"]) == ("bedrock", "eu.amazon.nova-micro-v1:0")
    assert "TULIA_LLM" not in _functions(dev)["tulia-dev-webhook"]["Environment"]["Variables"]


def test_alarms_watch_dead_letters_errors_throttles_slow_turns_and_5xx(dev: Any) -> None:
    alarms = {
        a["Properties"]["AlarmName"]: a["Properties"] for a in dev.find_resources("AWS::CloudWatch::Alarm").values()
    }
    expected = {
        "tulia-dev-inbound-dlq-not-empty",
        "tulia-dev-payment-checks-dlq-not-empty",
        "tulia-dev-outreach-dlq-not-empty",
        "tulia-dev-agent-near-timeout",
        "tulia-dev-api-5xx",
        "tulia-dev-model-budget-exceeded",
    } | {
        f"tulia-dev-{f}-{kind}"
        for f in ("webhook", "agent", "payments", "admin", "kb_ingest")
        for kind in ("errors", "throttles")
    }
    assert set(alarms) == expected
    assert alarms["tulia-dev-inbound-dlq-not-empty"]["MetricName"] == "ApproximateNumberOfMessagesVisible"
    assert alarms["tulia-dev-inbound-dlq-not-empty"]["Threshold"] == 0
    assert alarms["tulia-dev-agent-near-timeout"]["Threshold"] == 48_000  # 80 % of 60 s
    assert alarms["tulia-dev-api-5xx"]["MetricName"] == "5xx"
    budget = alarms["tulia-dev-model-budget-exceeded"]  # a shop's model spend of the day ran out
    assert (budget["Namespace"], budget["MetricName"], budget["Threshold"]) == ("Tulia", "ModelBudgetExceeded", 0)
    assert all(a["AlarmActions"] for a in alarms.values())  # every alarm notifies the stage's topic


def test_the_admin_function_reaches_the_shop_data_uploads_inbox_replies_and_sends_only_to_the_agent(
    dev: Any,
) -> None:
    tables = {t["Properties"]["TableName"]: lid for lid, t in dev.find_resources("AWS::DynamoDB::Table").items()}
    admin = str(_role_statements(dev, "tulia-dev-admin"))
    for name in (
        "tenants",
        "customers",
        "catalog",
        "offers",
        "orders",
        "bookings",
        "handoffs",
        "kb",
        "audit",
        "stats",
        "checkpoints",
    ):
        assert tables[f"tulia-dev-{name}"] in admin, name
    statements = _role_statements(dev, "tulia-dev-admin")
    on_messages = [s for s in statements if tables["tulia-dev-messages"] in str(s["Resource"])]
    # when customers last wrote (the 24-hour window) is read; the conversations staff read are written too (a
    # person's replies and notes, taking a conversation over, an erasure deleting a customer's conversation)
    writes = {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"}
    assert writes <= {a for s in on_messages for a in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])}
    queues = {q["Properties"]["QueueName"]: lid for lid, q in dev.find_resources("AWS::SQS::Queue").items()}
    on_queues = [s for s in statements if "sqs:" in str(s["Action"])]
    # order updates to the agent's queue, a broadcast's first batch to the outreach queue, a changed
    # Paybill/Till to the payment checks (the payments function registers it); nothing else
    assert sorted(q for q in queues if queues[q] in str(on_queues)) == [
        "tulia-dev-inbound.fifo",
        "tulia-dev-outreach",
        "tulia-dev-payment-checks",
    ]
    assert "sqs:ReceiveMessage" not in str(on_queues)
    assert {"TULIA_INBOUND_QUEUE_URL", "TULIA_OUTREACH_QUEUE_URL"} <= set(env_of(dev, "admin"))
    assert "'s3:PutObject', 's3:DeleteObject'" in admin  # presigned uploads, deleted documents
    env = _functions(dev)["tulia-dev-admin"]["Environment"]["Variables"]
    assert env["TULIA_WHATSAPP_API_BASE"] == "https://graph.facebook.com/v21.0"
    assert env["TULIA_SECRETS_PREFIX"] == "tulia/dev/"
    assert {"TULIA_KB_BUCKET", "TULIA_CHECKPOINT_BUCKET", "TULIA_PUBLIC_BASE_URL"} <= set(env)
    # the agent counts the day's figures the admin API reads
    assert tables["tulia-dev-stats"] in str(_role_statements(dev, "tulia-dev-agent"))
    # appointments: the agent holds and books them, a deposit's payment confirms its booking
    for function in ("tulia-dev-agent", "tulia-dev-payments"):
        assert tables["tulia-dev-bookings"] in str(_role_statements(dev, function)), function


def _media_bucket(t: Any) -> tuple[str, dict[str, Any]]:
    [(lid, bucket)] = [(k, v) for k, v in t.find_resources("AWS::S3::Bucket").items() if "CustomerMedia" in k]
    return lid, bucket["Properties"]


def test_customers_files_are_kept_encrypted_for_30_days_in_a_private_bucket(dev: Any) -> None:
    _lid, bucket = _media_bucket(dev)
    [rule] = bucket["LifecycleConfiguration"]["Rules"]
    assert (rule["ExpirationInDays"], rule["Status"]) == (30, "Enabled")
    assert "Prefix" not in rule
    assert "TagFilters" not in rule
    sse = bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["ServerSideEncryptionByDefault"]
    assert sse["SSEAlgorithm"] == "AES256"
    assert bucket["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    assert bucket["LoggingConfiguration"]["LogFilePrefix"] == "media/"
    policies = [
        p["Properties"]["PolicyDocument"]["Statement"]
        for p in dev.find_resources("AWS::S3::BucketPolicy").values()
        if p["Properties"]["Bucket"] == {"Ref": _lid}
    ]
    assert any(s["Effect"] == "Deny" and "aws:SecureTransport" in str(s["Condition"]) for s in policies[0])


def _media_role(t: Any) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    [(lid, role)] = [(k, v["Properties"]) for k, v in t.find_resources("AWS::IAM::Role").items() if "MediaAccess" in k]
    statements = [
        s
        for kind in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy")
        for p in t.find_resources(kind).values()
        if {"Ref": lid} in p["Properties"].get("Roles", [])
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]
    return lid, role, statements


def test_customers_files_are_reached_only_through_the_media_role_one_shop_at_a_time(dev: Any) -> None:
    bucket, _ = _media_bucket(dev)
    role_id, role, statements = _media_role(dev)
    # the role holds the media rights; the agent and the admin function may only assume it (store/scoped names the
    # shop's prefix in each session's policy)
    on_media = sorted((sorted(s["Action"]) if isinstance(s["Action"], list) else [s["Action"]]) for s in statements)
    assert on_media == [
        ["s3:DeleteObject", "s3:GetObject", "s3:PutObject"],
        ["s3:ListBucket"],
        ["transcribe:StartTranscriptionJob"],
    ]
    trusted = str(role["AssumeRolePolicyDocument"])
    functions = _functions(dev)
    for name in ("agent", "admin"):
        fn_role = functions[f"tulia-dev-{name}"]["Role"]["Fn::GetAtt"][0]
        assert fn_role in trusted, name
        mine = _role_statements(dev, f"tulia-dev-{name}")
        assert not [s for s in mine if bucket in str(s["Resource"])], name  # no media rights of its own
        assert [s["Action"] for s in mine if role_id in str(s["Resource"])] == ["sts:AssumeRole"], name
        assert env_of(dev, name)["TULIA_MEDIA_ROLE_ARN"] == {"Fn::GetAtt": [role_id, "Arn"]}
        assert env_of(dev, name)["TULIA_MEDIA_BUCKET"] == {"Ref": bucket}
    for name in ("webhook", "payments", "kb_ingest", "token_trigger"):
        fn_role = functions[f"tulia-dev-{name}"]["Role"]["Fn::GetAtt"][0]
        assert fn_role not in trusted, name
    [textract] = [s for s in _role_statements(dev, "tulia-dev-agent") if "textract" in str(s["Action"])]
    assert textract["Action"] == "textract:DetectDocumentText"  # the bytes it is sent; nothing else of Textract
    env = env_of(dev, "agent")
    assert (env["TULIA_PICTURE_READER"], env["TULIA_BEDROCK_VISION_MODEL"]) == ("textract", "eu.amazon.nova-lite-v1:0")


def test_voice_notes_are_transcribed_by_jobs_of_the_stage_and_their_completion_reaches_the_agent(dev: Any) -> None:
    _role_id, _role, statements = _media_role(dev)
    [start] = [s for s in statements if "transcribe" in str(s["Action"])]
    assert start["Action"] == "transcribe:StartTranscriptionJob"  # nothing else of Transcribe
    assert ":transcription-job/tulia-dev-*" in str(start["Resource"])  # the stage's jobs (a session: one shop's)
    assert "transcribe" not in str(_role_statements(dev, "tulia-dev-agent"))
    [rule] = [r["Properties"] for r in dev.find_resources("AWS::Events::Rule").values() if "transcri" in str(r)]
    assert rule["EventPattern"] == {
        "source": ["aws.transcribe"],
        "detail-type": ["Transcribe Job State Change"],
        "detail": {
            "TranscriptionJobStatus": ["COMPLETED", "FAILED"],
            "TranscriptionJobName": [{"prefix": "tulia-dev-"}],
        },
    }
    [target] = rule["Targets"]
    agent_id = _functions(dev)["tulia-dev-agent"]["id"]
    assert agent_id in str(target["Arn"])
    assert target["RetryPolicy"]["MaximumRetryAttempts"] == 4
    assert "DeadLetterConfig" in target  # an event the agent keeps failing on is kept, with an alarm
    invoke = [
        p["Properties"]
        for p in dev.find_resources("AWS::Lambda::Permission").values()
        if p["Properties"]["Principal"] == "events.amazonaws.com"
    ]
    assert any(agent_id in str(p["FunctionName"]) for p in invoke)


def test_items_pictures_are_kept_by_the_admin_and_served_by_the_consoles_cloudfront(dev: Any) -> None:
    [(lid, bucket)] = [
        (k, v["Properties"]) for k, v in dev.find_resources("AWS::S3::Bucket").items() if "ItemPictures" in k
    ]
    assert bucket["PublicAccessBlockConfiguration"]["BlockPublicPolicy"] is True  # public only through CloudFront
    env = env_of(dev, "admin")
    assert env["TULIA_PICTURES_BUCKET"] == {"Ref": lid}
    assert "TULIA_PICTURES_BASE_URL" in env
    admin = [s for s in _role_statements(dev, "tulia-dev-admin") if lid in str(s["Resource"])]
    assert [sorted(s["Action"]) for s in admin] == [["s3:DeleteObject", "s3:PutObject"]]
    assert "/pictures/*" in str(admin[0]["Resource"])
    for name in ("agent", "webhook", "payments", "kb_ingest"):
        assert not [s for s in _role_statements(dev, f"tulia-dev-{name}") if lid in str(s["Resource"])], name
    [distribution] = [
        d["Properties"]["DistributionConfig"] for d in dev.find_resources("AWS::CloudFront::Distribution").values()
    ]
    [pictures] = [b for b in distribution["CacheBehaviors"] if b["PathPattern"] == "/pictures/*"]
    assert pictures["ViewerProtocolPolicy"] == "redirect-to-https"
    assert pictures["AllowedMethods"] == ["GET", "HEAD"]
    origin = next(o for o in distribution["Origins"] if o["Id"] == pictures["TargetOriginId"])
    assert lid in str(origin["DomainName"])
    assert "OriginAccessControlId" in origin
