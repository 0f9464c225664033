"""cdk-nag (AwsSolutions) findings that are accepted, each with the reason it is right for Tulia.

Anything not listed here fails synthesis (an error annotation) and the infra tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cdk_nag import NagPackSuppression, NagSuppressions, RegexAppliesTo

if TYPE_CHECKING:
    from infra.stack import TuliaStack


def _s(rule: str, reason: str, *applies_to: str | RegexAppliesTo) -> NagPackSuppression:
    return NagPackSuppression(id=rule, reason=reason, applies_to=list(applies_to) or None)


def accept_findings(stack: TuliaStack) -> None:
    # stack-wide, for exactly these resources: CDK moves part of a function's grants into an overflow
    # managed policy after this runs, so a suppression on the function would not reach it
    NagSuppressions.add_stack_suppressions(
        stack,
        [
            _s(
                "AwsSolutions-IAM5",
                "A cross-region inference profile may serve the named model from any region of the profile; the "
                "model id itself is fixed.",
                RegexAppliesTo(regex="/^Resource::arn:<AWS::Partition>:bedrock:\\*::foundation-model\\/.+$/g"),
            ),
            _s(
                "AwsSolutions-IAM5",
                "A tenant's credentials secret is created when the tenant is added (tulia seed / admin), so its "
                "name is known only by the stage prefix tulia/<stage>/tenants/.",
                RegexAppliesTo(
                    regex="/^Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:tulia\\/[a-z]+\\/tenants\\/\\*$/g"
                ),
            ),
            _s(
                "AwsSolutions-IAM5",
                "Queries use the table's global secondary indexes; the grant covers that table's indexes only "
                "(stack-wide too: a function's grants that overflow into a managed policy land there).",
                RegexAppliesTo(regex="/^Resource::<Tables[A-Za-z]+[0-9A-F]{8}\\.Arn>\\/index\\/\\*$/g"),
            ),
            _s(
                "AwsSolutions-IAM5",
                "Offloaded checkpoints are objects named by thread and checkpoint id at run time: the agent writes "
                "them, the admin function deletes a customer's on erasure.",
                RegexAppliesTo(regex="/^Resource::<BucketsCheckpointOffload[0-9A-F]{8}\\.Arn>\\/\\*$/g"),
            ),
            _s(
                "AwsSolutions-IAM5",
                "KB documents are objects <tenant_id>/<file> uploaded at run time: staff upload and delete them "
                "through the admin API (keys made for the caller's tenant in code), ingestion reads them.",
                RegexAppliesTo(regex="/^Resource::<BucketsKnowledgeBase[0-9A-F]{8}\\.Arn>\\/\\*$/g"),
            ),
            _s(
                "AwsSolutions-IAM5",
                "Customers' photos and voice notes are objects <tenant_id>/<conversation>/<message> named at run time "
                "(keys made for the message's tenant in code, tulia.store.media): the agent keeps and reads them, "
                "Transcribe reads and writes beside them with the agent's rights, the admin function deletes a "
                "customer's on erasure.",
                RegexAppliesTo(regex="/^Resource::<BucketsCustomerMedia[0-9A-F]{8}\\.Arn>\\/\\*$/g"),
            ),
            _s(
                "AwsSolutions-IAM5",
                "Items' pictures are objects pictures/<tenant_id>/<item>-<digest> named at upload (keys made for the "
                "caller's tenant in code, tulia.store.media.PictureStore): the admin function writes and deletes them.",
                RegexAppliesTo(regex="/^Resource::<BucketsItemPictures[0-9A-F]{8}\\.Arn>\\/pictures\\/\\*$/g"),
            ),
            _s(
                "AwsSolutions-IAM5",
                "A voice note's Transcribe job is named when it arrives (<stage prefix><tenant_id>.<digest>, "
                "tulia.channel.voice): the agent may start only the stage's jobs.",
                RegexAppliesTo(
                    regex="/^Resource::arn:<AWS::Partition>:transcribe:<AWS::Region>:<AWS::AccountId>:transcription-job\\/tulia-[a-z]+-\\*$/g"
                ),
            ),
        ],
    )
    functions = [stack.webhook, stack.agent, stack.payments, stack.admin, stack.kb_ingest, stack.token_trigger]
    for fn in functions:
        NagSuppressions.add_resource_suppressions(
            fn,
            [
                _s(
                    "AwsSolutions-L1",
                    "Python 3.12 is the runtime the architecture fixes: the layers are built for cp312 wheels, and "
                    "moving runtime is a deliberate change with its own tests.",
                ),
                _s(
                    "AwsSolutions-IAM4",
                    "AWSLambdaBasicExecutionRole only allows writing the function's own CloudWatch logs.",
                    "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
                ),
                _s(
                    "AwsSolutions-IAM5",
                    "X-Ray PutTraceSegments/PutTelemetryRecords have no resource-level permissions (tracing is on).",
                    "Resource::*",
                ),
                _s(
                    "AwsSolutions-IAM5",
                    "Queries use the table's global secondary indexes; the grant covers that table's indexes only.",
                    RegexAppliesTo(regex="/^Resource::<Tables[A-Za-z]+[0-9A-F]{8}\\.Arn>\\/index\\/\\*$/g"),
                ),
            ],
            apply_to_children=True,
        )
    for route in (
        "GET--webhooks--whatsapp",
        "POST--webhooks--whatsapp",
        "GET--payments--{proxy+}",
        "POST--payments--{proxy+}",
    ):
        NagSuppressions.add_resource_suppressions(
            stack.api.node.find_child(route),
            [
                _s(
                    "AwsSolutions-APIG4",
                    "Called by Meta and the payment providers, which cannot present our tokens: the webhook checks "
                    "Meta's HMAC signature, Daraja callbacks carry a secret per-payment or per-tenant token in the "
                    "path, and a PesaPal notification only makes us ask PesaPal for the status.",
                )
            ],
            apply_to_children=True,
        )
    NagSuppressions.add_resource_suppressions(
        stack.api.node.find_child("GET--admin--openapi.json"),
        [
            _s(
                "AwsSolutions-APIG4",
                "The admin API's OpenAPI document describes the routes and holds no data; every other admin route "
                "needs a staff token.",
            )
        ],
        apply_to_children=True,
    )
    NagSuppressions.add_resource_suppressions(
        [stack.secrets.meta, stack.secrets.payments],
        [
            _s(
                "AwsSolutions-SMG4",
                "The values are issued by Meta, Safaricom and PesaPal; they are rotated at the provider and then "
                "put here (docs/deploy.md), which a rotation Lambda cannot do.",
            )
        ],
    )
    NagSuppressions.add_resource_suppressions(
        stack.secrets.webpush,
        [
            _s(
                "AwsSolutions-SMG4",
                "The Web Push (VAPID) key is the identity every staff device subscribed with: a new key unsubscribes "
                "them all, so it is generated once and not rotated on a schedule.",
            )
        ],
    )
    NagSuppressions.add_resource_suppressions(
        stack.auth.pool,
        [
            _s(
                "AwsSolutions-COG2",
                "MFA (TOTP) is optional so that the first owner, created by the deployer, can sign in and enrol; "
                "shops may require it for their staff.",
            ),
            _s(
                "AwsSolutions-COG8",
                "The Plus feature plan is billed per user; a shop's handful of staff sign in with strong passwords "
                "and optional TOTP. Deployers who want threat protection can switch the plan.",
            ),
        ],
        apply_to_children=True,
    )
    NagSuppressions.add_resource_suppressions_by_path(
        stack,
        f"/{stack.stack_name}/BucketNotificationsHandler050a0587b7544547bf325f094a3db834/Role/Resource",
        [
            _s(
                "AwsSolutions-IAM4",
                "CDK's own handler that sets the KB bucket's upload notification at deploy time (logs only).",
                "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
            ),
            _s(
                "AwsSolutions-IAM5",
                "CDK's own handler that sets the KB bucket's upload notification (s3:PutBucketNotification "
                "has to be granted on the bucket it configures, known only at deploy time).",
                "Resource::*",
            ),
        ],
    )
    deployer = stack.node.try_find_child("Custom::CDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C256MiB")
    if deployer is not None:
        NagSuppressions.add_resource_suppressions(
            deployer,
            [
                _s(
                    "AwsSolutions-L1",
                    "CDK's own handler that copies the built console into its bucket at deploy time; CDK picks "
                    "its runtime.",
                ),
                _s(
                    "AwsSolutions-IAM4",
                    "CDK's own console deployment handler (logs only).",
                    "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
                ),
                _s(
                    "AwsSolutions-IAM5",
                    "CDK's own console deployment handler: reads the asset zip from the CDK assets bucket, writes "
                    "and prunes the console bucket's files, and invalidates the distribution's cache (CloudFront "
                    "invalidations take no narrower resource in CDK's grant).",
                ),
            ],
            apply_to_children=True,
        )
    distribution = stack.console.distribution.node.default_child
    NagSuppressions.add_resource_suppressions(
        distribution,
        [
            _s(
                "AwsSolutions-CFR1",
                "Shop owners and staff sign in from wherever they are (they travel, and use mobile data that "
                "roams); the console serves only static files, and every data call needs a staff token.",
            ),
            _s(
                "AwsSolutions-CFR2",
                "The distribution serves the built console's static files only (no data, no forms posted to it); "
                "the admin API it calls has its own throttling and JWT authorizer. A deployer can attach a WAF "
                "web ACL without code changes.",
            ),
        ]
        + (
            []
            if stack.config.console_certificate_arn
            else [
                _s(
                    "AwsSolutions-CFR4",
                    "Without the deployer's own domain the console is served on *.cloudfront.net, whose TLS "
                    "policy CloudFront fixes; give consoleDomain and consoleCertificateArn to require TLS 1.2.",
                )
            ]
        ),
    )
