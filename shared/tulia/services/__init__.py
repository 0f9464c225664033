"""Wiring: build the repositories, search caches and provider clients once per container.

Handlers, the CLI and the local stack call :func:`build_services`; tests pass moto clients and
HTTP clients pointed at local fakes. Nothing here connects at import time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import httpx

from tulia.config import Settings
from tulia.domain.common import utc_now
from tulia.errors import ProviderUnavailable
from tulia.nlu.shop_layer import ShopLayer
from tulia.payments.config import PaymentConfig
from tulia.payments.mpesa.daraja import DarajaClient, DarajaCredentials
from tulia.payments.pesapal.client import PesapalClient, PesapalCredentials
from tulia.rag.embedded import KbIndex
from tulia.rag.retriever import KbSearch, kb_search_for
from tulia.search.cache import VersionedCache
from tulia.search.catalog_index import CatalogIndex
from tulia.store.alerts import AlertRepo, StaffAlerts
from tulia.store.bookings import BookingRepo
from tulia.store.catalog import CatalogRepo
from tulia.store.customers import CustomerRepo
from tulia.store.dynamo import Dynamo
from tulia.store.handoffs import HandoffRepo
from tulia.store.kb import KbRepo
from tulia.store.media import MediaStore, PictureStore
from tulia.store.misreads import MisreadRepo
from tulia.store.offers import OfferRepo
from tulia.store.orders import OrderRepo, PaymentRepo
from tulia.store.scoped import TenantSessions
from tulia.store.tenants import TenantRepo
from tulia.store.threads import ThreadRepo

if TYPE_CHECKING:
    pass


class _Unconfigured:
    """Stands in for a provider client whose base URL is not set: every use is a clear error."""

    def __init__(self, provider: str, setting: str) -> None:
        self.provider, self.setting = provider, setting

    def __getattr__(self, name: str) -> Any:
        raise ProviderUnavailable(
            f"{self.provider} is not configured: set {self.setting}.", details={"provider": self.provider}
        )


@dataclass
class Services:
    db: Dynamo
    tenants: TenantRepo
    customers: CustomerRepo
    catalog: CatalogRepo
    offers: OfferRepo
    orders: OrderRepo
    payments: PaymentRepo
    bookings: BookingRepo
    handoffs: HandoffRepo
    kb: KbRepo
    catalog_indexes: VersionedCache[CatalogIndex]
    kb_indexes: VersionedCache[KbIndex]
    kb_search: KbSearch
    daraja: DarajaClient
    pesapal: PesapalClient
    payment_config: PaymentConfig
    clock: Callable[[], datetime]
    # the shop's staff told what happened (a person asked for, money in, appointments): recorded here, and
    # delivered where the app wires ``alerts.deliver`` (the outreach queue)
    alerts: StaffAlerts
    # each customer's conversation as the console shows it (written by the agent, the news and the inbox)
    threads: ThreadRepo
    # the messages each shop's bot did not understand, and the owner's labels: her shop's reading layer
    misreads: MisreadRepo
    shop_layers: VersionedCache[ShopLayer]
    # customers' photos and voice notes, kept 30 days in the media bucket (None: no bucket, nothing kept)
    media_files: MediaStore | None = None
    # items' pictures shops upload, served publicly (None: no bucket; a picture's address is typed instead)
    pictures: PictureStore | None = None


def build_services(
    settings: Settings,
    *,
    dynamodb: Any = None,
    http: httpx.Client | None = None,
    clock: Callable[[], datetime] | None = None,
    mpesa_api_base: str | None = None,
    pesapal_api_base: str | None = None,
) -> Services:
    """Create every collaborator. ``mpesa_api_base``/``pesapal_api_base`` override the settings
    (the local stack passes its simulators' URLs)."""
    if dynamodb is None:
        import boto3
        from botocore.config import Config

        dynamodb = boto3.client(
            "dynamodb",
            region_name=settings.aws_region,
            endpoint_url=settings.aws_endpoint_url,
            config=Config(connect_timeout=2, read_timeout=5, retries={"max_attempts": 3, "mode": "standard"}),
        )
    http = http or httpx.Client(timeout=settings.http_timeout_seconds)
    db = Dynamo(dynamodb, settings.table_prefix)
    catalog = CatalogRepo(db)
    kb = KbRepo(db)
    mpesa_base = mpesa_api_base or settings.mpesa_api_base
    pesapal_base = pesapal_api_base or settings.pesapal_api_base
    daraja: Any = (
        DarajaClient(http, mpesa_base, retries=settings.http_max_retries)
        if mpesa_base
        else _Unconfigured("M-Pesa", "TULIA_MPESA_API_BASE")
    )
    pesapal: Any = (
        PesapalClient(http, pesapal_base, retries=settings.http_max_retries)
        if pesapal_base
        else _Unconfigured("PesaPal", "TULIA_PESAPAL_API_BASE")
    )
    tenant_secrets = None
    if settings.secrets_prefix:  # AWS: tenants' credentials live in Secrets Manager
        from tulia.credentials import TenantSecrets, secret_store

        tenant_secrets = TenantSecrets(secret_store(settings), settings.secrets_prefix)
    tenants = TenantRepo(db, secrets=tenant_secrets)
    kb_indexes: VersionedCache[KbIndex] = VersionedCache(lambda tenant_id: KbIndex(kb.current_chunks(tenant_id)))
    kb_search = kb_search_for(settings, tenants, kb, kb_indexes)
    misreads = MisreadRepo(db)
    return Services(
        db=db,
        tenants=tenants,
        customers=CustomerRepo(db),
        catalog=catalog,
        offers=OfferRepo(db),
        orders=OrderRepo(db),
        payments=PaymentRepo(db),
        bookings=BookingRepo(db),
        handoffs=HandoffRepo(db),
        kb=kb,
        catalog_indexes=VersionedCache(
            lambda tenant_id: CatalogIndex(catalog.iter_all(tenant_id), tenants.get(tenant_id).vocabulary.root)
        ),
        kb_indexes=kb_indexes,
        kb_search=kb_search,
        daraja=daraja,
        pesapal=pesapal,
        payment_config=PaymentConfig(
            public_base_url=settings.public_base_url,
            max_order_total=settings.max_order_total_kes,
            mpesa_credentials=DarajaCredentials(
                settings.mpesa_consumer_key.get_secret_value(), settings.mpesa_consumer_secret.get_secret_value()
            ),
            pesapal_credentials=PesapalCredentials(
                settings.pesapal_consumer_key.get_secret_value(), settings.pesapal_consumer_secret.get_secret_value()
            ),
        ),
        clock=clock or utc_now,
        alerts=StaffAlerts(AlertRepo(db)),
        threads=ThreadRepo(db),
        misreads=misreads,
        shop_layers=VersionedCache(lambda tenant_id: shop_layer_of(misreads, tenant_id)),
        media_files=(
            MediaStore(settings.media_bucket, lambda: _s3(settings), scoped=media_sessions(settings))
            if settings.media_bucket
            else None
        ),
        pictures=(
            PictureStore(settings.pictures_bucket, settings.pictures_base_url, lambda: _s3(settings))
            if settings.pictures_bucket and settings.pictures_base_url
            else None
        ),
    )


def shop_layer_of(misreads: MisreadRepo, tenant_id: str) -> ShopLayer:
    """The shop's reading layer: the messages its owner labelled."""
    return ShopLayer(
        (m.text, m.label.intent, m.label.item_id, m.label.quantity)
        for m in misreads.labelled(tenant_id)
        if m.label is not None
    )


def media_sessions(settings: Settings) -> TenantSessions | None:
    """Each shop's session of the media role (AWS), or None: the function's own rights (the local stack)."""
    if not settings.media_role_arn or not settings.media_bucket:
        return None

    def sts() -> Any:
        import boto3

        return boto3.client("sts", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)

    return TenantSessions(
        settings.media_role_arn,
        settings.media_bucket,
        settings.aws_region,
        settings.table_prefix,
        sts,
        endpoint_url=settings.aws_endpoint_url,
    )


def _s3(settings: Settings) -> Any:
    import boto3

    return boto3.client("s3", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)
