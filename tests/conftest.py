"""Shared fixtures: moto DynamoDB in process, tables from tulia.store.tables, the Daraja and PesaPal
simulators over real HTTP, a controllable clock, and the demo packs."""

from __future__ import annotations

import copy
import itertools
import os
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import httpx
import pytest
from moto import mock_aws

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT.parent / "shared" / "spec" / "tulia-v2-spec.md"
PACKS = ROOT / "packs"

os.environ.update(
    {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "eu-west-1"}
)
for _var in [v for v in os.environ if v.startswith("TULIA_")]:
    del os.environ[_var]

from tests.moto_tables import dynamodb_backend, restore, watch_writes  # noqa: E402
from tulia.config import Settings  # noqa: E402
from tulia.local.moto_attribute_values import write_attribute_values_directly  # noqa: E402
from tulia.local.simulators.daraja import DarajaSimulator  # noqa: E402
from tulia.local.simulators.pesapal import PesapalSimulator  # noqa: E402
from tulia.packs.loader import Pack, load_pack  # noqa: E402
from tulia.packs.seed import seed_pack  # noqa: E402
from tulia.services import Services, build_services  # noqa: E402
from tulia.store.tables import create_tables  # noqa: E402
from tulia.tools.context import ToolContext  # noqa: E402
from tulia.tools.registry import call_tool  # noqa: E402

write_attribute_values_directly()  # moto's answers carry items as they are (see the module)
watch_writes()  # which tables each test writes: the others go to the next test as they are (tests/moto_tables.py)

# one botocore session: it loads the DynamoDB service model once, not once per test
BOTO = boto3.session.Session(region_name="eu-west-1")
# one TLS context for the tests' HTTP clients: each new context loads the CA bundle again (25 ms a test)
TLS = ssl.create_default_context()
SANDBOX_PASSKEY = "bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919"
SHOP, SALON, GROCER, HARDWARE = "demo-shop", "demo-salon", "demo-grocer", "demo-hardware"


class Clock:
    """A clock the test moves by hand. Starts on 2026-11-23 10:00 Nairobi time."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)  # every read is later than the one before
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@pytest.fixture(scope="session")
def demo_packs() -> dict[str, Pack]:
    return {name: load_pack(PACKS / name) for name in (SHOP, SALON, GROCER, HARDWARE)}


@pytest.fixture(scope="session")
def daraja() -> Iterator[DarajaSimulator]:
    with DarajaSimulator(passkeys={"174379": SANDBOX_PASSKEY}) as sim:
        yield sim


@pytest.fixture(scope="session")
def pesapal() -> Iterator[PesapalSimulator]:
    with PesapalSimulator() as sim:
        yield sim


@pytest.fixture
def settings() -> Settings:
    return Settings(table_prefix="test-", public_base_url="https://tulia.example", http_max_retries=1)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(scope="session")
def empty_tables() -> Any:
    """Tulia's tables as create_tables makes them, made once: each test gets a copy (0.3 s saved per test)."""
    with mock_aws():
        create_tables(BOTO.client("dynamodb"), "test-")
        return copy.deepcopy(dynamodb_backend().tables)


@pytest.fixture
def dynamodb(empty_tables: Any) -> Iterator[Any]:
    with mock_aws():
        client = BOTO.client("dynamodb")
        dynamodb_backend().tables = copy.deepcopy(empty_tables)
        yield client


@pytest.fixture
def services(
    settings: Settings, dynamodb: Any, clock: Clock, daraja: DarajaSimulator, pesapal: PesapalSimulator
) -> Iterator[Services]:
    with httpx.Client(timeout=5, verify=TLS) as http:
        yield build_services(
            settings,
            dynamodb=dynamodb,
            http=http,
            clock=clock,
            mpesa_api_base=daraja.base_url,
            pesapal_api_base=pesapal.base_url,
        )


@dataclass
class SeededSnapshot:
    tables: Any
    catalog_indexes: dict[str, tuple[int, Any]]
    clock_now: datetime | None = None  # the test clock's time after seeding (a restored test's clock starts there)


@pytest.fixture(scope="session")
def seeded_snapshot(demo_packs: dict[str, Pack]) -> SeededSnapshot:
    """Seed both demo packs once, and keep a copy of moto's tables to restore for each test."""
    with mock_aws():
        client = BOTO.client("dynamodb")
        create_tables(client, "test-")
        services = build_services(Settings(table_prefix="test-"), dynamodb=client, clock=Clock())
        for pack in demo_packs.values():
            seed_pack(services, pack)
        return _snapshot(services)


def _snapshot(services: Services) -> SeededSnapshot:
    now = services.clock.now if isinstance(services.clock, Clock) else None
    return SeededSnapshot(
        copy.deepcopy(dynamodb_backend().tables), dict(services.catalog_indexes._entries.items()), now
    )


def _restore(services: Services, snapshot: SeededSnapshot) -> Services:
    restore(snapshot.tables)
    for tenant_id, (version, index) in snapshot.catalog_indexes.items():
        services.catalog_indexes.prime(tenant_id, version, index)
    if snapshot.clock_now is not None and isinstance(services.clock, Clock):
        services.clock.now = max(services.clock.now, snapshot.clock_now)
    return services


