"""The sale's payment nodes (spec Appendix C, payment_router): the enabled methods for the order,
the confirmation before an M-Pesa prompt, the prompt, the Paybill/Till steps or the card link, and a
payment's outcome told from the order record. Amounts come only from the order tools."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from tulia.domain.mpesa_receipt import MpesaReceipt, resolve_code, same_number
from tulia.domain.phone import mask_phone
from tulia.errors import NotFound
from tulia.graph.buttons import tap_id
from tulia.graph.calls import END, Turn
from tulia.graph.context import EngineContext
from tulia.graph.frame import BuiltOrder, OrderFrame
from tulia.graph.journeys.booking.nodes import deposit_paid
from tulia.graph.journeys.sale_common import PAYMENT_QUESTIONS, ask_sale, frame_of
from tulia.graph.nodes import t
from tulia.graph.routing import CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE
from tulia.graph.state import ConversationState
from tulia.nlg.messages import buttons, text
from tulia.nlg.templates import c2b_instructions, money, payment_outcome
from tulia.payments.reconcile import apply_transaction


def ask_payment_method(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "ask_payment_method")
    say_payment_methods(turn, frame_of(turn))
    return turn.goto(END)


def say_payment_methods(turn: Turn, frame: OrderFrame, *, reminder: bool = False) -> None:
    assert frame.order is not None
    ref = frame.order.order_id
    methods = turn.tool("payment_get_methods", order_id=ref)
    if not methods["ok"] or not methods["data"]["methods"]:
        turn.say(text(t(turn, "tool_error")))
        ask_sale(turn, frame, None, [])
        return
    options = [
        {
            "id": tap_id("pay", ref, m["method"]),
            "title": t(turn, "method_mpesa_till" if "till" in m["details"] else f"method_{m['method']}"),
        }
        for m in methods["data"]["methods"]
    ]
    key = "resume_payment" if reminder else "ask_payment_method"
    turn.say(
        buttons(
            t(turn, key, amount=money(methods["data"]["amount_due"]), ref=ref), [(o["id"], o["title"]) for o in options]
        )
    )
    ask_sale(turn, frame, "payment_method", options)


def ask_mpesa_number(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    turn = Turn(state, runtime, "ask_mpesa_number")
    turn.say(text(t(turn, "ask_mpesa_number")))
    ask_sale(turn, frame_of(turn), "mpesa_number", [])
    return turn.goto(END)


def confirm_payment(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """Confirm amount, order and number before any M-Pesa prompt (spec: payments require confirmation)."""
    turn = Turn(state, runtime, "confirm_payment")
    say_confirmation(turn, frame_of(turn))
    return turn.goto(END)


def say_confirmation(turn: Turn, frame: OrderFrame, *, reminder: bool = False) -> None:
    assert frame.order is not None
    ref = frame.order.order_id
    phone = frame.payer_phone or turn.state.phone_e164 or ""
    options = [
        (tap_id("confirm", ref, "yes"), t(turn, "confirm_yes")),
        (tap_id("confirm", ref, "other"), t(turn, "confirm_other_number")),
        (tap_id("confirm", ref, "no"), t(turn, "no_thanks")),
    ]
    lead = t(turn, "resume_sale") + "\n" if reminder else ""
    amount = turn.get("order_totals").get("amount_due", frame.order.amount_due)
    turn.say(buttons(lead + t(turn, "confirm_stk", amount=money(amount), ref=ref, phone=mask_phone(phone)), options))
    ask_sale(turn, frame, "payment_confirmation", [{"id": i, "title": title} for i, title in options])


def start_payment(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """payment_router: the M-Pesa prompt (after the customer confirmed), the exact Paybill/Till steps,
    or the card checkout link."""
    turn = Turn(state, runtime, "start_payment")
    frame = frame_of(turn)
    if frame.order is None:
        turn.say(text(t(turn, "no_open_order")))
        ask_sale(turn, frame, None, [])
        return turn.goto(END)
    method = frame.payment_method or "mpesa_stk"
    ref = frame.order.order_id
    turn.trace.append({"kind": "step", "node": "payment_router", "next_action": method})
    if method == "mpesa_stk":
        phone = frame.payer_phone or state.phone_e164
        amount = state.order_totals.get("amount_due", frame.order.amount_due)
        result = turn.tool("payment_initiate_stk_push", order_id=ref, phone_e164=phone, amount=amount)
        if result["ok"]:
            stk = result["data"]
            turn.say(
                text(t(turn, "stk_sent", amount=money(stk["amount"]), phone=stk["phone_masked"], ref=stk["order_ref"]))
            )
            frame.payment_started = "mpesa_stk"
            ask_sale(turn, frame, None, [])
            turn.set(payment_request_id=stk["payment_request_id"], payment_status="pending")
        elif result["error"]["code"] == "payment_in_progress":
            turn.say(text(t(turn, "stk_pending_already", ref=ref)))
            frame.payment_started = "mpesa_stk"
            ask_sale(turn, frame, None, [])
        elif (turn.tool_errors or 0) < CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE:
            turn.say(text(t(turn, "payment_unavailable", provider="M-Pesa")))
            say_confirmation(turn, frame)
        else:
            turn.say(text(t(turn, "payment_unavailable_again", provider="M-Pesa")))
            ask_sale(turn, frame, None, [])
        return turn.goto(END)
    if method == "mpesa_c2b":
        result = turn.tool("payment_get_c2b_instructions", order_id=ref)
        if not result["ok"]:
            _payment_not_started(turn, frame, "M-Pesa")
            return turn.goto(END)
        turn.say(text(c2b_instructions(result["data"], turn.lang, str(turn.get("sheng_fallback")))))
        frame.payment_started = "mpesa_c2b"
        ask_sale(turn, frame, None, [])
        turn.set(payment_status="pending")
        return turn.goto(END)
    result = turn.tool("payment_create_pesapal_checkout", order_id=ref)
    if not result["ok"]:
        _payment_not_started(turn, frame, "PesaPal")
        return turn.goto(END)
    checkout = result["data"]
    turn.say(
        text(
            t(
                turn,
                "card_link",
                amount=money(checkout["amount"]),
                ref=checkout["order_ref"],
                link=checkout["checkout_url"],
            )
        )
    )
    frame.payment_started = "pesapal"
    ask_sale(turn, frame, None, [])
    turn.set(payment_request_id=checkout["payment_request_id"], payment_status="pending")
    return turn.goto(END)


def _payment_not_started(turn: Turn, frame: OrderFrame, provider: str) -> None:
    """A payment step failed on our side or the provider's: nothing was charged; choose again."""
    if (turn.tool_errors or 0) < CONSECUTIVE_TOOL_ERRORS_TO_ESCALATE:
        turn.say(text(t(turn, "payment_unavailable", provider=provider)))
        frame.payment_method = None
        say_payment_methods(turn, frame)
    else:
        turn.say(text(t(turn, "payment_unavailable_again", provider=provider)))
        ask_sale(turn, frame, None, [])


