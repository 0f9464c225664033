"""What every admin route shares: its dependencies, the caller, input models derived from the domain
models, pages, and the audit trail."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any, Generic, TypeVar

from aws_lambda_powertools.event_handler import Depends
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.request import Request
from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, create_model

from tulia.admin.auth import Principal, principal_of
from tulia.errors import InvalidInput
from tulia.observability import logger as log
from tulia.services import Services
from tulia.store.audit import AuditRepo

T = TypeVar("T")
PAGE_LIMIT_MAX = 100


@dataclass
class AdminDeps:
    """Built once per container (or once by the local stack)."""

    services: Services
    audit: AuditRepo
    uploads: Any = None  # tulia.admin.kb.KbUploads (presigned S3 PUT URLs), None without a KB bucket
    whatsapp: Any = None  # tulia.admin.handoffs.WhatsAppAccess: replies from the inbox, templates
    notify: Any = None  # tulia.store.queues.InboundQueue: news for a customer, sent by the agent
    outreach: Any = None  # tulia.store.queues.OutreachQueue: broadcasts, sent paced by the outreach worker
    conversations: Any = None  # tulia.admin.customer_data.ConversationStore (export, erasure)
    stats: Any = None  # tulia.store.stats.StatsRepo
    staff: Any = None  # tulia.admin.staff.StaffDirectory: the staff user pool (invite, remove)
    standing: Any = None  # tulia.admin.auth.StaffStanding: set by the API, read by staff removal
    checks: Any = None  # tulia.store.queues.PaymentCheckQueue: a changed Paybill/Till registered there
    kes_per_usd: float = 129.0  # model cost shown in shillings (TULIA_KES_PER_USD)
    push_key: str | None = None  # the Web Push application server key (public); None: no alerts on devices
    push_hosts: tuple[str, ...] = ()  # the push services a device's subscription may name (TULIA_WEBPUSH_HOSTS)
    onboarding: Any = None  # tulia.channel.onboarding.MetaOnboarding: Embedded Signup's code exchange and setup
    signup_dialog: Any = None  # tulia.admin.whatsapp_connect.SignupDialog: what the console opens for it
    trial: Any = None  # tulia.pipeline.trial.TrialChats: the console's trial chat with the shop's own engine


# the route functions' dependencies: the API's parts and the caller, from the request being resolved (the resolver puts
# its AdminDeps in the request's context: each resolver its own, however many share the module-level routers)
DEPS_KEY = "admin_deps"


def admin_deps(request: Request) -> AdminDeps:
    """The API's dependencies (stores, queues, the staff directory) of the resolver answering this request."""
    deps: AdminDeps = request.context[DEPS_KEY]
    return deps


def caller(request: Request, deps: Annotated[AdminDeps, Depends(admin_deps)]) -> Principal:
    """Who is calling: the verified token's staff member, still on the shop's staff."""
    return deps.standing.check(principal_of(request.resolved_event.raw_event))  # type: ignore[no-any-return]


def admin_router() -> Router:
    """A module's routes, included by the API's resolver (``include_router``)."""
    return Router()  # type: ignore[no-untyped-call]  # Powertools: untyped


def owner(who: Annotated[Principal, Depends(caller)]) -> Principal:
    return who.require("owner")


def staff(who: Annotated[Principal, Depends(caller)]) -> Principal:
    return who.require("owner", "agent")


# a route function's parameters: ``who: Owner`` (an owner calling), ``who: Staff`` (owner or agent), ``deps: Deps``
Owner = Annotated[Principal, Depends(owner)]
Staff = Annotated[Principal, Depends(staff)]
Deps = Annotated[AdminDeps, Depends(admin_deps)]


