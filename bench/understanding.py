"""Understanding measured on labelled phrase sets (eval/phrases/): intent, slots and search, per pack
and per language, on the held-out set and on the tuning set (so that over-fitting shows), and the
multi-turn conversations of eval/conversations.yaml. The rules engine; ``tulia eval`` runs the same
code against whichever engine the settings name (a live model included).

Method, for each labelled message, as a first message of a conversation (nothing pending):
- intent: the fast path first (STOP, START, a person, a language: what the graph does before any
  engine), else the engine's intent; opt-out/opt-in/language count as ``preferences_consent`` and a
  request for a person as ``human_request``.
- slots: the order frame's extractors (quantity, zone, mode, method, coupon, order reference) over the
  shop's zones and methods (with a model, its reading merged as the sales journey merges it), and the
  engine's budget slots. A message is right when every labelled slot is read with its value and none
  of quantity, coupon_code, order_ref, budget_min, budget_max is read where none was said (zone, mode
  and method are checked only where labelled).
- search (messages with acceptable item ids): the query the sales journey would search with and its
  budget filters, through the ``catalog_search`` tool (limit 6); success at 1 when the first result is
  acceptable, at 6 when any of the six is. Stock is not filtered: finding the item asked for is the
  search's job, and saying it is out of stock (with what is in stock) the journey's.
Misses are listed for the tuning set and the conversations only: the held-out set is never used to
tune the rules.

    .venv/bin/python bench/understanding.py [heldout|tuning|all]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(which: str = "all") -> None:
    from tulia.config import Settings
    from tulia.evaluation import SETS, run_eval
    from tulia.packs.loader import load_pack

    dirs = [*sorted((ROOT / "packs").iterdir()), *sorted((ROOT / "eval" / "packs").iterdir())]
    packs = [load_pack(d) for d in dirs if (d / "tenant.yaml").exists()]
    sets = SETS if which == "all" else (which,)
    run_eval(Settings(llm="rules"), packs, ROOT / "eval", sets=sets, out=sys.stdout)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(args[0] if args else "all")
