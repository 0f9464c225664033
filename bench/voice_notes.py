"""Time from a voice note to its reply in the local stack (issue 35's benchmark), against the same words typed.

The whole local stack runs in this process as `make dev` runs it (moto server, the HTTP routes, the agent poller,
the Graph simulator, the `rules` engine, the default 2 s quiet time for quick messages). A customer sends each demo
voice note from the chat page's API (`POST /dev/send`, type audio: the OGG/Opus file uploaded to the Graph
simulator, the webhook signed), and another customer types the same words; each waits for the first reply at the
Graph simulator. The voice note's path adds: the agent fetching the file from the Graph API, keeping it in S3,
the stand-in transcriber (a file read and the transcript written back to S3), the EventBridge-shaped completion
queueing the transcript as a turn, and that turn. (In AWS, Transcribe's own time is added: typically 5-20 s for a
short note; the customer hears "listening…" after 4 s.)

    .venv/bin/python -m bench.voice_notes [ROUNDS]   (ROUNDS defaults to 3)
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

import httpx

from bench.common import PACKS
from tulia.config import Settings
from tulia.local.stack import LocalStack, free_port
from tulia.local.voice import demo_voice_notes
from tulia.observability import logger
from tulia.packs.loader import load_pack

SHOPS = {"en-US": "demo-shop", "sw-KE": "demo-grocer"}


def until_answered(stack: LocalStack, wa_id: str, before: int, started: float, timeout: float = 60) -> float:
    """Seconds from ``started`` (the send) to the first reply the Graph simulator received."""
    assert stack.graph is not None
    while time.perf_counter() - started < timeout:
        if len(stack.graph.messages_to(wa_id)) > before:
            return time.perf_counter() - started
        time.sleep(0.02)
    raise SystemExit(f"no reply to {wa_id} within {timeout} s")


def main(rounds: int = 3) -> None:
    logger.setLevel("ERROR")
    stack = LocalStack(
        [load_pack(PACKS / s) for s in sorted(set(SHOPS.values()))], port=free_port(), settings=Settings()
    )
    stack.start()
    assert stack.graph is not None
    spoken: list[float] = []
    typed: list[float] = []
    notes = [n for n in demo_voice_notes() if n.transcript]
    pairs: list[tuple[str, str]] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{stack.port}", timeout=30) as http:
            for r in range(rounds):
                for k, note in enumerate(notes):
                    shop = SHOPS[note.language_code]
                    pairs.append((f"2547330{r:02d}{k:02d}0", f"2547330{r:02d}{k:02d}1"))
                    for kind, out in (("audio", spoken), ("text", typed)):
                        wa_id = f"2547330{r:02d}{k:02d}{0 if kind == 'audio' else 1}"
                        before = len(stack.graph.messages_to(wa_id))
                        body = {"tenant_id": shop, "phone": f"+{wa_id}", "type": kind}
                        body |= {"demo": note.name} if kind == "audio" else {"text": note.transcript}
                        started = time.perf_counter()
                        assert http.post("/dev/send", json=body).status_code == 200
                        out.append(until_answered(stack, wa_id, before, started))
        time.sleep(3)  # anything more either customer is sent arrives by now
        shown = [
            [{k: v for k, v in m.payload.items() if k not in ("to", "recipient")} for m in stack.graph.messages_to(w)]
            for pair in pairs
            for w in pair
        ]
        same = sum(shown[2 * i] == shown[2 * i + 1] for i in range(len(pairs)))
    finally:
        stack.stop()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; rules engine; quiet time 2 s (make dev's)")
    print(f"voice notes: {len(spoken)} ({len(notes)} demo notes x {rounds} rounds)")
    print(f"answered exactly as the typed words (every message the phone got): {same}/{len(pairs)}")
    print(
        f"voice note -> first reply: median {statistics.median(spoken):.2f} s, worst {max(spoken):.2f} s; "
        f"the same words typed: median {statistics.median(typed):.2f} s, worst {max(typed):.2f} s"
    )
    print(f"added by the voice path (medians): {statistics.median(spoken) - statistics.median(typed):+.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
