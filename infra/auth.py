"""Cognito: the shop staff who use the admin API, and the JWT authorizer in front of ``/admin``.

Owners may sign up themselves (email verified); their token names no shop until they make one through the admin
API, whose record the pool's pre token generation trigger (functions/token_trigger) puts into their next token.

Staff sign in with their email. Each user carries ``custom:tenant_id``, set by an administrator
when the user is created: it is immutable and not writable by the app client, so nobody can move
themselves to another shop. Groups ``owner`` and ``agent`` carry the roles. ID tokens carry both
``custom:tenant_id`` and ``cognito:groups``; the authorizer accepts tokens of this pool's app client.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_apigatewayv2_authorizers as authorizers
from aws_cdk import aws_cognito as cognito
from constructs import Construct

from infra.config import StageConfig

ROLES = {
    "owner": "Shop owner: catalog, offers, documents, settings, orders, customers, handoffs, analytics",
    "agent": "Shop agent: reads orders and customers, works the handoff inbox",
    # the deployer's people (created by the deployer, no shop): every shop's status and use, suspend and resume
    "platform": "Platform operator: every shop's status and use, suspend and resume, usage for billing",
}


class StaffAuth(Construct):
    def __init__(self, scope: Construct, cid: str, *, config: StageConfig) -> None:
        super().__init__(scope, cid)
        self.pool = cognito.UserPool(
            self,
            "Users",
            user_pool_name=config.name("staff"),
            # owners sign up in the console (email verified by a code) and make their shop; staff are invited. A
            # person's shop reaches her token only through the pre token generation trigger (add_token_trigger)
            self_sign_up_enabled=True,
            user_verification=cognito.UserVerificationConfig(email_style=cognito.VerificationEmailStyle.CODE),
            sign_in_aliases=cognito.SignInAliases(email=True),
            auto_verify=cognito.AutoVerifiedAttrs(email=True),
            standard_attributes=cognito.StandardAttributes(email=cognito.StandardAttribute(required=True)),
            custom_attributes={"tenant_id": cognito.StringAttribute(min_len=1, max_len=64, mutable=False)},
            password_policy=cognito.PasswordPolicy(
                min_length=12,
                require_digits=True,
                require_lowercase=True,
                require_uppercase=True,
                require_symbols=True,
                temp_password_validity=Duration.days(3),
            ),
            mfa=cognito.Mfa.OPTIONAL,
            mfa_second_factor=cognito.MfaSecondFactor(otp=True, sms=False),
            account_recovery=cognito.AccountRecovery.EMAIL_ONLY,
            deletion_protection=config.retain_data,
            removal_policy=RemovalPolicy.RETAIN if config.retain_data else RemovalPolicy.DESTROY,
        )
        self.client = self.pool.add_client(
            "AdminClient",
            user_pool_client_name=config.name("admin"),
            generate_secret=False,  # a browser or CLI client: no secret to keep
            auth_flows=cognito.AuthFlow(user_srp=True, user_password=True),
            prevent_user_existence_errors=True,
            id_token_validity=Duration.hours(1),
            access_token_validity=Duration.hours(1),
            refresh_token_validity=Duration.days(30),
            read_attributes=cognito.ClientAttributes()
            .with_standard_attributes(email=True, email_verified=True, fullname=True)
            .with_custom_attributes("tenant_id"),
            # custom:tenant_id is absent here: a user cannot write it through the app
            write_attributes=cognito.ClientAttributes().with_standard_attributes(fullname=True),
        )
        for role, description in ROLES.items():
            cognito.CfnUserPoolGroup(
                self,
                f"{role.title()}Group",
                user_pool_id=self.pool.user_pool_id,
                group_name=role,
                description=description,
            )
        region = Stack.of(self).region
        self.issuer = f"https://cognito-idp.{region}.amazonaws.com/{self.pool.user_pool_id}"
        self.authorizer = authorizers.HttpJwtAuthorizer(
            "StaffJwt",
            self.issuer,
            authorizer_name=config.name("staff-jwt"),
            jwt_audience=[self.client.user_pool_client_id],
        )
