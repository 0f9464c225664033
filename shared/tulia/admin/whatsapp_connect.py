"""Connecting the shop's WhatsApp number in the browser (Meta's Embedded Signup). The console opens Meta's signup
popup (the Facebook SDK's login with the WhatsApp Business configuration; locally, the Graph simulator's stand-in)
and sends what it got here: the code, and the WhatsApp Business Account and number the owner chose. The server
exchanges the code for the business token, subscribes the app to the account's webhooks, registers the number,
reads its display number, keeps the token and the number's PIN in the shop's secret (never in DynamoDB or the
browser), makes the number the shop's, syncs its templates and submits the ones Tulia needs that are missing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from tulia.admin.common import AdminDeps, Deps, Owner, View, admin_router, audit
from tulia.channel.graph_api import TemplateManager
from tulia.channel.needed_templates import submit_missing
from tulia.channel.template_sync import sync_templates
from tulia.domain.tenant import WhatsAppConfig
from tulia.errors import ProviderError, ProviderUnavailable
from tulia.observability import logger as log
from tulia.store.templates import TemplateRepo

GRAPH_ID = r"^[0-9A-Za-z_-]{1,64}$"


@dataclass(frozen=True)
class SignupDialog:
    mode: Literal["facebook", "simulator"]
    app_id: str
    config_id: str
    dialog_url: str | None = None  # the simulator's stand-in popup


class SignupConfig(View):
    mode: Literal["facebook", "simulator"]
    app_id: str
    config_id: str
    dialog_url: str | None
    graph_version: str = "v21.0"  # the Facebook SDK's version (FB.init)


class WhatsAppNumber(View):
    connected: bool
    phone_number_id: str | None = None
    display_phone_number: str | None = None
    verified_name: str | None = None
    business_account_id: str | None = None
    templates_submitted: list[str] = Field(default_factory=list)  # name/language, pending Meta's review
    templates_approved: int = 0


class ConnectBody(View):
    code: str = Field(min_length=4, max_length=2000, description="The code the signup popup gave the browser")
    waba_id: str = Field(pattern=GRAPH_ID, description="The WhatsApp Business Account chosen in the popup")
    phone_number_id: str = Field(pattern=GRAPH_ID, description="The number chosen in the popup")


router = admin_router()


def _dialog(deps: AdminDeps) -> SignupDialog:
    if deps.onboarding is None or deps.signup_dialog is None:
        raise ProviderUnavailable(
            "Connecting WhatsApp in the console is not set up on this server (TULIA_META_APP_ID and "
            "TULIA_META_EMBEDDED_SIGNUP_CONFIG_ID).",
            code="embedded_signup_off",
        )
    dialog: SignupDialog = deps.signup_dialog
    return dialog


@router.get("/admin/whatsapp/signup", tags=["shop"], summary="What the console opens to connect a WhatsApp number")
def signup_config(who: Owner, deps: Deps) -> SignupConfig:
    dialog = _dialog(deps)
    return SignupConfig(
        mode=dialog.mode, app_id=dialog.app_id, config_id=dialog.config_id, dialog_url=dialog.dialog_url
    )


@router.get("/admin/whatsapp", tags=["shop"], summary="The shop's WhatsApp number, if connected")
def number(who: Owner, deps: Deps) -> WhatsAppNumber:
    tenant = deps.services.tenants.get(who.tenant_id)
    if tenant.whatsapp is None:
        return WhatsAppNumber(connected=False)
    approved = sum(1 for t in TemplateRepo(deps.services.db).list(who.tenant_id) if t.status == "approved")
    return WhatsAppNumber(
        connected=True,
        phone_number_id=tenant.whatsapp.phone_number_id,
        display_phone_number=tenant.whatsapp.display_phone_number,
        business_account_id=tenant.whatsapp.business_account_id,
        templates_approved=approved,
    )


@router.post("/admin/whatsapp/connect", tags=["shop"], summary="Connect the number chosen in Meta's signup popup")
def connect(body: ConnectBody, who: Owner, deps: Deps) -> WhatsAppNumber:
    _dialog(deps)
    onboarding = deps.onboarding
    tenant = deps.services.tenants.get(who.tenant_id)
    token = onboarding.exchange_code(body.code)
    onboarding.subscribe(token, body.waba_id)
    same_number = tenant.whatsapp is not None and tenant.whatsapp.phone_number_id == body.phone_number_id
    pin = (tenant.whatsapp.registration_pin if same_number and tenant.whatsapp else None) or (
        f"{secrets.randbelow(1_000_000):06d}"
    )
    onboarding.register(token, body.phone_number_id, pin)
    details = onboarding.number(token, body.phone_number_id)
    display = str(details.get("display_phone_number") or "").strip()
    if len(display) < 5:
        raise ProviderError("Meta gave no display number for the phone number chosen.", code="meta_error")
    whatsapp = WhatsAppConfig(
        phone_number_id=body.phone_number_id,
        display_phone_number=display[:20],
        access_token=token,
        business_account_id=body.waba_id,
        registration_pin=pin,
    )
    previous = tenant.whatsapp.phone_number_id if tenant.whatsapp else None
    deps.services.tenants.save(tenant.model_copy(update={"whatsapp": whatsapp}), previous_phone_number_id=previous)
    audit(deps, who, "whatsapp.connect", body.phone_number_id, waba_id=body.waba_id, display=display)
    submitted: list[str] = []
    approved = 0
    if deps.whatsapp is not None:  # the templates: Meta reviews the submitted ones (minutes to a day)
        manager: TemplateManager = deps.whatsapp.templates
        try:
            submitted = submit_missing(manager, body.waba_id, token, list(tenant.languages.allowed))
            synced = sync_templates(
                TemplateRepo(deps.services.db), manager, who.tenant_id, body.waba_id, token, deps.services.clock()
            )
            approved = sum(1 for t in synced.templates if t.status == "approved")
        except (ProviderError, ProviderUnavailable) as exc:  # connected all the same: Settings can sync later
            log.warning("templates not submitted at connection", extra={"why": exc.message})
    return WhatsAppNumber(
        connected=True,
        phone_number_id=body.phone_number_id,
        display_phone_number=whatsapp.display_phone_number,
        verified_name=str(details.get("verified_name") or "") or None,
        business_account_id=body.waba_id,
        templates_submitted=submitted,
        templates_approved=approved,
    )
