"""What the browser tests share: Debian's chromium driven by Playwright's client (`make test` installs it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


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
