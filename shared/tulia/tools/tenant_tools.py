"""tenant_get_context."""

from __future__ import annotations

from tulia.domain.tenant import Tenant
from tulia.tools.args import TenantGetContextArgs
from tulia.tools.common import Output
from tulia.tools.context import ToolContext


class ZoneOut(Output):
    name: str
    fee: int
    eta: str


class TenantContextOut(Output):
    tenant_id: str
    tenant_name: str
    bot_name: str
    bot_intro: str
    tone_style: str
    llm_wording: bool
    default_language: str
    allowed_languages: list[str]
    sheng_fallback: str
    max_chattiness_level: int
    catalog_link_base: str | None
    currency: str
    payments_enabled: dict[str, bool]
    delivery_zones: list[ZoneOut]
    pickup: dict[str, object]
    compliance: dict[str, object]
    handoff: dict[str, object]


def context_of(tenant: Tenant, language: str | None = None) -> TenantContextOut:
    """The shop as the conversation sees it; its per-language texts in ``language`` (else its own)."""
    enabled = tenant.payment_methods()
    return TenantContextOut(
        tenant_id=tenant.tenant_id,
        tenant_name=tenant.name,
        bot_name=tenant.persona.bot_name,
        bot_intro=tenant.persona.bot_intro,
        tone_style=tenant.persona.tone_style,
        llm_wording=tenant.persona.llm_wording,
        default_language=tenant.languages.default,
        allowed_languages=list(tenant.languages.allowed),
        sheng_fallback=tenant.languages.sheng_reply_language,
        max_chattiness_level=tenant.max_chattiness_level,
        catalog_link_base=tenant.catalog_link_base,
        currency=tenant.currency,
        payments_enabled={m: m in enabled for m in ("mpesa_stk", "mpesa_c2b", "pesapal")},
        delivery_zones=[
            ZoneOut(name=z.name, fee=z.fee, eta=tenant.text(z.eta, language)) for z in tenant.delivery_zones
        ],
        pickup={
            "enabled": tenant.pickup.enabled,
            "address": tenant.text(tenant.pickup.address, language),
            "eta": tenant.text(tenant.pickup.eta, language),
        },
        compliance=tenant.compliance.model_dump(),
        handoff={
            "enabled": tenant.handoff.enabled,
            "hours": tenant.handoff.hours,
            "response_time": tenant.text(tenant.handoff.response_time, language),
        },
    )


def tenant_get_context(ctx: ToolContext, args: TenantGetContextArgs) -> TenantContextOut:
    return context_of(ctx.services.tenants.get(ctx.tenant_id), ctx.language)
