"""Alerts for the person signed in: what happened lately and how many of each screen's they have not seen (the
console's badges, polled), what they want to be told and where, and the devices where they turned alerts on
(Web Push subscriptions from the console's service worker). Everyone manages their own; money that matched no
order is an owner's matter, so agents neither see nor get those."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Query
from pydantic import AwareDatetime, Field

from tulia.admin.auth import Principal
from tulia.admin.common import Deleted, Deps, Staff, View, admin_router
from tulia.channel.webpush import check_endpoint
from tulia.domain.alerts import (
    SCREENS,
    AlertKind,
    AlertPreferences,
    Screen,
    StaffAlert,
    StaffLang,
    kinds_for_role,
)
from tulia.errors import NotFound
from tulia.store.alerts import AlertRepo, PushSubscription
from tulia.store.keys import push_subscription_id

UNREAD_WINDOW = timedelta(days=7)  # a screen never opened counts the last week's alerts

router = admin_router()


def kinds_for(who: Principal) -> tuple[AlertKind, ...]:
    return kinds_for_role("owner" if "owner" in who.roles else "agent")


def person(who: Principal) -> str:
    return (who.email or who.subject).strip().lower()


class AlertView(View):
    alert_id: str
    kind: AlertKind
    screen: Screen
    at: str
    subject: str
    customer_name: str | None
    customer_phone: str | None
    amount: int | None
    service: str | None
    starts_at: str | None
    path: str


class AlertFeed(View):
    alerts: list[AlertView]
    unread: dict[Screen, int]
    # the time of each screen's newest unread alert: what a console sends back as seen (``until``), so an alert
    # that arrives while it says so is never marked seen unread
    newest: dict[Screen, str]


def view(alert: StaffAlert) -> AlertView:
    return AlertView(
        alert_id=alert.alert_id,
        kind=alert.kind,
        screen=alert.screen,
        at=alert.at.isoformat(),
        subject=alert.subject,
        customer_name=alert.customer_name,
        customer_phone=alert.customer_phone,
        amount=alert.amount,
        service=alert.service,
        starts_at=alert.starts_at.isoformat() if alert.starts_at else None,
        path=alert.path,
    )


def feed(deps: Deps, who: Principal, limit: int) -> AlertFeed:
    repo, now = AlertRepo(deps.services.db), deps.services.clock()
    seen = repo.seen(who.tenant_id, person(who))
    oldest = min([now - UNREAD_WINDOW, *seen.values()])
    allowed = kinds_for(who)
    recent = [a for a in repo.since(who.tenant_id, oldest, limit=200) if a.kind in allowed]
    unread = dict.fromkeys(SCREENS, 0)
    newest: dict[Screen, str] = {}
    for alert in recent:  # newest first
        if alert.at > seen.get(alert.screen, now - UNREAD_WINDOW):
            unread[alert.screen] += 1
            newest.setdefault(alert.screen, alert.at.isoformat())
    return AlertFeed(alerts=[view(a) for a in recent[:limit]], unread=unread, newest=newest)


@router.get("/admin/alerts", tags=["alerts"], summary="Lately's alerts, and your unread count per screen")
def list_alerts(who: Staff, deps: Deps, limit: Annotated[int, Query(ge=1, le=100)] = 30) -> AlertFeed:
    return feed(deps, who, limit)


class SeenBody(View):
    screen: Screen
    until: AwareDatetime | None = Field(
        default=None, description="The newest alert you saw (the feed's `newest`); absent: everything until now"
    )


@router.post("/admin/alerts/seen", tags=["alerts"], summary="You looked at a screen: its badge starts again")
def mark_seen(body: SeenBody, who: Staff, deps: Deps) -> AlertFeed:
    """Marked seen up to what was shown (never later than now): an alert raised while this request was on its way
    stays unread."""
    now = deps.services.clock()
    at = min(body.until, now) if body.until is not None else now
    AlertRepo(deps.services.db).mark_seen(who.tenant_id, person(who), body.screen, at)
    return feed(deps, who, 30)


class DeviceView(View):
    device_id: str
    label: str | None
    created_at: str


class AlertSettings(View):
    push: list[AlertKind]
    whatsapp: list[AlertKind]
    whatsapp_number: str | None
    quiet_hours: str | None
    language: StaffLang
    kinds: list[AlertKind]  # what this person may be told (agents: not money that matched no order)
    push_key: str | None  # the application server key a browser subscribes with; None: Web Push is not set up
    devices: list[DeviceView]


def settings_view(deps: Deps, who: Principal) -> AlertSettings:
    repo = AlertRepo(deps.services.db)
    mine = repo.preferences(who.tenant_id, person(who))
    allowed = kinds_for(who)
    return AlertSettings(
        push=[k for k in mine.push if k in allowed],
        whatsapp=[k for k in mine.whatsapp if k in allowed],
        whatsapp_number=mine.whatsapp_number,
        quiet_hours=mine.quiet_hours or None,
        language=mine.language,
        kinds=list(allowed),
        push_key=deps.push_key,
        devices=[
            DeviceView(device_id=d.subscription_id, label=d.label, created_at=d.created_at.isoformat())
            for d in sorted(repo.devices(who.tenant_id, person(who)), key=lambda d: d.created_at)
        ],
    )


@router.get("/admin/alerts/settings", tags=["alerts"], summary="What you are told, where, and your devices")
def get_settings(who: Staff, deps: Deps) -> AlertSettings:
    return settings_view(deps, who)


class SettingsBody(View):
    push: list[AlertKind] = Field(description="Kinds sent to your devices")
    whatsapp: list[AlertKind] = Field(description="Kinds also sent to your WhatsApp number")
    whatsapp_number: str | None = Field(default=None, max_length=20, description="Your own number, e.g. 0712 345 678")
    quiet_hours: str | None = Field(default=None, max_length=11, description="No WhatsApp alerts then: 21:00-07:00")
    language: StaffLang = "en"


@router.put("/admin/alerts/settings", tags=["alerts"], summary="Choose what you are told and where")
def put_settings(body: SettingsBody, who: Staff, deps: Deps) -> AlertSettings:
    allowed = kinds_for(who)
    preferences = AlertPreferences(
        push=[k for k in body.push if k in allowed],
        whatsapp=[k for k in body.whatsapp if k in allowed],
        whatsapp_number=body.whatsapp_number,
        quiet_hours=body.quiet_hours,
        language=body.language,
    )
    AlertRepo(deps.services.db).save_preferences(who.tenant_id, person(who), preferences)
    return settings_view(deps, who)


class DeviceKeys(View):
    p256dh: str = Field(min_length=80, max_length=100, pattern=r"^[A-Za-z0-9_-]+={0,2}$")
    auth: str = Field(min_length=16, max_length=32, pattern=r"^[A-Za-z0-9_-]+={0,2}$")


class DeviceBody(View):
    """A browser's ``PushSubscription.toJSON()``, and a name for the device."""

    endpoint: str = Field(max_length=2000)
    keys: DeviceKeys
    label: str | None = Field(default=None, max_length=80)


