"""Secrets Manager: the deployment's Meta and payment secrets, and the right to read tenants' secrets.

Names follow :mod:`tulia.credentials` (``tulia/<stage>/meta``, ``tulia/<stage>/payments``,
``tulia/<stage>/webpush``, ``tulia/<stage>/tenants/<tenant_id>``). The Meta verify token and the Web Push key
are generated; the Meta app secret,
access token and provider keys are put by the deployer (docs/deploy.md). Tenants' secrets are
created by ``tulia seed`` (and later the admin API) when a tenant is added, so they are not
resources of this stack; functions may read them by their name prefix.
"""

from __future__ import annotations

import json

from aws_cdk import RemovalPolicy, SecretValue, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_secretsmanager as sm
from constructs import Construct

from infra.config import StageConfig


class Secrets(Construct):
    def __init__(self, scope: Construct, cid: str, *, config: StageConfig) -> None:
        super().__init__(scope, cid)
        self.prefix = f"tulia/{config.stage}/"
        removal = RemovalPolicy.RETAIN if config.retain_data else RemovalPolicy.DESTROY
        self.meta = sm.Secret(
            self,
            "Meta",
            secret_name=f"{self.prefix}meta",
            description="Meta app: app_secret (put it), verify_token (generated), access_token (optional)",
            generate_secret_string=sm.SecretStringGenerator(
                secret_string_template=json.dumps({"app_secret": "", "access_token": ""}),
                generate_string_key="verify_token",
                exclude_punctuation=True,
                password_length=40,
            ),
            removal_policy=removal,
        )
        self.payments = sm.Secret(
            self,
            "Payments",
            secret_name=f"{self.prefix}payments",
            description="The deployment's Daraja and PesaPal app keys (for tenants without their own)",
            # an empty JSON object (no secret material): the deployer puts the keys after deploy
            secret_string_value=SecretValue.unsafe_plain_text("{}"),
            removal_policy=removal,
        )

        # staff alerts' Web Push (VAPID) key: 32 random bytes as base64url, a P-256 private key (any value below the
        # curve's order, which a random one is but for a chance of 2^-32); generated once, kept across deploys
        self.webpush = sm.Secret(
            self,
            "WebPush",
            secret_name=f"{self.prefix}webpush",
            description="Staff alerts: vapid_private_key (generated; replacing it unsubscribes every device)",
            generate_secret_string=sm.SecretStringGenerator(
                secret_string_template=json.dumps({}),
                generate_string_key="vapid_private_key",
                exclude_punctuation=True,
                password_length=43,
            ),
            removal_policy=removal,
        )

    def tenant_secrets_arn(self) -> str:
        stack = Stack.of(self)
        return f"arn:{stack.partition}:secretsmanager:{stack.region}:{stack.account}:secret:{self.prefix}tenants/*"

    def grant(
        self,
        fn: lambda_.IFunction,
        *,
        meta: bool = False,
        payments: bool = False,
        tenants: bool = False,
        tenants_write: bool = False,
        webpush: bool = False,
    ) -> None:
        """Read access to exactly the secrets the function's code reads (and, with ``tenants_write``,
        the right to create and update tenants' secrets)."""
        if meta:
            self.meta.grant_read(fn)
        if payments:
            self.payments.grant_read(fn)
        if webpush:
            self.webpush.grant_read(fn)
        if tenants:
            fn.add_to_role_policy(
                iam.PolicyStatement(
                    actions=["secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret"],
                    resources=[self.tenant_secrets_arn()],
                )
            )
        if tenants_write:
            fn.add_to_role_policy(
                iam.PolicyStatement(
                    actions=["secretsmanager:CreateSecret", "secretsmanager:PutSecretValue"],
                    resources=[self.tenant_secrets_arn()],
                )
            )
