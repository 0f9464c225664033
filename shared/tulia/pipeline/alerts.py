"""Delivering a staff alert (outreach work ``staff_alert``, queued when the alert was recorded): to every device
where a person of the shop's staff turned alerts on (Web Push), and to their own WhatsApp number when they ask for
that kind there and it is not their quiet hours (the shop's ``staff_alert`` utility template: what happened, and
the console's link). Only people on the staff list now are told; a device its push service forgot is forgotten.

Each alert is delivered at most once: the first worker to claim it sends it (a redelivered queue message finds it
claimed). A device or number that cannot be reached does not stop the others."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from tulia.channel.graph_api import SendFailed, WhatsAppSender
from tulia.channel.webpush import PushFailed, PushGone, WebPushSender
from tulia.channel.window import TemplateCall, as_template
from tulia.domain.alerts import AlertPreferences, StaffAlert, alert_words, kinds_for_role
from tulia.domain.templates import MessageTemplate
from tulia.domain.tenant import Tenant
from tulia.observability import logger as log
from tulia.services import Services
from tulia.store.alerts import AlertRepo
from tulia.store.staff import StaffRepo
from tulia.store.templates import TemplateRepo


@dataclass
class Delivered:
    pushed: int = 0
    whatsapp: int = 0
    forgotten: int = 0  # devices their push service no longer knows

    def __str__(self) -> str:
        return f"pushed {self.pushed}, whatsapp {self.whatsapp}, forgotten {self.forgotten}"


@dataclass
class AlertDelivery:
    services: Services
    sender: WhatsAppSender
    default_token: str
    push: WebPushSender | None  # None: no VAPID key configured (WhatsApp alerts still go)
    console_url: str  # the console's address, ending in /
    clock: Callable[[], datetime]

    @property
    def repo(self) -> AlertRepo:
        return self.services.alerts.repo

    def deliver(self, body: dict[str, Any]) -> str:
        tenant_id, alert_id = str(body.get("tenant_id") or ""), str(body.get("alert_id") or "")
        alert = self.repo.get(tenant_id, alert_id) if tenant_id and alert_id else None
        if alert is None:
            return "no such alert"
        if not self.repo.claim_delivery(tenant_id, alert_id, self.clock()):
            return "delivered before"
        staff = StaffRepo(self.services.db).list(tenant_id)
        preferences = self.repo.everyones_preferences(tenant_id)
        devices = self.repo.devices(tenant_id)
        # the shop and its templates, read once for everyone told on WhatsApp (and not at all when nobody is)
        shop = cache(lambda: (self.services.tenants.get(tenant_id), TemplateRepo(self.services.db).list(tenant_id)))
        done = Delivered()
        for member in staff:
            if alert.kind not in kinds_for_role(member.role):
                continue
            mine = preferences.get(member.email, AlertPreferences())
            if alert.kind in mine.push and self.push is not None:
                for device in (d for d in devices if d.email == member.email):
                    self._push(alert, mine, device, done)
            if alert.kind in mine.whatsapp and mine.whatsapp_number and not mine.quiet_at(self.clock()):
                self._whatsapp(alert, mine, done, *shop())
        return str(done)

    def message(self, alert: StaffAlert, preferences: AlertPreferences) -> dict[str, Any]:
        """What the device shows (the console's service worker reads it)."""
        title, detail = alert_words(alert, preferences.language)
        return {
            "title": title,
            "body": detail,
            "url": self.console_url + alert.path,
            "tag": alert.alert_id,  # the same alert twice replaces, never stacks
            "kind": alert.kind,
            "screen": alert.screen,
            "at": alert.at.isoformat(),
        }

    def _push(self, alert: StaffAlert, preferences: AlertPreferences, device: Any, done: Delivered) -> None:
        assert self.push is not None
        try:
            self.push.send(device.endpoint, device.p256dh, device.auth, self.message(alert, preferences))
            done.pushed += 1
        except PushGone:
            self.repo.remove_device(alert.tenant_id, device.email, device.subscription_id)
            done.forgotten += 1
        except PushFailed as exc:
            log.info("an alert did not reach a device", extra={"tenant_id": alert.tenant_id, "why": str(exc)})
        except Exception:  # noqa: BLE001 - one device (a bad endpoint, say) never stops the others
            log.exception("an alert could not be pushed", extra={"tenant_id": alert.tenant_id})

    def _whatsapp(
        self,
        alert: StaffAlert,
        preferences: AlertPreferences,
        done: Delivered,
        tenant: Tenant,
        templates: list[MessageTemplate],
    ) -> None:
        assert preferences.whatsapp_number is not None
        title, detail = alert_words(alert, preferences.language)
        call = TemplateCall(
            tenant.messaging.templates.staff_alert, [f"{title}. {detail}", self.console_url + alert.path]
        )
        delivery = as_template(
            call,
            templates,
            lang=preferences.language,
            default_lang=tenant.languages.default,
            to={"to": preferences.whatsapp_number},
        )
        if delivery.mode != "template":
            # the shop cannot send its staff WhatsApp alerts until Meta approves the template: the owner acts
            log.warning(
                "WhatsApp alert not sent: no approved staff_alert template",
                extra={"tenant_id": tenant.tenant_id, "code": (delivery.refusal or {}).get("code")},
            )
            return
        token = tenant.wa.access_token or self.default_token
        try:
            for payload in delivery.payloads:
                self.sender.send(tenant.wa.phone_number_id, token, payload)
            done.whatsapp += 1
        except SendFailed as exc:
            log.warning("WhatsApp alert refused", extra={"tenant_id": tenant.tenant_id, "code": exc.code})
