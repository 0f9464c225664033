"""Broadcast throughput: the outreach worker's sending loop against the Graph API simulator.

moto in process (DynamoDB, SQS), the demo shop seeded, N customers opted in to offers, the shop's
templates synchronised from the simulator. One broadcast of the ``weekly_offer`` template; the worker
sends it batch by batch (each batch is the shop's per-minute rate; in production the next batch comes a
minute later, an SQS delay, which this script skips to time the sending itself). Reported: messages
per second inside a batch, the batches the shop's rate makes, and DynamoDB calls per recipient
(claim, consent re-read, template list, settle).

    .venv/bin/python bench/outreach.py [recipients]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import boto3
import httpx

from bench.common import PACKS, bench_services
from tulia.channel.graph_api import TemplateManager, WhatsAppSender
from tulia.channel.outbound import Outbound
from tulia.channel.template_sync import sync_templates
from tulia.domain.broadcast import Broadcast, Segment
from tulia.local.simulators.graph import GraphSimulator
from tulia.observability import logger
from tulia.packs.loader import load_pack
from tulia.packs.seed import seed_pack
from tulia.pipeline.outreach import OutreachService, segment_members
from tulia.store.broadcasts import BroadcastRepo
from tulia.store.messages import MessageRepo
from tulia.store.queues import OUTREACH, OutreachQueue, create_queues
from tulia.store.templates import TemplateRepo
from tulia.tools.context import ToolContext
from tulia.tools.registry import call_tool

SHOP, TOKEN = "demo-shop", "bench-token"


def opted_in_customer(s: Any, n: int) -> None:
    """A customer who asked for offers, made through the tools as a conversation would."""
    ctx = ToolContext(tenant_id=SHOP, request_id=f"b{n}", conversation_id="bench", services=s)
    scope = {"tenant_id": SHOP, "conversation_id": "bench"}
    made = call_tool(
        "customer_get_or_create",
        {**scope, "request_id": f"b{n}", "phone_e164": f"+2547{n:08d}", "display_name": f"Customer {n}"},
        ctx,
    )
    updates = {"marketing_opt_in": True, "offers_whatsapp": True}
    args = {**scope, "request_id": f"p{n}", "customer_id": made["data"]["customer_id"], "updates": updates}
    call_tool("customer_update_preferences", {**args, "consent_source": "import"}, ctx)


def main() -> None:
    logger.setLevel("ERROR")
    recipients = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    graph = GraphSimulator()
    with bench_services() as b, graph, httpx.Client(timeout=10) as http:
        s = b.services
        seed_pack(s, load_pack(PACKS / SHOP))
        tenant = s.tenants.get(SHOP)
        s.clock.now = s.clock.now.replace(hour=9)  # noon in Nairobi: marketing hours
        waba = str(tenant.whatsapp.business_account_id)
        sync_templates(TemplateRepo(s.db), TemplateManager(http, graph.base_url), SHOP, waba, TOKEN, s.clock())
        for n in range(recipients):
            opted_in_customer(s, n)
        sqs = boto3.client("sqs", region_name="eu-west-1")
        queue = OutreachQueue(sqs, create_queues(sqs, "bench-")[OUTREACH.logical_name])
        repo = BroadcastRepo(s.db)
        worker = OutreachService(
            services=s,
            broadcasts=repo,
            outbound=Outbound(MessageRepo(s.db), TemplateRepo(s.db), s.clock),
            sender=WhatsAppSender(http, graph.base_url),
            default_token=TOKEN,
            queue=queue,
            clock=s.clock,
        )
        b.counter.reset()
        started = time.perf_counter()
        members = segment_members(s, tenant, Segment())
        segment_seconds = time.perf_counter() - started
        segment_calls = b.counter.total
        broadcast = Broadcast(
            tenant_id=SHOP,
            broadcast_id="bc_bench",
            template="weekly_offer",
            parameters=["{name}", tenant.name, "20% off all chargers"],
            created_by="bench",
            created_at=s.clock(),
            recipients=len(members),
        )
        repo.create(broadcast, [c.customer_id for c in members])
        b.counter.reset()
        batches, sending = 0, 0.0
        body = {"kind": "broadcast", "tenant_id": SHOP, "broadcast_id": "bc_bench"}
        while True:
            started = time.perf_counter()
            outcome = worker.broadcast_batch(body)
            sending += time.perf_counter() - started
            batches += 1
            if outcome != "batch sent":
                break
            got = sqs.receive_message(QueueUrl=queue.url, MaxNumberOfMessages=1, WaitTimeSeconds=0).get("Messages")
            if not got:  # the next batch waits a minute in SQS: take it now
                from moto.core import DEFAULT_ACCOUNT_ID
                from moto.sqs.models import sqs_backends

                for m in (
                    sqs_backends[DEFAULT_ACCOUNT_ID]["eu-west-1"].queues[f"bench-{OUTREACH.logical_name}"]._messages
                ):
                    m.delayed_until = 0
                got = sqs.receive_message(QueueUrl=queue.url, MaxNumberOfMessages=1, WaitTimeSeconds=0)["Messages"]
            body = json.loads(got[0]["Body"])
            sqs.delete_message(QueueUrl=queue.url, ReceiptHandle=got[0]["ReceiptHandle"])
        sent = len([m for m in graph.sent if m.payload.get("type") == "template"])
        calls = b.counter.total
        rate = tenant.messaging.broadcast_per_minute
        print("## Broadcast throughput (outreach worker -> Graph API simulator, moto in process)\n")
        print(f"- {recipients} customers opted in to offers; segment read in {segment_seconds:.2f} s "
              f"({segment_calls} DynamoDB calls, {segment_calls / recipients:.2f} per customer)")  # fmt: skip
        print(f"- sent {sent} template messages in {batches} batches of the shop's rate ({rate} a minute): "
              f"{sent / sending:.0f} messages/s while a batch is sent ({sending:.2f} s of sending in all)")  # fmt: skip
        print(f"- at the configured rate the broadcast takes {max(0, batches - 1)} minutes plus the sending: "
              f"{rate / 60:.1f} messages/s per shop on average")  # fmt: skip
        other = sending - b.counter.seconds
        print(f"- of the sending time, {b.counter.seconds:.2f} s were inside DynamoDB calls (moto in process, whose "
              f"transactions copy the tables: slower as they grow) and {other:.2f} s the rest (the Graph API over "
              f"HTTP, the worker): {sent / other:.0f} messages/s without the store")  # fmt: skip
        print(f"- DynamoDB calls per recipient while sending: {calls / max(1, sent):.2f} "
              f"({', '.join(f'{k} {v}' for k, v in sorted(b.counter.calls.items()))})")  # fmt: skip


if __name__ == "__main__":
    main()