@pytest.fixture
def seeded(services: Services, seeded_snapshot: SeededSnapshot) -> Services:
    """The demo shop and the demo salon, freshly seeded for this test (restored from the snapshot)."""
    return _restore(services, seeded_snapshot)


_with_packs: dict[tuple[Path, ...], SeededSnapshot] = {}


def seed_packs_beside_the_demo_packs(seeded: Services, *packs: Path) -> Services:
    """These packs seeded beside the demo packs, into a test's fresh ``seeded`` services (nothing else written
    yet): the first test of a process seeds them and keeps a copy of moto's tables, the next ones restore it, as
    ``seeded`` restores the demo packs."""
    snapshot = _with_packs.get(packs)
    if snapshot is not None:
        return _restore(seeded, snapshot)
    for pack in packs:
        seed_pack(seeded, load_pack(pack))
    _with_packs[packs] = _snapshot(seeded)
    return seeded


def chat_at_pack(seeded: Services, pack: Path, phone: str) -> Any:
    """A customer of the shop of ``pack`` (seeded beside the demo packs) on the rules engine."""
    from tests.chat import Chat, conversations_for
    from tulia.nlu.rules import RulesEngine

    services = seed_packs_beside_the_demo_packs(seeded, pack)
    return Chat(conversations_for(services, RulesEngine()), tenant_id=load_pack(pack).tenant.tenant_id, phone=phone)


_ids = itertools.count(1)


class Caller:
    """Calls tools the way the conversation engine will: in one tenant's trusted context."""

    def __init__(self, services: Services, tenant_id: str, customer_id: str | None = None) -> None:
        self.services, self.tenant_id, self.customer_id = services, tenant_id, customer_id

    def ctx(self) -> ToolContext:
        return ToolContext(
            tenant_id=self.tenant_id,
            request_id=f"req-{next(_ids)}",
            conversation_id="conv-1",
            services=self.services,
            customer_id=self.customer_id,
        )

    def __call__(self, name: str, **args: Any) -> dict[str, Any]:
        ctx = self.ctx()
        full = {"tenant_id": self.tenant_id, "request_id": ctx.request_id, "conversation_id": "conv-1", **args}
        return call_tool(name, full, ctx)

    def ok(self, name: str, **args: Any) -> dict[str, Any]:
        result = self(name, **args)
        assert result["ok"], result
        return result["data"]

    def err(self, name: str, **args: Any) -> dict[str, Any]:
        result = self(name, **args)
        assert not result["ok"], result
        return result["error"]


@pytest.fixture
def shop(seeded: Services) -> Caller:
    return Caller(seeded, SHOP)


@pytest.fixture
def salon(seeded: Services) -> Caller:
    return Caller(seeded, SALON)


def new_customer(caller: Caller, phone: str = "0712345678") -> str:
    return str(caller.ok("customer_get_or_create", phone_e164=phone)["customer_id"])


# --- conversation engines ------------------------------------------------------------------------
def scripted_llm_engine(model: Any, *, reader_threshold: float = 1.01) -> Any:
    """The ``bedrock`` engine on a scripted chat model with hand-written answers. By default the model
    reads every classified turn (what its answers decide is what these tests check); with
    ``reader_threshold=0.70`` (the product's default) the message reader answers the turns it is sure of."""
    from tulia.nlu.bedrock import bedrock_engine

    settings = Settings(llm_reader_threshold=reader_threshold)
    return bedrock_engine(settings, models={"classifier": model, "writer": model})


@pytest.fixture
def engine() -> Any:
    """The rules engine. (The ``bedrock`` engine is tested with hand-written model answers: see
    tests/model_answers.py, test_order_frame.py and test_llm_engine.py.)"""
    from tulia.nlu.rules import RulesEngine

    return RulesEngine()


@pytest.fixture
def conversations(seeded: Services, engine: Any) -> Any:
    from tests.chat import conversations_for

    return conversations_for(seeded, engine)


@pytest.fixture
def chat(conversations: Any) -> Any:
    from tests.chat import Chat

    return Chat(conversations)


# test modules that share one `tulia dev` (a session fixture of tests/e2e/conftest.py): one scope of the scheduler,
# so they run on one worker and the stack starts once
SHARED_STACKS = {
    "tests/e2e/test_admin_api.py": "recorded_stack",
    "tests/e2e/test_local_stack.py": "recorded_stack",
    "tests/e2e/test_chat_page.py": "dev_stack",
    "tests/e2e/test_console.py": "dev_stack",
    "tests/e2e/test_console_signup.py": "dev_stack",
}


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` with the modules of one shared stack as one unit, in collection order: the end-to-end
    modules (the slowest) are handed out first, the quick unit modules fill in at the end."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class ModulesAndSharedStacks(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return SHARED_STACKS.get(path, path)

    config.option.loadscopereorder = False
    return ModulesAndSharedStacks(config, log)
