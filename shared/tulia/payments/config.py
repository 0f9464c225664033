"""How this deployment reaches the payment providers: its public base URL (callback URLs), the largest
order total, and the Daraja and PesaPal app keys (a shop's own keys win over the deployment's)."""

from __future__ import annotations

from dataclasses import dataclass

from tulia.domain.tenant import Tenant
from tulia.payments.mpesa.daraja import DarajaCredentials
from tulia.payments.pesapal.client import PesapalCredentials


@dataclass(frozen=True)
class PaymentConfig:
    public_base_url: str
    max_order_total: int
    mpesa_credentials: DarajaCredentials
    pesapal_credentials: PesapalCredentials

    def daraja_credentials_for(self, tenant: Tenant) -> DarajaCredentials:
        """The tenant's own Daraja app keys when it has them, else the deployment's."""
        cfg = tenant.payments.mpesa_stk
        if cfg is not None and cfg.consumer_key and cfg.consumer_secret:
            return DarajaCredentials(cfg.consumer_key, cfg.consumer_secret)
        return self.mpesa_credentials

    def pesapal_credentials_for(self, tenant: Tenant) -> PesapalCredentials:
        """The tenant's own PesaPal keys when it has them, else the deployment's."""
        cfg = tenant.payments.pesapal
        if cfg is not None and cfg.consumer_key and cfg.consumer_secret:
            return PesapalCredentials(cfg.consumer_key, cfg.consumer_secret)
        return self.pesapal_credentials

    def stk_callback_url(self, token: str) -> str:
        return f"{self.public_base_url.rstrip('/')}/payments/daraja/stk/{token}"

    def c2b_urls(self, token: str) -> tuple[str, str]:
        """(confirmation, validation) URLs of a tenant's C2B token."""
        base = f"{self.public_base_url.rstrip('/')}/payments/daraja/c2b/{token}"
        return f"{base}/confirmation", f"{base}/validation"

    def pesapal_ipn_url(self, tenant_id: str) -> str:
        """One IPN URL per tenant (PesaPal's notification names no tenant; the status is asked anyway)."""
        return f"{self.public_base_url.rstrip('/')}/payments/pesapal/ipn/{tenant_id}"

    @property
    def pesapal_return_url(self) -> str:
        return f"{self.public_base_url.rstrip('/')}/payments/pesapal/return"
