"""Messages the shop sends first, paced: broadcasts to the customers who asked for offers, the one
reminder of an order left unpaid, and the reminders of an appointment (the day before, hours before).
Work arrives on the outreach queue (from the admin API and the agent); this worker sends it through the Graph API.
It also delivers the alerts for the shop's staff (``tulia.pipeline.alerts``).

Every recipient is checked when their message goes, not when the broadcast was made: consent (a
customer who opted out since gets nothing), the shop's marketing hours (outside them the work waits
until they open), the shop's send rate (one batch of ``broadcast_per_minute`` recipients a minute),
and WhatsApp's window (a marketing template; the reminder is free-form while the window is open).
Each recipient is sent at most once; each unpaid order is reminded at most once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from tulia.channel.graph_api import SendFailed, WhatsAppSender
from tulia.channel.outbound import Outbound, greeting_name
from tulia.channel.window import TemplateCall
from tulia.domain.broadcast import NAME_PARAMETER, Broadcast, marketing_opens_at
from tulia.domain.customer import Customer, wants_offers
from tulia.domain.order import PAYABLE_STATES
from tulia.domain.templates import MessageTemplate
from tulia.domain.tenant import Tenant
from tulia.errors import NotFound, StateConflict
from tulia.graph.buttons import tap_id
from tulia.nlg.messages import buttons, text
from tulia.nlg.templates import money, render, slot_when
from tulia.observability import logger as log
from tulia.pipeline.alerts import AlertDelivery
from tulia.pipeline.voice import VoiceNotes
from tulia.services import Services
from tulia.store.broadcasts import BroadcastRepo
from tulia.store.queues import MAX_SQS_DELAY_SECONDS, OutreachQueue

BATCH_SECONDS = 60  # one batch of the shop's per-minute rate each minute
REMINDER_LATE = timedelta(hours=3)  # an appointment's reminder later than this is not sent


@dataclass
class OutreachService:
    services: Services
    broadcasts: BroadcastRepo
    outbound: Outbound
    sender: WhatsAppSender
    default_token: str
    queue: OutreachQueue
    clock: Callable[[], datetime]
    alerts: AlertDelivery | None = None  # staff alerts (Web Push, WhatsApp)
    # the language a customer gets unasked messages in: their choice, else the one they last wrote in (their
    # conversation's), else the shop's (the agent's news says it); unset: their choice, else the shop's
    language_of: Callable[[Tenant, Customer], str] | None = None
    voice: VoiceNotes | None = None  # "listening…" to a voice note still being transcribed

    def language(self, tenant: Tenant, customer: Customer) -> str:
        if self.language_of is not None:
            return self.language_of(tenant, customer)
        return customer.language_preference or tenant.languages.default

    def run(self, body: dict[str, Any]) -> str:
        kind = body.get("kind")
        if kind == "staff_alert":
            if self.alerts is None:
                log.warning("a staff alert with no delivery configured", extra={"tenant_id": body.get("tenant_id")})
                return "no delivery"
            return self.alerts.deliver(body)
        if kind == "broadcast":
            return self.broadcast_batch(body)
        if kind == "unpaid_reminder":
            return self.reminder(body)
        if kind == "booking_reminder":
            return self.booking_reminder(body)
        if kind == "voice_listening":
            return self.voice.listening(body) if self.voice is not None else "no voice notes here"
        log.warning("unknown outreach work", extra={"kind": kind})
        return "unknown"

    def _later(self, body: dict[str, Any], seconds: float) -> None:
        self.queue.send(body, min(MAX_SQS_DELAY_SECONDS, max(1, int(seconds))))

    # broadcasts ------------------------------------------------------------------------------------
    def broadcast_batch(self, body: dict[str, Any]) -> str:
        tenant_id, broadcast_id = str(body["tenant_id"]), str(body["broadcast_id"])
        broadcast = self.broadcasts.get(tenant_id, broadcast_id)
        if broadcast.status != "sending":
            return broadcast.status
        tenant = self.services.tenants.get(tenant_id)
        now = self.clock()
        opens = marketing_opens_at(tenant, now)
        if opens is not None:
            self._later(body, (opens - now).total_seconds())
            return "waiting for marketing hours"
        page = self.broadcasts.recipients(
            tenant_id, broadcast_id, limit=tenant.messaging.broadcast_per_minute, cursor=body.get("cursor")
        )
        templates = self.outbound.templates.list(tenant_id)  # read once for the batch
        for recipient in page.items:
            if recipient.status == "queued":
                self._send_one(tenant, broadcast, recipient.customer_id, templates)
        if page.cursor is not None:
            self._later({**body, "cursor": page.cursor}, BATCH_SECONDS)
            return "batch sent"
        with contextlib.suppress(StateConflict):  # cancelled meanwhile
            self.broadcasts.set_status(tenant_id, broadcast_id, "done", self.clock())
        return "done"

    def _send_one(
        self, tenant: Tenant, broadcast: Broadcast, customer_id: str, templates: list[MessageTemplate]
    ) -> None:
        tid, bid = tenant.tenant_id, broadcast.broadcast_id
        if not self.broadcasts.claim(tid, bid, customer_id, self.clock()):
            return  # sent by an earlier attempt of this batch

        def settle(status: str, **kw: Any) -> None:
            self.broadcasts.settle(tid, bid, customer_id, status=status, now=self.clock(), **kw)

        try:
            customer = self.services.customers.get(tid, customer_id)
        except NotFound:
            return settle("skipped", why="customer erased")
        if not wants_offers(customer):
            return settle("skipped", why="no longer opted in to offers")
        lang = self.language(tenant, customer)
        parameters = [greeting_name(customer, lang) if p == NAME_PARAMETER else p for p in broadcast.parameters]
        call = TemplateCall(broadcast.template, parameters, marketing=True)
        delivery = self.outbound.template(tenant, customer, call, lang, templates)
        if delivery.mode == "refused":
            return settle("skipped", why=str((delivery.refusal or {}).get("code")))
        try:
            token = tenant.wa.access_token or self.default_token
            message_id = self.sender.send(tenant.wa.phone_number_id, token, delivery.payloads[0])
        except SendFailed as exc:
            if exc.retryable:  # throttled or unreachable: back in the queue for the batch's retry
                self.broadcasts.release(tid, bid, customer_id)
                raise
            return settle("failed", why=f"whatsapp {exc.code or exc.status}")
        settle("sent", message_id=message_id)
        return None

    # the unpaid-order reminder -----------------------------------------------------------------------
    def reminder(self, body: dict[str, Any]) -> str:
        tenant_id, order_id = str(body["tenant_id"]), str(body["order_id"])
        now = self.clock()
        due = datetime.fromisoformat(str(body["due_at"]))
        if now < due:
            self._later(body, (due - now).total_seconds())
            return "not yet"
        try:
            order = self.services.orders.get(tenant_id, order_id)
        except NotFound:
            return "no order"
        if order.status not in PAYABLE_STATES or order.amount_due <= 0 or order.pending_payment_id:
            return "paid or closed"  # an M-Pesa prompt in flight is not "unpaid" either
        tenant = self.services.tenants.get(tenant_id)
        customer = self.services.customers.get(tenant_id, order.customer_id)
        if not wants_offers(customer):
            return "no consent"
        opens = marketing_opens_at(tenant, now)
        if opens is not None:
            self._later(body, (opens - now).total_seconds())
            return "waiting for marketing hours"
        if not self.broadcasts.claim_reminder(tenant_id, order_id, now):
            return "sent before"
        lang = self.language(tenant, customer)
        sheng = tenant.languages.sheng_reply_language
        amount = money(order.amount_due)
        message = text(render("unpaid_reminder", lang, sheng, ref=order.order_id, amount=amount))
        call = TemplateCall(
            tenant.messaging.templates.unpaid_reminder,
            [greeting_name(customer, lang), order.order_id, f"{order.amount_due:,}"],
            marketing=True,
        )
        delivery = self.outbound.plan(tenant, customer, free_form=[message], template=call, lang=lang)
        if delivery.mode == "refused":
            log.warning(
                "unpaid reminder not sent", extra={"tenant_id": tenant_id, "code": (delivery.refusal or {}).get("code")}
            )
            return "no template"
        token = tenant.wa.access_token or self.default_token
        for payload in delivery.payloads:
            try:
                self.sender.send(tenant.wa.phone_number_id, token, payload)
            except SendFailed as exc:
                log.warning("unpaid reminder not delivered", extra={"tenant_id": tenant_id, "code": exc.code})
                return "failed"
        return "sent"

    # the appointment's reminders ------------------------------------------------------------------------
    def booking_reminder(self, body: dict[str, Any]) -> str:
        """The day before and hours before a confirmed appointment: free-form with three buttons inside
        WhatsApp's window, else the shop's ``booking_reminder`` utility template (its quick replies say
        the same). A booking cancelled or moved since is not reminded of this time (a move queues its own);
        each reminder of each start time goes once. Customers who turned order updates off get none."""
        tenant_id, booking_id, which = str(body["tenant_id"]), str(body["booking_id"]), str(body["which"])
        now = self.clock()
        due = datetime.fromisoformat(str(body["due_at"]))
        if now < due:
            self._later(body, (due - now).total_seconds())
            return "not yet"
        try:
            booking = self.services.bookings.get(tenant_id, booking_id)
        except NotFound:
            return "no booking"
        if booking.status != "confirmed" or booking.start != datetime.fromisoformat(str(body["start"])):
            return "moved or cancelled"
        if booking.start <= now or now - due > REMINDER_LATE:
            return "too late"  # after an outage: the next reminder (or the appointment) is near
        tenant = self.services.tenants.get(tenant_id)
        try:
            customer = self.services.customers.get(tenant_id, booking.customer_id)
        except NotFound:
            return "customer erased"
        if not customer.notification_prefs.order_updates_whatsapp:
            return "no consent"
        claim = f"{booking_id}.{which}.{booking.start.astimezone(UTC):%Y%m%d%H%M}"
        if not self.broadcasts.claim_reminder(tenant_id, claim, now):
            return "sent before"
        lang = booking.language or self.language(tenant, customer)
        sheng = tenant.languages.sheng_reply_language
        when = slot_when(booking.start, lang, sheng)
        ref = booking.booking_id
        message = buttons(
            render("booking_reminder", lang, sheng, service=booking.service_name, when=when, staff=booking.staff_name),
            [
                (tap_id("bk:coming", ref), render("booking_btn_coming", lang, sheng)),
                (tap_id("bk:move", ref), render("booking_btn_move", lang, sheng)),
                (tap_id("bk:cancel", ref), render("booking_btn_cancel_booking", lang, sheng)),
            ],
        )
        call = TemplateCall(
            tenant.messaging.templates.booking_reminder,
            [greeting_name(customer, lang), booking.service_name, when, booking.staff_name],
        )
        delivery = self.outbound.plan(tenant, customer, free_form=[message], template=call, lang=lang)
        if delivery.mode == "refused":
            code = (delivery.refusal or {}).get("code")
            log.warning("booking reminder not sent", extra={"tenant_id": tenant_id, "code": code})
            return "no template"
        token = tenant.wa.access_token or self.default_token
        for payload in delivery.payloads:
            try:
                self.sender.send(tenant.wa.phone_number_id, token, payload)
            except SendFailed as exc:
                log.warning("booking reminder not delivered", extra={"tenant_id": tenant_id, "code": exc.code})
                return "failed"
        return "sent"
