"""The shop's console: how much a browser downloads, and how soon the inbox is usable.

1. Size: every JavaScript and CSS file of console/dist (``make console``) gzipped (level 9, as a CDN
   would send it), in total, JavaScript alone (what issue 33's bar counts), and for the first load
   (index.html's own script and stylesheet and the
   chunks they import statically); the owner's other screens are fetched when first opened.
2. Time to the inbox being usable in headless Chromium (Debian's, driven by Playwright), against the
   local stack started in this process with the demo packs and one customer waiting for a person, unthrottled
   and on DevTools' "Fast 3G" profile (emulated through the DevTools protocol):
   - sign-in page: a new browser profile (cold cache) opens /console/ until the sign-in form is on the
     screen;
   - sign-in to inbox (the issue's figure): once the page has settled (no request for 500 ms, as when a
     person has typed her email and password), from the click on "Sign in" until the waiting customer's
     card is on the screen;
   - return visit: a signed-in owner (tokens kept, cold HTTP cache) opens /console/inbox until the
     card is on the screen.
   The local stack gzips the console's text files as CloudFront does in AWS (its distribution compresses).
   Each is run ``runs`` times; median and worst are reported.

    .venv/bin/python bench/console.py [runs]
"""

from __future__ import annotations

import gzip
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench.common import PACKS
from tulia.local.console import DEFAULT_DIST
from tulia.local.stack import LocalStack, free_port
from tulia.observability import logger
from tulia.packs.loader import load_pack

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip
OWNER = ("owner@demo-shop.local", "Tulia-owner-2026!")


def sizes(dist: Path) -> tuple[dict[str, int], set[str]]:
    """Gzipped bytes of every JS/CSS file, and the files of the first load."""
    gz = {
        str(p.relative_to(dist)): len(gzip.compress(p.read_bytes(), compresslevel=9))
        for p in sorted(dist.rglob("*"))
        if p.suffix in (".js", ".css")
    }
    first: set[str] = set()
    todo = re.findall(r'(?:src|href)="/console/([^"]+\.(?:js|css))"', (dist / "index.html").read_text())
    while todo:
        name = todo.pop()
        if name in first:
            continue
        first.add(name)
        if name.endswith(".js"):  # static imports only (import("...") are the screens fetched later)
            text = (dist / name).read_text()
            todo += [f"assets/{m}" for m in re.findall(r'(?:^|[;}\s])import[^"()]*?"\./([^"]+\.js)"', text)]
    return gz, first


# Chromium DevTools' "Fast 3G" preset (its network presets): 562.5 ms round trip, 1.44 Mbit/s down, 675 kbit/s up
FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 1.6e6 / 8 * 0.9,
    "uploadThroughput": 750e3 / 8 * 0.9,
}
PROFILES: tuple[tuple[str, dict[str, Any] | None], ...] = (("unthrottled", None), ("Fast 3G", FAST_3G))


def throttled(page: Any, network: dict[str, Any] | None) -> Any:
    """The page on the network profile given (through the DevTools protocol; None: as fast as the machine)."""
    if network is not None:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
    return page


def main(runs: int) -> None:
    if not (DEFAULT_DIST / "index.html").is_file():
        raise SystemExit("console/dist is missing: run `make console` first")
    gz, first = sizes(DEFAULT_DIST)
    total = sum(gz.values())
    script = sum(size for name, size in gz.items() if name.endswith(".js"))
    print(f"console/dist: {len(gz)} JS/CSS files, {total / 1024:.1f} KB gzipped in total")
    print(
        f"  JavaScript (issue 33's bar: at most 350 KB): {script / 1024:.1f} KB; CSS {(total - script) / 1024:.1f} KB"
    )
    print(f"first load: {len(first)} files, {sum(gz[f] for f in first) / 1024:.1f} KB gzipped")
    for name, size in sorted(gz.items(), key=lambda kv: -kv[1])[:6]:
        print(f"  {name}: {size / 1024:.1f} KB{' (first load)' if name in first else ''}")

    from playwright.sync_api import expect, sync_playwright

    logger.setLevel("WARNING")
    stack = LocalStack([load_pack(PACKS / n) for n in ("demo-shop", "demo-salon")], port=free_port()).start()
    url = f"{stack.base_url}/console/"
    try:
        sent = httpx.post(
            f"{stack.base_url}/dev/send",
            json={"tenant_id": "demo-shop", "phone": "+254711900001", "name": "Bench Customer", "type": "text",
                  "text": "I want to talk to a person"},
            timeout=20,
        )  # fmt: skip
        sent.raise_for_status()
        chromium = os.environ.get("TULIA_CHROMIUM", "/usr/bin/chromium")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True, args=ARGS)
            card = "[data-testid=ticket]:has-text('Bench Customer')"
            deadline = time.monotonic() + 60
            warm = browser.new_context().new_page()  # the ticket exists before anything is timed
            warm.goto(url)
            warm.get_by_label("Email").fill(OWNER[0])
            warm.get_by_role("textbox", name="Password").fill(OWNER[1])
            warm.get_by_role("button", name="Sign in").click()
            expect(warm.locator(card)).to_be_visible(timeout=max(1, deadline - time.monotonic()) * 1000)
            state = warm.context.storage_state()
            warm.context.close()

            results: dict[str, list[float]] = {}
            for profile, network in PROFILES:
                form, sign_in, returning = (
                    results.setdefault(f"{profile}: page opened to the sign-in form", []),
                    results.setdefault(f"{profile}: sign-in to inbox usable", []),
                    results.setdefault(f"{profile}: return visit to inbox usable", []),
                )
                for _ in range(runs):
                    page = throttled(browser.new_context().new_page(), network)
                    started = time.perf_counter()
                    page.goto(url)
                    page.get_by_label("Email").wait_for(state="visible", timeout=60_000)
                    form.append(time.perf_counter() - started)
                    page.wait_for_load_state("networkidle")
                    page.get_by_label("Email").fill(OWNER[0])
                    page.get_by_role("textbox", name="Password").fill(OWNER[1])
                    started = time.perf_counter()
                    page.get_by_role("button", name="Sign in").click()
                    page.locator(card).wait_for(state="visible", timeout=60_000)
                    sign_in.append(time.perf_counter() - started)
                    page.context.close()

                    page = throttled(browser.new_context(storage_state=state).new_page(), network)
                    started = time.perf_counter()
                    page.goto(url + "inbox")
                    page.locator(card).wait_for(state="visible", timeout=60_000)
                    returning.append(time.perf_counter() - started)
                    page.context.close()
            browser.close()
    finally:
        stack.stop()
    for label, times in results.items():
        median, worst = statistics.median(times) * 1000, max(times) * 1000
        print(f"{label}: median {median:.0f} ms, worst {worst:.0f} ms ({runs} runs)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
