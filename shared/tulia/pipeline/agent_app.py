"""The agent function's wiring (built once per container) and its SQS event adapter."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # LangGraph and the engine load on the first batch, not at import (cold start)
    from tulia.config import Settings
    from tulia.pipeline.agent import AgentService, QueuedRecord
    from tulia.pipeline.alerts import AlertDelivery
    from tulia.pipeline.outreach import OutreachService


def records_of(event: dict[str, Any]) -> tuple[list[QueuedRecord], list[str]]:
    """SQS event records (Lambda's shape) in order, and the ids to report as failed (none now: an
    unreadable body is a record the agent fails, retries and then sets aside in the dead-letter queue,
    with an alarm, instead of losing it or holding its customer's later messages)."""
    from tulia.observability import logger as log
    from tulia.observability import request_scope
    from tulia.pipeline.agent import QueuedRecord

    out: list[QueuedRecord] = []
    failed: list[str] = []
    blocked: set[str] = set()
    for record in event.get("Records") or []:
        record_id = str(record.get("messageId") or "")
        group = str((record.get("attributes") or {}).get("MessageGroupId") or "-")
        if group in blocked:
            failed.append(record_id)
            continue
        try:
            body = json.loads(record["body"])
            if not isinstance(body, dict):
                raise ValueError("not an object")
        except (KeyError, ValueError):
            with request_scope(record_id):
                log.error("unreadable queued record: retried, then set aside (dead-letter queue)")
            body = {"kind": "unreadable", "raw": str(record.get("body"))[:2000]}
        attributes = record.get("attributes") or {}
        sent = attributes.get("SentTimestamp")
        out.append(
            QueuedRecord(
                record_id=record_id,
                group_id=group,
                body=body,
                sent_at=int(str(sent)) / 1000 if str(sent or "").isdigit() else None,
                receive_count=int(attributes.get("ApproximateReceiveCount") or 1),
                receipt_handle=record.get("receiptHandle"),
            )
        )
    return out, failed


def batch_response(failed: list[str]) -> dict[str, Any]:
    """Partial batch failure report (the event source mapping has ReportBatchItemFailures)."""
    return {"batchItemFailures": [{"itemIdentifier": record_id} for record_id in failed]}


@lru_cache(maxsize=1)
def service() -> AgentService:
    import httpx

    from tulia.channel.graph_api import WhatsAppSender
    from tulia.channel.media import MediaClient
    from tulia.domain.common import utc_now
    from tulia.graph.conversation import Conversations, dynamodb_checkpointer
    from tulia.nlu.engine import build_engine
    from tulia.observability.metrics import MetricsRecorder
    from tulia.pipeline.agent import AgentService
    from tulia.pipeline.media import MediaIntake, picture_reader_for
    from tulia.services import build_services
    from tulia.store.limits import LimitCounters
    from tulia.store.messages import MessageRepo
    from tulia.store.stats import StatsRepo

    settings = agent_settings()
    if not settings.whatsapp_api_base:
        raise RuntimeError("TULIA_WHATSAPP_API_BASE is not set (e.g. https://graph.facebook.com/v21.0)")
    services = build_services(settings)
    import boto3

    from tulia.store.broadcasts import BroadcastRepo
    from tulia.store.queues import (
        INBOUND,
        OUTREACH,
        PAYMENT_CHECKS,
        OutreachQueue,
        PaymentCheckQueue,
        requeue_to,
        set_aside_to,
    )

    sqs = boto3.client("sqs", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)
    checks_url = sqs.get_queue_url(QueueName=PAYMENT_CHECKS.name(settings.table_prefix))["QueueUrl"]
    inbound_url = (
        settings.inbound_queue_url or sqs.get_queue_url(QueueName=INBOUND.name(settings.table_prefix))["QueueUrl"]
    )
    outreach_url = (
        settings.outreach_queue_url or sqs.get_queue_url(QueueName=OUTREACH.name(settings.table_prefix))["QueueUrl"]
    )
    services.alerts.deliver = OutreachQueue(sqs, outreach_url).send  # staff alerts go out from the outreach worker
    agent = AgentService(
        services=services,
        conversations=Conversations(
            services,
            build_engine(settings.llm, settings),
            dynamodb_checkpointer(
                settings.table_name("checkpoints"),
                region_name=settings.aws_region,
                endpoint_url=settings.aws_endpoint_url,
                offload_bucket=settings.checkpoint_bucket,
            ),
        ),
        messages=MessageRepo(services.db),
        sender=WhatsAppSender(httpx.Client(timeout=settings.http_timeout_seconds), settings.whatsapp_api_base),
        default_token=settings.whatsapp_access_token.get_secret_value(),
        clock=utc_now,
        checks=PaymentCheckQueue(sqs, checks_url),
        stk_check_delay_seconds=settings.stk_query_delay_seconds,
        record=MetricsRecorder(),
        stats=StatsRepo(services.db),
        limits=LimitCounters(services.db),
        kes_per_usd=settings.kes_per_usd,
        merge_quiet_seconds=settings.agent_batch_window_seconds,
        merge_max_wait_seconds=settings.agent_merge_max_wait_seconds,
        requeue=requeue_to(sqs, inbound_url),
        set_aside=set_aside_to(sqs, inbound_url),
        outreach=OutreachQueue(sqs, outreach_url),
        broadcasts=BroadcastRepo(services.db),
        media=MediaIntake(
            MediaClient(httpx.Client(timeout=settings.http_timeout_seconds), settings.whatsapp_api_base),
            services.media_files,
            picture_reader_for(settings),
        ),
    )
    if services.media_files is not None:  # voice notes: Amazon Transcribe on the kept file
        from tulia.channel.voice import AwsTranscriber
        from tulia.pipeline.voice import VoiceNotes
        from tulia.store.queues import InboundQueue
        from tulia.store.voice import VoiceJobs

        agent.media.voice = VoiceNotes(  # type: ignore[union-attr]
            services=services,
            jobs=VoiceJobs(services.db),
            transcriber=AwsTranscriber(transcribe_for(settings, services.media_files), services.media_files.bucket),
            media=services.media_files,
            inbound=InboundQueue(sqs, inbound_url),
            clock=utc_now,
            job_prefix=settings.table_prefix,
            outreach=OutreachQueue(sqs, outreach_url),
            sender=agent.sender,
            default_token=agent.default_token,
            language_of=agent.conversations.language_of,
        )
    return agent


def transcribe_for(settings: Settings, media: Any) -> Any:
    """tenant_id -> the Transcribe client a shop's voice notes are started with (its own media session in AWS)."""
    import boto3

    if media.scoped is not None:
        return lambda tenant_id: media.scoped.client("transcribe", tenant_id)
    shared = boto3.client("transcribe", region_name=settings.aws_region)
    return lambda tenant_id: shared


@lru_cache(maxsize=1)
def agent_settings() -> Settings:
    from tulia.config import get_settings
    from tulia.credentials import deployment_settings, webpush_secret

    return deployment_settings(get_settings(), "meta", "payments", *webpush_secret(get_settings()))


@lru_cache(maxsize=1)
def outreach_service() -> OutreachService:
    """The outreach worker, sharing the agent's clients."""
    agent = service()
    return outreach_of(agent, alert_delivery(agent_settings(), agent))


def alert_delivery(settings: Settings, agent: AgentService) -> AlertDelivery:
    """Staff alerts from the agent's clients: Web Push with the deployment's VAPID key (none: WhatsApp only)."""
    import httpx

    from tulia.channel.webpush import VapidKey, WebPushSender
    from tulia.pipeline.alerts import AlertDelivery

    key = settings.webpush_vapid_private_key
    push = (
        WebPushSender(
            httpx.Client(timeout=settings.http_timeout_seconds),
            VapidKey(key.get_secret_value(), settings.webpush_subject),
            settings.webpush_hosts,
        )
        if key is not None
        else None
    )
    return AlertDelivery(
        services=agent.services,
        sender=agent.sender,
        default_token=agent.default_token,
        push=push,
        console_url=settings.console_address(),
        clock=agent.clock,
    )


def outreach_of(agent: AgentService, alerts: AlertDelivery | None = None) -> OutreachService:
    from tulia.pipeline.outreach import OutreachService
    from tulia.store.broadcasts import BroadcastRepo

    if agent.outreach is None:
        raise RuntimeError("the agent has no outreach queue")
    return OutreachService(
        services=agent.services,
        broadcasts=agent.broadcasts or BroadcastRepo(agent.services.db),
        outbound=agent.outbound,
        sender=agent.sender,
        default_token=agent.default_token,
        queue=agent.outreach,
        clock=agent.clock,
        alerts=alerts,
        language_of=agent.news.customer_language,  # the language the customer last wrote in, without a choice
        voice=agent.media.voice if agent.media is not None else None,
    )


def from_outreach(record: dict[str, Any]) -> bool:
    """A record of the outreach queue (its ARN ends with the queue's name)."""
    from tulia.store.queues import OUTREACH

    return str(record.get("eventSourceARN") or "").endswith(OUTREACH.logical_name)


def run_outreach(event: dict[str, Any], worker: OutreachService) -> dict[str, Any]:
    """Outreach records (broadcast batches, reminders), each on its own: Powertools' batch processor reports
    the ones that failed, which SQS retries and then moves to the dead-letter queue (its alarm)."""
    from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
    from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord

    from tulia.observability import logger as log
    from tulia.observability import request_scope

    def work(record: SQSRecord) -> None:
        with request_scope(record.message_id):
            try:
                outcome = worker.run(json.loads(record.body))
            except Exception:
                log.exception("outreach work failed; SQS retries it, then its dead-letter queue")
                raise
            log.info("outreach work done", extra={"outcome": outcome})

    processor = BatchProcessor(EventType.SQS, raise_on_entire_batch_failure=False)  # a report, never a raise
    return dict(process_partial_response(event=event, record_handler=work, processor=processor))


def transcribed(event: dict[str, Any], agent: AgentService) -> dict[str, Any]:
    """Transcribe's job-state change: the voice note's transcript becomes the customer's turn (an error is
    EventBridge's to retry: the turn is made once, ``store/voice``)."""
    from tulia.observability import logger as log
    from tulia.observability import request_scope

    detail = event.get("detail") or {}
    with request_scope(str(event.get("id") or detail.get("TranscriptionJobName") or "transcribe")):
        if agent.media is None or agent.media.voice is None:
            log.warning("a transcription event, and no voice notes here")
            return {"outcome": "no voice notes"}
        outcome = agent.media.voice.completed(event)
        log.info("transcription event", extra={"outcome": outcome})
        return {"outcome": outcome}


def handle(event: dict[str, Any], svc: AgentService | None = None) -> dict[str, Any]:
    """The agent function's event sources: the inbound FIFO queue (conversation turns), the outreach queue
    (broadcast batches, reminders, "listening…") and Transcribe's completion events (EventBridge)."""
    if event.get("source") == "aws.transcribe":  # a voice note's transcript is ready (EventBridge)
        return transcribed(event, svc or service())
    records = event.get("Records") or []
    if records and all(from_outreach(r) for r in records):
        return run_outreach(event, outreach_of(svc) if svc is not None else outreach_service())
    turns, unreadable = records_of(event)
    return batch_response(unreadable + (svc or service()).process(turns))
