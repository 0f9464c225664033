"""Going live, and pausing (issue 34, part 6). A shop made in the console answers nobody until its checklist is
complete: WhatsApp connected, a payment method proven, something to sell, its hours and hand-over set, and the
templates Tulia needs approved by Meta. The owner then puts it live, and may pause it (customers get one polite
message with the shop's contact and no model is called: :meth:`tulia.pipeline.agent.AgentService._closed`) and
resume it. A shop the operator suspended stays so until the operator resumes it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from tulia.admin.common import AdminDeps, Deps, Owner, View, admin_router, audit
from tulia.domain.tenant import Tenant
from tulia.errors import BusinessRuleViolation, NotFound
from tulia.store.templates import TemplateRepo

CheckName = Literal["whatsapp", "payment", "catalog", "hours", "templates"]
# the templates a live shop needs approved: customers hear about orders and payments outside the 24-hour window
NEEDED_FOR_LIVE = ("order_update", "payment_receipt")


class Check(View):
    item: CheckName
    done: bool
    missing: str | None = None  # what is still to do, in words (the console words it in its own language)


class Checklist(View):
    status: str
    complete: bool
    checks: list[Check]


class PauseBody(View):
    reason: Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)] | None = Field(
        default=None, description="Why (kept in the audit trail and shown to the shop's staff)"
    )


def payment_ready(tenant: Tenant) -> bool:
    """A method customers can be offered: a Till or Paybill whose payments reach us (its URLs registered with
    Daraja), or one proven by a test from the console (or set up by the deployer, for shops from packs)."""
    if tenant.c2b_offered() is not None:
        return True
    configured = {m for m in ("mpesa_stk", "pesapal") if getattr(tenant.payments, m, None) is not None}
    if tenant.payments_tested is None:
        return bool(configured)
    return bool(configured & set(tenant.payments_tested))


def checklist(deps: AdminDeps, tenant: Tenant) -> Checklist:
    s = deps.services
    templates = {(t.name, t.language): t.status for t in TemplateRepo(s.db).list(tenant.tenant_id)}
    languages = {"sw" if lang == "sheng" else lang for lang in tenant.languages.allowed}
    unapproved = [
        f"{name}/{lang}"
        for name in NEEDED_FOR_LIVE
        for lang in sorted(languages)
        if templates.get((name, lang)) != "approved"
    ]
    has_items = s.catalog.has_active(tenant.tenant_id)  # example items stay hidden: not counted
    paid = payment_ready(tenant)
    hours_set = tenant.handoff.hours is not None and (tenant.handoff.enabled or tenant.handoff.contact is not None)
    checks = [
        Check(
            item="whatsapp", done=tenant.whatsapp is not None, missing=None if tenant.whatsapp else "Connect WhatsApp"
        ),
        Check(
            item="payment",
            done=paid,
            missing=None if paid else "Set up M-Pesa or card payments and test them",
        ),
        Check(
            item="catalog",
            done=has_items,
            missing=None if has_items else "Show customers at least one product or service",
        ),
        Check(
            item="hours",
            done=hours_set,
            missing=None if hours_set else "Set the hours your team answers and how a person takes over",
        ),
        Check(
            item="templates",
            done=not unapproved,
            missing=None if not unapproved else "Waiting for Meta to approve: " + ", ".join(unapproved),
        ),
    ]
    return Checklist(status=tenant.status, complete=all(c.done for c in checks), checks=checks)


router = admin_router()


@router.get("/admin/shop/checklist", tags=["shop"], summary="What the shop still needs before it goes live")
def get_checklist(who: Owner, deps: Deps) -> Checklist:
    return checklist(deps, fresh(deps, who.tenant_id))


def fresh(deps: AdminDeps, tenant_id: str) -> Tenant:
    """The profile as stored now, not as this function last cached it: another function (payments) may just have
    proven a method (a Till's URLs accepted, a test prompt approved)."""
    tenant = deps.services.tenants.find(tenant_id)
    if tenant is None:
        raise NotFound(f"Unknown tenant '{tenant_id}'.", field="tenant_id")
    return tenant


@router.post("/admin/shop/go-live", tags=["shop"], summary="Start answering customers (the checklist complete)")
def go_live(who: Owner, deps: Deps) -> Checklist:
    tenant = fresh(deps, who.tenant_id)
    if tenant.status != "setup":
        raise BusinessRuleViolation(f"The shop is {tenant.status}, not getting ready.", code="not_in_setup")
    listed = checklist(deps, tenant)
    if not listed.complete:
        missing = [c.item for c in listed.checks if not c.done]
        raise BusinessRuleViolation(
            "The shop is not ready: " + ", ".join(missing), code="checklist_incomplete", details={"missing": missing}
        )
    deps.services.tenants.set_status(who.tenant_id, "live", was=("setup",), at=deps.services.clock())
    audit(deps, who, "shop.live", who.tenant_id)
    return checklist(deps, deps.services.tenants.get(who.tenant_id))


@router.post("/admin/shop/pause", tags=["shop"], summary="Stop answering customers for now (they are told once)")
def pause(body: PauseBody, who: Owner, deps: Deps) -> Checklist:
    deps.services.tenants.set_status(
        who.tenant_id, "paused", was=("live",), at=deps.services.clock(), reason=body.reason or None
    )
    audit(deps, who, "shop.pause", who.tenant_id, reason=body.reason)
    return checklist(deps, deps.services.tenants.get(who.tenant_id))


@router.post("/admin/shop/resume", tags=["shop"], summary="Answer customers again after a pause")
def resume(who: Owner, deps: Deps) -> Checklist:
    deps.services.tenants.set_status(who.tenant_id, "live", was=("paused",), at=deps.services.clock())
    audit(deps, who, "shop.resume", who.tenant_id)
    return checklist(deps, deps.services.tenants.get(who.tenant_id))
