"""Per-stage settings of the CDK app, read from CDK context and checked before anything is built.

``--context stage=dev|prod`` picks a stage; every resource name is derived from it, so two stages
live side by side in one account. A missing, unknown or malformed value stops synthesis with a
message that names the value and what is allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from tulia.payments.mpesa.daraja import BANNED_URL_WORDS


class ContextError(ValueError):
    """A CDK context value that cannot be used (the message says which and what is allowed)."""


@dataclass(frozen=True)
class FunctionSize:
    memory_mb: int
    timeout_seconds: int
    reserved_concurrency: int | None = None  # None: the account's unreserved pool


@dataclass(frozen=True)
class StageConfig:
    stage: str
    log_level: str
    retain_data: bool  # tables, buckets and the user pool survive `cdk destroy`
    webhook: FunctionSize
    agent: FunctionSize
    payments: FunctionSize
    admin: FunctionSize
    kb_ingest: FunctionSize
    # the staff pool's pre token generation trigger: one read per sign-in, on every sign-in's path
    token_trigger: FunctionSize = FunctionSize(256, 5)
    agent_batch_size: int = 10
    dlq_max_receive_count: int = 5
    api_rate_limit: int = 50  # requests per second, steady
    api_burst_limit: int = 100
    bedrock_models: tuple[str, ...] = ("eu.amazon.nova-micro-v1:0", "eu.amazon.nova-lite-v1:0")
    embedding_model: str = "amazon.titan-embed-text-v2:0"
    # the providers' API roots (dev: the sandboxes; prod: production)
    whatsapp_api_base: str = "https://graph.facebook.com/v21.0"
    mpesa_api_base: str = "https://sandbox.safaricom.co.ke"
    pesapal_api_base: str = "https://cybqa.pesapal.com/pesapalv3"
    # the API's own domain (ACM certificate in the stack's region); without one, the public base URL
    # is API Gateway's *.execute-api.* host, which Daraja refuses in callback URLs ("exe")
    api_domain: str | None = None
    api_certificate_arn: str | None = None
    # the console's own domain (ACM certificate in us-east-1, as CloudFront requires); without one it
    # is served from *.cloudfront.net
    console_domain: str | None = None
    console_certificate_arn: str | None = None
    # Meta's Embedded Signup (shops connect their WhatsApp number in the console): the app's id and the signup
    # configuration's id, both from Meta's app dashboard; unset, shops cannot connect a number themselves
    meta_app_id: str | None = None
    embedded_signup_config_id: str | None = None

    def name(self, part: str) -> str:
        """A resource name of this stage: ``tulia-<stage>-<part>``."""
        return f"tulia-{self.stage}-{part}"

    @property
    def table_prefix(self) -> str:
        return f"tulia-{self.stage}-"


STAGES: dict[str, StageConfig] = {
    "dev": StageConfig(
        stage="dev",
        log_level="DEBUG",
        retain_data=False,
        webhook=FunctionSize(256, 10),
        agent=FunctionSize(1024, 60),
        payments=FunctionSize(512, 30),
        admin=FunctionSize(512, 30),
        kb_ingest=FunctionSize(1024, 300),
        api_rate_limit=20,
        api_burst_limit=40,
    ),
    "prod": StageConfig(
        stage="prod",
        log_level="INFO",
        retain_data=True,
        webhook=FunctionSize(256, 10),
        agent=FunctionSize(1536, 60),
        payments=FunctionSize(512, 30),
        admin=FunctionSize(512, 30),
        kb_ingest=FunctionSize(2048, 600),
        mpesa_api_base="https://api.safaricom.co.ke",
        pesapal_api_base="https://pay.pesapal.com/v3",
    ),
}

_INT_OVERRIDES = {
    "agentReservedConcurrency": (0, 1000),
    "webhookReservedConcurrency": (0, 1000),
    "agentBatchSize": (1, 10),
    "dlqMaxReceiveCount": (1, 1000),
}


def stage_config(context: dict[str, Any]) -> StageConfig:
    """The stage's settings with the context's overrides, or :class:`ContextError`."""
    stage = context.get("stage")
    if stage is None:
        raise ContextError(f"context value 'stage' is missing: pass --context stage=<{'|'.join(STAGES)}>")
    if not isinstance(stage, str) or stage not in STAGES:
        raise ContextError(f"context value 'stage' is {stage!r}; allowed: {', '.join(STAGES)}")
    config = STAGES[stage]
    values: dict[str, int] = {}
    for key, (low, high) in _INT_OVERRIDES.items():
        raw = context.get(key)
        if raw is None:
            continue
        if not re.fullmatch(r"\d{1,4}", str(raw)) or not low <= int(raw) <= high:
            raise ContextError(f"context value {key!r} is {raw!r}; allowed: a whole number from {low} to {high}")
        values[key] = int(raw)
    if "agentReservedConcurrency" in values:
        config = replace(config, agent=replace(config.agent, reserved_concurrency=values["agentReservedConcurrency"]))
    if "webhookReservedConcurrency" in values:
        config = replace(
            config, webhook=replace(config.webhook, reserved_concurrency=values["webhookReservedConcurrency"])
        )
    if "agentBatchSize" in values:
        config = replace(config, agent_batch_size=values["agentBatchSize"])
    if "dlqMaxReceiveCount" in values:
        config = replace(config, dlq_max_receive_count=values["dlqMaxReceiveCount"])
    domain, certificate = context.get("apiDomain"), context.get("apiCertificateArn")
    if (domain is None) != (certificate is None):
        raise ContextError("context values 'apiDomain' and 'apiCertificateArn' go together: give both or neither")
    if domain is not None:
        if not isinstance(domain, str) or not re.fullmatch(r"(?=.{4,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}", domain):
            raise ContextError(f"context value 'apiDomain' is {domain!r}; allowed: a lowercase DNS name")
        if any(word in domain for word in BANNED_URL_WORDS):
            raise ContextError(f"context value 'apiDomain' is {domain!r}; Daraja refuses callback URLs with that word")
        if not isinstance(certificate, str) or not re.fullmatch(
            r"arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate/[0-9a-f-]{36}", certificate
        ):
            raise ContextError(f"context value 'apiCertificateArn' is {certificate!r}; allowed: an ACM certificate ARN")
        config = replace(config, api_domain=domain, api_certificate_arn=certificate)
    domain, certificate = context.get("consoleDomain"), context.get("consoleCertificateArn")
    if (domain is None) != (certificate is None):
        raise ContextError(
            "context values 'consoleDomain' and 'consoleCertificateArn' go together: give both or neither"
        )
    if domain is not None:
        if not isinstance(domain, str) or not re.fullmatch(r"(?=.{4,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}", domain):
            raise ContextError(f"context value 'consoleDomain' is {domain!r}; allowed: a lowercase DNS name")
        if not isinstance(certificate, str) or not re.fullmatch(
            r"arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate/[0-9a-f-]{36}", certificate
        ):
            raise ContextError(
                f"context value 'consoleCertificateArn' is {certificate!r}; allowed: an ACM certificate ARN in "
                "us-east-1 (CloudFront takes certificates from there only)"
            )
        config = replace(config, console_domain=domain, console_certificate_arn=certificate)
    app_id, signup_config = context.get("metaAppId"), context.get("embeddedSignupConfigId")
    if (app_id is None) != (signup_config is None):
        raise ContextError("context values 'metaAppId' and 'embeddedSignupConfigId' go together: give both or neither")
    if app_id is not None:
        for key, value in (("metaAppId", app_id), ("embeddedSignupConfigId", signup_config)):
            if not isinstance(value, str | int) or not re.fullmatch(r"\d{5,20}", str(value)):
                raise ContextError(
                    f"context value {key!r} is {value!r}; allowed: the numeric id from Meta's app dashboard"
                )
        config = replace(config, meta_app_id=str(app_id), embedded_signup_config_id=str(signup_config))
    return config
