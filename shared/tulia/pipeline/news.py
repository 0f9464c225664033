"""News a customer gets without asking, each a turn of their queue: an order update or an appointment
moved or cancelled by staff, and a payment's outcome (told by the conversation's graph, the receipt as the
shop's template outside WhatsApp's 24-hour window). Stored in the outbox before it is sent, like a reply."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tulia.channel.outbound import Outbound, greeting_name, refusal_of
from tulia.channel.whatsapp import addressed_to
from tulia.channel.window import Delivery, TemplateCall, refused
from tulia.domain.customer import Customer
from tulia.domain.tenant import Tenant
from tulia.errors import NotFound
from tulia.graph.conversation import Conversations
from tulia.nlg.messages import OutboundMessage, text
from tulia.nlg.templates import ORDER_UPDATE_WORDS, money, render, slot_when, word
from tulia.observability import logger as log
from tulia.observability.metrics import MetricsSink, payment_counts, turn_counts
from tulia.pipeline.outbox import Outbox
from tulia.services import Services, threads
from tulia.store.stats import StatsRepo

MONEY_UPDATES = ("refunded", "credit_applied")  # money news is always told, whatever the customer's preference


def counted(stats: StatsRepo | None, write: Callable[[StatsRepo], None]) -> None:
    """Analytics counters are best effort: a failure to count never fails a customer's turn."""
    if stats is None:
        return
    try:
        write(stats)
    except Exception:  # noqa: BLE001 - counted or not, the customer's reply goes out
        log.exception("analytics counters not written")


