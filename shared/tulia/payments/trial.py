"""Payments in the console's trial chat (issue 34, part 5): nothing reaches Safaricom or PesaPal and no money
moves. An M-Pesa prompt is recorded as started, so the owner sees the conversation a customer would have, and the
trial says it was simulated; a PesaPal checkout is opened only for a shop whose notification URL is registered
already (a trial never registers one: that would change the live shop's settings)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from tulia.errors import ProviderUnavailable
from tulia.payments.mpesa.daraja import StkPushResult
from tulia.payments.pesapal.client import CheckoutResult

TRIAL_CHECKOUT_PREFIX = "ws_TRIAL_"  # a trial's prompt id: never one Safaricom issued


@dataclass
class TrialDaraja:
    """Daraja for trial turns: the prompt is not sent; what would have been sent is kept for the trial's answer."""

    prompts: list[dict[str, Any]] = field(default_factory=list)

    def stk_push(self, cfg: Any, creds: Any, *, amount: int, msisdn: str, account_reference: str, **_: Any) -> Any:
        checkout = TRIAL_CHECKOUT_PREFIX + secrets.token_hex(8)
        self.prompts.append({"amount": int(amount), "account": account_reference, "checkout_request_id": checkout})
        return StkPushResult("trial", checkout, "Simulated: no prompt was sent")

    def stk_query(self, *_: Any, **__: Any) -> Any:
        raise ProviderUnavailable("A trial prompt has no state at Safaricom.")

    def register_c2b_urls(self, *_: Any, **__: Any) -> Any:
        raise ProviderUnavailable("A trial registers nothing with Safaricom.")


@dataclass
class TrialPesapal:
    checkouts: list[dict[str, Any]] = field(default_factory=list)

    def register_ipn(self, *_: Any, **__: Any) -> str:
        raise ProviderUnavailable("A trial registers nothing with PesaPal.")

    def submit_order(self, creds: Any, *, merchant_reference: str, amount: int, **_: Any) -> Any:
        tracking = "trial-" + secrets.token_hex(8)
        self.checkouts.append({"amount": int(amount), "reference": merchant_reference})
        return CheckoutResult(tracking, merchant_reference, f"https://trial.invalid/pesapal/{tracking}")

    def transaction_status(self, *_: Any, **__: Any) -> Any:
        raise ProviderUnavailable("A trial checkout has no state at PesaPal.")
