"""The embedded local stack (`tulia dev` / `make dev`).

One process, no AWS account, no internet: moto in server mode for DynamoDB and SQS, tables and
queues created from the definitions the code uses, the provider simulators (Graph API, Daraja,
PesaPal) wherever a ``TULIA_*_API_BASE`` setting is unset, the demo packs seeded, a local HTTP
server with API Gateway's routes calling the same handlers with v2 events, and a poller feeding the
SQS FIFO queue to the agent handler as Lambda would.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from tulia.config import Settings, get_settings

PICTURES_PREFIX = "/pictures/"  # items' pictures (CloudFront's path in AWS)

if TYPE_CHECKING:
    from tulia.local.persistence import DataDirectory, Restored
    from tulia.packs.loader import Pack
    from tulia.store.queues import PaymentCheckQueue

STOP_DEADLINE_SECONDS = 10.0
AGENT_WORKERS = 4  # concurrent agent "invocations" in the local stack
AGENT_POLL_SECONDS = 0.2  # how often an idle agent "invocation" asks the queue (Lambda long-polls)
IDLE_POLL_SECONDS = 2.0  # how often a queue nothing was sent to from this process is asked
LOCAL_AWS_ENV = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_DEFAULT_REGION": "eu-west-1"}


def running_from(start: datetime) -> Callable[[], datetime]:
    """A clock that reads ``start`` now and runs on in real time (``tulia dev --clock``)."""
    began = time.monotonic()
    return lambda: (start + timedelta(seconds=time.monotonic() - began)).astimezone(UTC)


def local_vapid_key(journal: Any) -> SecretStr:
    """The stack's own Web Push key: kept in its data directory (devices subscribed with it keep working after
    a restart), else new for this run."""
    from tulia.channel.webpush import VapidKey

    path = Path(journal.directory) / "webpush-vapid.key" if journal is not None else None
    if path is not None and path.is_file():
        return SecretStr(path.read_text().strip())
    key = VapidKey.generate().private_key
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(key + "\n")
        path.chmod(0o600)
    return SecretStr(key)


def port_in_use(port: int) -> bool:
    """Whether a server listens on the port (one left in TIME_WAIT by a stopped stack is free, as the
    local API's own server, which reuses addresses, would find it)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LocalStack:
    packs: list[Pack]
    port: int = 8080
    settings: Settings = field(default_factory=get_settings)
    seeded: list[Any] = field(default_factory=list)  # what seeding each pack loaded
    data_dir: Path | None = None  # keep the tables across restarts (tulia dev --data-dir)
    restored: int = 0  # items read back from the data directory (snapshot and journal)
    requeued: int = 0  # messages put back in the queues, and status checks of prompts left pending
    starts_at: datetime | None = None  # tulia dev --clock: the shops' clock starts here and runs on
    _stops: list[Any] = field(default_factory=list)

    def start(self) -> LocalStack:
        import boto3
        import httpx
        from botocore.config import Config

        from tulia.admin import api as admin_api
        from tulia.admin.api import build_admin_api
        from tulia.channel.graph_api import WhatsAppSender
        from tulia.channel.media import MediaClient
        from tulia.channel.reading import TesseractReader
        from tulia.graph.conversation import Conversations, dynamodb_checkpointer
        from tulia.local import chatpage, console
        from tulia.local.auth import (
            DEMO_PASSWORDS,
            JwtVerifier,
            create_pool,
            demo_email,
            ensure_operator,
            ensure_user,
            forget_pool,
            save_pool,
        )
        from tulia.local.chatpage import ChatPage
        from tulia.local.console import ConsoleSite
        from tulia.local.http import LocalApi
        from tulia.local.mailbox import DevMailbox
        from tulia.local.poller import QueuePoller, wake_on_send
        from tulia.local.simulators.daraja import DarajaSimulator
        from tulia.local.simulators.graph import GraphSimulator
        from tulia.local.simulators.pesapal import PesapalSimulator
        from tulia.local.store_server import StoreServer
        from tulia.local.voice import LocalTranscriber
        from tulia.nlu.engine import build_engine
        from tulia.packs.seed import seed_pack
        from tulia.payments.setup import register_provider_urls
        from tulia.pipeline import agent_app, kb_ingest_app, payments_app, webhook_app
        from tulia.pipeline.admin_app import build_deps, staff_directory
        from tulia.pipeline.agent import AgentService
        from tulia.pipeline.media import MediaIntake, picture_reader_for
        from tulia.pipeline.payments import PaymentCallbacks
        from tulia.pipeline.token_trigger import add_shop
        from tulia.pipeline.voice import VoiceNotes
        from tulia.pipeline.webhook import WebhookService
        from tulia.services import build_services
        from tulia.store.broadcast_statuses import BroadcastStatuses
        from tulia.store.broadcasts import BroadcastRepo
        from tulia.store.limits import LimitCounters
        from tulia.store.media import MediaStore, PictureStore, create_media_bucket
        from tulia.store.messages import MessageRepo
        from tulia.store.queues import (
            INBOUND,
            OUTREACH,
            PAYMENT_CHECKS,
            InboundQueue,
            OutreachQueue,
            PaymentCheckQueue,
            create_queues,
            requeue_to,
            set_aside_to,
        )
        from tulia.store.stats import StatsRepo
        from tulia.store.tables import create_tables
        from tulia.store.voice import VoiceJobs

        for key, value in LOCAL_AWS_ENV.items():
            os.environ.setdefault(key, value)
        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's server would log every request

        store_port = free_port()
        self.store_url = f"http://127.0.0.1:{store_port}"
        journal = None
        if self.data_dir is not None:  # every write the store acknowledges is journaled first
            from tulia.local.persistence import JournaledStore

            journaled = JournaledStore(store_port, self.data_dir)
            journal = journaled.start()
            self._stops.append(journaled.stop)
        else:
            store = StoreServer(store_port)  # one DynamoDB request at a time (tulia.local.store_server)
            store.start()
            self._stops.append(store.stop)

        s = self.settings
        self.graph: GraphSimulator | None = None
        self.daraja: DarajaSimulator | None = None
        self.pesapal: PesapalSimulator | None = None
        if not s.whatsapp_api_base:
            self.graph = GraphSimulator()
            self.graph.start()
            self._stops.append(self.graph.stop)
        if not s.mpesa_api_base:
            passkeys = {
                p.tenant.payments.mpesa_stk.shortcode: p.tenant.payments.mpesa_stk.passkey
                for p in self.packs
                if p.tenant.payments.mpesa_stk
            }
            self.daraja = DarajaSimulator(passkeys=passkeys)
            self.daraja.start()
            self._stops.append(self.daraja.stop)
        if not s.pesapal_api_base:
            self.pesapal = PesapalSimulator()
            self.pesapal.start()
            self._stops.append(self.pesapal.stop)
        public = s.public_base_url if "TULIA_PUBLIC_BASE_URL" in os.environ else f"http://localhost:{self.port}"
        self.settings = s = s.model_copy(
            update={
                "aws_endpoint_url": self.store_url,
                "public_base_url": public,
                "webpush_vapid_private_key": s.webpush_vapid_private_key or local_vapid_key(journal),
            }
        )
        self.whatsapp_api_base = s.whatsapp_api_base or (self.graph.base_url if self.graph else "")

        self.http = httpx.Client(timeout=s.http_timeout_seconds)
        self._stops.append(self.http.close)
        self.services = services = build_services(
            s,
            clock=running_from(self.starts_at) if self.starts_at else None,
            http=self.http,
            mpesa_api_base=s.mpesa_api_base or (self.daraja.base_url if self.daraja else None),
            pesapal_api_base=s.pesapal_api_base or (self.pesapal.base_url if self.pesapal else None),
        )
        create_tables(services.db.client, s.table_prefix)
        sqs = boto3.client("sqs", region_name=s.aws_region, endpoint_url=self.store_url)
        queues = create_queues(sqs, s.table_prefix)
        services.alerts.deliver = OutreachQueue(sqs, queues[OUTREACH.logical_name]).send  # staff alerts
        self.queue_url = queues[INBOUND.logical_name]
        checks = PaymentCheckQueue(sqs, queues[PAYMENT_CHECKS.logical_name])
        uploads_url = sqs.create_queue(QueueName=f"{s.table_prefix}kb-uploads")["QueueUrl"]
        data = restored = None
        if journal is not None:  # (there is a journal exactly when there is a data directory)
            from tulia.local.persistence import DataDirectory

            data = DataDirectory(journal.directory, services.db.client, s.table_prefix, journal, self.store_url)
            restored = data.restore()  # before seeding: the packs' own records are written anew
            self.restored = restored.items
            urls = {url.rsplit("/", 1)[-1]: url for url in sqs.list_queues().get("QueueUrls", [])}
            self.requeued = data.refill(sqs, restored.queues or {}, urls)
        for pack in self.packs:
            self.seeded.append(seed_pack(services, pack))
        for pack in self.packs:  # as `tulia register-urls` does after a deploy
            for problem in register_provider_urls(services, pack.tenant.tenant_id).failed:
                print(f"{pack.tenant.tenant_id}: not registered: {problem}")
        if self.graph is not None:  # the simulated WhatsApp accounts' approved templates, as a sync would
            self._sync_templates()

        self.webhook = WebhookService(
            app_secret=s.meta_app_secret.get_secret_value(),
            verify_token=s.meta_verify_token.get_secret_value(),
            tenant_for_phone_number_id=services.tenants.tenant_for_phone_number_id,
            messages=MessageRepo(services.db),
            queue=InboundQueue(sqs, self.queue_url),
            clock=services.clock,
            broadcasts=BroadcastStatuses(services.db),
        )
        self.agent = AgentService(
            services=services,
            conversations=Conversations(
                services,
                build_engine(s.llm, s),
                dynamodb_checkpointer(
                    s.table_name("checkpoints"), region_name=s.aws_region, endpoint_url=self.store_url
                ),
            ),
            messages=MessageRepo(services.db),
            sender=WhatsAppSender(self.http, self.whatsapp_api_base),
            default_token=s.whatsapp_access_token.get_secret_value(),
            clock=services.clock,
            checks=checks,
            stk_check_delay_seconds=s.stk_query_delay_seconds,
            stats=StatsRepo(services.db),
            limits=LimitCounters(services.db),
            kes_per_usd=s.kes_per_usd,
            merge_quiet_seconds=s.agent_batch_window_seconds,
            merge_max_wait_seconds=s.agent_merge_max_wait_seconds,
            requeue=requeue_to(sqs, self.queue_url),
            set_aside=set_aside_to(sqs, self.queue_url),
            outreach=OutreachQueue(sqs, queues[OUTREACH.logical_name]),
            broadcasts=BroadcastRepo(services.db),
        )
        self.payments = PaymentCallbacks(
            services=services,
            queue=InboundQueue(sqs, self.queue_url),
            clock=services.clock,
            checks=checks,
            check_delay_seconds=s.stk_query_delay_seconds,
        )
        # staff sign-in (moto's Cognito), the KB bucket whose uploads are ingested, and the admin API
        self.pool = create_pool(self.store_url, s.aws_region, self.base_url, s.table_prefix)
        save_pool(self.pool, self.port)
        self._stops.append(lambda: forget_pool(self.port))
        s3 = boto3.client(
            "s3",
            region_name=s.aws_region,
            endpoint_url=self.store_url,
            config=Config(s3={"addressing_style": "path"}, signature_version="s3v4"),
        )
        self.kb_bucket = s.kb_bucket or f"{s.table_prefix}kb"
        s3.create_bucket(Bucket=self.kb_bucket, CreateBucketConfiguration={"LocationConstraint": s.aws_region})
        uploads_arn = sqs.get_queue_attributes(QueueUrl=uploads_url, AttributeNames=["QueueArn"])["Attributes"][
            "QueueArn"
        ]
        s3.put_bucket_notification_configuration(
            Bucket=self.kb_bucket,
            NotificationConfiguration={
                "QueueConfigurations": [{"QueueArn": uploads_arn, "Events": ["s3:ObjectCreated:*"]}]
            },
        )
        # customers' photos and voice notes: encrypted, gone after 30 days (as the CDK app's bucket)
        self.media_bucket = s.media_bucket or f"{s.table_prefix}media"
        create_media_bucket(s3, self.media_bucket, s.aws_region)
        services.media_files = MediaStore(self.media_bucket, lambda: s3)
        pictures = picture_reader_for(s)
        if isinstance(pictures, TesseractReader) and not pictures.available():
            print("tesseract is not installed: M-Pesa screenshots are asked for as text (apt install tesseract-ocr)")
        self.agent.media = MediaIntake(MediaClient(self.http, self.whatsapp_api_base), services.media_files, pictures)
        # voice notes: the stand-in transcriber answers the demo voice notes and completes at once, through the
        # same handler Transcribe's EventBridge rule targets in AWS
        self.transcriber = LocalTranscriber(services.media_files)
        self.agent.media.voice = VoiceNotes(
            services=services,
            jobs=VoiceJobs(services.db),
            transcriber=self.transcriber,
            media=services.media_files,
            inbound=InboundQueue(sqs, self.queue_url),
            clock=services.clock,
            job_prefix=s.table_prefix,
            outreach=OutreachQueue(sqs, queues[OUTREACH.logical_name]),
            sender=self.agent.sender,
            default_token=self.agent.default_token,
            language_of=self.agent.conversations.language_of,
        )
        self.transcriber.complete = self.agent.media.voice.completed
        # items' pictures shops upload: served at /pictures/ as CloudFront serves them in AWS
        self.pictures_bucket = s.pictures_bucket or f"{s.table_prefix}pictures"
        s3.create_bucket(Bucket=self.pictures_bucket, CreateBucketConfiguration={"LocationConstraint": s.aws_region})
        pictures_base = s.pictures_base_url or f"{s.public_base_url.rstrip('/')}"
        services.pictures = PictureStore(self.pictures_bucket, pictures_base, lambda: s3)
        self.settings = s = s.model_copy(
            update={
                "kb_bucket": self.kb_bucket,
                "media_bucket": self.media_bucket,
                "pictures_bucket": self.pictures_bucket,
                "pictures_base_url": pictures_base,
            }
        )

        def read_upload(bucket: str, key: str) -> tuple[int, Any]:
            size = int(s3.head_object(Bucket=bucket, Key=key)["ContentLength"])
            return size, lambda: bytes(s3.get_object(Bucket=bucket, Key=key)["Body"].read())

        def ingest_uploads(event: dict[str, Any]) -> dict[str, Any]:
            for record in event["Records"]:  # each SQS body is an S3 event, as Lambda would receive it
                body = json.loads(record["body"])
                if body.get("Records"):  # (S3 also sends a test event without records)
                    kb_ingest_app.handle(body, (services, read_upload))
            return {"batchItemFailures": []}

        admin_deps = build_deps(s, services, http=self.http, whatsapp_api_base=self.whatsapp_api_base, sqs=sqs)
        admin_deps.staff = staff_directory(s, self.pool.user_pool_id, send_email=False)
        self.admin_api = build_admin_api(admin_deps, swagger=True)
        self.verifier = JwtVerifier(self.pool, self.http)
        ensure_operator(self.pool)  # the platform operator (printed by `tulia dev`)
        for pack in self.packs:  # each shop's console users (printed by `tulia dev`)
            for role, password in DEMO_PASSWORDS.items():
                ensure_user(self.pool, pack.tenant.tenant_id, role, demo_email(pack.tenant.tenant_id, role), password)
        self.mailbox = DevMailbox()  # the emails Cognito would send (sign-up codes): /dev/mailbox
        self.console = ConsoleSite(
            self.pool,
            self.http,
            Path(s.console_dist) if s.console_dist else None,
            mailbox=self.mailbox,
            token_trigger=lambda event: add_shop(event, services.tenants),  # as the pool's trigger in AWS
        )
        if data is not None and restored is not None:
            self._resume(data, restored, checks)

        self.chat_page = ChatPage(
            services=services,
            tenant_ids=[p.tenant.tenant_id for p in self.packs],
            webhook_url=f"{self.base_url}{webhook_app.WEBHOOK_PATH}",
            app_secret=s.meta_app_secret.get_secret_value(),
            messages=MessageRepo(services.db),
            graph=self.graph,
            daraja=self.daraja,
            stk_check_delay_seconds=s.stk_query_delay_seconds,
        )
        self.api = LocalApi(
            self.port,
            {
                webhook_app.WEBHOOK_PATH: self._webhook,
                payments_app.PAYMENTS_PREFIX: lambda event: payments_app.handle(event, self.payments),
                chatpage.PAGE_PATH: self.chat_page.handle,
                chatpage.API_PREFIX: self.chat_page.handle,
                admin_api.PREFIX: self._admin,
                admin_api.PREFIX + "/": self._admin,
                console.PREFIX: self.console.handle,
                console.MAILBOX_PATH: self.console.mailbox_page,
                console.PREFIX + "/": self.console.handle,
                PICTURES_PREFIX: self._picture,
            },
        ).start()
        self._stops.insert(0, self.api.stop)
        self.poller = QueuePoller(
            sqs,
            self.queue_url,
            lambda event: agent_app.handle(event, self.agent),
            window_seconds=AGENT_POLL_SECONDS,
            workers=AGENT_WORKERS,
            retry_seconds=None,  # as Lambda: the agent sets when a record comes back (merging, retries)
            idle_seconds=IDLE_POLL_SECONDS,
        ).start()
        self._stops.insert(0, self.poller.stop)
        self.uploads_poller = QueuePoller(sqs, uploads_url, ingest_uploads, window_seconds=0.5).start()
        self._stops.insert(0, self.uploads_poller.stop)
        outreach = agent_app.outreach_of(self.agent, agent_app.alert_delivery(s, self.agent))
        self.outreach_poller = QueuePoller(
            sqs,
            queues[OUTREACH.logical_name],
            lambda event: agent_app.run_outreach(event, outreach),
            window_seconds=1.0,
            queue_arn=f"arn:aws:sqs:eu-west-1:000000000000:{s.table_prefix}{OUTREACH.logical_name}",
            idle_seconds=IDLE_POLL_SECONDS,
        ).start()
        self._stops.insert(0, self.outreach_poller.stop)
        self.checks_poller = QueuePoller(
            sqs,
            checks.url,
            lambda event: payments_app.handle(event, self.payments),
            window_seconds=1.0,
            idle_seconds=IDLE_POLL_SECONDS,
        ).start()
        self._stops.insert(0, self.checks_poller.stop)
        # what this process sends wakes its queue's poller (S3's notifications of uploads do not: that one polls)
        wake_on_send(sqs, [self.poller, self.outreach_poller, self.checks_poller])
        return self

    def _picture(self, event: dict[str, Any]) -> dict[str, Any]:
        """GET /pictures/<tenant>/<file>: an item's picture, public as CloudFront serves it (what WhatsApp fetches)."""
        import base64

        path = str(event.get("rawPath") or "")
        pictures = self.services.pictures
        found = pictures.get(path.lstrip("/")) if pictures is not None and ".." not in path else None
        if event.get("requestContext", {}).get("http", {}).get("method") != "GET" or found is None:
            return {"statusCode": 404, "headers": {"content-type": "text/plain"}, "body": "no such picture"}
        data, content_type = found
        return {
            "statusCode": 200,
            "headers": {"content-type": content_type, "cache-control": "public, max-age=31536000, immutable"},
            "body": base64.b64encode(data).decode("ascii"),
            "isBase64Encoded": True,
        }

    def _resume(self, data: DataDirectory, restored: Restored, checks: PaymentCheckQueue) -> None:
        """The rest of a restart from the data directory: the staff users back in the new pool, a status
        check for every M-Pesa prompt left pending without one, then a snapshot of it all, and from
        now on every acknowledged write journaled (and a snapshot every minute and on stop)."""
        from tulia.local.auth import cognito
        from tulia.local.persistence import pool_users, prompts_without_check, recreate_users
        from tulia.store.queues import PAYMENT_CHECKS

        s = self.settings
        recreate_users(cognito(self.pool.endpoint, self.pool.region), self.pool.user_pool_id, restored.users)
        waiting = (restored.queues or {}).get(s.table_prefix + PAYMENT_CHECKS.logical_name, {}).values()
        for prompt in prompts_without_check(self.services.db.client, s.table_prefix, waiting):
            checks.schedule(
                tenant_id=prompt["tenant_id"],
                order_id=prompt["order_id"],
                payment_id=prompt["payment_id"],
                delay_seconds=0,
            )
            self.requeued += 1
        data.journal.users = lambda: pool_users(self.pool.region, self.pool.user_pool_id)
        data.save()
        data.journal.paused = False
        saving = threading.Event()
        data.keep_saving(saving)
        self._stops.insert(0, saving.set)
        self._stops.insert(1, data.save)  # the last snapshot, before the store stops

    def _sync_templates(self) -> None:
        from tulia.channel.graph_api import TemplateManager
        from tulia.channel.template_sync import sync_templates
        from tulia.errors import TuliaError
        from tulia.store.templates import TemplateRepo

        manager = TemplateManager(self.http, self.whatsapp_api_base)
        for pack in self.packs:
            tenant = pack.tenant
            whatsapp = tenant.whatsapp
            if whatsapp is None or not whatsapp.business_account_id:
                continue
            token = whatsapp.access_token or self.settings.whatsapp_access_token.get_secret_value()
            try:
                sync_templates(
                    TemplateRepo(self.services.db),
                    manager,
                    tenant.tenant_id,
                    whatsapp.business_account_id,
                    token,
                    self.services.clock(),
                )
            except TuliaError as exc:
                print(f"{tenant.tenant_id}: message templates not synchronised: {exc.message}")

    def _webhook(self, event: dict[str, Any]) -> dict[str, Any]:
        """The webhook function; and, as Meta saw each customer message before sending it to us, the
        Graph API simulator learns when each customer last wrote (its 24-hour window)."""
        import base64

        from tulia.channel.whatsapp import parse
        from tulia.pipeline import webhook_app

        answer = webhook_app.handle(event, self.webhook)
        if self.graph is not None and event.get("requestContext", {}).get("http", {}).get("method") == "POST":
            raw = event.get("body") or ""
            try:
                body = base64.b64decode(raw) if event.get("isBase64Encoded") else raw.encode()
                for message in parse(json.loads(body)).messages if answer.get("statusCode") == 200 else []:
                    sender = (message.phone_e164 or "").lstrip("+") or str(message.wa_user_id or "")
                    self.graph.note_inbound(message.phone_number_id, sender)  # Meta saw it now
            except (ValueError, TypeError, AttributeError, KeyError):
                pass  # not a webhook the product accepted: nothing for Meta to have seen
        return answer

    def _admin(self, event: dict[str, Any]) -> dict[str, Any]:
        """API Gateway's part for the admin routes: the JWT authorizer (the OpenAPI document and the
        Swagger page are public routes), then the admin function."""
        from tulia.admin import api as admin_api
        from tulia.local.auth import api_gateway_claims
        from tulia.pipeline import admin_app

        if event["rawPath"] not in (admin_api.OPENAPI_PATH, admin_api.SWAGGER_PATH):
            claims = self.verifier.claims(event["headers"].get("authorization"))
            if claims is None:
                return {
                    "statusCode": 401,
                    "headers": {"content-type": "application/json", "www-authenticate": "Bearer"},
                    "body": '{"message":"Unauthorized"}',
                }
            event["requestContext"]["authorizer"] = {"jwt": {"claims": api_gateway_claims(claims), "scopes": None}}
        return admin_app.handle(event, self.admin_api)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        for stop in self._stops:
            with contextlib.suppress(Exception):  # stopping is best effort
                stop()
        self._stops.clear()


def run_dev(packs: list[Pack], *, port: int, data_dir: Path | None = None, starts_at: datetime | None = None) -> int:
    from tulia.local.auth import DEMO_PASSWORDS, OPERATOR, demo_email

    if port_in_use(port):  # before anything starts: the running stack's files and store are left alone
        print(
            f"Port {port} is in use (another `tulia dev`?): start this one on another port "
            "(`tulia dev --port N`, or `make dev PORT=N`).",
            file=sys.stderr,
        )
        return 1
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stack = LocalStack(packs, port=port, data_dir=data_dir, starts_at=starts_at)
    try:
        stack.start()
        print(f"Embedded store (moto server: DynamoDB, SQS, S3, Cognito): {stack.store_url}")
        for name, sim in (("Graph API", stack.graph), ("Daraja", stack.daraja), ("PesaPal", stack.pesapal)):
            print(f"{name}: {sim.base_url} (simulator)" if sim else f"{name}: the URL of its TULIA_*_API_BASE setting")
        if data_dir is not None:
            print(
                f"Data directory: {data_dir} ({stack.restored} records restored, {stack.requeued} queued messages "
                "and checks resumed; every accepted write journaled, a snapshot every minute and on stop)"
            )
        for line in stack.seeded:
            print(f"seeded {line}")
        if starts_at is not None:
            print(f"Clock: the shops' time started at {starts_at.isoformat()} and runs on from there")
        print(f"Webhook: {stack.base_url}/webhooks/whatsapp (GET verification, POST signed messages)")
        print(f"Payment callbacks: {stack.settings.public_base_url}/payments/daraja/stk/<token>")
        print(f"Chat with the shops as a WhatsApp customer: {stack.base_url}/", flush=True)
        print(
            f"Admin API: {stack.base_url}/admin (OpenAPI {stack.base_url}/admin/openapi.json, try it at "
            f"{stack.base_url}/admin/docs); a token: tulia admin-token --tenant-id <shop> [--role owner|agent]"
        )
        if stack.console.built:
            print(f"Shop console: {stack.base_url}/console/ (sign in as a shop's owner or agent):")
        else:
            print(f"Shop console: {stack.base_url}/console/ is not built yet: run `make console`; its users:")
        for pack in stack.packs:
            shop = pack.tenant.tenant_id
            people = ", ".join(f"{role} {demo_email(shop, role)} / {pw}" for role, pw in DEMO_PASSWORDS.items())
            print(f"  {shop}: {people}")
        print(f"  the platform's operator (every shop): {OPERATOR[0]} / {OPERATOR[1]}")
        print(f"Tulia is running on {stack.base_url}. Press Ctrl-C to stop.", flush=True)
        # Wake up regularly: a Ctrl-C delivered to another thread only runs its handler when the
        # main thread next executes Python code; a bare wait() could sleep through it.
        while not stop.wait(0.5):
            pass
    finally:
        # stop in the background with a deadline: Ctrl-C must always end the stack promptly
        stopper = threading.Thread(target=stack.stop, name="stack-stop", daemon=True)
        stopper.start()
        stopper.join(timeout=STOP_DEADLINE_SECONDS)
        if stopper.is_alive():
            print(f"some parts did not stop within {STOP_DEADLINE_SECONDS:.0f} s; exiting anyway")
        print("stopped.", flush=True)
    return 0
