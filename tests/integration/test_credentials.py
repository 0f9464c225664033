"""Secrets Manager holds the deployment's and each tenant's credentials (moto in process)."""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any

import boto3
import httpx
import pytest

from tests.conftest import SANDBOX_PASSKEY, SHOP, Caller, new_customer
from tests.integration.test_tools_payments import A15
from tulia.config import Settings
from tulia.credentials import MissingSecret, deployment_settings
from tulia.errors import TuliaError
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.pesapal import PesapalSimulator
from tulia.packs.loader import Pack
from tulia.packs.seed import seed_pack
from tulia.services import build_services

PREFIX = "tulia/test/"


@pytest.fixture
def secrets(dynamodb: Any) -> Any:  # the dynamodb fixture runs moto for every AWS service
    return boto3.client("secretsmanager", region_name="eu-west-1")


def aws_settings(**kw: Any) -> Settings:
    return Settings(table_prefix="test-", public_base_url="https://tulia.example", secrets_prefix=PREFIX, **kw)


def test_without_a_prefix_the_settings_are_used_as_they_are(secrets: Any) -> None:
    plain = Settings(meta_app_secret="from-env")  # type: ignore[arg-type]
    assert deployment_settings(plain, "meta") is plain


def test_a_deployed_stage_without_secrets_fails_closed_at_start() -> None:
    # the webhook would otherwise verify signatures with the public default app secret
    with pytest.raises(MissingSecret, match="Stage 'prod' has no TULIA_SECRETS_PREFIX and meta_app_secret"):
        deployment_settings(Settings(stage="prod"), "meta")
    with pytest.raises(MissingSecret, match="meta_verify_token"):
        deployment_settings(Settings(stage="dev", meta_app_secret="set-by-hand"), "meta")  # type: ignore[arg-type]
    own = Settings(stage="dev", meta_app_secret="a", meta_verify_token="b")  # type: ignore[arg-type]
    assert deployment_settings(own, "meta") is own  # secrets given directly: fine
    assert deployment_settings(Settings(stage="prod"), "payments").stage == "prod"  # payment keys may be per tenant
    assert deployment_settings(Settings(), "meta").meta_app_secret.get_secret_value() == "local-app-secret"


def test_the_functions_read_the_meta_and_payment_secrets_by_name(secrets: Any) -> None:
    secrets.create_secret(
        Name=f"{PREFIX}meta",
        SecretString=json.dumps({"app_secret": "meta-app-secret", "verify_token": "vt-123", "access_token": "EAAG"}),
    )
    secrets.create_secret(
        Name=f"{PREFIX}payments", SecretString=json.dumps({"mpesa_consumer_key": "ck", "mpesa_consumer_secret": "cs"})
    )
    settings = deployment_settings(aws_settings(), "meta", "payments")
    assert settings.meta_app_secret.get_secret_value() == "meta-app-secret"
    assert settings.meta_verify_token.get_secret_value() == "vt-123"
    assert settings.whatsapp_access_token.get_secret_value() == "EAAG"
    assert settings.mpesa_consumer_key.get_secret_value() == "ck"
    # a value the secret does not carry keeps the setting's own
    assert settings.pesapal_consumer_key == aws_settings().pesapal_consumer_key


def test_a_missing_meta_secret_or_app_secret_stops_the_function_with_its_name(secrets: Any) -> None:
    with pytest.raises(MissingSecret, match="tulia/test/meta' does not exist"):
        deployment_settings(aws_settings(), "meta")
    secrets.create_secret(Name=f"{PREFIX}meta", SecretString=json.dumps({"app_secret": "", "verify_token": "v"}))
    with pytest.raises(MissingSecret, match="has no 'app_secret'"):  # never an empty HMAC key
        deployment_settings(aws_settings(), "meta")


def test_a_tenants_credentials_live_in_its_secret_not_in_dynamodb(
    secrets: Any, dynamodb: Any, demo_packs: dict[str, Pack], daraja: DarajaSimulator, pesapal: PesapalSimulator
) -> None:
    pack = demo_packs[SHOP]
    tenant = pack.tenant.model_copy(
        update={"whatsapp": pack.tenant.whatsapp.model_copy(update={"access_token": "EAAG-shop-token"})}
    )
    with httpx.Client(timeout=5) as http:
        services = build_services(
            aws_settings(),
            dynamodb=dynamodb,
            http=http,
            mpesa_api_base=daraja.base_url,
            pesapal_api_base=pesapal.base_url,
        )
        seed_pack(services, dataclasses.replace(pack, tenant=tenant))

        stored = dynamodb.get_item(
            TableName="test-tenants", Key={"pk": {"S": f"{SHOP}#TENANT"}, "sk": {"S": "PROFILE"}}
        )
        flat = json.dumps(stored["Item"])
        assert SANDBOX_PASSKEY not in flat
        assert "EAAG-shop-token" not in flat
        kept = json.loads(secrets.get_secret_value(SecretId=f"{PREFIX}tenants/{SHOP}")["SecretString"])
        assert kept == {"mpesa_passkey": SANDBOX_PASSKEY, "whatsapp_access_token": "EAAG-shop-token"}

        # every read puts them back: the agent's token, and the STK password Daraja checks
        assert services.tenants.get(SHOP).whatsapp.access_token == "EAAG-shop-token"
        shop = Caller(services, SHOP)
        shop.customer_id = new_customer(shop)
        order = shop.ok(
            "order_create",
            customer_id=shop.customer_id,
            items=[A15],
            delivery={"mode": "pickup"},
        )
        out = shop.ok(
            "payment_initiate_stk_push", order_id=order["order_id"], phone_e164="0712345678", amount=order["amount_due"]
        )
        body = daraja.stk[out["checkout_request_id"]].body
        assert base64.b64decode(body["Password"]).decode() == f"174379{SANDBOX_PASSKEY}{body['Timestamp']}"


def test_a_tenant_whose_secret_is_missing_is_refused_in_words(
    secrets: Any, dynamodb: Any, demo_packs: dict[str, Pack]
) -> None:
    services = build_services(aws_settings(), dynamodb=dynamodb)
    seed_pack(services, demo_packs[SHOP])
    secrets.delete_secret(SecretId=f"{PREFIX}tenants/{SHOP}", ForceDeleteWithoutRecovery=True)
    fresh = build_services(aws_settings(), dynamodb=dynamodb)
    with pytest.raises(TuliaError, match=f"credentials in secret '{PREFIX}tenants/{SHOP}'"):
        fresh.tenants.get(SHOP)
