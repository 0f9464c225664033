"""The agent: turns queued customer messages into replies sent on WhatsApp.

For each FIFO message group (one tenant and customer) in a batch, in order:
- consecutive plain-text messages are answered as one turn (customers split one request over
  several quick messages). SQS FIFO event sources have no batching window, so the agent waits
  itself: while the newest message of a group's last turn is younger than the quiet time (and the
  oldest has waited less than the longest wait), that turn's records go back to the queue, visible
  again when the quiet time is over (a partial batch failure with the visibility set to the
  remainder); FIFO holds the group's later messages behind them, so the next delivery carries them
  together. The same code runs in AWS and in the local stack;
- a turn whose replies are already in the outbox (a retry) is not run again: its unsent replies are
  sent;
- otherwise the conversation engine runs the turn, the replies are stored in the outbox, then sent
  one by one through the Graph API, each marked sent, and the customer's messages are marked read.
A failure leaves the turn and every later message of that group to SQS's retry (FIFO order is kept);
other groups go on. Storing and sending replies is ``pipeline/outbox.py``; news a customer gets without
asking (order and booking updates, a payment's outcome) is ``pipeline/news.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from tulia.channel.graph_api import SendFailed, WhatsAppSender
from tulia.channel.outbound import Outbound
from tulia.channel.whatsapp import InboundMessage, addressed_to
from tulia.domain.tenant import Tenant
from tulia.errors import ProviderUnavailable
from tulia.graph.conversation import Conversations
from tulia.nlg.messages import text
from tulia.nlg.templates import render
from tulia.nlu.fastpath import fast_path as detect_fast_path
from tulia.observability import logger as log
from tulia.observability import request_scope
from tulia.observability.metrics import MetricsSink, turn_counts
from tulia.pipeline.news import News, counted
from tulia.pipeline.outbox import Outbox
from tulia.services import Services, threads
from tulia.services.appointments import reminder_work
from tulia.store.broadcasts import BroadcastRepo
from tulia.store.limits import LimitCounters
from tulia.store.messages import MessageRepo
from tulia.store.queues import INBOUND, OutreachQueue, PaymentCheckQueue
from tulia.store.stats import StatsRepo
from tulia.store.templates import TemplateRepo
from tulia.tools.support_tools import contact_of

if TYPE_CHECKING:
    from tulia.pipeline.media import MediaIntake


def _consent_keyword(text: str) -> bool:
    """STOP / START: consent is never held back by a limit."""
    hit = detect_fast_path(text, awaiting_answer=False) if text else None
    return hit is not None and hit.kind in ("opt_out", "opt_in")


@dataclass(frozen=True)
class QueuedRecord:
    record_id: str  # the SQS messageId (what a partial batch failure names)
    group_id: str
    body: dict[str, Any]
    sent_at: float | None = None  # when SQS took it (SentTimestamp), seconds since the epoch
    receive_count: int = 1  # ApproximateReceiveCount: deliveries so far, this one included
    receipt_handle: str | None = None  # what changing its visibility needs


MAX_DEFERRALS = INBOUND.held_deliveries  # a record is held back for merging at most this often
RETRY_BASE_SECONDS, RETRY_MAX_SECONDS = 5, 300  # a failed turn is retried after 5, 10, 20 ... 300 s
# a turn that failed this many deliveries is set aside (dead-letter queue) and its customer told once:
# the messages they send after it are not held behind it (a FIFO group waits for its oldest record)
SET_ASIDE_AFTER = 3


@dataclass
class QueuedTurn:
    tenant_id: str
    messages: list[InboundMessage] = field(default_factory=list)
    payment: dict[str, Any] | None = None  # a payment event from the payments function
    notice: dict[str, Any] | None = None  # an order update from the admin API
    broken: str | None = None  # a queued record that is not a turn at all: why

    @property
    def key(self) -> str:
        if self.payment is not None:
            return f"pay-{self.payment['payment_id']}-{self.payment['status']}"
        if self.notice is not None:
            subject = self.notice.get("order_id") or self.notice.get("booking_id")
            once = f"-{self.notice['ref']}" if self.notice.get("ref") else ""  # e.g. which refund
            return f"upd-{subject}-{self.notice['event']}{once}"
        return self.messages[-1].message_id

    @property
    def correlation_id(self) -> str | None:
        """What the turn's log lines carry: the customer's (last) WhatsApp message id, the payment or
        the order update."""
        return self.key if self.payment is not None or self.notice is not None or self.messages else None

    def inbound(self) -> dict[str, Any]:
        last = self.messages[-1]
        body = "\n".join(m.text for m in self.messages if m.text) if len(self.messages) > 1 else last.text
        inbound: dict[str, Any] = {
            "type": last.kind,
            "text": body,
            "reply_id": last.reply_id,
            "message_id": last.message_id,
        }
        if last.order_items:
            inbound["order_items"] = last.order_items
        if last.location:
            inbound["location"] = last.location
        if last.spoken:
            inbound["spoken"] = last.spoken  # a voice note's transcript, and the language heard
        return inbound


def transient(exc: BaseException) -> bool:
    """A failure that goes away by itself (a provider or DynamoDB unavailable or throttling): its turn is
    retried for as long as the queue keeps it, never set aside (stored replies are sent when it clears)."""
    if isinstance(exc, SendFailed):
        return exc.retryable
    if isinstance(exc, ProviderUnavailable | BotoCoreError):
        return True
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        status = int(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
        return status >= 500 or "Throttl" in str(error.get("Code")) or error.get("Code") in TRANSIENT_CODES
    return False


TRANSIENT_CODES = frozenset({"ProvisionedThroughputExceededException", "RequestLimitExceeded", "ServiceUnavailable"})


def _joinable(turn: QueuedTurn, message: InboundMessage, tenant_id: str) -> bool:
    last = turn.messages[-1]
    return turn.tenant_id == tenant_id and message.kind == last.kind == "text" and not last.reply_id


@dataclass
class AgentService:
    services: Services
    conversations: Conversations
    messages: MessageRepo
    sender: WhatsAppSender
    default_token: str
    clock: Callable[[], datetime]
    checks: PaymentCheckQueue | None = None  # where an STK push schedules its no-callback check
    stk_check_delay_seconds: int = 60
    record: MetricsSink | None = None  # business metrics of each turn (the Lambda publishes them)
    stats: StatsRepo | None = None  # the shop's daily counters (the admin API's analytics)
    outbound: Outbound = field(default=None)  # type: ignore[assignment]  # built from the store when not given
    # merging quick messages: the quiet time after a customer's last message, the longest wait after the
    # first, and how a record goes back to the queue for a while (None: no merging across deliveries)
    merge_quiet_seconds: float = 0.0
    merge_max_wait_seconds: float = 3.0
    requeue: Callable[[QueuedRecord, int], None] | None = None
    set_aside: Callable[[QueuedRecord, str], None] | None = None  # to the dead-letter queue, with why
    wall: Callable[[], float] = time.time  # SQS's timestamps are wall-clock time
    limits: LimitCounters | None = None  # fair use: messages per minute (spec 8.4); the budget reads stats
    outreach: OutreachQueue | None = None  # where a new order schedules its unpaid reminder
    broadcasts: BroadcastRepo | None = None  # a STOP after a broadcast is counted on it
    media: MediaIntake | None = None  # customers' photos and voice notes (None: the polite "text only")
    kes_per_usd: float = 129.0
    outbox: Outbox = field(init=False)  # replies stored, then sent once each (pipeline/outbox.py)
    news: News = field(init=False)  # what a customer is told unasked (pipeline/news.py)

    def __post_init__(self) -> None:
        if self.outbound is None:
            self.outbound = Outbound(self.messages, TemplateRepo(self.services.db), self.clock)
        self.outbox = Outbox(self.messages, self.sender, self.clock)
        self.news = News(
            self.services,
            self.conversations,
            self.outbox,
            self.outbound,
            self.default_token,
            self.clock,
            record=self.record,
            stats=self.stats,
        )

    def process(self, records: list[QueuedRecord]) -> list[str]:
        """Handle a batch; returns the record ids to retry."""
        groups: dict[str, list[QueuedRecord]] = {}
        for record in records:
            groups.setdefault(record.group_id, []).append(record)
        failed: list[str] = []
        for group in groups.values():
            turns = self._turns(group)
            held = self._hold_for_merging(group, turns)
            if held:
                turns = turns[:-1]
            done = 0
            for turn, used in turns:
                with request_scope(turn.correlation_id or group[done].record_id, turn.tenant_id or None):
                    try:
                        self._run(turn)
                    except Exception as exc:  # noqa: BLE001 - any failure: retry this turn and what follows it
                        if (
                            self.set_aside is not None
                            and group[done].receive_count >= SET_ASIDE_AFTER
                            and not transient(exc)
                        ):
                            # it failed every time: set aside, the customer told, their next messages go on
                            log.exception("turn failed again: set aside in the dead-letter queue")
                            self._set_aside(turn, group[done : done + used], f"{type(exc).__name__}: {exc}")
                            done += used
                            continue
                        log.exception("turn failed; the rest of its group will be retried")
                        failed += self._retry_later(group[done:])
                        held = []
                        break
                done += used
            failed += [r.record_id for r in held]
        return failed

    def _set_aside(self, turn: QueuedTurn, records: list[QueuedRecord], why: str) -> None:
        """Move a turn that cannot be processed to the dead-letter queue and tell its customer once
        (when even that fails, the record is still set aside: nothing may hold the group)."""
        assert self.set_aside is not None
        for record in records:
            self.set_aside(record, why)
        if self.record is not None:
            self.record({"TurnsSetAside": 1}, tenant_id=turn.tenant_id)
        if not turn.messages:
            return
        try:
            tenant = self.services.tenants.get(turn.tenant_id)
            last = turn.messages[-1]
            reply = text(render("turn_failed", tenant.languages.default, tenant.languages.sheng_reply_language))
            payloads = [reply.to_whatsapp(**addressed_to(last.phone_e164, last.wa_user_id))]
            covers = [m.message_id for m in turn.messages]
            outbox = self.outbox.store(turn.tenant_id, turn.key, last.phone_number_id, payloads, covers, [])
            self.outbox.send(turn.tenant_id, turn.key, outbox, tenant.wa.access_token or self.default_token)
        except Exception:  # noqa: BLE001 - the customer could not be told: the record is set aside all the same
            log.exception("could not tell the customer that their message was set aside")

    def _hold_for_merging(self, group: list[QueuedRecord], turns: list[tuple[QueuedTurn, int]]) -> list[QueuedRecord]:
        """The records of the group's last turn, if it should wait for more quick messages: they go back
        to the queue until the quiet time after the newest is over (never past the longest wait after the
        oldest, never more than MAX_DEFERRALS times)."""
        if self.requeue is None or self.merge_quiet_seconds <= 0 or not turns:
            return []
        last, used = turns[-1]
        records = group[len(group) - used :]
        if not last.messages or last.messages[-1].kind != "text" or last.messages[-1].reply_id:
            return []
        sent = [r.sent_at for r in records]
        if any(t is None for t in sent) or max(r.receive_count for r in records) > MAX_DEFERRALS:
            return []
        now = self.wall()
        newest, oldest = now - max(t for t in sent if t is not None), now - min(t for t in sent if t is not None)
        wait = min(self.merge_quiet_seconds - newest, self.merge_max_wait_seconds - oldest)
        seconds = round(wait)  # SQS visibility is in whole seconds
        if seconds <= 0:
            return []
        self._hand_back(records, seconds)
        log.info("quick messages: waiting for more", extra={"records": len(records), "seconds": seconds})
        return records

    def _hand_back(self, records: list[QueuedRecord], seconds: int) -> None:
        """The first record comes back in ``seconds``; the ones after it at once, behind it: FIFO does not
        deliver a group's later messages while an earlier one is in flight, so they come back together
        and in order (left alone, they would stay hidden for the queue's whole visibility timeout)."""
        assert self.requeue is not None
        for n, record in enumerate(records):
            self.requeue(record, seconds if n == 0 else 0)

    def _retry_later(self, records: list[QueuedRecord]) -> list[str]:
        """Failed records come back after a backoff that grows with their deliveries."""
        if self.requeue is not None and records:
            delay = min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** max(0, records[0].receive_count - 1))
            try:
                self._hand_back(records, delay)
            except Exception:  # noqa: BLE001 - the queue's own visibility timeout retries them anyway
                log.exception("could not set when failed records come back")
        return [r.record_id for r in records]

    def _turns(self, group: list[QueuedRecord]) -> list[tuple[QueuedTurn, int]]:
        turns: list[tuple[QueuedTurn, int]] = []
        for record in group:
            if record.body.get("kind") == "payment":
                turns.append((QueuedTurn(str(record.body["tenant_id"]), payment=record.body), 1))
                continue
            if record.body.get("kind") in ("order_update", "booking_update"):
                turns.append((QueuedTurn(str(record.body["tenant_id"]), notice=record.body), 1))
                continue
            if record.body.get("kind") != "message":  # unreadable or unknown: failed, retried, then set aside
                log.warning("queued record of no known kind", extra={"kind": str(record.body.get("kind"))[:40]})
                kind = str(record.body.get("kind"))[:40]
                turns.append((QueuedTurn(str(record.body.get("tenant_id") or ""), broken=f"kind {kind}"), 1))
                continue
            try:
                message = InboundMessage.from_dict(record.body["message"])
                tenant_id = str(record.body["tenant_id"])
            except (KeyError, TypeError, AttributeError) as exc:  # fails when run: retried, then set aside
                turns.append((QueuedTurn(str(record.body.get("tenant_id") or ""), broken=repr(exc)[:200]), 1))
                continue
            if turns and turns[-1][0].messages and _joinable(turns[-1][0], message, tenant_id):
                turn, used = turns[-1]
                turn.messages.append(message)
                turns[-1] = (turn, used + 1)
            else:
                turns.append((QueuedTurn(tenant_id, [message]), 1))
        return turns

    def _run(self, turn: QueuedTurn) -> None:
        if turn.broken is not None:
            raise ValueError(f"a queued record that is not a message: {turn.broken}")
        if turn.payment is not None:
            self.news.payment(turn.tenant_id, turn.key, turn.payment)
            return
        if turn.notice is not None and turn.notice.get("kind") == "booking_update":
            self.news.booking_update(turn.tenant_id, turn.key, turn.notice)
            return
        if turn.notice is not None:
            self.news.order_update(turn.tenant_id, turn.key, turn.notice)
            return
        if not turn.messages:
            return
        tenant_id, last = turn.tenant_id, turn.messages[-1]
        tenant = self.services.tenants.get(tenant_id)
        token = tenant.wa.access_token or self.default_token
        outbox = self.messages.get_outbox(tenant_id, turn.key)
        if outbox is None:
            # messages answered in an earlier delivery are not answered again, but what was stored for
            # them and not sent yet (a Graph API outage) goes out first, in order: never lost
            unanswered = []
            for message in turn.messages[:-1]:
                earlier = self.messages.get_outbox(tenant_id, message.message_id)
                if earlier is None:
                    unanswered.append(message)
                elif "answered_in" not in earlier:
                    self.outbox.send(tenant_id, message.message_id, earlier, token)
            turn.messages = [*unanswered, last]
            tenant_limited = self._closed(tenant, turn) or self._fair_use(tenant, turn)
            replies, trace = tenant_limited if tenant_limited is not None else self._answer(turn, tenant)
            to = addressed_to(last.phone_e164, last.wa_user_id)
            payloads = [m.to_whatsapp(**to) for m in replies]
            outbox = self.outbox.store(
                tenant_id, turn.key, last.phone_number_id, payloads, [m.message_id for m in turn.messages], trace
            )
            if self.record is not None:  # counted once: a redelivered turn finds its outbox
                self.record(turn_counts(trace), tenant_id=tenant_id)
            if self.stats is not None:
                counted(
                    self.stats,
                    lambda stats: stats.record_turn(
                        tenant_id, at=self.clock(), trace=trace, messages=len(turn.messages), customer=last.customer_key
                    ),
                )
        if "answered_in" in outbox:
            return  # this message was part of a turn closed by a later message
        self.outbox.send(tenant_id, turn.key, outbox, token)
        for message in turn.messages:
            try:
                self.sender.mark_read(last.phone_number_id, token, message.message_id)
            except SendFailed:
                log.info("could not mark a message read", extra={"tenant_id": tenant_id})
        if not any(e.get("outcome") == "transcribing" for e in outbox.get("trace") or []):
            # (a voice note being transcribed is logged as its transcript's turn, marked spoken)
            threads.write_turn(self.services, tenant_id, turn.key, turn.messages, outbox)

    def _after_turn(self, tenant: Tenant, trace: list[dict[str, Any]], state: dict[str, Any]) -> None:
        """A new order schedules its one unpaid reminder; an opt-out is counted on the broadcast the
        customer got in the week before (best effort: neither may fail the customer's turn)."""
        created = any(e.get("kind") == "tool" and e.get("tool") == "order_create" and e.get("ok") for e in trace)
        after = tenant.messaging.unpaid_reminder_after_minutes
        try:
            if created and after is not None and self.outreach is not None and state.get("order_id"):
                due = self.clock() + timedelta(minutes=after)
                self.outreach.send(
                    {
                        "kind": "unpaid_reminder",
                        "tenant_id": tenant.tenant_id,
                        "order_id": str(state["order_id"]),
                        "due_at": due.isoformat(),
                    },
                    delay_seconds=after * 60,
                )
            if self.outreach is not None:
                for entry in trace:
                    if entry.get("kind") == "booking" and entry.get("node") in ("booking_confirmed", "booking_moved"):
                        self._queue_reminders(tenant, str(entry["booking_ref"]), str(entry["start"]))
            opted_out = (state.get("understanding") or {}).get("keyword") == "opt_out"
            if opted_out and self.broadcasts is not None and state.get("customer_id"):
                self.broadcasts.count_stop(tenant.tenant_id, str(state["customer_id"]))
        except Exception:  # noqa: BLE001 - the reply goes out regardless
            log.exception("after-turn bookkeeping failed")

    def _queue_reminders(self, tenant: Tenant, booking_ref: str, start_iso: str) -> None:
        """A booking confirmed (or moved) is reminded the day before and hours before, as the shop says;
        a reminder for a time the booking no longer has is dropped by the worker."""
        assert self.outreach is not None
        for body, delay in reminder_work(tenant, booking_ref, datetime.fromisoformat(start_iso), self.clock()):
            self.outreach.send(body, delay_seconds=delay)

    def _fair_use(self, tenant: Tenant, turn: QueuedTurn) -> tuple[list[Any], list[dict[str, Any]]] | None:
        """Spec 8.4: past the customer's (or the shop's) messages per minute, the first message over the
        limit gets one polite slow-down message and the rest of that minute is acknowledged (read)
        without running the engine. An opt-out always goes through. None: answer as usual."""
        if self.limits is None:
            return None
        last, n, now = turn.messages[-1], len(turn.messages), self.clock()
        if any(_consent_keyword(m.text) for m in turn.messages):
            return None
        mine = self.limits.customer(tenant.tenant_id, last.customer_key, now, n)
        shop = self.limits.shop(tenant.tenant_id, now, n)
        limits = tenant.limits
        which = (
            "customer"
            if mine > limits.customer_messages_per_minute
            else "shop"
            if shop > limits.tenant_messages_per_minute
            else None
        )
        if which is None:
            return None
        first = self.limits.first_notice(tenant.tenant_id, last.customer_key, now)
        if self.record is not None:
            self.record({"RateLimited": n}, tenant_id=tenant.tenant_id)
        log.warning("fair-use limit reached", extra={"tenant_id": tenant.tenant_id, "limit": which, "told": first})
        trace: list[dict[str, Any]] = [{"kind": "limit", "limit": which, "messages_this_minute": mine, "told": first}]
        if not first:
            return [], trace
        lang = self._language(tenant, last)
        key = "rate_slow_down" if which == "customer" else "rate_busy"
        return [text(render(key, lang, tenant.languages.sheng_reply_language))], trace

    def _closed(self, tenant: Tenant, turn: QueuedTurn) -> tuple[list[Any], list[dict[str, Any]]] | None:
        """A shop that is not live (getting ready, paused by its owner, suspended by the operator) runs no engine:
        the customer is told once, with the shop's contact, and no model is called. STOP and START still go
        through (consent never waits). None: a live shop, or a consent keyword."""
        if tenant.status == "live" or any(_consent_keyword(m.text) for m in turn.messages):
            return None
        last = turn.messages[-1]
        now = self.clock()
        first = self.limits is None or self.limits.first_closed_notice(
            tenant.tenant_id, last.customer_key, tenant.status_since, now
        )
        trace: list[dict[str, Any]] = [{"kind": "closed", "status": tenant.status, "told": first}]
        log.info("a message to a shop that is not live", extra={"tenant_id": tenant.tenant_id, "status": tenant.status})
        if not first:
            return [], trace
        lang = self._language(tenant, last)
        said = render(
            "shop_closed",
            lang,
            tenant.languages.sheng_reply_language,
            shop=tenant.name,
            contact=contact_of(tenant, lang),
        )
        return [text(said)], trace

    def _language(self, tenant: Tenant, last: InboundMessage) -> str:
        """What the agent answers in without the engine: the conversation's language, else the shop's."""
        said_in = self.conversations.language_of(tenant.tenant_id, last.phone_e164, last.wa_user_id)
        return said_in or tenant.languages.default

    def _engine_for(self, tenant: Tenant) -> Any:
        """The model engine, or the rules engine once the shop's model spend today is past its budget
        (counted as ModelBudgetExceeded, which raises an alarm), or while the shop is not live (only STOP and
        START reach the engine then)."""
        if tenant.status != "live" and self.conversations.engine.name != "rules":
            from tulia.nlu.rules import RulesEngine

            return RulesEngine()
        budget = tenant.limits.model_budget_kes_per_day
        if budget is None or self.stats is None or self.conversations.engine.name == "rules":
            return None
        spent_kes = self.stats.model_cost_usd(tenant.tenant_id, self.clock()) * self.kes_per_usd
        if spent_kes < budget:
            return None
        log.warning("model budget of the day spent: the rules engine answers", extra={"tenant_id": tenant.tenant_id})
        if self.record is not None:
            self.record({"ModelBudgetExceeded": 1}, tenant_id=tenant.tenant_id)
        from tulia.nlu.rules import RulesEngine

        return RulesEngine()

    def _answer(self, turn: QueuedTurn, tenant: Tenant) -> tuple[list[Any], list[dict[str, Any]]]:
        last = turn.messages[-1]
        engine = self._engine_for(tenant)
        inbound = turn.inbound()
        read: list[dict[str, Any]] = []
        if self.media is not None and last.media:  # a photo or voice note: fetched, kept, read (pipeline/media.py)
            token = tenant.wa.access_token or self.default_token
            taken = self.media.take(tenant, last, token, engine or self.conversations.engine)
            if taken.reply_key is not None:  # a file not taken: said politely, no engine
                said = render(taken.reply_key, self._language(tenant, last), tenant.languages.sheng_reply_language)
                return [text(said)], taken.trace
            if taken.hold:
                return [], taken.trace
            inbound.update(taken.inbound)
            read = taken.trace
        result = self.conversations.handle(
            tenant_id=turn.tenant_id,
            phone_e164=last.phone_e164,
            wa_user_id=last.wa_user_id,
            inbound=inbound,
            display_name=last.display_name,
            engine=engine,
        )
        self._after_turn(tenant, result.trace, result.state)
        stk_started = any(
            e.get("kind") == "tool" and e.get("tool") == "payment_initiate_stk_push" and e.get("ok")
            for e in result.trace
        )
        if stk_started and self.checks is not None:
            self.checks.schedule(
                tenant_id=turn.tenant_id,
                order_id=str(result.state["order_id"]),
                payment_id=str(result.state["payment_request_id"]),
                delay_seconds=self.stk_check_delay_seconds,
            )
        return result.replies, read + result.trace
