"""``tulia chat``: talk to a shop's bot in the terminal, whole and in process.

Moto (in process) holds the tables, the Daraja and PesaPal simulators answer the payment tools, the
packs are seeded, and each line read from standard input is one WhatsApp text message from the
customer. Replies are printed as the customer would read them (numbered fallbacks for lists and
buttons). ``--markdown`` prints the transcript as a Markdown block quote (the README's sample is
made this way).
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tulia.packs.loader import Pack


def run_chat(
    packs: list[Pack],
    lines: Iterable[str],
    *,
    tenant_id: str | None = None,
    phone: str = "+254712345678",
    out: TextIO = sys.stdout,
    markdown: bool = False,
    interactive: bool = False,
) -> int:
    for name, value in (("AWS_ACCESS_KEY_ID", "local"), ("AWS_SECRET_ACCESS_KEY", "local")):
        os.environ.setdefault(name, value)
    import boto3
    import httpx
    from moto import mock_aws

    from tulia.config import get_settings
    from tulia.graph.conversation import Conversations, dynamodb_checkpointer
    from tulia.local.simulators.daraja import DarajaSimulator
    from tulia.local.simulators.pesapal import PesapalSimulator
    from tulia.nlu.engine import build_engine
    from tulia.observability import logger
    from tulia.packs.seed import seed_pack
    from tulia.services import build_services
    from tulia.store.tables import create_tables

    logger.setLevel("WARNING")  # the transcript, not the tool-call log lines
    settings = get_settings().model_copy(update={"table_prefix": "chat-", "aws_endpoint_url": None})
    tenant_id = tenant_id or packs[0].tenant.tenant_id
    if tenant_id not in {p.tenant.tenant_id for p in packs}:
        print(f"No pack has tenant_id '{tenant_id}'.", file=sys.stderr)
        return 1
    passkeys = {
        p.tenant.payments.mpesa_stk.shortcode: p.tenant.payments.mpesa_stk.passkey
        for p in packs
        if p.tenant.payments.mpesa_stk
    }
    with (
        mock_aws(),
        DarajaSimulator(passkeys=passkeys) as daraja,
        PesapalSimulator() as pesapal,
        httpx.Client(timeout=5) as http,
    ):
        client = boto3.client("dynamodb", region_name=settings.aws_region)
        create_tables(client, settings.table_prefix)
        services = build_services(
            settings, dynamodb=client, http=http, mpesa_api_base=daraja.base_url, pesapal_api_base=pesapal.base_url
        )
        for pack in packs:
            seed_pack(services, pack)
        conversations = Conversations(
            services,
            build_engine(settings.llm, settings),
            dynamodb_checkpointer(settings.table_name("checkpoints"), region_name=settings.aws_region),
        )
        ids = itertools.count(1)
        if interactive:
            print(f"Chatting with {tenant_id} as {phone}. One line is one message; Ctrl-D ends.", file=out)
        for line in lines:
            body = line.rstrip("\n")
            result = conversations.handle(
                tenant_id=tenant_id,
                phone_e164=phone,
                inbound={"type": "text", "text": body, "message_id": f"wamid.chat{next(ids)}"},
            )
            replies = [m.plain_text() for m in result.replies]
            if markdown:
                print(f"> **Customer:** {body}", file=out)
                print(">", file=out)
                for reply in replies:
                    quoted = "\n".join(f"> {row}" if row else ">" for row in reply.splitlines())
                    print(quoted.replace("> ", "> **Bot:** ", 1), file=out)
                    print(">", file=out)
            else:
                if not interactive:
                    print(f"customer> {body}", file=out)
                for reply in replies:
                    print("bot> " + reply.replace("\n", "\n     "), file=out)
                print(file=out)
            out.flush()
    return 0
