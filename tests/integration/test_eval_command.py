"""``tulia eval`` (issue 18, item 7): the labelled phrase sets and conversations against the configured
engine, with accuracy, model calls per turn and cost. No live model here: the rules engine, and the
``bedrock`` engine on a scripted chat model whose hand-written answers make the figures predictable;
and, with ``TULIA_LLM=bedrock`` and no AWS credentials, a clear message and nothing run."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PACKS, scripted_llm_engine
from tests.model_answers import reading
from tulia.config import Settings
from tulia.evaluation import FAST_INTENT, load_conversations, run_eval
from tulia.llm.scripted import ScriptedChatModel
from tulia.nlu.fastpath import fast_path
from tulia.nlu.labelled_sets import EvalSetInvalid, load_phrases
from tulia.packs.loader import load_pack

EVAL = PACKS.parent / "eval"
ALL_PACKS = [load_pack(d) for d in sorted(PACKS.iterdir()) if (d / "tenant.yaml").exists()]


def test_without_aws_credentials_a_bedrock_eval_says_what_is_missing_and_runs_nothing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(
        TULIA_LLM="bedrock",
        AWS_CONFIG_FILE=str(tmp_path / "none"),
        AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "none"),
        AWS_EC2_METADATA_DISABLED="true",
    )
    done = subprocess.run(
        [sys.executable, "-m", "tulia.cli", "eval", "--eval-dir", str(EVAL)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "no AWS credentials were found" in done.stderr
    assert "AWS_PROFILE" in done.stderr
    assert "eu.amazon.nova-micro-v1:0" in done.stderr  # the model it would have measured
    assert done.stdout == ""


def test_the_rules_engine_is_measured_on_the_sets_and_conversations_with_no_model_calls() -> None:
    out = io.StringIO()
    result = run_eval(Settings(llm="rules"), ALL_PACKS, EVAL, sets=("issue18",), limit=25, out=out)
    report = out.getvalue()
    assert "### phrase set issue18 (25 messages)" in report
    assert len(result.phrase_tallies["issue18"]) >= 1
    first_conversations = load_conversations(EVAL / "conversations.yaml")[:25]
    assert result.conversations == len(first_conversations)
    assert result.turns == sum(len(c.turns) for c in first_conversations)
    assert result.conversations_passed == result.conversations  # the rules engine passes every one
    assert "model calls per turn 0.00 (0 failed)" in report
    assert result.phrase_model.calls == 0


def test_a_model_engine_is_measured_by_its_answers_with_calls_and_cost_counted() -> None:
    # a model that reads every message as an order-status question: the figures must say so
    model = ScriptedChatModel(responder=lambda node, message: reading("order_status", 0.95))
    phrases = load_phrases(EVAL / "phrases" / "issue18.txt")[:30]
    out = io.StringIO()
    result = run_eval(
        Settings(llm="bedrock"),
        ALL_PACKS,
        EVAL,
        sets=("issue18",),
        limit=30,
        engine=scripted_llm_engine(model),
        out=out,
    )
    tallies = result.phrase_tallies["issue18"]
    right = sum(sum(t.intent) for t in tallies.values())
    decided = {}  # STOP, a person, a language: answered before any engine
    for p in phrases:
        hit = fast_path(p.text, awaiting_answer=False)
        decided[p.text] = FAST_INTENT.get(hit.kind) if hit is not None else None
    expected = sum(1 for p in phrases if (decided[p.text] or "order_status") == p.intent)
    assert right == expected
    assert result.phrase_model.calls == sum(1 for p in phrases if decided[p.text] is None)  # one call a message
    assert result.phrase_model.cost_usd > 0  # priced from the (estimated) tokens of each call
    assert result.phrase_model.turns == len(phrases)
    assert result.conversation_model.calls > 0


def test_a_broken_conversations_file_is_named_with_the_place(tmp_path: Path) -> None:
    broken = tmp_path / "conversations.yaml"
    broken.write_text("- name: x\n  pack: demo-shop\n  turns:\n    - say: hi\n      expect: [KES 29,000]\n")
    with pytest.raises(EvalSetInvalid, match=r"conversation 1: turns\.0\.expect\.1: Input should be a valid string"):
        load_conversations(broken)