@router.post("/admin/alerts/devices", tags=["alerts"], summary="Turn alerts on for this device (Web Push)")
def add_device(body: DeviceBody, who: Staff, deps: Deps) -> AlertSettings:
    if deps.push_key is None:
        raise NotFound("Alerts on devices are not set up for this deployment (no Web Push key).", field="endpoint")
    endpoint = check_endpoint(body.endpoint, deps.push_hosts)
    device = PushSubscription(
        subscription_id=push_subscription_id(endpoint),
        email=person(who),
        endpoint=endpoint,
        p256dh=body.keys.p256dh,
        auth=body.keys.auth,
        label=body.label,
        created_at=deps.services.clock(),
    )
    AlertRepo(deps.services.db).add_device(who.tenant_id, device)
    return settings_view(deps, who)


@router.delete("/admin/alerts/devices/<device_id>", tags=["alerts"], summary="Turn alerts off for a device")
def remove_device(device_id: str, who: Staff, deps: Deps) -> Deleted:
    repo = AlertRepo(deps.services.db)
    if not any(d.subscription_id == device_id for d in repo.devices(who.tenant_id, person(who))):
        raise NotFound(f"No device '{device_id}' of yours.", field="device_id")
    repo.remove_device(who.tenant_id, person(who), device_id)
    return Deleted(deleted=True, id=device_id)
