"""Write a conversation checkpoint of this release to tests/fixtures/checkpoints/, for the test that
later releases still read it and continue the conversation (tests/integration/test_checkpoint_releases.py).

Run it when a release changes what the graph keeps (commit the new file beside the old ones):

    .venv/bin/python scripts/make_checkpoint_fixture.py <name>
"""

from __future__ import annotations

import base64
import json
import logging
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHONE = "+254712345678"  # the conversation tests' customer
MESSAGES = ["I want an oraimo 20000mAh power bank", "black"]  # mid-sale: the quantity is asked next


def main() -> None:
    logging.disable(logging.INFO)
    from tulia.channel.whatsapp import customer_key
    from tulia.config import Settings
    from tulia.evaluation import eval_services
    from tulia.graph.conversation import Conversations, dynamodb_checkpointer
    from tulia.graph.nodes import conversation_id_for
    from tulia.nlu.rules import RulesEngine
    from tulia.packs.loader import load_pack

    name = sys.argv[1]
    for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ.setdefault(key, "fixture")
    with eval_services(Settings(), [load_pack(ROOT / "packs" / "demo-shop")]) as services:
        # the saver production uses (DynamoDB, here the private store's), and its serializer
        store = services.db.client.meta.endpoint_url
        saver = dynamodb_checkpointer("eval-checkpoints", region_name="eu-west-1", endpoint_url=store)
        runner = Conversations(services, RulesEngine(), saver)
        replies = []
        for n, text in enumerate(MESSAGES):
            out = runner.handle(
                tenant_id="demo-shop", phone_e164=PHONE, inbound={"type": "text", "text": text, "message_id": f"w{n}"}
            )
            replies.append("\n".join(m.plain_text() for m in out.replies))
        thread = conversation_id_for("demo-shop", customer_key(PHONE, None))
        saved = saver.get_tuple({"configurable": {"thread_id": thread, "checkpoint_ns": ""}})
        kind, data = saver.serde.dumps_typed(saved.checkpoint)
        fixture = {
            "written_by": name,
            "tenant_id": "demo-shop",
            "phone": PHONE,
            "messages": MESSAGES,
            "replies": replies,
            "checkpoint": {"type": kind, "data": base64.b64encode(data).decode()},
            "metadata": saved.metadata,
        }
        path = ROOT / "tests" / "fixtures" / "checkpoints" / f"{name}.json"
        path.write_text(json.dumps(fixture, indent=1, default=str) + "\n")
        print(f"wrote {path.relative_to(ROOT)} ({len(data):,} bytes of checkpoint)")


if __name__ == "__main__":
    main()
