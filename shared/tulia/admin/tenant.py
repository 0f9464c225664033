"""The shop's profile and bot settings: persona, languages, chattiness, catalog link, payments,
delivery zones, pickup, compliance and handoff policy. Owner only. Credentials are write-only: they
are never returned, and a request that leaves them out keeps them."""

from typing import Any

from tulia.admin.common import Deps, Owner, admin_router, audit, input_model
from tulia.domain.tenant import Tenant
from tulia.errors import StateConflict
from tulia.payments.setup import register_c2b_urls

# the shop's status moves only by its own routes (go live, pause) and the operator's (suspend)
SERVER_OWNED = (
    "tenant_id",
    "currency",
    "catalog_version",
    "kb_version",
    "reading_version",
    "c2b_urls_for",
    "status",
    "trade",
    "status_since",
    "status_reason",
    "status_before",
    "payments_tested",
)
SECRET_FIELDS = (
    ("whatsapp", "access_token"),
    ("whatsapp", "registration_pin"),
    ("payments", "mpesa_stk", "passkey"),
    ("payments", "mpesa_stk", "consumer_key"),
    ("payments", "mpesa_stk", "consumer_secret"),
    ("payments", "pesapal", "consumer_key"),
    ("payments", "pesapal", "consumer_secret"),
)
MASK = "********"

TenantSettingsPatch = input_model(Tenant, "TenantSettingsPatch", exclude=SERVER_OWNED, partial=True)


def redacted(tenant: Tenant) -> dict[str, Any]:
    """The profile as staff see it: every credential masked (set or not is still visible)."""
    data = tenant.model_dump(mode="json")
    for path in SECRET_FIELDS:
        node: Any = data
        for part in path[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict) and node.get(path[-1]):
            node[path[-1]] = MASK
    return data


def _merge(current: Any, patch: Any) -> Any:
    """Deep-merge mappings; anything else in the patch replaces (lists included). A masked
    credential sent back unchanged keeps the stored one."""
    if isinstance(current, dict) and isinstance(patch, dict):
        merged = dict(current)
        for key, value in patch.items():
            merged[key] = current.get(key) if value == MASK else _merge(current.get(key), value)
        return merged
    return patch


router = admin_router()


@router.get("/admin/tenant", tags=["shop"], summary="The shop's profile and bot settings")
def get_tenant(who: Owner, deps: Deps) -> dict[str, Any]:
    return redacted(deps.services.tenants.get(who.tenant_id))


@router.patch("/admin/tenant", tags=["shop"], summary="Change profile and bot settings (fields you send)")
def patch_tenant(
    body: TenantSettingsPatch,  # type: ignore[valid-type]
    who: Owner,
    deps: Deps,
) -> dict[str, Any]:
    current = deps.services.tenants.get(who.tenant_id)
    changes = body.model_dump(mode="json", exclude_unset=True)  # type: ignore[attr-defined]
    merged = _merge(current.model_dump(mode="json"), changes)
    updated = Tenant.model_validate(merged)
    before, after = current.c2b_shortcode, updated.c2b_shortcode
    if after is not None and after != before:
        if any(other != who.tenant_id for other in deps.services.tenants.c2b_shortcode_users(after)):
            raise StateConflict(
                f"Paybill/Till {after} is another shop's: each shop takes M-Pesa on its own number.",
                field="payments.mpesa_c2b",
            )
        # not told to customers until Daraja sends this number's confirmations here (registered below)
        updated = updated.model_copy(update={"c2b_urls_for": current.c2b_urls_for or before or ""})
    if updated != current:
        deps.services.tenants.save(
            updated,
            previous_phone_number_id=current.whatsapp.phone_number_id if current.whatsapp else None,
            previous_c2b_shortcode=before,
        )
        if updated.vocabulary != current.vocabulary:
            deps.services.tenants.bump_version(who.tenant_id, "catalog_version")  # search folds words anew
        audit(deps, who, "tenant.update", who.tenant_id, fields=sorted(changes))
    if after is not None and after != before:
        if deps.checks is not None:  # in AWS the payments function registers it (it holds the Daraja keys)
            deps.checks.register_c2b(tenant_id=who.tenant_id)
            audit(deps, who, "tenant.c2b_urls", who.tenant_id, shortcode=after, registered="queued")
        else:
            _done, failed = register_c2b_urls(deps.services, updated)  # the code of `tulia register-urls`
            audit(deps, who, "tenant.c2b_urls", who.tenant_id, shortcode=after, registered=not failed)
        updated = deps.services.tenants.get(who.tenant_id)
    return redacted(updated)
