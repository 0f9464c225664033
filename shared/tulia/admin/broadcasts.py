"""Broadcasts: an approved marketing template to the customers who asked for offers (optionally
narrowed by language, a recent order, a category bought, money spent). A dry run counts them; sending
re-checks each customer's consent when their message goes, inside the shop's marketing hours, at the
shop's send rate; the delivery statuses and the STOPs that follow are counted. Owner only."""

import contextlib
import secrets
from datetime import UTC, datetime
from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import Field

from tulia.admin.common import PAGE_LIMIT_MAX, AdminDeps, Deps, Owner, Page, View, admin_router, audit
from tulia.domain.broadcast import NAME_PARAMETER, Broadcast, Recipient, Segment, marketing_opens_at
from tulia.domain.templates import NAME_PATTERN, pick
from tulia.domain.tenant import Tenant
from tulia.errors import BusinessRuleViolation, ProviderUnavailable, StateConflict
from tulia.store.broadcasts import BroadcastRepo
from tulia.store.segments import segment_members
from tulia.store.templates import TemplateRepo


class BroadcastInput(View):
    template: str = Field(pattern=NAME_PATTERN, description="An approved marketing template of the shop")
    parameters: list[str] = Field(
        default_factory=list,
        max_length=20,
        description=f"The template's parameters in order; {NAME_PARAMETER} is each customer's first name",
    )
    segment: Segment = Field(default_factory=Segment)


class DryRun(View):
    recipients: int = Field(description="Customers who would get it now (consent is checked again when sent)")
    preview: str = Field(description="The message as the first of them would read it (in the template's language)")
    languages: list[str] = Field(description="The template's approved languages")
    sends_now: bool = Field(description="Inside the shop's marketing hours")
    opens_at: datetime | None = None


class BroadcastDetail(View):
    broadcast: Broadcast
    recipients: list[Recipient]
    cursor: str | None = None


def broadcast_id_at(at: datetime) -> str:
    """A broadcast's id starts with when it was made, so the shop's list sorts newest first."""
    return f"bc_{at.astimezone(UTC):%Y%m%d%H%M%S%f}_{secrets.token_hex(3)}"


router = admin_router()


def check(deps: AdminDeps, tenant: Tenant, body: BroadcastInput) -> tuple[list[str], str]:
    """The template's approved languages and a preview; refused when it cannot carry a broadcast."""
    mine = [
        t
        for t in TemplateRepo(deps.services.db).list(tenant.tenant_id)
        if t.name == body.template and t.status == "approved"
    ]
    if not mine:
        raise BusinessRuleViolation(
            f"No approved template '{body.template}': submit it, wait for Meta's approval, then sync.",
            code="template_missing",
            details={"template": body.template},
        )
    if any(t.category != "marketing" for t in mine):
        raise BusinessRuleViolation(
            f"Template '{body.template}' is not a marketing template.", code="template_category"
        )
    first = pick(mine, body.template, tenant.languages.default, tenant.languages.default) or mine[0]
    if first.parameter_count != len(body.parameters):
        raise BusinessRuleViolation(
            f"Template '{body.template}' takes {first.parameter_count} parameters; {len(body.parameters)} given.",
            code="template_parameters",
        )
    shown = [("Wanjiku" if p == NAME_PARAMETER else p) for p in body.parameters]
    return sorted(t.language for t in mine), first.filled(shown)


@router.post("/admin/broadcasts/dry-run", tags=["broadcasts"], summary="How many customers a broadcast reaches now")
def dry_run(body: BroadcastInput, who: Owner, deps: Deps) -> DryRun:
    tenant = deps.services.tenants.get(who.tenant_id)
    languages, preview = check(deps, tenant, body)
    members = segment_members(
        deps.services.customers, deps.services.orders, tenant, body.segment, deps.services.clock()
    )
    opens = marketing_opens_at(tenant, deps.services.clock())
    return DryRun(
        recipients=len(members), preview=preview, languages=languages, sends_now=opens is None, opens_at=opens
    )


@router.post("/admin/broadcasts", tags=["broadcasts"], summary="Send a broadcast (paced, inside marketing hours)")
def create(body: BroadcastInput, who: Owner, deps: Deps) -> Broadcast:
    if deps.outreach is None:
        raise ProviderUnavailable("Broadcasts are not configured for the admin API.")
    tenant = deps.services.tenants.get(who.tenant_id)
    check(deps, tenant, body)
    members = segment_members(
        deps.services.customers, deps.services.orders, tenant, body.segment, deps.services.clock()
    )
    now = deps.services.clock()
    broadcast = Broadcast(
        tenant_id=who.tenant_id,
        broadcast_id=broadcast_id_at(now),
        template=body.template,
        parameters=body.parameters,
        segment=body.segment,
        created_by=who.actor,
        created_at=now,
        recipients=len(members),
    )
    BroadcastRepo(deps.services.db).create(broadcast, [c.customer_id for c in members])
    deps.outreach.send({"kind": "broadcast", "tenant_id": who.tenant_id, "broadcast_id": broadcast.broadcast_id})
    audit(deps, who, "broadcast.send", broadcast.broadcast_id, template=body.template, recipients=len(members))
    return broadcast


@router.get("/admin/broadcasts", tags=["broadcasts"], summary="The shop's broadcasts, newest first")
def list_broadcasts(
    who: Owner,
    deps: Deps,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 50,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> Page[Broadcast]:
    page = BroadcastRepo(deps.services.db).list(who.tenant_id, limit=limit, cursor=cursor)
    return Page[Broadcast](items=page.items, cursor=page.cursor)


@router.get("/admin/broadcasts/<broadcast_id>", tags=["broadcasts"], summary="A broadcast, its counts and recipients")
def get_broadcast(
    broadcast_id: str,
    who: Owner,
    deps: Deps,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = 100,
    cursor: Annotated[str | None, Query(max_length=2000)] = None,
) -> BroadcastDetail:
    broadcast = BroadcastRepo(deps.services.db).get(who.tenant_id, broadcast_id)
    page = BroadcastRepo(deps.services.db).recipients(who.tenant_id, broadcast_id, limit=limit, cursor=cursor)
    return BroadcastDetail(broadcast=broadcast, recipients=page.items, cursor=page.cursor)


@router.post("/admin/broadcasts/<broadcast_id>/cancel", tags=["broadcasts"], summary="Stop sending a broadcast")
def cancel(broadcast_id: str, who: Owner, deps: Deps) -> Broadcast:
    broadcast = BroadcastRepo(deps.services.db).get(who.tenant_id, broadcast_id)
    if broadcast.status == "sending":
        with contextlib.suppress(StateConflict):  # finished meanwhile
            BroadcastRepo(deps.services.db).set_status(who.tenant_id, broadcast_id, "cancelled", deps.services.clock())
        audit(deps, who, "broadcast.cancel", broadcast_id)
    return BroadcastRepo(deps.services.db).get(who.tenant_id, broadcast_id)
