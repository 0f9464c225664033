"""Credentials kept in AWS Secrets Manager, read by name and cached.

With ``TULIA_SECRETS_PREFIX`` set (the CDK app sets ``tulia/<stage>/``), secrets are JSON objects:

- ``<prefix>meta``: ``app_secret``, ``verify_token`` (the webhook) and ``access_token`` (the Graph API
  token used for a tenant without its own);
- ``<prefix>payments``: ``mpesa_consumer_key``, ``mpesa_consumer_secret``, ``pesapal_consumer_key``,
  ``pesapal_consumer_secret`` (the deployment's provider apps, for tenants without their own);
- ``<prefix>webpush``: ``vapid_private_key`` (staff alerts' Web Push key; the CDK app generates it);
- ``<prefix>tenants/<tenant_id>``: a tenant's own credentials (:data:`TENANT_SECRET_FIELDS`). The
  tenant's profile in DynamoDB never holds them: :class:`TenantSecrets` takes them out on save and
  puts them back on read.

Unset (the local stack, tests), the ``TULIA_*`` values of :class:`~tulia.config.Settings` are used
and tenant credentials stay in the profile.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Literal

from pydantic import SecretStr

from tulia.errors import TuliaError

if TYPE_CHECKING:
    from tulia.config import Settings

CACHE_SECONDS = 300  # a changed secret is seen by running functions within five minutes

DeploymentSecret = Literal["meta", "payments", "webpush"]

# setting <- (secret, key in the secret's JSON)
DEPLOYMENT_SECRET_FIELDS: dict[str, tuple[DeploymentSecret, str]] = {
    "meta_app_secret": ("meta", "app_secret"),
    "meta_verify_token": ("meta", "verify_token"),
    "whatsapp_access_token": ("meta", "access_token"),
    "mpesa_consumer_key": ("payments", "mpesa_consumer_key"),
    "mpesa_consumer_secret": ("payments", "mpesa_consumer_secret"),
    "pesapal_consumer_key": ("payments", "pesapal_consumer_key"),
    "pesapal_consumer_secret": ("payments", "pesapal_consumer_secret"),
    "webpush_vapid_private_key": ("webpush", "vapid_private_key"),  # staff alerts (the CDK app generates it)
}
REQUIRED = {("meta", "app_secret"), ("meta", "verify_token")}
# the values Settings has when nothing is set: fine on a laptop, never in a deployed stage
LOCAL_DEFAULTS = {"meta_app_secret": "local-app-secret", "meta_verify_token": "local-verify-token"}

# key in the tenant's secret -> where it lives in the tenant profile
TENANT_SECRET_FIELDS: dict[str, tuple[str, ...]] = {
    "whatsapp_access_token": ("whatsapp", "access_token"),
    "whatsapp_registration_pin": ("whatsapp", "registration_pin"),
    "mpesa_passkey": ("payments", "mpesa_stk", "passkey"),
    "mpesa_consumer_key": ("payments", "mpesa_stk", "consumer_key"),
    "mpesa_consumer_secret": ("payments", "mpesa_stk", "consumer_secret"),
    "pesapal_consumer_key": ("payments", "pesapal", "consumer_key"),
    "pesapal_consumer_secret": ("payments", "pesapal", "consumer_secret"),
}


class MissingSecret(TuliaError):
    """A secret or a value in it that the deployment needs is absent (the message says which)."""


def tenant_secret_name(prefix: str, tenant_id: str) -> str:
    return f"{prefix}tenants/{tenant_id}"


class SecretStore:
    """JSON secrets by name through Powertools' Secrets Manager provider (cached ``CACHE_SECONDS``)."""

    def __init__(self, client: Any, *, cache_seconds: int = CACHE_SECONDS) -> None:
        from aws_lambda_powertools.utilities.parameters import SecretsProvider

        self.client = client
        self.provider = SecretsProvider(boto3_client=client)
        self.cache_seconds = cache_seconds

    def read(self, name: str) -> dict[str, str] | None:
        """The secret's JSON object, or ``None`` when there is no such secret."""
        from aws_lambda_powertools.utilities.parameters import GetParameterError

        try:
            value = self.provider.get(name, transform="json", max_age=self.cache_seconds)
        except GetParameterError as exc:
            if "ResourceNotFoundException" in str(exc):
                return None
            raise
        if not isinstance(value, dict):
            raise MissingSecret(f"Secret '{name}' must be a JSON object.", field=name)
        return {str(k): str(v) for k, v in value.items() if v not in (None, "")}

    def merge(self, name: str, values: dict[str, str]) -> None:
        """Set ``values`` in the secret (created when absent); its other keys are kept."""
        current = self.read(name) or {}
        self.provider.set(name, {**current, **values})
        self.provider.clear_cache()  # type: ignore[no-untyped-call]  # Powertools leaves it untyped


