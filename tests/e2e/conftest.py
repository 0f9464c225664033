"""What the browser tests share: Debian's chromium driven by Playwright's client (`make test` installs it), and
one `tulia dev` with its built-in simulators for the modules that need nothing else of it (the chat page and
the console: each customer of theirs has a phone of its own range, so they meet nothing of each other's)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from tulia.local.stack import free_port


@dataclass(frozen=True)
class DevStack:
    url: str
    log: Path


@pytest.fixture(scope="session")
def dev_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevStack]:
    """`tulia dev` as `make dev` runs it (its own simulators, no TULIA_* of the caller), a 2 s M-Pesa check."""
    port = free_port()
    log = tmp_path_factory.mktemp("dev") / "dev.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TULIA_")}
    env |= {"TULIA_STK_QUERY_DELAY_SECONDS": "2", "TULIA_LOG_LEVEL": "WARNING"}
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tulia.cli", "dev", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            deadline = time.monotonic() + 120
            while "Press Ctrl-C" not in log.read_text():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("tulia dev did not start: " + log.read_text()[-3000:])
                time.sleep(0.1)
            yield DevStack(f"http://127.0.0.1:{port}", log)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    text = log.read_text()
    assert "Traceback" not in text, text[text.find("Traceback") - 300 :][:3000]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    chromium = os.environ.get("TULIA_CHROMIUM", "/usr/bin/chromium")
    if not Path(chromium).exists():
        if "TULIA_CHROMIUM" in os.environ:  # `make test` installs it: missing there is a failure
            pytest.fail(f"no browser at {chromium}: `make browser` installs Debian's chromium")
        pytest.skip(f"no browser at {chromium} (run `make test`, which installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()
