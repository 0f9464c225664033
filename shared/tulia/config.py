"""One typed settings object, read from ``TULIA_*`` environment variables.

Only handlers, the CLI and the local stack call :func:`get_settings`; everything below them receives
values or objects as arguments.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting Tulia reads. The README's settings table documents each one."""

    model_config = SettingsConfigDict(env_prefix="TULIA_", frozen=True, extra="ignore")

    # Where we run
    stage: str = Field(default="local", pattern=r"^[a-z][a-z0-9-]{0,19}$")
    aws_region: str = "eu-west-1"
    aws_endpoint_url: str | None = None  # moto server locally; unset in AWS
    table_prefix: str = "tulia-local-"

    # Queues: the agent's FIFO queue URL (set by CDK); unset, it is looked up by name
    # (<table_prefix>inbound.fifo) in the region / endpoint above.
    inbound_queue_url: str | None = None
    outreach_queue_url: str | None = None  # broadcasts and reminders, paced (the same lookup by name)

    # S3 bucket for checkpoints too large for a DynamoDB item (set by CDK); unset: DynamoDB only
    checkpoint_bucket: str | None = None

    # Customers' files (photos, voice notes): the bucket they are kept in for 30 days (set by CDK; the local stack
    # makes one; unset: not kept), and what reads a picture's text (M-Pesa screenshots): Amazon Textract in AWS,
    # Tesseract (Debian's tesseract-ocr) locally, or nothing (customers are asked to type the code)
    media_bucket: str | None = None
    # the role customers' files are reached through, one shop's session at a time (store/scoped; set by CDK; unset:
    # the function's own rights, as in the local stack)
    media_role_arn: str | None = Field(default=None, pattern=r"^arn:[a-z-]+:iam::\d{12}:role/\S+$")
    picture_reader: Literal["tesseract", "textract", "none"] = "tesseract"
    # Items' pictures shops upload in the console: the bucket (set by CDK; the local stack makes one) and the public
    # address its files are served at (CDK: the console's CloudFront distribution + /pictures; locally
    # <public_base_url>/pictures), which WhatsApp fetches them from
    pictures_bucket: str | None = None
    pictures_base_url: str | None = None

    # Knowledge base: the bucket staff upload documents to (set by CDK; the local stack makes one), and
    # the OpenSearch (Serverless) endpoint; unset, the embedded index answers. Embeddings: a
    # deterministic local function, or Amazon Titan Text Embeddings v2 on Bedrock.
    kb_bucket: str | None = None
    # The Cognito user pool of shop staff (set by CDK; the local stack makes its own): the admin API
    # invites and removes a shop's staff in it.
    staff_user_pool_id: str | None = None
    # The built console the local stack serves at /console/; unset: the repository's console/dist
    console_dist: str | None = None
    opensearch_endpoint: str | None = None
    opensearch_index: str = Field(default="tulia-kb-chunks", pattern=r"^[a-z0-9][a-z0-9_-]{0,254}$")
    opensearch_service: Literal["aoss", "es"] = "aoss"  # SigV4 service: Serverless or a managed domain
    embeddings: Literal["local", "bedrock"] = "local"
    bedrock_embedding_model: str = "amazon.titan-embed-text-v2:0"

    # External APIs: unset means the built-in simulators of the local stack.
    whatsapp_api_base: str | None = None
    mpesa_api_base: str | None = None
    pesapal_api_base: str | None = None
    public_base_url: str = "http://localhost:8080"

    # Secrets Manager name prefix (the CDK app sets tulia/<stage>/): when set, the secret values below
    # are read from the secrets <prefix>meta and <prefix>payments, and each tenant's credentials from
    # <prefix>tenants/<tenant_id> (see tulia.credentials); unset, the values below are used.
    secrets_prefix: str | None = Field(default=None, pattern=r"^[A-Za-z0-9/_+=.@-]{1,200}/$")

    # Meta: the Graph API token when a tenant has none of its own, and the webhook secrets
    whatsapp_access_token: SecretStr = SecretStr("local-access-token")
    meta_app_secret: SecretStr = SecretStr("local-app-secret")
    meta_verify_token: SecretStr = SecretStr("local-verify-token")
    # Meta's Embedded Signup (shops connect their number in the console): the app's id and the signup
    # configuration's id (Meta's app dashboard). Unset with the Graph simulator: its stand-in popup is used
    meta_app_id: str | None = Field(default=None, pattern=r"^[0-9A-Za-z_-]{1,64}$")
    meta_embedded_signup_config_id: str | None = Field(default=None, pattern=r"^[0-9A-Za-z_-]{1,64}$")

    # Staff alerts: the console's address (CDK sets its CloudFront URL; unset: <public_base_url>/console/), the
    # Web Push VAPID key (32 bytes, base64url; in AWS from the secret <prefix>webpush; unset: no push, the local
    # stack makes one), the contact it names, and the push services alerts may be sent to (hosts, subdomains too)
    console_url: str | None = None
    webpush_vapid_private_key: SecretStr | None = None
    webpush_subject: str = Field(default="mailto:alerts@tulia.example", pattern=r"^(mailto:|https://)\S+$")
    webpush_hosts: tuple[str, ...] = (
        "fcm.googleapis.com",
        "android.googleapis.com",
        "updates.push.services.mozilla.com",
        "push.services.mozilla.com",
        "notify.windows.com",
        "push.apple.com",
    )

    # Payments
    stk_query_delay_seconds: int = Field(default=60, ge=1, le=3600)
    mpesa_consumer_key: SecretStr = SecretStr("local-consumer-key")
    mpesa_consumer_secret: SecretStr = SecretStr("local-consumer-secret")
    pesapal_consumer_key: SecretStr = SecretStr("local-consumer-key")
    pesapal_consumer_secret: SecretStr = SecretStr("local-consumer-secret")
    max_order_total_kes: int = Field(default=1_000_000, ge=1)  # absurd amounts are refused

    # Agent: a customer's quick messages are answered as one turn: the agent waits until this quiet time
    # has passed after the newest (0: no waiting), and at most agent_merge_max_wait_seconds after the first
    agent_batch_window_seconds: float = Field(default=2.0, ge=0, le=10)
    agent_merge_max_wait_seconds: float = Field(default=3.0, ge=0, le=30)

    # Conversation engine
    llm: Literal["rules", "bedrock"] = "rules"
    # Model ids per node class (cross-region inference profiles work too). Classifier: the one
    # intent/language/governor call and sales narrowing; writer: the text nodes a tenant enables.
    bedrock_classifier_model: str = "eu.amazon.nova-micro-v1:0"
    bedrock_writer_model: str = "eu.amazon.nova-lite-v1:0"
    # a model that reads pictures: a customer's photo described as the words of a search (Nova Lite takes images)
    bedrock_vision_model: str = "eu.amazon.nova-lite-v1:0"
    bedrock_region: str | None = None  # defaults to aws_region
    llm_timeout_seconds: float = Field(default=8.0, gt=0, le=60)
    # with the model engine, the message reader answers a classified turn without a model call when it is
    # at least this sure (its probabilities are calibrated: spec 4.1's 0.70); 1.01 asks the model every time
    llm_reader_threshold: float = Field(default=0.70, ge=0.5, le=1.01)
    # shillings per US dollar: the shops' model budgets are in KES, Bedrock prices in USD
    kes_per_usd: float = Field(default=129.0, gt=0, le=10_000)

    # HTTP clients towards providers
    http_timeout_seconds: float = Field(default=10.0, gt=0, le=60)
    http_max_retries: int = Field(default=2, ge=0, le=5)

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    def table_name(self, logical: str) -> str:
        return f"{self.table_prefix}{logical}"

    def console_address(self) -> str:
        """Where staff open the console (links in alerts), ending in /."""
        return (self.console_url or f"{self.public_base_url.rstrip('/')}/console/").rstrip("/") + "/"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
