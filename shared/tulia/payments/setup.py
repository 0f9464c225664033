"""Telling the providers where to reach a tenant's deployment: Daraja's C2B confirmation and
validation URLs (secret-token paths), and PesaPal's IPN URL. Used by ``tulia register-urls`` after a
deploy or a URL change, and by the local stack at start."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from tulia.domain.tenant import Tenant
from tulia.errors import TuliaError
from tulia.payments.config import PaymentConfig
from tulia.payments.mpesa.daraja import DarajaClient
from tulia.payments.pesapal.client import PesapalClient
from tulia.store.tenants import TenantRepo


class ProviderAccounts(Protocol):
    """What registering a shop's URLs needs (the application's services have it)."""

    @property
    def tenants(self) -> TenantRepo: ...
    @property
    def payment_config(self) -> PaymentConfig: ...
    @property
    def daraja(self) -> DarajaClient: ...
    @property
    def pesapal(self) -> PesapalClient: ...


@dataclass
class Registration:
    tenant_id: str
    done: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def register_provider_urls(services: ProviderAccounts, tenant_id: str) -> Registration:
    """Register the tenant's C2B URLs with Daraja (when it takes Paybill/Till payments) and its IPN URL
    with PesaPal (when card payments are on, keeping the IPN id). Each provider on its own: one
    refusing does not stop the other; what failed is reported with the provider's reason."""
    s = services
    tenant = s.tenants.get(tenant_id)
    out = Registration(tenant_id)
    if tenant.payments.mpesa_c2b is not None:
        done, failed = register_c2b_urls(services, tenant)
        out.done += done
        out.failed += failed
    pesapal = tenant.payments.pesapal
    if pesapal is not None and pesapal.enabled:
        url = s.payment_config.pesapal_ipn_url(tenant_id)
        try:
            ipn_id = s.pesapal.register_ipn(s.payment_config.pesapal_credentials_for(tenant), url)
            s.tenants.set_pesapal_ipn_id(tenant_id, ipn_id)
            out.done.append(f"PesaPal IPN {url} (ipn_id {ipn_id})")
        except TuliaError as exc:
            out.failed.append(f"PesaPal IPN {url}: {exc.message}")
    return out


def register_c2b_urls(services: ProviderAccounts, tenant: Tenant) -> tuple[list[str], list[str]]:
    """Register the tenant's C2B confirmation and validation URLs for its Paybill or Till with Daraja;
    once Daraja accepts, the shortcode is recorded as registered (and told to customers). Returns what
    was done and what failed, with Daraja's reason."""
    s = services
    c2b = tenant.payments.mpesa_c2b
    if c2b is None:
        return [], []
    confirmation, validation = s.payment_config.c2b_urls(s.tenants.c2b_token(tenant.tenant_id))
    shortcode = c2b.shortcode
    try:
        s.daraja.register_c2b_urls(
            s.payment_config.daraja_credentials_for(tenant),
            shortcode=shortcode,
            confirmation_url=confirmation,
            validation_url=validation,
        )
    except TuliaError as exc:
        return [], [f"Daraja C2B URLs of shortcode {shortcode}: {exc.message}"]
    s.tenants.set_c2b_urls_for(tenant.tenant_id, shortcode)
    return [f"Daraja C2B URLs of shortcode {shortcode} -> {confirmation.rsplit('/', 2)[0]}/..."], []
