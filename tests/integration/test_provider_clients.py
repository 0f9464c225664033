"""The Daraja and PesaPal clients over real HTTP against the simulators (no patching of our code)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest

from tests.conftest import SANDBOX_PASSKEY
from tulia.domain.tenant import MpesaStkConfig
from tulia.errors import ProviderError, ProviderUnavailable
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.pesapal import PesapalSimulator
from tulia.payments.mpesa.daraja import DarajaClient, DarajaCredentials, stk_password, stk_timestamp
from tulia.payments.pesapal.client import PesapalClient, PesapalCredentials

CFG = MpesaStkConfig(shortcode="174379", passkey=SANDBOX_PASSKEY)
CREDS = DarajaCredentials("key", "secret")
PCREDS = PesapalCredentials("key", "secret")


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=2) as client:
        yield client


@pytest.fixture
def fresh_daraja() -> Iterator[DarajaSimulator]:
    with DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as sim:
        yield sim


@pytest.fixture
def fresh_pesapal() -> Iterator[PesapalSimulator]:
    with PesapalSimulator() as sim:
        yield sim


def push(client: DarajaClient) -> str:
    return client.stk_push(
        CFG,
        CREDS,
        amount=100,
        msisdn="254708374149",
        account_reference="ORD7F3K2",
        description="Pay ORD7F3K2",
        callback_url="https://tulia.example/payments/daraja/stk/ab12",
    ).checkout_request_id


def test_password_is_shortcode_passkey_and_nairobi_timestamp() -> None:
    ts = stk_timestamp(datetime(2026, 11, 23, 21, 30, tzinfo=UTC))
    assert ts == "20261124003000"  # 00:30 the next day in Nairobi
    assert stk_password("174379", "pk", ts) == "MTc0Mzc5cGsyMDI2MTEyNDAwMzAwMA=="


def test_oauth_token_is_fetched_once_and_reused(http: httpx.Client, fresh_daraja: DarajaSimulator) -> None:
    client = DarajaClient(http, fresh_daraja.base_url)
    push(client)
    push(client)
    assert len(fresh_daraja.calls("/oauth/v1/generate")) == 1
    assert fresh_daraja.calls("/oauth/v1/generate")[0].headers["authorization"].startswith("Basic ")


def test_stk_query_reports_pending_then_the_result(http: httpx.Client, fresh_daraja: DarajaSimulator) -> None:
    client = DarajaClient(http, fresh_daraja.base_url, retries=0)
    checkout = push(client)
    pending = client.stk_query(CFG, CREDS, checkout)
    assert (pending.pending, pending.result_code) == (True, None)
    fresh_daraja.resolve(checkout, 1032)
    done = client.stk_query(CFG, CREDS, checkout)
    assert (done.pending, done.result_code, done.result_desc) == (False, "1032", "Request cancelled by user")


def test_idempotent_calls_are_retried_after_a_5xx(http: httpx.Client, fresh_daraja: DarajaSimulator) -> None:
    client = DarajaClient(http, fresh_daraja.base_url, retries=2)
    checkout = push(client)
    fresh_daraja.resolve(checkout, 0)
    fresh_daraja.fail_next(503)
    assert client.stk_query(CFG, CREDS, checkout).result_code == "0"


def test_stk_push_is_never_retried_after_a_5xx(http: httpx.Client, fresh_daraja: DarajaSimulator) -> None:
    client = DarajaClient(http, fresh_daraja.base_url, retries=3)
    client.token(CREDS)
    fresh_daraja.fail_next(500)
    with pytest.raises(ProviderUnavailable):
        push(client)
    assert len(fresh_daraja.calls("/mpesa/stkpush/v1/processrequest")) == 1


def test_throttled_push_is_retried(http: httpx.Client, fresh_daraja: DarajaSimulator) -> None:
    client = DarajaClient(http, fresh_daraja.base_url, retries=1)
    client.token(CREDS)
    fresh_daraja.fail_next(429, {"errorCode": "500.003.02", "errorMessage": "Spike arrest"})
    assert push(client).startswith("ws_CO_")


def test_a_wrong_passkey_is_refused_by_daraja(http: httpx.Client, fresh_daraja: DarajaSimulator) -> None:
    client = DarajaClient(http, fresh_daraja.base_url)
    bad = CFG.model_copy(update={"passkey": "wrong-passkey"})
    with pytest.raises(ProviderError) as err:
        client.stk_push(
            bad,
            CREDS,
            amount=100,
            msisdn="254708374149",
            account_reference="A",
            description="B",
            callback_url="https://tulia.example/payments/daraja/stk/ab12",
        )
    assert "Invalid Password" in err.value.message


def test_an_unreachable_provider_is_unavailable(http: httpx.Client) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = DarajaClient(http, f"http://127.0.0.1:{port}", retries=1)
    with pytest.raises(ProviderUnavailable):
        client.token(CREDS)


def test_c2b_registration_refuses_banned_words(http: httpx.Client, fresh_daraja: DarajaSimulator) -> None:
    client = DarajaClient(http, fresh_daraja.base_url)
    client.register_c2b_urls(
        CREDS,
        shortcode="600984",
        confirmation_url="https://tulia.example/payments/c2b/confirm",
        validation_url="https://tulia.example/payments/c2b/validate",
    )
    assert fresh_daraja.c2b_registrations[0]["ShortCode"] == "600984"
    with pytest.raises(ProviderError):
        client.register_c2b_urls(
            CREDS,
            shortcode="600984",
            confirmation_url="https://x.example/mpesa/confirm",
            validation_url="https://x.example/mpesa/validate",
        )


def test_pesapal_checkout_and_status(http: httpx.Client, fresh_pesapal: PesapalSimulator) -> None:
    client = PesapalClient(http, fresh_pesapal.base_url)
    ipn = client.register_ipn(PCREDS, "https://tulia.example/payments/pesapal/ipn")
    assert client.register_ipn(PCREDS, "https://tulia.example/payments/pesapal/ipn") == ipn  # reused, not duplicated
    assert len(fresh_pesapal.ipns) == 1
    checkout = client.submit_order(
        PCREDS,
        merchant_reference="ORD-7F3K2-abc",
        amount=2500,
        description="Order",
        callback_url="https://tulia.example/payments/pesapal/return",
        notification_id=ipn,
        phone_number="+254712345678",
        first_name="Wanjiku",
    )
    assert checkout.redirect_url.startswith(fresh_pesapal.base_url)
    assert client.transaction_status(PCREDS, checkout.order_tracking_id).status_code == 0
    fresh_pesapal.complete(checkout.order_tracking_id, 1)
    status = client.transaction_status(PCREDS, checkout.order_tracking_id)
    assert (status.status_code, status.amount, status.merchant_reference) == (1, 2500.0, "ORD-7F3K2-abc")
    assert len(fresh_pesapal.calls("/api/Auth/RequestToken")) == 1  # token cached


def test_pesapal_errors_inside_a_200_answer_are_provider_errors(
    http: httpx.Client, fresh_pesapal: PesapalSimulator
) -> None:
    client = PesapalClient(http, fresh_pesapal.base_url)
    with pytest.raises(ProviderError) as err:
        client.submit_order(
            PCREDS,
            merchant_reference="bad ref with spaces",
            amount=10,
            description="x",
            callback_url="https://tulia.example/r",
            notification_id="nope",
            phone_number=None,
            first_name=None,
        )
    assert "merchant reference" in err.value.message.lower()