class View(BaseModel):
    """A shape the admin API answers with: in its OpenAPI document (response schemas are serialization mode), a
    field with a default is required, as every answer holds it (the console's generated types rely on it)."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)


class Page(View, Generic[T]):
    """One page of a listing; pass ``cursor`` back to get the next (absent at the end)."""

    items: list[T]
    cursor: str | None = None


class CustomerBrief(View):
    """Who a ticket or an order is about, as staff recognise them."""

    customer_id: str
    name: str | None
    phone: str | None  # +2547..., or None for a customer known only by their WhatsApp user id


def customer_briefs(deps: AdminDeps, tenant_id: str, customer_ids: Iterable[str]) -> dict[str, CustomerBrief]:
    found = deps.services.customers.get_many(tenant_id, list(customer_ids))
    return {cid: CustomerBrief(customer_id=cid, name=c.display_name, phone=c.phone_e164) for cid, c in found.items()}


class Deleted(View):
    deleted: bool
    id: str


def input_model(
    domain: type[BaseModel], name: str, *, exclude: Iterable[str] = (), partial: bool = False
) -> type[BaseModel]:
    """A request body model with the domain model's fields (types, limits, descriptions) minus the ones
    the server owns (tenant id, ids from the path, counters). ``partial``: every field optional, for
    PATCH. The domain model validates the merged result, so its cross-field rules apply too."""
    skip = set(exclude)
    fields: dict[str, Any] = {}
    for field_name, info in domain.model_fields.items():
        if field_name in skip:
            continue
        if partial:
            fields[field_name] = (info.annotation | None, Field(default=None, description=info.description))  # type: ignore[operator]
        else:
            fields[field_name] = (info.annotation, info)
    model: type[BaseModel] = create_model(name, __config__=ConfigDict(extra="forbid"), **fields)
    return model


def audit(deps: AdminDeps, who: Principal, action: str, target: str, **details: Any) -> None:
    deps.audit.record(
        who.tenant_id,
        actor=who.actor,
        role=",".join(sorted(who.roles)) or "none",
        action=action,
        target=target,
        at=deps.services.clock(),
        details=details,
    )


EARLIEST_DAY, LATEST_DAY = date(2000, 1, 1), date(2100, 12, 31)  # days a shop's records can be about


def _in_business_range(moment: datetime) -> datetime:
    if not EARLIEST_DAY <= moment.date() <= LATEST_DAY:
        raise ValueError(f"must be between {EARLIEST_DAY} and {LATEST_DAY}")
    return moment


# a moment of a shop's records, with its time zone: year 9999 is a typo, refused (422) before any arithmetic
BusinessMoment = Annotated[AwareDatetime, AfterValidator(_in_business_range)]


def business_day(day: date | None, field: str) -> date | None:
    """A day filter within the range a shop's records can have (9999-12-31 is a typo, not a day)."""
    if day is not None and not EARLIEST_DAY <= day <= LATEST_DAY:
        raise InvalidInput(f"'{field}' must be between {EARLIEST_DAY} and {LATEST_DAY}.", field=field)
    return day


def _counted(deps: AdminDeps, tenant_id: str, what: str, write: Callable[[Any], None]) -> None:
    """The shop's analytics counters are best effort: the owner's action stands whether or not it is counted."""
    if deps.stats is None:
        return
    try:
        write(deps.stats)
    except Exception:  # noqa: BLE001 - a counter never fails the owner's action
        log.exception(f"{what} not counted in analytics", extra={"tenant_id": tenant_id})


def count_revenue_moved(deps: AdminDeps, tenant_id: str, amount: int) -> None:
    """A paid deposit due back, applied to another order: it is that order's revenue when it is paid, no longer
    the deposit's."""
    at = deps.services.clock()
    _counted(deps, tenant_id, "applied deposit", lambda s: s.record_revenue_moved(tenant_id, at=at, amount=amount))


def count_refund(deps: AdminDeps, tenant_id: str, amount: int, *, of_revenue: bool) -> None:
    """Money given back (recorded regardless of the count)."""
    at = deps.services.clock()
    _counted(
        deps, tenant_id, "refund", lambda s: s.record_refund(tenant_id, at=at, amount=amount, of_revenue=of_revenue)
    )
