"""The shop's console in the local stack, at ``/console/``: the built single-page app (``console/dist``,
``make console``), its run-time settings (``/console/config.json``: the staff user pool it signs in
to), and a same-origin door to the local Cognito stand-in (``/console/cognito``), so the console
needs only the stack's one origin (a port forward or tunnel to a phone carries all of it). In AWS,
CloudFront serves the same files and the console talks to Cognito directly."""

from __future__ import annotations

import base64
import gzip
import json
import mimetypes
from pathlib import Path
from typing import Any

import httpx

from tulia.local.auth import LocalPool
from tulia.pipeline.apigw import HttpRequest, request_of

PREFIX = "/console"
COGNITO_PATH = f"{PREFIX}/cognito"
CONFIG_PATH = f"{PREFIX}/config.json"
DEFAULT_DIST = Path(__file__).resolve().parents[3] / "console" / "dist"
NOT_BUILT = (
    "<!doctype html><title>Tulia console</title><h1>The console is not built</h1>"
    "<p>Build it with <code>make console</code> (or start the stack with <code>make dev</code>), then reload.</p>"
)
NO_STORE = {"cache-control": "no-store"}
NO_CACHE = {"cache-control": "no-cache"}
FORWARDED = ("content-type", "x-amz-target", "x-amz-user-agent", "cache-control")
# what CloudFront compresses for the console (its distribution has compress on): text, not images
COMPRESSIBLE = (".js", ".css", ".html", ".json", ".svg", ".webmanifest", ".txt", ".map")


def response(status: int, body: bytes, content_type: str, **headers: str) -> dict[str, Any]:
    return {
        "statusCode": status,
        "headers": {"content-type": content_type, **headers},
        "body": base64.b64encode(body).decode(),
        "isBase64Encoded": True,
    }


class ConsoleSite:
    def __init__(self, pool: LocalPool, http: httpx.Client, dist: Path | None = None) -> None:
        self.pool = pool
        self.http = http
        self.dist = (dist or DEFAULT_DIST).resolve()
        self._gzipped: dict[tuple[Path, float], bytes] = {}

    @property
    def built(self) -> bool:
        return (self.dist / "index.html").is_file()

    def config(self) -> dict[str, Any]:
        return {
            "region": self.pool.region,
            "userPoolId": self.pool.user_pool_id,
            "userPoolClientId": self.pool.client_id,
            "userPoolEndpoint": COGNITO_PATH,  # relative: the console resolves it against its own origin
            "apiBase": "",
            "authFlow": "USER_PASSWORD_AUTH",  # moto's Cognito has no SRP
        }

    def handle(self, event: dict[str, Any]) -> dict[str, Any]:
        request = request_of(event)
        path, method = request.path, request.method
        if path == PREFIX:
            return {"statusCode": 301, "headers": {"location": f"{PREFIX}/"}, "body": ""}
        if path == COGNITO_PATH:
            return self._cognito(request) if method == "POST" else response(405, b"", "text/plain")
        if method not in ("GET", "HEAD"):
            return response(405, b"", "text/plain")
        if path == CONFIG_PATH:
            return response(
                200, json.dumps(self.config()).encode(), "application/json", **{"cache-control": "no-store"}
            )
        if not self.built:
            return response(503, NOT_BUILT.encode(), "text/html; charset=utf-8")
        relative = path[len(PREFIX) + 1 :]
        target = (self.dist / relative).resolve() if relative else self.dist / "index.html"
        if not target.is_relative_to(self.dist):
            return response(404, b"", "text/plain")
        if target.is_file():
            kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
            cache = "public, max-age=31536000, immutable" if "/assets/" in path else "no-cache"
            return self._file(request, target, kind, cache)
        if "." in Path(relative).name:
            return response(404, b"", "text/plain")  # a missing file, not a screen of the app
        return self._file(request, self.dist / "index.html", "text/html; charset=utf-8", "no-cache")

    def _file(self, request: HttpRequest, target: Path, kind: str, cache: str) -> dict[str, Any]:
        """The file, gzipped when the browser takes it and it is text, as CloudFront sends it in AWS."""
        headers = {"cache-control": cache}
        body = target.read_bytes()
        if target.suffix in COMPRESSIBLE:
            headers["vary"] = "accept-encoding"
            if "gzip" in request.headers.get("accept-encoding", ""):
                key = (target, target.stat().st_mtime)
                if key not in self._gzipped:
                    self._gzipped[key] = gzip.compress(body, compresslevel=6)
                body = self._gzipped[key]
                headers["content-encoding"] = "gzip"
        return response(200, body, kind, **headers)

    def _cognito(self, request: HttpRequest) -> dict[str, Any]:
        target = request.headers.get("x-amz-target", "")
        if target.endswith(".RevokeToken"):
            # signing out revokes the refresh token; moto has no RevokeToken (its tokens cannot be revoked),
            # so the stand-in accepts it as Cognito would, and the browser drops its tokens
            return response(200, b"{}", "application/x-amz-json-1.1")
        headers = {k: v for k, v in request.headers.items() if k in FORWARDED}
        answer = self.http.post(f"{self.pool.endpoint}/", content=request.body, headers=headers)
        return response(
            answer.status_code, answer.content, answer.headers.get("content-type", "application/x-amz-json-1.1")
        )
