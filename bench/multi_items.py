"""Several items in one message: the share of the multi-item bench set (``eval/multi/messages.txt``)
whose basket is built right, with the default (rules) engine.

Method: each message is the first message of a new conversation with its shop (the demo packs and the
evaluation packs seeded into a private moto store, the real graph with an in-memory checkpointer).
When the bot asks which of several items is meant (a shortlist), the row of the expected item is tapped
(a miss if it is not offered); no other answer is given. The basket is then the order frame's lines:
right when every expected item is a line with the expected count (``*?``: no count yet, asked next)
and the options said, no other line, every item the shop does not sell (``!words``) said so, and
every item sold out (``~SKU``) said so.

    .venv/bin/python bench/multi_items.py [--misses]
"""

from __future__ import annotations

import itertools
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "eval" / "multi" / "messages.txt"
UNSOLD_SAID = ("don't sell", "hatuuzi")
SOLD_OUT_SAID = ("out of stock", "imeisha")


@dataclass
class Expected:
    pack: str
    lang: str
    lines: dict[str, tuple[int | None, set[str]]]
    unsold: list[str]
    sold_out: list[str]
    text: str


def load() -> list[Expected]:
    out = []
    for raw in SET.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        pack, lang, basket, text = raw.split("|", 3)
        lines: dict[str, tuple[int | None, set[str]]] = {}
        unsold, sold_out = [], []
        for entry in basket.split(";"):
            if entry.startswith("!"):
                unsold.append(entry[1:])
                continue
            if entry.startswith("~"):
                sold_out.append(entry[1:])
                continue
            sku, _, rest = entry.partition("*")
            count, _, options = rest.partition("[")
            lines[sku] = (None if count == "?" else int(count), set(filter(None, options.rstrip("]").split("/"))))
        out.append(Expected(pack, lang, lines, unsold, sold_out, text))
    return out


def main() -> None:
    import logging

    logging.disable(logging.INFO)  # the tools' call log
    from langgraph.checkpoint.memory import InMemorySaver

    from tulia.config import Settings
    from tulia.evaluation import eval_services
    from tulia.graph.conversation import Conversations, checkpoint_serde
    from tulia.nlu.rules import RulesEngine
    from tulia.packs.loader import load_pack

    show_misses = "--misses" in sys.argv
    dirs = [*sorted((ROOT / "packs").iterdir()), *sorted((ROOT / "eval" / "packs").iterdir())]
    packs = [load_pack(d) for d in dirs if (d / "tenant.yaml").exists()]
    expected = load()
    right: dict[str, list[bool]] = defaultdict(list)
    taps = 0
    ids = itertools.count(1)
    with eval_services(Settings(), packs) as services:
        runner = Conversations(services, RulesEngine(), InMemorySaver(serde=checkpoint_serde()))
        for number, case in enumerate(expected, 1):
            phone = f"+2547{number:08d}"

            def send(
                body: str = "", reply_id: str | None = None, *, case: Expected = case, phone: str = phone
            ) -> object:
                inbound = {
                    "type": "interactive" if reply_id else "text",
                    "text": body,
                    "message_id": f"wamid.m{next(ids)}",
                }
                if reply_id:
                    inbound["reply_id"] = reply_id
                return runner.handle(tenant_id=case.pack, phone_e164=phone, inbound=inbound)

            out = send(case.text)
            said = "\n".join(m.plain_text() for m in out.replies)
            ok = True
            for _ in range(4):  # a shortlist asked: tap the expected item's row
                state = out.state
                if state.get("pending") != "item_selection":
                    break
                offered = [o["id"] for o in state.get("pending_options") or []]
                wanted = [f"item:{sku}" for sku in case.lines if f"item:{sku}" in offered]
                if not wanted:
                    ok = False
                    break
                taps += 1
                out = send(reply_id=wanted[0])
                said += "\n" + "\n".join(m.plain_text() for m in out.replies)
            frame = out.state.get("frame")
            lines = {ln.item_id: ln for ln in (frame.lines if frame is not None else [])}
            if set(lines) != set(case.lines):
                ok = False
            for sku, (count, options) in case.lines.items():
                line = lines.get(sku)
                if line is None:
                    continue
                if count is not None and line.quantity != count:
                    ok = False
                if count is None and line.quantity not in (None, 1) and not line.fixed_quantity:
                    ok = False
                if not options <= set(line.variant_selection.values()):
                    ok = False
            if case.unsold and not any(s in said for s in UNSOLD_SAID):
                ok = False
            if case.sold_out and not any(s in said for s in SOLD_OUT_SAID):
                ok = False
            right[case.lang].append(ok)
            right["all"].append(ok)
            if show_misses and not ok:
                got = {k: (v.quantity, v.variant_selection) for k, v in lines.items()}
                print(f"MISS {case.pack} {case.text!r}\n  got {got}\n  said {said[:400]!r}\n")
    print(f"### several items in one message ({len(expected)} messages, {SET.relative_to(ROOT)})\n")
    print("| set | messages | basket built right |\n|---|---|---|")
    for key in ("all", "en", "sw", "sheng"):
        values = right[key]
        print(f"| {key} | {len(values)} | {100 * sum(values) / len(values):.0f}% |")
    print(f"\nshortlist taps needed: {taps}")


if __name__ == "__main__":
    main()
