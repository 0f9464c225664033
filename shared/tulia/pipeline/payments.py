"""Payment callbacks: the Daraja STK callback (PROTOCOLS.md 2.3, 2.6).

Callbacks are unsigned, so nothing changes on a callback's word alone: the URL carries an
unguessable token that names one pending payment, and the outcome is confirmed with Daraja's STK
query before the payment and its order move (with conditional writes; a duplicate or late callback
changes nothing). Then a payment event goes to the agent, in the customer's own FIFO group, so the
customer is told the outcome in their language. Daraja always gets the acknowledgement it expects.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from tulia.channel.whatsapp import customer_key
from tulia.domain.alerts import booking_alert, payment_alert, unmatched_payment_alert
from tulia.domain.common import iso, new_id
from tulia.domain.order import Order
from tulia.domain.payment import OwedBackReason, Payment, UnmatchedPayment
from tulia.errors import InvalidInput, NotFound, ProviderError, ProviderUnavailable, StateConflict, TuliaError
from tulia.observability import logger as log
from tulia.observability import set_tenant
from tulia.pipeline.apigw import HttpResponse, read_body
from tulia.services import Services
from tulia.store.payment_tests import PaymentTest, PaymentTestRepo, test_id_of, test_reference
from tulia.store.queues import InboundQueue, PaymentCheckQueue
from tulia.tools.context import ToolContext
from tulia.tools.order_tools import normalize_order_ref
from tulia.tools.registry import call_tool

ACK = HttpResponse(200, json.dumps({"ResultCode": 0, "ResultDesc": "Accepted"}))
# Daraja result codes -> our payment states (anything else unsuccessful is a failure)
OUTCOME_OF_CODE = {"0": "paid", "1032": "cancelled", "1037": "timeout", "1019": "timeout"}


def metadata(callback: dict[str, Any]) -> dict[str, Any]:
    items = ((callback.get("CallbackMetadata") or {}).get("Item")) or []
    return {str(i.get("Name")): i.get("Value") for i in items if isinstance(i, dict)}


PROVIDER_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")  # TransIDs, tracking ids: never '#', spaces or markup
MAX_C2B_AMOUNT = Decimal(999_999)  # far above M-Pesa's limit per transaction; anything more is not money we book
MAX_STK_CHECKS = 3  # STK queries of a push that got no callback before it is declared timed out


@dataclass
class PaymentCallbacks:
    services: Services
    queue: InboundQueue
    clock: Callable[[], datetime]
    checks: PaymentCheckQueue | None = None
    check_delay_seconds: int = 60

    def run_queued(self, body: dict[str, Any]) -> str | None:
        """A record of the payment-checks queue: a delayed STK check, or a C2B confirmation kept there
        while the store could not take it."""
        if body.get("kind") == "c2b_confirmation":
            answer = self.c2b(str(body["token"]), "confirmation", str(body["body"]).encode("utf-8"))
            return "booked" if answer.status == 200 else "refused"
        if body.get("kind") == "register_c2b":  # the owner changed the Paybill/Till in the console
            from tulia.payments.setup import register_c2b_urls

            _done, failed = register_c2b_urls(self.services, self.services.tenants.get(str(body["tenant_id"])))
            if failed:  # SQS tries again, then its dead-letter queue and alarm; not offered meanwhile
                raise ProviderUnavailable("; ".join(failed))
            return "registered"
        return self.check(body)

    def c2b_or_defer(self, token: str, phase: str, raw_body: bytes) -> HttpResponse:
        """A C2B callback. Safaricom does not send a confirmation again, so when the store cannot take
        one (throttled, unreachable) it is kept on the payment-checks queue, acknowledged, and booked
        from there when the store is back (SQS retries it, then its dead-letter queue and alarm)."""
        try:
            return self.c2b(token, phase, raw_body)
        except (ClientError, BotoCoreError, ProviderUnavailable):
            if phase != "confirmation" or self.checks is None:
                raise  # a validation is answered by the shortcode's default; nothing to keep
            self.checks.defer_c2b(token=token, body=raw_body.decode("utf-8"), delay_seconds=self.check_delay_seconds)
            log.warning("C2B confirmation kept on the queue: the store could not take it now")
            return ACK

    def check(self, body: dict[str, Any]) -> str | None:
        """A delayed check of an STK push: if no callback resolved it, ask Daraja; if Daraja still
        cannot say after a few checks, the prompt has long expired on the phone: timeout."""
        tenant_id, order_id, payment_id = str(body["tenant_id"]), str(body["order_id"]), str(body["payment_id"])
        payment = self.services.payments.get(tenant_id, order_id, payment_id)
        if payment.status != "pending":
            return payment.status  # the callback came
        outcome = self.resolve(tenant_id, order_id, payment_id)
        if outcome is not None:
            return outcome
        attempt = int(body.get("attempt") or 1)
        if attempt < MAX_STK_CHECKS and self.checks is not None:
            self.checks.schedule(
                tenant_id=tenant_id,
                order_id=order_id,
                payment_id=payment_id,
                delay_seconds=self.check_delay_seconds,
                attempt=attempt + 1,
            )
            return None
        try:
            payment, order = self.services.payments.settle(
                payment, to="timeout", now=self.clock(), result_desc="no callback and no answer to the STK query"
            )
        except StateConflict:
            return None
        self._tell(payment.tenant_id, order.order_id, order.customer_id, payment.payment_id, "timeout")
        return "timeout"

    def stk_callback(self, token: str, raw_body: bytes) -> HttpResponse:
        try:
            callback = read_body(raw_body)["Body"]["stkCallback"]
            checkout_id = str(callback["CheckoutRequestID"])
        except (ValueError, KeyError, TypeError):
            log.warning("STK callback malformed")
            return HttpResponse(400, json.dumps({"ResultCode": 1, "ResultDesc": "Malformed callback"}))
        payment = self.services.payments.find_by_callback_token(token) if token else None
        if payment is None and token:
            test = PaymentTestRepo(self.services.db).find_by_token(token)
            if test is not None and test.checkout_request_id == checkout_id:
                return self._test_settled(test, callback)
        if payment is None or payment.checkout_request_id != checkout_id:
            log.warning("STK callback for no payment of ours", extra={"known_token": payment is not None})
            return ACK  # acknowledged, nothing changes
        set_tenant(payment.tenant_id)
        if payment.status not in ("pending", "timeout"):
            log.info("duplicate or late STK callback", extra={"tenant_id": payment.tenant_id, "status": payment.status})
            return ACK
        self.resolve(payment.tenant_id, payment.order_id, payment.payment_id, callback=callback)
        return ACK

    def _test_settled(self, test: PaymentTest, callback: dict[str, Any]) -> HttpResponse:
        """The owner's KES 1 test prompt answered: a success proves the method (it is offered to customers from
        now on); a failure says why, in Safaricom's words. A duplicate changes nothing."""
        set_tenant(test.tenant_id)
        ok = str(callback.get("ResultCode")) == "0"
        found = metadata(callback)
        settled = PaymentTestRepo(self.services.db).settle(
            test,
            "succeeded" if ok else "failed",
            at=self.clock(),
            desc=str(callback.get("ResultDesc") or "")[:300] or None,
            receipt=str(found.get("MpesaReceiptNumber")) if ok and found.get("MpesaReceiptNumber") else None,
        )
        if settled is not None and ok:
            self.services.tenants.mark_tested(test.tenant_id, test.method, self.clock())
        log.info("payment test settled", extra={"tenant_id": test.tenant_id, "ok": ok, "duplicate": settled is None})
        return ACK

    def pesapal_ipn(self, tenant_id: str, note: dict[str, Any]) -> HttpResponse:
        """PesaPal's IPN (or the customer's return from the hosted page): only ids, so the status is
        asked with GetTransactionStatus; answered in the format PesaPal expects."""
        tracking = str(note.get("OrderTrackingId") or "")
        reference = str(note.get("OrderMerchantReference") or "")
        kind = str(note.get("OrderNotificationType") or "IPNCHANGE")

        def answer(status: int) -> HttpResponse:
            body = {
                "orderNotificationType": kind,
                "orderTrackingId": tracking,
                "orderMerchantReference": reference,
                "status": status,
            }
            return HttpResponse(200, json.dumps(body))

        if not PROVIDER_REF.fullmatch(tracking) or not tenant_id or "#" in tenant_id:
            return HttpResponse(400, json.dumps({"status": 400, "error": "OrderTrackingId missing or malformed"}))
        payment = self.services.payments.find_by_ref(tenant_id, "pesapal", tracking)
        test_id = test_id_of(reference)
        if payment is None and test_id is not None:
            return answer(self._pesapal_test(tenant_id, test_id, tracking))
        if payment is None or (reference and reference != payment.merchant_reference):
            log.warning("PesaPal notification for no payment of ours", extra={"tenant_id": tenant_id})
            return answer(200)  # nothing of ours: acknowledged, nothing changes
        if payment.status not in ("pending", "timeout"):
            return answer(200)  # a duplicate notification
        s = self.services
        tenant = s.tenants.get(tenant_id)
        try:
            status = s.pesapal.transaction_status(s.payment_config.pesapal_credentials_for(tenant), tracking)
        except (ProviderError, ProviderUnavailable):
            return answer(500)  # ask PesaPal to notify again
        if status.merchant_reference != payment.merchant_reference:
            log.error("PesaPal status names another order", extra={"tenant_id": tenant_id})
            return answer(200)
        if status.status_code == 1:
            if status.currency != "KES" or status.amount is None or int(status.amount) != payment.amount:
                # never marked paid on another amount or currency: left pending for a person
                log.error("PesaPal amount or currency differs from the payment", extra={"tenant_id": tenant_id})
                return answer(200)
            to, review = "paid", payment.status == "timeout"
        elif status.status_code == 2:
            to, review = "failed", False
        else:
            return answer(200)  # not decided yet (0), or reversed (3): staff handle reversals
        try:
            payment, order = s.payments.settle(
                payment,
                to=to,
                now=self.clock(),
                receipt=status.confirmation_code or None,
                result_code=str(status.status_code),
                result_desc=status.description,
                needs_review=review,
            )
        except StateConflict:
            return answer(200)
        self._outcome(payment, order, to)
        return answer(200)

    def _pesapal_test(self, tenant_id: str, test_id: str, tracking: str) -> int:
        """The owner's KES 1 card checkout, notified under her shop's own URL: PesaPal's status decides (never the
        notification itself); a completed payment of exactly the test's amount in KES proves card payments. The
        status PesaPal is answered with (500: ask it to notify again)."""
        tests = PaymentTestRepo(self.services.db)
        try:
            test = tests.get(tenant_id, test_id)
        except NotFound:
            test = None
        if test is None or test.method != "pesapal" or test.order_tracking_id != tracking:
            log.warning("PesaPal notification for no test of ours", extra={"tenant_id": tenant_id})
            return 200
        if test.status != "pending":
            return 200  # a duplicate notification
        set_tenant(tenant_id)
        s = self.services
        try:
            status = s.pesapal.transaction_status(
                s.payment_config.pesapal_credentials_for(s.tenants.get(tenant_id)), tracking
            )
        except (ProviderError, ProviderUnavailable):
            return 500
        if status.merchant_reference != test_reference(test_id):
            log.error("PesaPal status names another checkout", extra={"tenant_id": tenant_id})
            return 200
        paid = status.status_code == 1 and status.currency == "KES" and status.amount == test.amount
        if status.status_code == 1 and not paid:
            log.error("PesaPal test paid another amount or currency", extra={"tenant_id": tenant_id})
        if status.status_code not in (1, 2):
            return 200  # not decided yet, or reversed
        settled = tests.settle(
            test,
            "succeeded" if paid else "failed",
            at=self.clock(),
            desc=(status.description or None) if paid or status.status_code == 2 else "Paid another amount",
            receipt=(status.confirmation_code or None) if paid else None,
        )
        if settled is not None and paid:
            s.tenants.mark_tested(tenant_id, "pesapal", self.clock())
        log.info("payment test settled", extra={"tenant_id": tenant_id, "ok": paid, "duplicate": settled is None})
        return 200

    def c2b(self, token: str, phase: str, raw_body: bytes) -> HttpResponse:
        """C2B validation (accept or refuse a Paybill/Till payment before it happens) and confirmation
        (it happened). Matched on the tenant's secret URL token, its shortcode, the order reference the
        customer typed and the exact amount due; a TransID is applied once."""

        def reply(code: str = "0", desc: str = "Accepted") -> HttpResponse:
            return HttpResponse(
                200, json.dumps({"ResultCode": code if phase == "validation" else 0, "ResultDesc": desc})
            )

        def refuse(code: str, why: str) -> HttpResponse:
            log.warning("C2B payment not matched", extra={"phase": phase, "why": why})
            return reply(code, "Rejected") if phase == "validation" else reply()

        try:
            body = read_body(raw_body)
            trans_id = str(body["TransID"])
            amount_text = str(body["TransAmount"])
            amount = Decimal(amount_text)
        except (ValueError, KeyError, TypeError, ArithmeticError):
            return HttpResponse(400, json.dumps({"ResultCode": "C2B00016", "ResultDesc": "Rejected"}))
        if not PROVIDER_REF.fullmatch(trans_id) or not amount.is_finite() or not 0 < amount <= MAX_C2B_AMOUNT:
            log.warning("C2B callback with an impossible TransID or amount", extra={"phase": phase})
            return HttpResponse(400, json.dumps({"ResultCode": "C2B00016", "ResultDesc": "Rejected"}))
        s = self.services
        tenant_id = s.tenants.tenant_for_c2b_token(token)
        if tenant_id is None:
            return refuse("C2B00016", "unknown token")
        set_tenant(tenant_id)
        tenant = s.tenants.get(tenant_id)
        c2b = tenant.payments.mpesa_c2b
        if c2b is None or str(body.get("BusinessShortCode")) != c2b.shortcode:
            if phase == "confirmation" and not s.payments.ref_claimed(tenant_id, "c2b", trans_id):
                # M-Pesa took this money on the shop's URL: it is booked, never only a warning line
                self._unmatched(tenant_id, body, "shortcode_not_listed", order=self._named_order(tenant_id, body))
            return refuse("C2B00015", "shortcode")
        if phase == "confirmation" and s.payments.ref_claimed(tenant_id, "c2b", trans_id):
            return reply()  # this M-Pesa transaction was booked before (paid, overpaid or unmatched)
        try:
            ref = normalize_order_ref(str(body.get("BillRefNumber") or ""))
            order = s.orders.get(tenant_id, ref)
        except (InvalidInput, NotFound):
            if phase == "confirmation":
                self._unmatched(tenant_id, body, "unknown_reference")
            return refuse("C2B00012", "account number")
        payable = order.status in ("draft", "pending_payment", "payment_failed")
        whole = amount == amount.to_integral_value()
        if phase == "confirmation" and not payable and whole:
            self._c2b_overpayment(order, trans_id, int(amount))  # confirmed money: refunded or applied by the shop
            return reply()
        if amount != order.amount_due or not payable:
            if phase == "confirmation":
                reason = "amount_mismatch" if payable else "order_not_payable"
                self._unmatched(tenant_id, body, reason, order=order)
            return refuse("C2B00013", "amount or order state")
        if phase == "validation":
            return reply()
        if s.payments.find_by_ref(tenant_id, "c2b", trans_id) is not None:
            return reply()  # this confirmation was applied before
        now = self.clock()
        payment = Payment(
            tenant_id=tenant_id,
            payment_id=new_id("pay"),
            order_id=order.order_id,
            customer_id=order.customer_id,
            method="mpesa_c2b",
            amount=int(amount),
            receipt=trans_id,
            created_at=now,
            updated_at=now,
        )
        try:
            s.payments.record_started(
                payment,
                refs={"c2b": trans_id},
                order_updates={
                    "pending_payment_id": payment.payment_id,
                    "payment_status": "pending",
                    "updated_at": iso(now),
                },
            )
            payment, order = s.payments.settle(payment, to="paid", now=now, receipt=trans_id, result_code="0")
        except StateConflict:
            return reply()  # a concurrent confirmation of the same TransID, or the order moved on
        self._outcome(payment, order, "paid")
        return reply()

    def _named_order(self, tenant_id: str, body: dict[str, Any]) -> Order | None:
        """The shop's order the customer typed as the account number, if there is one (for a person to see)."""
        try:
            return self.services.orders.get(tenant_id, normalize_order_ref(str(body.get("BillRefNumber") or "")))
        except (InvalidInput, NotFound):
            return None

    def _c2b_overpayment(self, order: Order, trans_id: str, amount: int) -> None:
        now = self.clock()
        payment = Payment(
            tenant_id=order.tenant_id,
            payment_id=new_id("pay"),
            order_id=order.order_id,
            customer_id=order.customer_id,
            method="mpesa_c2b",
            amount=amount,
            receipt=trans_id,
            created_at=now,
            updated_at=now,
        )
        reason: OwedBackReason = "order_cancelled" if order.status == "cancelled" else "order_already_paid"
        try:
            self.services.payments.record_c2b_overpayment(payment, trans_id, reason)
        except StateConflict:
            return  # booked by a concurrent confirmation of the same TransID
        settled = payment.model_copy(update={"status": "paid", "overpayment": True})
        self._outcome(settled, order, "paid")

    def _outcome(self, payment: Payment, order: Order, status: str) -> None:
        """Tell the customer; confirmed money its order could not take also goes to a person at once."""
        if payment.overpayment:
            ticket_id = self._hand_over(
                order,
                reason=f"M-Pesa/card payment of KES {payment.amount:,} for order {order.order_id}, which could "
                "not take it: refund it or apply it",
                snapshot={
                    "order_ref": order.order_id,
                    "order_status": order.status,
                    "received": payment.amount,
                    "method": payment.method,
                    "receipt": payment.receipt,
                    "payment_id": payment.payment_id,
                },
                request_id=f"overpaid-{payment.payment_id}",
            )
            if ticket_id:  # the money's record names the person's ticket about it
                self.services.payments.note_owed_back_ticket(payment, ticket_id)
            status = "overpaid"
        if status in ("paid", "overpaid"):
            self._alert_paid(payment, order)
        if status == "paid" and order.status == "paid" and order.offer and order.offer.code is None:
            # an automatic offer is used when its discount is paid for (a coupon counts when it is applied, as
            # its limits need); the draft orders of a sale being edited never count
            self.services.offers.count_use(order.tenant_id, order.offer.offer_id)
        self._tell(order.tenant_id, order.order_id, order.customer_id, payment.payment_id, status)

    def _alert_paid(self, payment: Payment, order: Order) -> None:
        try:
            customer = self.services.customers.get(order.tenant_id, order.customer_id)
        except NotFound:
            customer = None
        alert = payment_alert(
            order.tenant_id, payment.payment_id, order.order_id, payment.amount, customer, self.clock()
        )
        self.services.alerts.add(alert)
        if order.booking_id and not payment.overpayment:  # its deposit paid: the appointment is booked now
            try:
                booking = self.services.bookings.get(order.tenant_id, order.booking_id)
            except NotFound:
                return
            if booking.status == "confirmed":
                self.services.alerts.add(booking_alert("booking_made", booking, customer, self.clock()))

    def _hand_over(self, order: Order, *, reason: str, snapshot: dict[str, Any], request_id: str) -> str | None:
        """A person is asked to look at the money (high priority); the ticket's id, or None if none was made."""
        ctx = ToolContext(
            tenant_id=order.tenant_id,
            request_id=request_id,
            conversation_id="payments",
            services=self.services,
            customer_id=order.customer_id,
        )
        ticket = call_tool(
            "handoff_create_ticket",
            {
                "tenant_id": order.tenant_id,
                "request_id": ctx.request_id,
                "conversation_id": ctx.conversation_id,
                "customer_id": order.customer_id,
                "reason": reason[:200],
                "priority": "high",
                "context_snapshot": snapshot,
            },
            ctx,
        )
        if not ticket["ok"]:
            log.error("no handoff ticket for money to refund or apply", extra={"tenant_id": order.tenant_id})
            return None
        return str(ticket["data"]["ticket_id"])

    def resolve(
        self, tenant_id: str, order_id: str, payment_id: str, *, callback: dict[str, Any] | None = None
    ) -> str | None:
        """Ask Daraja what happened to an STK push and apply it. Returns the new status, or None
        while the customer has not acted (or Daraja cannot say yet)."""
        s = self.services
        payment = s.payments.get(tenant_id, order_id, payment_id)
        tenant = s.tenants.get(tenant_id)
        cfg = tenant.payments.mpesa_stk
        if cfg is None or not payment.checkout_request_id:
            return None
        try:
            query = s.daraja.stk_query(
                cfg, s.payment_config.daraja_credentials_for(tenant), payment.checkout_request_id
            )
        except (ProviderError, ProviderUnavailable):
            log.warning("STK query failed; the payment stays pending", extra={"tenant_id": tenant_id})
            return None
        if query.pending or query.result_code is None:
            return None
        to = OUTCOME_OF_CODE.get(query.result_code, "failed")
        meta = metadata(callback or {})
        receipt = str(meta["MpesaReceiptNumber"]) if to == "paid" and meta.get("MpesaReceiptNumber") else None
        paid_late = to == "paid" and payment.status == "timeout"
        if to == "paid" and meta.get("Amount") is not None and int(meta["Amount"]) != payment.amount:
            log.error("STK callback amount differs from the payment", extra={"tenant_id": tenant_id})
        try:
            payment, order = s.payments.settle(
                payment,
                to=to,
                now=self.clock(),
                receipt=receipt,
                result_code=query.result_code,
                result_desc=query.result_desc,
                needs_review=paid_late,
            )
        except StateConflict:
            return None  # someone else applied an outcome first
        except TuliaError:
            log.exception("could not apply an STK outcome", extra={"tenant_id": tenant_id})
            raise
        self._outcome(payment, order, to)
        return "overpaid" if payment.overpayment else to

    def _unmatched(self, tenant_id: str, body: dict[str, Any], reason: str, order: Order | None = None) -> None:
        """Money arrived that pays no order as it stands: keep it for the shop to reconcile (once per
        TransID). When the reference names an order, its customer's conversation goes to a person."""
        awaiting_code = reason == "unknown_reference" and not str(body.get("BillRefNumber") or "").strip()
        if awaiting_code:
            # a Till payment (Buy Goods has no account number): expected, its customer sends the code next
            log.info("Till payment kept until its customer sends the code", extra={"tenant_id": tenant_id})
        else:
            log.error("C2B money received that pays no order: a person must match it", extra={"tenant_id": tenant_id})
        unmatched = UnmatchedPayment(
            tenant_id=tenant_id,
            trans_id=str(body["TransID"])[:40],
            amount=str(body["TransAmount"])[:20],
            bill_ref=str(body.get("BillRefNumber") or "")[:40],
            payer_name=str(body.get("FirstName") or "")[:120],
            payer_phone=str(body.get("MSISDN") or "")[:80],
            reason=reason,
            order_id=order.order_id if order else None,
            customer_id=order.customer_id if order else None,
            received_at=self.clock(),
        )
        if not self.services.payments.record_unmatched(unmatched):
            return  # kept before (Daraja repeats confirmations)
        if not awaiting_code:
            amount = int(float(unmatched.amount or 0))
            self.services.alerts.add(unmatched_payment_alert(tenant_id, unmatched.trans_id, amount, self.clock()))
        if order is None:
            return  # nobody to hand over
        ctx = ToolContext(
            tenant_id=tenant_id,
            request_id=f"c2b-{unmatched.trans_id}",
            conversation_id="payments",
            services=self.services,
            customer_id=order.customer_id,
        )
        snapshot = {
            "order_ref": order.order_id,
            "amount_due": order.amount_due,
            "order_status": order.status,
            "received": unmatched.amount,
            "mpesa_transaction": unmatched.trans_id,
            "reason": reason,
        }
        ticket = call_tool(
            "handoff_create_ticket",
            {
                "tenant_id": tenant_id,
                "request_id": ctx.request_id,
                "conversation_id": ctx.conversation_id,
                "customer_id": order.customer_id,
                "reason": f"M-Pesa payment of KES {unmatched.amount} does not match order {order.order_id}",
                "priority": "high",
                "context_snapshot": snapshot,
            },
            ctx,
        )
        if not ticket["ok"]:
            log.error("no handoff ticket for unmatched money", extra={"tenant_id": tenant_id})

    def _tell(self, tenant_id: str, order_id: str, customer_id: str, payment_id: str, status: str) -> None:
        """A payment event for the agent, in the customer's own FIFO group."""
        customer = self.services.customers.get(tenant_id, customer_id)
        self.queue.send(
            tenant_id=tenant_id,
            customer_key=customer_key(customer.phone_e164, customer.wa_user_id),
            dedup=f"pay-{payment_id}-{status}",
            body={
                "kind": "payment",
                "tenant_id": tenant_id,
                "order_id": order_id,
                "payment_id": payment_id,
                "status": status,
            },
        )
