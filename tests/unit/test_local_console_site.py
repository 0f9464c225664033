"""The local stack serves the console's files as CloudFront does in AWS: text gzipped for a browser that
takes it (the Fast 3G figures of BENCHMARKS.md depend on it), images as they are, the app's screens
answered with index.html."""

from __future__ import annotations

import base64
import gzip
from pathlib import Path
from typing import Any

import httpx
import pytest

from tulia.local.auth import LocalPool
from tulia.local.console import ConsoleSite
from tulia.local.http import event_of

SCRIPT = b"export const hello = 'habari';\n" * 200
PNG = bytes(range(256)) * 4


@pytest.fixture
def site(tmp_path: Path) -> ConsoleSite:
    (tmp_path / "assets").mkdir()
    (tmp_path / "icons").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>Tulia console</title>")
    (tmp_path / "assets" / "index-abc.js").write_bytes(SCRIPT)
    (tmp_path / "icons" / "icon-192.png").write_bytes(PNG)
    pool = LocalPool(endpoint="http://unused", region="eu-west-1", user_pool_id="p", client_id="c", api_url="")
    return ConsoleSite(pool, httpx.Client(), tmp_path)


def get(site: ConsoleSite, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    answer: dict[str, Any] = site.handle(event_of("GET", path, headers, b"", "127.0.0.1"))
    body = base64.b64decode(answer["body"]) if answer.get("isBase64Encoded") else answer["body"].encode()
    return answer["statusCode"], answer["headers"], body


def test_a_script_is_gzipped_for_a_browser_that_takes_gzip_and_reads_back_whole(site: ConsoleSite) -> None:
    status, headers, body = get(site, "/console/assets/index-abc.js", **{"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["vary"] == "accept-encoding"
    assert len(body) < len(SCRIPT) / 10
    assert gzip.decompress(body) == SCRIPT
    assert headers["cache-control"] == "public, max-age=31536000, immutable"


def test_a_client_that_does_not_take_gzip_gets_the_file_as_it_is(site: ConsoleSite) -> None:
    status, headers, body = get(site, "/console/assets/index-abc.js")
    assert (status, body) == (200, SCRIPT)
    assert "content-encoding" not in headers


def test_images_are_never_gzipped(site: ConsoleSite) -> None:
    status, headers, body = get(site, "/console/icons/icon-192.png", **{"Accept-Encoding": "gzip"})
    assert (status, body) == (200, PNG)
    assert "content-encoding" not in headers
    assert headers["content-type"] == "image/png"


def test_a_screen_of_the_app_is_answered_with_the_page_gzipped(site: ConsoleSite) -> None:
    status, headers, body = get(site, "/console/inbox", **{"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["content-type"].startswith("text/html")
    assert gzip.decompress(body).startswith(b"<!doctype html><title>Tulia console</title>")
    assert headers["cache-control"] == "no-cache"
