"""The whole of Tulia in one stack per stage."""

from __future__ import annotations

import json
from typing import Any

from aws_cdk import Annotations, CfnOutput, Duration, RemovalPolicy, Stack, Tags
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_certificatemanager as acm
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_notifications as s3n
from constructs import Construct

from infra.auth import StaffAuth
from infra.config import StageConfig
from infra.console import Console
from infra.credentials import Secrets
from infra.data import DataTables, Queues
from infra.functions import FunctionSpec, function, layer
from infra.monitoring import Alarms, Dashboard
from infra.search import KnowledgeSearch
from infra.storage import Buckets
from tulia.admin.api import OPENAPI_PATH
from tulia.store.queues import INBOUND, OUTREACH, PAYMENT_CHECKS


class TuliaStack(Stack):
    def __init__(self, scope: Construct, cid: str, *, config: StageConfig, **kwargs: Any) -> None:
        super().__init__(scope, cid, **kwargs)
        self.config = config
        Tags.of(self).add("app", "tulia")
        Tags.of(self).add("stage", config.stage)
        self.tables = DataTables(self, "Tables", config=config)
        self.queues = Queues(
            self,
            "Queues",
            config=config,
            consumer_timeouts={
                INBOUND.logical_name: Duration.seconds(config.agent.timeout_seconds),
                OUTREACH.logical_name: Duration.seconds(config.agent.timeout_seconds),
                PAYMENT_CHECKS.logical_name: Duration.seconds(config.payments.timeout_seconds),
            },
        )

        self.buckets = Buckets(self, "Buckets", config=config)
        self.secrets = Secrets(self, "Secrets", config=config)
        self.auth = StaffAuth(self, "Staff", config=config)
        self.layers = {
            name: layer(self, f"{name.title()}Layer", name, config)
            for name in ("base", "agent", "documents", "search", "alerts", "sheets")
        }
        self.api = apigw.HttpApi(
            self,
            "Api",
            api_name=config.name("api"),
            description="WhatsApp webhooks, payment callbacks and the admin API",
        )
        stage = self.api.default_stage.node.default_child  # throttling and access logs of the $default stage
        stage.add_property_override(
            "DefaultRouteSettings",
            {"ThrottlingRateLimit": config.api_rate_limit, "ThrottlingBurstLimit": config.api_burst_limit},
        )
        access_logs = logs.LogGroup(
            self,
            "ApiAccessLogs",
            log_group_name=f"/aws/apigateway/{config.name('api')}",
            retention=logs.RetentionDays.ONE_MONTH if config.retain_data else logs.RetentionDays.ONE_WEEK,
            removal_policy=RemovalPolicy.RETAIN if config.retain_data else RemovalPolicy.DESTROY,
        )
        stage.access_log_settings = apigw.CfnStage.AccessLogSettingsProperty(
            destination_arn=access_logs.log_group_arn,
            # no query strings or bodies: they can carry phone numbers
            format=json.dumps(
                {
                    "requestId": "$context.requestId",
                    "time": "$context.requestTime",
                    "method": "$context.httpMethod",
                    "route": "$context.routeKey",
                    "status": "$context.status",
                    "latencyMs": "$context.responseLatency",
                    "integrationError": "$context.integrationErrorMessage",
                    "sourceIp": "$context.identity.sourceIp",
                }
            ),
        )
        self.public_base_url = self.api.api_endpoint
        if config.api_domain and config.api_certificate_arn:
            domain = apigw.DomainName(
                self,
                "ApiDomain",
                domain_name=config.api_domain,
                certificate=acm.Certificate.from_certificate_arn(self, "ApiCertificate", config.api_certificate_arn),
            )
            apigw.ApiMapping(self, "ApiMapping", api=self.api, domain_name=domain)
            self.public_base_url = f"https://{config.api_domain}"
            CfnOutput(
                self, "ApiDomainTarget", value=domain.regional_domain_name, description="CNAME target of apiDomain"
            )
        else:
            Annotations.of(self).add_warning(
                "No apiDomain: callback URLs use API Gateway's execute-api host, which Daraja refuses "
                "(M-Pesa needs --context apiDomain=... --context apiCertificateArn=..., see docs/deploy.md)."
            )
        CfnOutput(self, "PublicBaseUrl", value=self.public_base_url, description="Webhook and callback base URL")
        CfnOutput(
            self,
            "KnowledgeBaseBucket",
            value=self.buckets.kb.bucket_name,
            description="Where shop documents go (TULIA_KB_BUCKET for tulia seed); kb_ingest indexes them",
        )
        inbound = self.queues[INBOUND.logical_name]
        checks = self.queues[PAYMENT_CHECKS.logical_name]
        outreach = self.queues[OUTREACH.logical_name]
        common = {
            "TULIA_INBOUND_QUEUE_URL": inbound.queue_url,
            "TULIA_OUTREACH_QUEUE_URL": outreach.queue_url,
            "TULIA_PUBLIC_BASE_URL": self.public_base_url,
            "TULIA_WHATSAPP_API_BASE": config.whatsapp_api_base,
            "TULIA_MPESA_API_BASE": config.mpesa_api_base,
            "TULIA_PESAPAL_API_BASE": config.pesapal_api_base,
        }
        with_secrets = {**common, "TULIA_SECRETS_PREFIX": self.secrets.prefix}
        # the knowledge base's vectors: Titan v2 for both the chunks (kb_ingest) and the questions (agent)
        embeddings = {"TULIA_EMBEDDINGS": "bedrock", "TULIA_BEDROCK_EMBEDDING_MODEL": config.embedding_model}

        def make(spec: FunctionSpec, env: dict[str, str]) -> Any:
            return function(
                self, spec.name.title().replace("_", ""), spec, config=config, layers=self.layers, environment=env
            )

        self.webhook = make(
            FunctionSpec("webhook", config.webhook, ("base",), "Meta webhook: verify, parse, dedupe, enqueue"),
            with_secrets,
        )
        self.agent = make(
            FunctionSpec(
                "agent",
                config.agent,
                ("base", "agent", "search", "alerts"),
                "Conversation turns: LangGraph, tools, replies",
            ),
            {
                **with_secrets,
                **embeddings,
                "TULIA_CHECKPOINT_BUCKET": self.buckets.checkpoints.bucket_name,
                "TULIA_MEDIA_BUCKET": self.buckets.media.bucket_name,  # customers' photos and voice notes
                "TULIA_PICTURE_READER": "textract",  # M-Pesa screenshots
            },
        )
        self.payments = make(
            FunctionSpec("payments", config.payments, ("base",), "Daraja and PesaPal callbacks, STK checks"),
            with_secrets,
        )
        self.admin = make(
            # the agent layer: erasing a customer deletes their conversation checkpoints (LangGraph's saver);
            # sheets: Excel catalog imports
            FunctionSpec(
                "admin",
                config.admin,
                ("base", "agent", "search", "alerts", "sheets"),
                "Admin API for shop staff (Cognito JWT)",
            ),
            {
                "TULIA_PUBLIC_BASE_URL": self.public_base_url,
                "TULIA_WHATSAPP_API_BASE": config.whatsapp_api_base,  # replies from the handoff inbox, templates
                "TULIA_INBOUND_QUEUE_URL": inbound.queue_url,  # order updates go to the agent to be sent
                "TULIA_OUTREACH_QUEUE_URL": outreach.queue_url,  # broadcasts, sent paced by the agent
                "TULIA_SECRETS_PREFIX": self.secrets.prefix,
                "TULIA_KB_BUCKET": self.buckets.kb.bucket_name,
                "TULIA_CHECKPOINT_BUCKET": self.buckets.checkpoints.bucket_name,
                "TULIA_MEDIA_BUCKET": self.buckets.media.bucket_name,  # a customer's export and erasure
                "TULIA_STAFF_USER_POOL_ID": self.auth.pool.user_pool_id,  # owners invite and remove staff
                # shops connect their WhatsApp number in the console (Meta's Embedded Signup), when configured
                **(
                    {
                        "TULIA_META_APP_ID": config.meta_app_id,
                        "TULIA_META_EMBEDDED_SIGNUP_CONFIG_ID": config.embedded_signup_config_id,
                    }
                    if config.meta_app_id and config.embedded_signup_config_id
                    else {}
                ),
                **embeddings,  # the console's "try a question" asks the knowledge base as the agent does
            },
        )
        self.kb_ingest = make(
            # the agent layer carries langchain-aws (Titan embeddings)
            FunctionSpec(
                "kb_ingest",
                config.kb_ingest,
                ("base", "agent", "documents", "search"),
                "KB uploads -> chunks, embeddings and the search index",
            ),
            {**embeddings, "TULIA_KB_BUCKET": self.buckets.kb.bucket_name},
        )
        self.buckets.kb.add_event_notification(s3.EventType.OBJECT_CREATED, s3n.LambdaDestination(self.kb_ingest))
        self.token_trigger = make(
            FunctionSpec(
                "token_trigger", config.token_trigger, ("base",), "Staff pool: the shop a person made, into her token"
            ),
            {},
        )
        self.auth.pool.add_trigger(cognito.UserPoolOperation.PRE_TOKEN_GENERATION, self.token_trigger)
        # it reads one kind of item only: the shop a person made (PERSON#<sub>), never a shop's own data
        self.token_trigger.add_to_role_policy(
            iam.PolicyStatement(
                actions=["dynamodb:GetItem"],
                resources=[self.tables["tenants"].table_arn],
                conditions={"ForAllValues:StringLike": {"dynamodb:LeadingKeys": ["PERSON#*"]}},
            )
        )
        self.agent.add_event_source(
            sources.SqsEventSource(
                inbound,
                batch_size=config.agent_batch_size,
                report_batch_item_failures=True,  # partial batch failures: only failed messages return
            )
        )
        # broadcast batches and unpaid reminders: one at a time per invocation, paced by the queue's delays
        self.agent.add_event_source(sources.SqsEventSource(outreach, batch_size=1, report_batch_item_failures=True))
        self.payments.add_event_source(sources.SqsEventSource(checks, batch_size=10, report_batch_item_failures=True))

        # data access: each function only what it uses
        t = self.tables
        for name in ("tenants", "messages"):
            t[name].grant_read_write_data(self.webhook)
        inbound.grant_send_messages(self.webhook)
        for name in (
            "tenants",
            "customers",
            "catalog",
            "offers",
            "orders",
            "bookings",
            "handoffs",
            "kb",
            "messages",
            "checkpoints",
            "stats",
        ):
            t[name].grant_read_write_data(self.agent)
        checks.grant_send_messages(self.agent)
        outreach.grant_send_messages(self.agent)  # the next batch of a broadcast, a reminder not yet due
        # a turn that fails every delivery is set aside by the agent itself, so its customer is not held
        self.queues.dead_letters[INBOUND.logical_name].grant_send_messages(self.agent)
        # a deposit's payment confirms its booking in the same transaction
        for name in ("tenants", "customers", "orders", "bookings", "handoffs", "messages"):  # messages: staff alerts
            t[name].grant_read_write_data(self.payments)
        inbound.grant_send_messages(self.payments)
        checks.grant_send_messages(self.payments)
        outreach.grant_send_messages(self.payments)  # money in: the staff alerts, delivered by the outreach worker
        for name in ("tenants", "kb"):
            t[name].grant_read_write_data(self.kb_ingest)
        self.kb_ingest.add_to_role_policy(
            iam.PolicyStatement(actions=["s3:GetObject"], resources=[self.buckets.kb.arn_for_objects("*")])
        )
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
            "checkpoints",  # a customer's export and erasure
        ):
            t[name].grant_read_write_data(self.admin)
        # when each customer last wrote (WhatsApp's 24-hour window); the conversations staff read, and what they add
        # to them (replies, notes, taking over), the alerts they mark seen
        t["messages"].grant_read_write_data(self.admin)
        inbound.grant_send_messages(self.admin)
        outreach.grant_send_messages(self.admin)  # a broadcast's first batch
        checks.grant_send_messages(self.admin)  # a changed Paybill/Till: the payments function registers it
        # presigned upload URLs are signed with the admin's role; deleting a document deletes its file
        self.admin.add_to_role_policy(
            iam.PolicyStatement(
                actions=["s3:PutObject", "s3:DeleteObject"], resources=[self.buckets.kb.arn_for_objects("*")]
            )
        )
        self.admin.add_to_role_policy(  # erasure: the conversation's offloaded checkpoints
            iam.PolicyStatement(
                actions=["s3:GetObject", "s3:DeleteObject"], resources=[self.buckets.checkpoints.arn_for_objects("*")]
            )
        )
        self.admin.add_to_role_policy(
            iam.PolicyStatement(
                actions=["s3:GetLifecycleConfiguration"], resources=[self.buckets.checkpoints.bucket_arn]
            )
        )

        # customers' files and their voice notes' Transcribe jobs: reached only through the media role, one shop's
        # session at a time (tulia.store.scoped: the session policy names that shop's prefix and jobs), so S3 itself
        # refuses another shop's key; the agent (keeps, reads, transcribes) and the admin function (a customer's
        # export and erasure) may assume it and hold no media rights of their own. Transcribe reads the kept file
        # and writes the transcript beside it with the session's rights. Textract reads the bytes it is sent
        # (DetectDocumentText has no resource to scope to).
        self.media_role = iam.Role(
            self,
            "MediaAccess",
            assumed_by=iam.CompositePrincipal(
                iam.ArnPrincipal(self.agent.role.role_arn), iam.ArnPrincipal(self.admin.role.role_arn)
            ),
            description="Customers' files and transcription jobs, through per-shop session policies",
            max_session_duration=Duration.hours(1),
        )
        self.media_role.add_to_policy(
            iam.PolicyStatement(
                actions=["s3:PutObject", "s3:GetObject", "s3:DeleteObject"],
                resources=[self.buckets.media.arn_for_objects("*")],
            )
        )
        self.media_role.add_to_policy(
            iam.PolicyStatement(actions=["s3:ListBucket"], resources=[self.buckets.media.bucket_arn])
        )
        self.media_role.add_to_policy(
            iam.PolicyStatement(
                actions=["transcribe:StartTranscriptionJob"],
                resources=[
                    f"arn:{self.partition}:transcribe:{self.region}:{self.account}:"
                    f"transcription-job/{config.table_prefix}*"
                ],
            )
        )
        for reaches_media in (self.agent, self.admin):
            self.media_role.grant_assume_role(reaches_media.role)
            reaches_media.add_environment("TULIA_MEDIA_ROLE_ARN", self.media_role.role_arn)
        self.agent.add_to_role_policy(iam.PolicyStatement(actions=["textract:DetectDocumentText"], resources=["*"]))
        # voice notes' completion comes back to the agent through EventBridge
        transcripts = events.Rule(
            self,
            "TranscriptsReady",
            rule_name=f"{config.table_prefix}transcripts-ready",
            description="A voice note's transcript (or its failure): the customer's next turn",
            event_pattern=events.EventPattern(
                source=["aws.transcribe"],
                detail_type=["Transcribe Job State Change"],
                detail={
                    "TranscriptionJobStatus": ["COMPLETED", "FAILED"],
                    "TranscriptionJobName": [{"prefix": config.table_prefix}],
                },
            ),
        )
        # an event the agent failed on after EventBridge's retries waits in the outreach dead-letter queue (its alarm)
        transcripts.add_target(
            targets.LambdaFunction(
                self.agent,
                retry_attempts=4,
                max_event_age=Duration.hours(1),
                dead_letter_queue=self.queues.dead_letters[OUTREACH.logical_name],
            )
        )

        # checkpoints too large for DynamoDB: objects only (the lifecycle rule is the stack's)
        self.agent.add_to_role_policy(
            iam.PolicyStatement(
                actions=["s3:GetObject", "s3:PutObject", "s3:PutObjectTagging", "s3:DeleteObject"],
                resources=[self.buckets.checkpoints.arn_for_objects("*")],
            )
        )
        self.agent.add_to_role_policy(
            iam.PolicyStatement(
                actions=["s3:GetLifecycleConfiguration"], resources=[self.buckets.checkpoints.bucket_arn]
            )
        )
        self.secrets.grant(self.webhook, meta=True)
        self.secrets.grant(self.agent, meta=True, payments=True, tenants=True, webpush=True)
        self.secrets.grant(self.payments, payments=True, tenants=True)
        # staff reply from the inbox (Meta token) and set their shop's payment keys (tenant secrets)
        self.secrets.grant(self.admin, meta=True, tenants=True, tenants_write=True, webpush=True)

        webhook = integrations.HttpLambdaIntegration("WebhookIntegration", self.webhook)
        self.api.add_routes(
            path="/webhooks/whatsapp", methods=[apigw.HttpMethod.GET, apigw.HttpMethod.POST], integration=webhook
        )
        payments = integrations.HttpLambdaIntegration("PaymentsIntegration", self.payments)
        self.api.add_routes(
            path="/payments/{proxy+}", methods=[apigw.HttpMethod.GET, apigw.HttpMethod.POST], integration=payments
        )
        admin = integrations.HttpLambdaIntegration("AdminIntegration", self.admin)
        # the OpenAPI document is public (it describes routes, holds no data); everything else needs a token
        self.api.add_routes(path=OPENAPI_PATH, methods=[apigw.HttpMethod.GET], integration=admin)
        for path in ("/admin", "/admin/{proxy+}"):
            self.api.add_routes(
                path=path, methods=[apigw.HttpMethod.ANY], integration=admin, authorizer=self.auth.authorizer
            )

        self.search = KnowledgeSearch(
            self, "Search", config=config, readers=[self.agent], writers=[self.admin], indexers=[self.kb_ingest]
        )

        # the model ids the agent may invoke, nothing else (cross-region inference profiles and the
        # foundation models behind them, which Bedrock may serve from any region of the profile); the admin
        # function too: the console's trial chat runs the shop's engine there
        conversation_models = iam.PolicyStatement(
            actions=["bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"],
            resources=[
                arn
                for model in config.bedrock_models
                for arn in (
                    f"arn:{self.partition}:bedrock:{self.region}:{self.account}:inference-profile/{model}",
                    f"arn:{self.partition}:bedrock:*::foundation-model/{model.split('.', 1)[1]}",
                )
            ],
        )
        self.agent.add_to_role_policy(conversation_models)
        self.admin.add_to_role_policy(conversation_models)
        embed = iam.PolicyStatement(
            actions=["bedrock:InvokeModel"],
            resources=[f"arn:{self.partition}:bedrock:{self.region}::foundation-model/{config.embedding_model}"],
        )
        self.agent.add_to_role_policy(embed)
        self.kb_ingest.add_to_role_policy(embed)
        self.admin.add_to_role_policy(embed)
        # owners invite and remove their staff in the pool (the shop is checked in code on every removal)
        self.admin.add_to_role_policy(
            iam.PolicyStatement(
                actions=[
                    "cognito-idp:AdminCreateUser",
                    "cognito-idp:AdminAddUserToGroup",
                    "cognito-idp:AdminGetUser",
                    "cognito-idp:AdminDeleteUser",
                    "cognito-idp:AdminUserGlobalSignOut",  # a removed person's refresh tokens revoked
                ],
                resources=[self.auth.pool.user_pool_arn],
            )
        )

        # the shop's console: CloudFront in front of the built app; the admin API and document uploads
        # accept calls from its origin only
        bundling = self.node.try_get_context("aws:cdk:bundling-stacks")
        self.console = Console(
            self,
            "Console",
            config=config,
            logs_bucket=self.buckets.access_logs,
            pictures=self.buckets.pictures,
            settings={
                "region": self.region,
                "userPoolId": self.auth.pool.user_pool_id,
                "userPoolClientId": self.auth.client.user_pool_client_id,
                "apiBase": self.public_base_url,
                "authFlow": "USER_SRP_AUTH",
            },
            api_origin=(
                f"https://{config.api_domain}"
                if config.api_domain and config.api_certificate_arn
                else f"https://*.execute-api.{self.region}.amazonaws.com"
            ),
            built=bundling != [],  # an offline template check does not need the built app
        )
        api = self.api.node.default_child
        api.add_property_override(
            "CorsConfiguration",
            {
                "AllowOrigins": [self.console.origin],
                "AllowMethods": ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
                "AllowHeaders": ["authorization", "content-type", "idempotency-key"],
                "MaxAge": 3600,
            },
        )
        self.buckets.kb.add_cors_rule(
            allowed_methods=[s3.HttpMethods.PUT],
            allowed_origins=[self.console.origin],
            allowed_headers=["content-type"],
            max_age=3600,
        )
        CfnOutput(self, "ConsoleUrl", value=f"{self.console.origin}/console/", description="The shop's console")
        # items' pictures: the admin function keeps what owners upload; CloudFront serves it at <console>/pictures/
        self.admin.add_environment("TULIA_PICTURES_BUCKET", self.buckets.pictures.bucket_name)
        self.admin.add_environment("TULIA_PICTURES_BASE_URL", self.console.origin)
        self.admin.add_to_role_policy(
            iam.PolicyStatement(
                actions=["s3:PutObject", "s3:DeleteObject"],
                resources=[self.buckets.pictures.arn_for_objects("pictures/*")],
            )
        )
        # staff alerts link to the console (the outreach worker in the agent function sends them)
        self.agent.add_environment("TULIA_CONSOLE_URL", f"{self.console.origin}/console/")
        for runs_the_engine in (self.agent, self.admin):  # the admin function: the console's trial chat
            runs_the_engine.add_environment("TULIA_LLM", "bedrock")
            runs_the_engine.add_environment("TULIA_BEDROCK_CLASSIFIER_MODEL", config.bedrock_models[0])
            runs_the_engine.add_environment("TULIA_BEDROCK_WRITER_MODEL", config.bedrock_models[1])
            runs_the_engine.add_environment("TULIA_BEDROCK_VISION_MODEL", config.bedrock_models[1])  # reads photos

        functions = {
            "webhook": self.webhook,
            "agent": self.agent,
            "payments": self.payments,
            "admin": self.admin,
            "kb_ingest": self.kb_ingest,
        }
        self.alarms = Alarms(
            self, "Alarms", config=config, functions=functions, dead_letters=self.queues.dead_letters, api=self.api
        )
        self.dashboard = Dashboard(
            self, "Dashboard", config=config, functions=functions, dead_letters=self.queues.dead_letters
        )