@dataclass
class News:
    services: Services
    conversations: Conversations
    outbox: Outbox
    outbound: Outbound
    default_token: str
    clock: Callable[[], datetime]
    record: MetricsSink | None = None
    stats: StatsRepo | None = None

    def customer_language(self, tenant: Tenant, customer: Customer) -> str:
        """The language of unasked news: the customer's choice, else the conversation's, else the shop's."""
        if customer.language_preference:
            return customer.language_preference
        try:
            spoken = self.conversations.language_of(tenant.tenant_id, customer.phone_e164, customer.wa_user_id)
        except Exception:  # noqa: BLE001 - a checkpoint that cannot be read: the shop's language will do
            log.exception("conversation language not read")
            spoken = None
        return spoken or tenant.languages.default

    def _news(
        self,
        tenant: Tenant,
        customer: Customer,
        messages: list[OutboundMessage],
        call: TemplateCall,
        lang: str,
        note: dict[str, Any],
    ) -> list[dict[str, Any]]:
        """The payloads of news sent unasked: free-form inside the window, else the template. With no
        usable template the free-form message is still tried (our record of the window may be behind
        Meta's; if Meta refuses, 131047 is recorded): news about an order or money is never dropped
        on our side. ``note`` (the outbox's trace) keeps how it went and any refusal."""
        delivery = self.outbound.plan(tenant, customer, free_form=messages, template=call, lang=lang)
        note["mode"] = delivery.mode
        if delivery.mode != "refused":
            return delivery.payloads
        note["refusal"] = delivery.refusal
        log.error(
            "no template for news outside the 24-hour window; trying free-form",
            extra={"tenant_id": tenant.tenant_id, "code": refusal_of(delivery).get("code"), "template": call.name},
        )
        to = addressed_to(customer.phone_e164, customer.wa_user_id)
        return [m.to_whatsapp(**to) for m in messages]

    def order_update(self, tenant_id: str, key: str, event: dict[str, Any]) -> None:
        """An order update staff made: told in the customer's language if they keep order updates on
        (a cancellation always), free-form inside WhatsApp's window, the shop's order_update template
        outside it; a missing template is logged and kept on the outbox's trace."""
        tenant = self.services.tenants.get(tenant_id)
        token = tenant.wa.access_token or self.default_token
        try:
            order = self.services.orders.get(tenant_id, str(event["order_id"]))
            customer = self.services.customers.get(tenant_id, order.customer_id)
        except NotFound:
            log.warning("order update for an order or customer that is gone", extra={"tenant_id": tenant_id})
            return
        what = str(event["event"])
        lang = self.customer_language(tenant, customer)
        sheng = tenant.languages.sheng_reply_language
        facts: dict[str, Any] = {"ref": order.order_id, "shop": tenant.name}
        if what == "dispatched" and order.delivery.eta:
            facts["eta"] = " " + render("order_update_eta", lang, sheng, eta=order.delivery.eta)
        if what == "ready_for_pickup" and tenant.pickup.address is not None:
            facts["address"] = " " + render(
                "order_update_at", lang, sheng, address=tenant.text(tenant.pickup.address, lang)
            )
        if what in MONEY_UPDATES:
            facts["amount"] = money(int(event.get("amount") or 0))
        if what == "credit_applied":
            facts |= {"source": str(event.get("from_order") or ""), "due": money(order.amount_due)}
        message = text(render(f"order_update_{what}", lang, sheng, **facts))
        happened = word(ORDER_UPDATE_WORDS, what, lang, sheng).replace("{amount}", str(facts.get("amount", "")))
        call = TemplateCall(
            tenant.messaging.templates.order_update, [greeting_name(customer, lang), order.order_id, happened]
        )

        def outside_window() -> Delivery:
            return self.outbound.template(tenant, customer, call, lang)

        outbox = self.outbox.messages.get_outbox(tenant_id, key)
        if outbox is None:
            note: dict[str, Any] = {
                "kind": "notice",
                "notice": "order_update",
                "event": what,
                "order_ref": order.order_id,
            }
            payloads: list[dict[str, Any]] = []
            if what not in ("cancelled", *MONEY_UPDATES) and not customer.notification_prefs.order_updates_whatsapp:
                note["skipped"] = "order_updates_off"
            else:
                payloads = self._news(tenant, customer, [message], call, lang, note)
            outbox = self.outbox.store(tenant_id, key, tenant.wa.phone_number_id, payloads, [key], [note])
        self.outbox.send(tenant_id, key, outbox, token, outside_window)
        logged: dict[str, str | int] = {"order_id": order.order_id}
        if what in MONEY_UPDATES:
            logged["amount"] = int(event.get("amount") or 0)
        self._log(customer, key, outbox, f"order_{what}", logged)

    def booking_update(self, tenant_id: str, key: str, event: dict[str, Any]) -> None:
        """An appointment staff cancelled or moved: always told (it changes the customer's day), in
        their language, free-form inside WhatsApp's window, the shop's order_update template outside it."""
        tenant = self.services.tenants.get(tenant_id)
        token = tenant.wa.access_token or self.default_token
        try:
            booking = self.services.bookings.get(tenant_id, str(event["booking_id"]))
            customer = self.services.customers.get(tenant_id, booking.customer_id)
        except NotFound:
            log.warning("booking update for a booking or customer that is gone", extra={"tenant_id": tenant_id})
            return
        lang = booking.language or self.customer_language(tenant, customer)
        sheng = tenant.languages.sheng_reply_language
        when = slot_when(booking.start, lang, sheng)
        cancelled = str(event["event"]) == "cancelled"
        booked = str(event["event"]) == "booked"
        if booked:  # made by the shop for her (a walk-in, a phone call)
            said = render(
                "booking_made_by_shop", lang, sheng, service=booking.service_name, when=when,
                staff=booking.staff_name, shop=tenant.name, ref=booking.booking_id,
            )  # fmt: skip
            what = render("booking_made_words", lang, sheng, when=when)
            if booking.status == "held" and booking.order_id:  # the shop asked for the deposit
                said += " " + self._deposit_asked(tenant_id, booking, lang, sheng)
                what = render("booking_held_words", lang, sheng, when=when, amount=money(booking.deposit))
        elif cancelled:
            deposit = ""
            if booking.deposit and booking.deposit_outcome in ("kept", "refund_due"):
                key = (
                    "booking_deposit_refund" if booking.deposit_outcome == "refund_due" else "booking_deposit_kept_shop"
                )
                deposit = " " + render(key, lang, sheng, amount=money(booking.deposit))
            said = render(
                "booking_cancelled_by_shop", lang, sheng, service=booking.service_name, when=when, shop=tenant.name,
                ref=booking.booking_id, deposit=deposit,
            )  # fmt: skip
            what = word(ORDER_UPDATE_WORDS, "cancelled", lang, sheng)
        else:
            said = render(
                "booking_moved_by_shop", lang, sheng, service=booking.service_name, when=when,
                staff=booking.staff_name, shop=tenant.name, ref=booking.booking_id,
            )  # fmt: skip
            what = render("booking_moved_words", lang, sheng, when=when)
        message = text(said)
        call = TemplateCall(
            tenant.messaging.templates.order_update, [greeting_name(customer, lang), booking.booking_id, what]
        )

        def outside_window() -> Delivery:
            return self.outbound.template(tenant, customer, call, lang)

        outbox = self.outbox.messages.get_outbox(tenant_id, key)
        if outbox is None:
            note: dict[str, Any] = {"kind": "notice", "notice": "booking_update", "event": str(event["event"])}
            payloads = self._news(tenant, customer, [message], call, lang, note)
            outbox = self.outbox.store(tenant_id, key, tenant.wa.phone_number_id, payloads, [key], [note])
        self.outbox.send(tenant_id, key, outbox, token, outside_window)
        moved = {"start": booking.start.isoformat()} if not cancelled else {}
        happened = "booked" if booked else "cancelled" if cancelled else "moved"  # "moved-<when>": moved
        self._log(customer, key, outbox, f"booking_{happened}", {"booking_ref": booking.booking_id, **moved})

    def _deposit_asked(self, tenant_id: str, booking: Any, lang: str, sheng: str) -> str:
        """The deposit that confirms a booking the shop held, and how it is paid: the M-Pesa prompt on the phone, or
        (none could be started) a reply, for the shop to help."""
        order = self.services.orders.get(tenant_id, str(booking.order_id))
        prompted = "booking_deposit_prompt" if order.pending_payment_id else "booking_deposit_no_prompt"
        how = " " + render(prompted, lang, sheng)
        return render(
            "booking_deposit_asked", lang, sheng, amount=money(order.amount_due), how=how, order=order.order_id
        )

    def payment(self, tenant_id: str, key: str, event: dict[str, Any]) -> None:
        """A payment's outcome is a turn of the customer's conversation: the graph tells them in
        their language from the order record (the receipt; or nothing paid, the Paybill steps and a
        retry offer that "yes" answers, since the conversation now waits for that answer)."""
        tenant = self.services.tenants.get(tenant_id)
        token = tenant.wa.access_token or self.default_token
        outbox = self.outbox.messages.get_outbox(tenant_id, key)
        order, payments = self.services.orders.get_with_payments(tenant_id, event["order_id"])
        customer = self.services.customers.get(tenant_id, order.customer_id)
        receipt: TemplateCall | None = None
        lang: str = tenant.languages.default
        if str(event.get("status")) in ("paid", "overpaid"):  # money received: the customer always hears of it
            payment = next((p for p in payments if p.payment_id == event.get("payment_id")), None)
            lang = self.customer_language(tenant, customer)
            receipt = TemplateCall(
                tenant.messaging.templates.payment_receipt,
                [
                    greeting_name(customer, lang),
                    f"{payment.amount if payment else order.paid_amount:,}",
                    order.order_id,
                    (payment.receipt if payment and payment.receipt else "-"),
                ],
            )

        def outside_window() -> Delivery:
            if receipt is None:
                return refused("outside_window", "A payment outcome other than money received has no template.")
            return self.outbound.template(tenant, customer, receipt, lang)

        if outbox is None:
            result = self.conversations.handle(
                tenant_id=tenant_id,
                phone_e164=customer.phone_e164,
                wa_user_id=customer.wa_user_id,
                inbound={"type": "payment_event", "text": "", "message_id": key, "payment": dict(event)},
            )
            to = addressed_to(customer.phone_e164, customer.wa_user_id)
            payloads = [m.to_whatsapp(**to) for m in result.replies]
            trace = list(result.trace)
            if receipt is not None:  # outside the window, the receipt goes as the shop's template
                trace.append({"kind": "notice", "notice": "payment_receipt"})
                payloads = self._news(tenant, customer, result.replies, receipt, lang, trace[-1])
            outbox = self.outbox.store(tenant_id, key, tenant.wa.phone_number_id, payloads, [key], trace)
            if self.record is not None:
                counts = {k: v for k, v in turn_counts(result.trace).items() if k != "Turns"}
                self.record(counts | payment_counts(str(event.get("status"))), tenant_id=tenant_id)
            if self.stats is not None:
                method = next((p.method for p in payments if p.payment_id == event.get("payment_id")), "unknown")
                counted(
                    self.stats,
                    lambda stats: stats.record_payment(
                        tenant_id,
                        at=self.clock(),
                        method=method,
                        status=str(event.get("status")),
                        amount=order.paid_amount or order.totals.total,
                    ),
                )
        self.outbox.send(tenant_id, key, outbox, token, outside_window)
        paid = next((p for p in payments if p.payment_id == event.get("payment_id")), None)
        facts: dict[str, str | int] = {"order_id": order.order_id, "status": str(event.get("status"))}
        if paid is not None:
            facts |= {"amount": paid.amount, "method": paid.method}
            if paid.receipt:
                facts["receipt"] = paid.receipt
        self._log(customer, key, outbox, "payment", facts)

    def _log(
        self, customer: Customer, key: str, outbox: dict[str, Any], event: str, facts: dict[str, str | int]
    ) -> None:
        """News in the customer's conversation as the console shows it: the event, then what was sent."""
        at = threads.stored_at(outbox, self.clock())
        entries = [threads.event_entry(f"{key}.e", event, facts, at), *threads.said(key, outbox, at)]
        threads.write(self.services, customer, entries)