class PaymentEventUnreadable(RuntimeError):
    """The order behind a payment event could not be read: the queue delivers the event again."""


def payment_event(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """A payment's outcome (callback, IPN or STK query, from the payments function), told from the
    order record in the conversation's language: the receipt when paid; otherwise that nothing was
    paid, with a retry offer and the Paybill steps."""
    turn = Turn(state, runtime, "payment_event")
    event = dict(state.inbound.get("payment") or {})
    order_id, status = str(event.get("order_id") or ""), str(event.get("status") or "")
    result = turn.tool("order_get_status", customer_id=state.customer_id, order_ref=order_id)
    if not result["ok"]:
        raise PaymentEventUnreadable(f"order of a payment event unreadable: {result['error']['code']}")
    order = result["data"]["orders"][0]
    payments = order["payments"] or []
    lang, fallback = turn.lang, str(turn.get("sheng_fallback"))
    if status == "overpaid":
        extra = next((p for p in reversed(payments) if p.get("overpayment")), None)
        if extra is None:  # the event ran ahead of the record: the queue delivers it again
            raise PaymentEventUnreadable("an overpaid event for an order with no overpayment")
        turn.say(text(t(turn, "payment_overpaid", amount=money(extra["amount"]), ref=order["order_ref"])))
        deposit_paid(turn, order["order_ref"])  # a deposit after its time was released: said why
        return turn.goto(END)
    paid = next((p for p in reversed(payments) if p["status"] == "paid" and not p.get("overpayment")), None)
    frame = frame_of(turn)
    ours = frame.order is not None and frame.order.order_id == order_id
    free = state.pending is None or state.pending in PAYMENT_QUESTIONS
    if status == "paid" or paid is not None:
        if paid is None:  # the event ran ahead of the record: the queue delivers it again
            raise PaymentEventUnreadable("a paid event for an order with no paid payment")
        if status != "paid":
            return turn.goto(END)  # an older attempt failed, but the order is paid: nothing to tell
        facts = {"amount": money(paid["amount"]), "ref": order["order_ref"], "receipt": paid["receipt"] or "-"}
        turn.say(text(payment_outcome("paid", lang, fallback, method=paid["method"], **facts)))
        deposit_paid(turn, order["order_ref"])  # a booking's deposit: the booking confirmed, with its day and time
        if ours or state.order_id == order_id:
            turn.set(payment_status="paid", frame=None)  # the sale's question goes with its frame
        return turn.goto(END)
    outcome = payment_outcome(status, lang, fallback, amount=money(order["amount_due"]), ref=order["order_ref"])
    failed = next((p for p in reversed(payments) if p["status"] == status), None)
    if not free:
        turn.say(text(outcome))  # the customer is answering another question of ours: tell, don't take over
        if ours:
            frame.payment_started = None
            turn.set(frame=frame)
        return turn.goto(END)
    if not ours:
        frame = OrderFrame(
            order=BuiltOrder(order_id=order_id, amount_due=order["amount_due"], fingerprint="", adopted=True)
        )
    frame.payment_started = None
    turn.set(
        order_id=order_id,
        order_totals={"total": order["total"], "amount_due": order["amount_due"]},
        payment_status=status,
    )
    if failed is not None and failed["method"] == "mpesa_stk":
        frame.payment_method = "mpesa_stk"
        options = [
            (tap_id("confirm", order_id, "yes"), t(turn, "retry_prompt")),
            (tap_id("confirm", order_id, "other"), t(turn, "confirm_other_number")),
            (tap_id("confirm", order_id, "no"), t(turn, "no_thanks")),
        ]
        turn.say(buttons(outcome, options))
        ask_sale(turn, frame, "payment_confirmation", [{"id": i, "title": title} for i, title in options])
    else:
        turn.say(text(outcome))
        frame.payment_method = None
        say_payment_methods(turn, frame)
    steps = turn.tool("payment_get_c2b_instructions", order_id=order_id)
    if steps["ok"]:
        turn.say(text(c2b_instructions(steps["data"], lang, fallback)))
    return turn.goto(END)


def payment_code(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """ "I paid by Till, the code is SKL4ABC123": the shop's unmatched M-Pesa money with that code pays
    the customer's order when it is the exact amount due. Otherwise the customer is told honestly why
    not; a second code that pays nothing goes to a person (the customer insists)."""
    turn = Turn(state, runtime, "payment_code")
    code = str(state.understanding.get("mpesa_code") or "")
    frame = frame_of(turn)
    ref = (frame.order.order_id if frame.order else None) or state.order_id or _awaiting_payment(turn)
    if not ref:
        turn.say(text(t(turn, "code_no_order", code=code)))
        return _code_failed(turn)
    shot = state.understanding.get("screenshot")
    if isinstance(shot, dict):  # a screenshot: another business's number is told; OCR's slips matched to records
        ours = turn.ctx.services.tenants.get(turn.ctx.tenant_id).c2b_shortcode
        if shot.get("shortcode") and ours and not same_number(str(shot["shortcode"]), ours):
            turn.trace.append({"kind": "match", "node": "payment_code", "outcome": "screenshot_other_number"})
            turn.say(text(t(turn, "screenshot_other_number", number=str(shot["shortcode"]), ours=ours)))
            return _code_failed(turn)
        code = _screenshot_code(turn, MpesaReceipt.from_dict(shot), ref)
    said_payer = state.understanding.get("payer_phone")
    payers = [p for p in (state.phone_e164, frame.payer_phone, said_payer) if p]
    try:
        applied = apply_transaction(
            turn.ctx.services, turn.ctx.tenant_id, code, ref, now=turn.ctx.services.clock(), payers=payers
        )
    except NotFound:  # an order of the conversation that is no longer there
        turn.say(text(t(turn, "code_no_order", code=code)))
        return _code_failed(turn)
    order = applied.order
    turn.trace.append({"kind": "match", "node": "payment_code", "outcome": applied.outcome})
    turn.set(code_awaiting_payer=None)
    if applied.outcome == "payer_mismatch":
        if said_payer is None:  # paid from another phone, perhaps a relative's: which one is asked, once
            turn.say(text(t(turn, "code_which_phone", code=code)))
            turn.set(code_awaiting_payer=code)
            return turn.goto(END)
        turn.say(text(t(turn, "code_other_payer", code=code)))
        person = bool(turn.state.handoff.get("enabled", True))
        if person:  # a code that is not theirs, twice: a person checks the shop's M-Pesa statement
            turn.set(route="handoff", escalation_reason="payment_dispute", payment_code_failures=0)
        return turn.goto(END)
    lang, fallback = turn.lang, str(turn.get("sheng_fallback"))
    if applied.outcome in ("paid", "already_paid_by_it") and applied.payment is not None:
        facts = {"amount": money(applied.payment.amount), "ref": order.order_id, "receipt": code}
        turn.say(text(payment_outcome("paid", lang, fallback, method="mpesa_c2b", **facts)))
        deposit_paid(turn, order.order_id)
        if order.order_id in ((frame.order.order_id if frame.order else None), state.order_id):
            turn.set(payment_status="paid", frame=None)  # the sale's question goes with its frame
        turn.set(payment_code_failures=0)
        return turn.goto(END)
    if applied.outcome == "amount_mismatch":
        turn.say(
            text(
                t(
                    turn,
                    "code_wrong_amount",
                    code=code,
                    received=money(int(applied.amount)) if applied.amount is not None else "-",
                    ref=order.order_id,
                    due=money(order.amount_due),
                )
            )
        )
    elif applied.outcome == "order_not_payable":
        key = "code_order_paid" if order.status in ("paid", "fulfilled") else "code_order_closed"
        turn.say(text(t(turn, key, code=code, ref=order.order_id)))
    elif applied.outcome == "used_elsewhere":
        turn.say(text(t(turn, "code_used", code=code)))
    elif order.status in ("paid", "fulfilled") or order.amount_due <= 0:  # never "waiting for KES 0"
        turn.say(text(t(turn, "code_unknown_order_paid", code=code, ref=order.order_id)))
    else:
        turn.say(text(t(turn, "code_unknown", code=code, ref=order.order_id, due=money(order.amount_due))))
    return _code_failed(turn)


def _screenshot_code(turn: Turn, shot: MpesaReceipt, order_id: str) -> str:
    """The code of the shop's M-Pesa record a screenshot names, else the code as read. A character OCR misread is
    matched, for exactly the amount shown, among the shop's open records and the M-Pesa payments already on the
    order (the same screenshot sent again, or sent for money its account number already matched, is that
    payment's, not an unknown code)."""
    tenant_id = turn.ctx.tenant_id
    page = turn.ctx.services.payments.list_unmatched(tenant_id, limit=100)
    records = [(u.trans_id, _decimal(u.amount)) for u in page.items if u.status == "open"]
    try:
        _order, payments = turn.ctx.services.orders.get_with_payments(tenant_id, order_id)
    except NotFound:
        payments = []
    records += [(p.receipt, Decimal(p.amount)) for p in payments if p.method == "mpesa_c2b" and p.receipt]
    return resolve_code(shot, records)


def _decimal(amount: str) -> Decimal | None:
    try:
        return Decimal(amount)
    except InvalidOperation:
        return None


def _awaiting_payment(turn: Turn) -> str | None:
    """The customer's most recent order still waiting for payment, if any."""
    result = turn.tool("order_get_status", customer_id=turn.state.customer_id)
    if not result["ok"]:
        return None
    waiting = [o for o in result["data"]["orders"] if o["status"] in ("draft", "pending_payment", "payment_failed")]
    return str(waiting[0]["order_ref"]) if waiting else None


def _code_failed(turn: Turn) -> Command[Literal["__end__"]]:
    failures = turn.state.payment_code_failures + 1
    turn.set(payment_code_failures=failures)
    person = bool(turn.state.handoff.get("enabled", True))
    if failures >= 2 and person:  # the customer insists: a person checks the shop's M-Pesa statement
        turn.set(route="handoff", escalation_reason="payment_dispute", payment_code_failures=0)
    elif person:
        turn.say(text(t(turn, "code_offer_person")))
    return turn.goto(END)


def payment_status(state: ConversationState, runtime: Runtime[EngineContext]) -> Command[Literal["__end__"]]:
    """ "Did it go through?": the payment record, never a guess."""
    turn = Turn(state, runtime, "payment_status")
    payment_help(turn)
    return turn.goto(END)


def payment_help(turn: Turn) -> None:
    s = turn.state
    frame = frame_of(turn)
    ref = (frame.order.order_id if frame.order else None) or s.order_id
    if not ref:
        turn.say(text(t(turn, "no_open_order")))
        return
    result = turn.tool("order_get_status", customer_id=s.customer_id, order_ref=ref)
    if not result["ok"]:
        turn.say(text(t(turn, "tool_error")))
        return
    order = result["data"]["orders"][0]
    payments = [p for p in order["payments"] or [] if not p.get("overpayment")]
    paid = next((p for p in reversed(payments) if p["status"] == "paid"), None)
    last = payments[-1] if payments else None
    lang, fallback = turn.lang, str(turn.get("sheng_fallback"))
    if order["payment_status"] == "paid" or paid is not None:
        amount, receipt = (paid or {}).get("amount", order["total"]), (paid or {}).get("receipt")
        turn.say(
            text(
                payment_outcome(
                    "paid",
                    lang,
                    fallback,
                    amount=money(amount),
                    ref=order["order_ref"],
                    receipt=receipt or "-",
                    method=(paid or {}).get("method"),
                )
            )
        )
        turn.set(payment_status="paid")
        return
    if last is None:
        # nothing was ever sent or started: no "still pending"; offer the ways to pay
        turn.say(text(t(turn, "not_paid_yet", ref=order["order_ref"], amount=money(order["amount_due"]))))
        if order["status"] in PAYABLE:
            offer_ways_to_pay(turn, frame, order)
        return
    status = last["status"]
    turn.say(
        text(
            payment_outcome(
                status, lang, fallback, amount=money(order["total"]), ref=order["order_ref"], receipt="-", method=None
            )
        )
    )
    if status != "pending":
        turn.set(payment_status=status)
    if status in ("failed", "cancelled", "timeout"):
        offer_ways_to_pay(turn, frame, order)


PAYABLE = ("draft", "pending_payment", "payment_failed")  # an order's states that take a payment


def payable_now(order: dict[str, Any]) -> bool:
    """An order (as order_get_status gives it, with its payments) the customer can pay now: open, money due,
    and no M-Pesa prompt waiting on her phone (a second prompt would only confuse)."""
    prompts_waiting = any(p["status"] == "pending" and p["method"] == "mpesa_stk" for p in order.get("payments") or [])
    return (
        order["status"] in PAYABLE and order["amount_due"] > 0 and order["payments"] is not None and not prompts_waiting
    )


def offer_ways_to_pay(turn: Turn, frame: OrderFrame, order: dict[str, Any]) -> None:
    """The sale takes up an order the customer already has (looked up, or its payment failed) and asks how she
    pays it, with the shop's methods as buttons; her answer goes on in the sale's payment steps."""
    if frame.order is None:
        frame.order = BuiltOrder(
            order_id=order["order_ref"], amount_due=order["amount_due"], fingerprint="", adopted=True
        )
    frame.payment_started, frame.payment_method = None, None
    turn.set(order_totals={"total": order["total"], "amount_due": order["amount_due"]})
    say_payment_methods(turn, frame)
