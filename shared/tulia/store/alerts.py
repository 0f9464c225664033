"""Staff alerts and what each person wants of them.

The alerts themselves live in the messages table (they expire after ``ALERT_KEPT``): one item under the
alert's id, written once (a second raise of the same event finds it and is not sent again), and one in the
shop's feed, ordered by time. A person's preferences, the devices where they turned alerts on and when
they last looked at each screen live in the shop's partition of the tenants table, like the staff list."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import Field

from tulia.domain.alerts import SCREENS, AlertPreferences, Screen, StaffAlert
from tulia.domain.common import Model
from tulia.errors import StateConflict
from tulia.observability import logger as log
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo
from tulia.store.tables import MESSAGES, TENANTS

ALERT_KEPT = timedelta(days=30)
MAX_DEVICES = 10  # per person: an eleventh replaces the oldest


class PushSubscription(Model):
    """A device's Web Push subscription, as the browser's ``PushSubscription.toJSON()`` gives it."""

    subscription_id: str
    email: str
    endpoint: str = Field(max_length=2000)
    p256dh: str = Field(min_length=80, max_length=100, pattern=r"^[A-Za-z0-9_-]+={0,2}$")
    auth: str = Field(min_length=16, max_length=32, pattern=r"^[A-Za-z0-9_-]+={0,2}$")
    label: str | None = Field(default=None, max_length=80)
    created_at: datetime


class AlertRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    # the alerts --------------------------------------------------------------------------------------
    def record(self, alert: StaffAlert) -> bool:
        """Store a new alert and its place in the feed; False when this alert was already recorded."""
        expires = int((alert.at + ALERT_KEPT).timestamp())
        pk = keys.alerts_pk(alert.tenant_id)
        try:
            self.db.transact(
                [
                    {
                        "Put": {
                            "table": MESSAGES,
                            "item": to_item(alert, pk=pk, sk=keys.alert_id_sk(alert.alert_id), expires_at=expires),
                            "condition": "attribute_not_exists(pk)",
                        }
                    },
                    {
                        "Put": {
                            "table": MESSAGES,
                            "item": to_item(
                                alert,
                                pk=pk,
                                sk=keys.alert_at_sk(alert.at.astimezone(UTC).isoformat(), alert.alert_id),
                                expires_at=expires,
                            ),
                        }
                    },
                ],
                conflict_message="This alert was already raised.",
            )
        except StateConflict:
            return False
        return True

    def get(self, tenant_id: str, alert_id: str) -> StaffAlert | None:
        item = self.db.get(MESSAGES, keys.alerts_pk(tenant_id), keys.alert_id_sk(alert_id))
        return from_item(StaffAlert, item) if item else None

    def claim_delivery(self, tenant_id: str, alert_id: str, at: datetime) -> bool:
        """The first to claim an alert delivers it; False for every later claim."""
        try:
            self.db.update(
                MESSAGES,
                keys.alerts_pk(tenant_id),
                keys.alert_id_sk(alert_id),
                update="SET delivered_at = :at",
                condition="attribute_exists(pk) AND attribute_not_exists(delivered_at)",
                values={":at": at.isoformat()},
            )
        except StateConflict:
            return False
        return True

    def since(self, tenant_id: str, after: datetime, *, limit: int = 100) -> list[StaffAlert]:
        """The shop's alerts after ``after``, newest first (at most ``limit``)."""
        page = self.db.page(
            MESSAGES,
            keys.alerts_pk(tenant_id),
            limit=limit,
            # the feed's keys are UTC times: they sort as strings
            sk_between=(keys.ALERT_AT_PREFIX + after.astimezone(UTC).isoformat(), keys.ALERT_AT_PREFIX + "~"),
            forward=False,
        )
        return [a for a in (from_item(StaffAlert, i) for i in page.items) if a.at > after]

    # a person's preferences and screens seen -----------------------------------------------------------
    def preferences(self, tenant_id: str, email: str) -> AlertPreferences:
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.staff_alerts_sk(email))
        return from_item(AlertPreferences, item) if item else AlertPreferences()

    def save_preferences(self, tenant_id: str, email: str, preferences: AlertPreferences) -> None:
        self.db.put(TENANTS, to_item(preferences, pk=keys.tenant_pk(tenant_id), sk=keys.staff_alerts_sk(email)))

    def everyones_preferences(self, tenant_id: str) -> dict[str, AlertPreferences]:
        """Each person's saved preferences, by email (a person who never saved any has the defaults)."""
        items = self.db.query_all(TENANTS, keys.tenant_pk(tenant_id), sk_prefix=keys.STAFF_ALERTS_PREFIX)
        return {i["sk"].removeprefix(keys.STAFF_ALERTS_PREFIX): from_item(AlertPreferences, i) for i in items}

    def seen(self, tenant_id: str, email: str) -> dict[Screen, datetime]:
        item = self.db.get(TENANTS, keys.tenant_pk(tenant_id), keys.staff_seen_sk(email)) or {}
        return {s: datetime.fromisoformat(item[s]) for s in SCREENS if item.get(s)}

    def mark_seen(self, tenant_id: str, email: str, screen: Screen, at: datetime) -> None:
        """The person saw the screen's alerts up to ``at`` (a later mark stands: an earlier one arriving late
        changes nothing)."""
        with contextlib.suppress(StateConflict):
            self.db.update(
                TENANTS,
                keys.tenant_pk(tenant_id),
                keys.staff_seen_sk(email),
                update="SET #s = :at",
                condition="attribute_not_exists(#s) OR #s < :at",
                names={"#s": screen},
                values={":at": at.astimezone(UTC).isoformat()},  # one zone: the marks compare as strings
            )

    def forget_person(self, tenant_id: str, email: str) -> None:
        """A person removed from the staff gets no more alerts on any device."""
        pk = keys.tenant_pk(tenant_id)
        self.db.delete(TENANTS, pk, keys.staff_alerts_sk(email))
        self.db.delete(TENANTS, pk, keys.staff_seen_sk(email))
        for sub in self.devices(tenant_id, email):
            self.remove_device(tenant_id, email, sub.subscription_id)

    # devices ------------------------------------------------------------------------------------------
    def add_device(self, tenant_id: str, subscription: PushSubscription) -> None:
        mine = sorted(self.devices(tenant_id, subscription.email), key=lambda d: d.created_at)
        others = [d for d in mine if d.subscription_id != subscription.subscription_id]
        for old in others[: max(0, len(others) - MAX_DEVICES + 1)]:
            self.remove_device(tenant_id, old.email, old.subscription_id)
        self.db.put(
            TENANTS,
            to_item(
                subscription,
                pk=keys.tenant_pk(tenant_id),
                sk=keys.push_subscription_sk(subscription.email, subscription.subscription_id),
            ),
        )

    def devices(self, tenant_id: str, email: str | None = None) -> list[PushSubscription]:
        """One person's devices, or everyone's in the shop."""
        prefix = keys.PUSH_PREFIX + (f"{email.strip().lower()}#" if email else "")
        items = self.db.query_all(TENANTS, keys.tenant_pk(tenant_id), sk_prefix=prefix)
        return [from_item(PushSubscription, i) for i in items]

    def remove_device(self, tenant_id: str, email: str, subscription_id: str) -> None:
        self.db.delete(TENANTS, keys.tenant_pk(tenant_id), keys.push_subscription_sk(email, subscription_id))


@dataclass
class StaffAlerts:
    """Where the product tells the shop's staff that something happened: the alert is recorded once (the
    console's badges count it) and handed to ``deliver`` (the outreach queue: pushed to devices and WhatsApp by
    the worker, never on the customer's turn). Best effort: an alert that cannot be raised is logged and the
    customer's turn or payment goes on."""

    repo: AlertRepo
    deliver: Callable[[dict[str, Any]], None] | None = None

    def add(self, alert: StaffAlert) -> bool:
        try:
            if not self.repo.record(alert):
                return False
            if self.deliver is not None:
                self.deliver({"kind": "staff_alert", "tenant_id": alert.tenant_id, "alert_id": alert.alert_id})
            return True
        except Exception:  # noqa: BLE001 - an alert never fails the customer's turn or a payment
            log.exception("staff alert not raised", extra={"tenant_id": alert.tenant_id, "alert_kind": alert.kind})
            return False
