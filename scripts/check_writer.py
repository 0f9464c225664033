"""Check a writer's file (eval/corpus/writers/): labels, languages, slots and acts; prints the counts per section, or
the first problems, so that a helper session writing templates can check its file without reading the project:

    .venv/bin/python scripts/check_writer.py eval/corpus/writers/<name>.yaml
"""

import re
import sys
from pathlib import Path

import yaml

from tulia.nlu.corpus import CORPUS_LANGUAGES
from tulia.nlu.reader import LABELS
from tulia.nlu.tagger import ITEM_ACTS as ACTS
from tulia.nlu.tagger_corpus import KIND_OF_SLOT

LANGS = set(CORPUS_LANGUAGES)
# the reader's corpus fills these slots (tulia.nlu.corpus.slot_values); the tagger's edits also the rest
READER_SLOTS = {"item", "item2", "item3", "service", "n", "nw", "area", "ref", "code", "mpesa", "day", "time"}
READER_SLOTS |= {"person", "price"}
EDIT_SLOTS = set(KIND_OF_SLOT)
ITEM_ACTS = set(ACTS) - {"add"}
SLOT = re.compile(r"\{([^{}]*)\}")


def check(text, slots, where, problems):
    if not isinstance(text, str):
        problems.append(f"{where}: {text!r} is not text (quote it)")
        return
    for m in SLOT.finditer(text):
        name, _, act = m.group(1).partition(":")
        if name not in slots:
            problems.append(f"{where}: unknown slot {{{m.group(1)}}} in {text!r}")
        elif act and not ((name.startswith("item") and act in ITEM_ACTS) or (name.startswith("area") and act == "old")):
            problems.append(f"{where}: unknown act {{{m.group(1)}}} in {text!r}")
    if text.count("{") != text.count("}"):
        problems.append(f"{where}: unbalanced braces in {text!r}")


data = yaml.safe_load(Path(sys.argv[1]).read_text(encoding="utf-8"))
problems, counts = [], {}
if set(data) - {"templates", "edits", "at_checkout"}:
    problems.append(f"top-level keys must be templates, edits, at_checkout, not {sorted(set(data))}")
for label, by_lang in (data.get("templates") or {}).items():
    if label not in LABELS:
        problems.append(f"unknown label {label!r}")
        continue
    for lang, lines in by_lang.items():
        if lang not in LANGS:
            problems.append(f"{label}: unknown language {lang!r}")
            continue
        for t in lines:
            check(t, READER_SLOTS, f"templates/{label}/{lang}", problems)
        counts[(label, lang)] = len(lines)
for lang, lines in (data.get("edits") or {}).items():
    if lang not in LANGS:
        problems.append(f"edits: unknown language {lang!r}")
        continue
    for t in lines:
        check(t, EDIT_SLOTS, f"edits/{lang}", problems)
    counts[("edits", lang)] = len(lines)
for p in problems[:30]:
    print("PROBLEM", p)
for k, v in sorted(counts.items()):
    print(*k, v)
print("total", sum(counts.values()), "problems", len(problems))
