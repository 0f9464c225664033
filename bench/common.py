"""Shared set-up for the benchmarks: moto in process, the demo packs, the simulators, and call counting."""

from __future__ import annotations

import os
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.update({"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_DEFAULT_REGION": "eu-west-1"})

import boto3
import httpx
from moto import mock_aws

from tulia.config import Settings
from tulia.local.simulators.daraja import DarajaSimulator
from tulia.local.simulators.pesapal import PesapalSimulator
from tulia.services import Services, build_services
from tulia.store.tables import create_tables

ROOT = Path(__file__).resolve().parents[1]
PACKS = ROOT / "packs"


class FixedClock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


class CallCounter:
    """Counts DynamoDB API calls with botocore's event hooks (what a Lambda would pay for)."""

    def __init__(self, client: Any) -> None:
        self.calls: Counter[str] = Counter()
        self.seconds = 0.0  # time spent inside DynamoDB calls (moto here)
        self._started = 0.0
        client.meta.events.register("before-call.dynamodb.*", self._before)
        client.meta.events.register("after-call.dynamodb.*", self._after)

    def _before(self, event_name: str, **_: Any) -> None:
        self.calls[event_name.rsplit(".", 1)[-1]] += 1
        self._started = time.perf_counter()

    def _after(self, **_: Any) -> None:
        self.seconds += time.perf_counter() - self._started

    def reset(self) -> None:
        self.calls.clear()
        self.seconds = 0.0

    @property
    def total(self) -> int:
        return sum(self.calls.values())


@dataclass
class Bench:
    services: Services
    counter: CallCounter
    daraja: DarajaSimulator
    pesapal: PesapalSimulator


@contextmanager
def bench_services() -> Iterator[Bench]:
    with mock_aws(), DarajaSimulator() as daraja, PesapalSimulator() as pesapal, httpx.Client(timeout=5) as http:
        client = boto3.client("dynamodb", region_name="eu-west-1")
        create_tables(client, "bench-")
        services = build_services(
            Settings(table_prefix="bench-", public_base_url="https://tulia.example"),
            dynamodb=client,
            http=http,
            clock=FixedClock(),
            mpesa_api_base=daraja.base_url,
            pesapal_api_base=pesapal.base_url,
        )
        yield Bench(services, CallCounter(client), daraja, pesapal)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def describe(samples_ms: list[float]) -> str:
    return (
        f"p50 {percentile(samples_ms, 50):.2f} ms, p95 {percentile(samples_ms, 95):.2f} ms, "
        f"mean {statistics.fmean(samples_ms):.2f} ms (n={len(samples_ms)})"
    )