def deployment_settings(settings: Settings, *needs: DeploymentSecret, store: SecretStore | None = None) -> Settings:
    """``settings`` with the deployment secrets a function needs read from Secrets Manager.

    Without ``TULIA_SECRETS_PREFIX`` the settings are returned unchanged on the local stage; any other
    stage still on the public local Meta secrets stops the function at start. A missing Meta secret, or
    one without ``app_secret`` / ``verify_token``, stops the function at start (never an empty key:
    an empty app secret would make any signature forgeable)."""
    prefix = settings.secrets_prefix
    if not prefix:
        if settings.stage != "local":
            # fail closed: a deployed stage never verifies webhooks with the public default secrets
            for setting, (secret, key) in DEPLOYMENT_SECRET_FIELDS.items():
                if secret not in needs or (secret, key) not in REQUIRED:
                    continue
                if getattr(settings, setting).get_secret_value() == LOCAL_DEFAULTS[setting]:
                    raise MissingSecret(
                        f"Stage '{settings.stage}' has no TULIA_SECRETS_PREFIX and {setting} is the public local "
                        "default: set TULIA_SECRETS_PREFIX (the CDK app does) or the secret itself.",
                        field=setting,
                    )
        return settings
    store = store or secret_store(settings)
    updates: dict[str, SecretStr] = {}
    for which in needs:
        name = f"{prefix}{which}"
        values = store.read(name)
        if values is None:
            raise MissingSecret(f"Secret '{name}' does not exist: put it (see docs/deploy.md).", field=name)
        for setting, (secret, key) in DEPLOYMENT_SECRET_FIELDS.items():
            if secret != which:
                continue
            if key in values:
                updates[setting] = SecretStr(values[key])
            elif (secret, key) in REQUIRED:
                raise MissingSecret(f"Secret '{name}' has no '{key}': put it (see docs/deploy.md).", field=key)
    return settings.model_copy(update=updates)


def webpush_secret(settings: Settings) -> tuple[DeploymentSecret, ...]:
    """The Web Push key's secret, read where the deployment keeps its secrets (the CDK app creates it)."""
    return ("webpush",) if settings.secrets_prefix else ()


def secret_store(settings: Settings) -> SecretStore:
    import boto3

    return SecretStore(
        boto3.client("secretsmanager", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)
    )


class TenantSecrets:
    """A tenant's credentials in its own secret, never in the profile stored in DynamoDB."""

    def __init__(self, store: SecretStore, prefix: str) -> None:
        self.store = store
        self.prefix = prefix

    def name(self, tenant_id: str) -> str:
        return tenant_secret_name(self.prefix, tenant_id)

    def split(self, item: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """(the profile item without credentials, the credentials it carried)."""
        item = copy.deepcopy(item)
        found: dict[str, str] = {}
        for key, path in TENANT_SECRET_FIELDS.items():
            parent = _section(item, path[:-1])
            if parent is not None and parent.get(path[-1]):
                found[key] = str(parent.pop(path[-1]))
            elif parent is not None:
                parent.pop(path[-1], None)
        return item, found

    def join(self, tenant_id: str, item: dict[str, Any]) -> dict[str, Any]:
        """The profile item with the tenant's credentials put back where the tenant has that section."""
        values = self.store.read(self.name(tenant_id)) or {}
        if not values:
            return item
        item = copy.deepcopy(item)
        for key, path in TENANT_SECRET_FIELDS.items():
            parent = _section(item, path[:-1])
            if parent is not None and key in values:
                parent[path[-1]] = values[key]
        return item

    def save(self, tenant_id: str, values: dict[str, str]) -> None:
        if values:
            self.store.merge(self.name(tenant_id), values)


def _section(item: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any] | None:
    node: Any = item
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
        if node is None:
            return None
    return node if isinstance(node, dict) else None
