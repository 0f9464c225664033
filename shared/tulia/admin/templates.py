"""The shop's WhatsApp message templates: the only messages WhatsApp lets it send a customer more
than 24 hours after their last message (order updates, receipts, a person's reply, offers).
Listed for staff; submitted to Meta for approval, synchronised from Meta and deleted by the owner.
The shop's WhatsApp Business Account id (``whatsapp.business_account_id``) says where they live."""

from typing import Any

from pydantic import Field

from tulia.admin.common import AdminDeps, Deleted, Deps, Owner, Page, Staff, View, admin_router, audit
from tulia.channel.template_sync import META_STATUS, SyncResult, sync_templates
from tulia.domain.templates import NAME_PATTERN, MessageTemplate, TemplateCategory
from tulia.domain.tenant import Tenant
from tulia.errors import BusinessRuleViolation, NotFound, ProviderUnavailable
from tulia.store.templates import TemplateRepo


class TemplateInput(View):
    name: str = Field(pattern=NAME_PATTERN, description="lower-case letters, digits and _")
    language: str = Field(min_length=2, max_length=10, pattern=r"^[a-z]{2}(_[A-Z]{2})?$", examples=["en", "sw"])
    category: TemplateCategory
    body: str = Field(min_length=1, max_length=1024, description="Body text with {{1}}, {{2}} ... parameters")
    examples: list[str] = Field(
        default_factory=list, max_length=20, description="A sample value for each parameter (Meta's review asks)"
    )


router = admin_router()


def account(deps: AdminDeps, tenant: Tenant) -> str:
    if deps.whatsapp is None:
        raise ProviderUnavailable("WhatsApp is not configured for the admin API.")
    if tenant.whatsapp is None or not tenant.whatsapp.business_account_id:
        raise BusinessRuleViolation(
            "Set the shop's WhatsApp Business Account id (whatsapp.business_account_id) first.",
            code="business_account_missing",
            field="whatsapp.business_account_id",
        )
    return tenant.whatsapp.business_account_id


@router.get("/admin/templates", tags=["templates"], summary="The shop's WhatsApp message templates")
def list_templates(who: Staff, deps: Deps) -> Page[MessageTemplate]:
    return Page[MessageTemplate](items=TemplateRepo(deps.services.db).list(who.tenant_id))


@router.post(
    "/admin/templates",
    tags=["templates"],
    summary="Submit a template to WhatsApp for approval (pending until Meta approves it; then sync)",
)
def create_template(body: TemplateInput, who: Owner, deps: Deps) -> MessageTemplate:
    tenant = deps.services.tenants.get(who.tenant_id)
    template = MessageTemplate(
        name=body.name, language=body.language, category=body.category, body=body.body, updated_at=deps.services.clock()
    )
    if body.examples and len(body.examples) != template.parameter_count:
        raise BusinessRuleViolation(
            f"Give one example per parameter ({template.parameter_count}).", code="invalid_input", field="examples"
        )
    component: dict[str, Any] = {"type": "BODY", "text": body.body}
    if template.parameter_count:
        samples = body.examples or [f"example {n}" for n in range(1, template.parameter_count + 1)]
        component["example"] = {"body_text": [samples]}
    answer = deps.whatsapp.templates.create(
        account(deps, tenant),
        deps.whatsapp.token(tenant),
        {
            "name": body.name,
            "language": body.language,
            "category": body.category.upper(),
            "components": [component],
        },
    )
    created = template.model_copy(
        update={
            "status": META_STATUS.get(str(answer.get("status") or "PENDING").upper(), "pending"),
            "meta_id": str(answer["id"]) if answer.get("id") else None,
        }
    )
    TemplateRepo(deps.services.db).save(who.tenant_id, created)
    audit(deps, who, "template.create", f"{body.name}/{body.language}", category=body.category)
    return created


@router.post(
    "/admin/templates/sync",
    tags=["templates"],
    summary="Read the shop's templates and their approval status from WhatsApp",
)
def sync(who: Owner, deps: Deps) -> SyncResult:
    tenant = deps.services.tenants.get(who.tenant_id)
    waba_id = account(deps, tenant)
    assert deps.whatsapp is not None  # account() checked
    result = sync_templates(
        TemplateRepo(deps.services.db),
        deps.whatsapp.templates,
        tenant.tenant_id,
        waba_id,
        deps.whatsapp.token(tenant),
        deps.services.clock(),
    )
    audit(
        deps,
        who,
        "template.sync",
        who.tenant_id,
        added=result.added,
        changed=result.changed,
        removed=result.removed,
    )
    return result


@router.delete("/admin/templates/<name>", tags=["templates"], summary="Delete a template (every language)")
def delete_template(name: str, who: Owner, deps: Deps) -> Deleted:
    tenant = deps.services.tenants.get(who.tenant_id)
    mine = [t for t in TemplateRepo(deps.services.db).list(who.tenant_id) if t.name == name]
    if not mine:
        raise NotFound(f"No template '{name}'.", field="name")
    deps.whatsapp.templates.delete(account(deps, tenant), deps.whatsapp.token(tenant), name)
    for template in mine:
        TemplateRepo(deps.services.db).delete(who.tenant_id, template.name, template.language)
    audit(deps, who, "template.delete", name)
    return Deleted(deleted=True, id=name)
