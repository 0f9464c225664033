"""CDK assertion tests: the app is synthesised in process, offline (no AWS, no Docker)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _silence_node_end_of_life() -> None:
    """jsii warns loudly on every start when this machine's Node.js is past its end of life."""
    node = shutil.which("node")
    if node is None:
        return
    major = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip().lstrip("v").split(".")[0]
    for kind in ("END_OF_LIFE", "DEPRECATED"):
        os.environ.setdefault(f"JSII_SILENCE_WARNING_{kind}_NODE_VERSION", major)


_silence_node_end_of_life()


def synth_stack(**context: Any) -> Any:
    """The app's stack for this context, built offline (assets are not bundled; cdk-nag runs)."""
    import aws_cdk as cdk
    from infra.app import build

    return build(cdk.App(context={"aws:cdk:bundling-stacks": [], **context}))


def synth(**context: Any) -> Any:
    """The app's stack for this context, as aws_cdk.assertions sees it."""
    from aws_cdk.assertions import Template

    return Template.from_stack(synth_stack(**context))


@pytest.fixture(scope="session")
def dev() -> Any:
    return synth(stage="dev")


@pytest.fixture(scope="session")
def prod() -> Any:
    return synth(stage="prod")
