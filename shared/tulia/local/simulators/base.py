"""A tiny threaded HTTP server for the provider simulators (stdlib only).

Used by the local stack when a ``TULIA_*_API_BASE`` setting is unset, and by tests as a local
fake over real HTTP. Every request is recorded so tests can assert what the product sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any
    raw: bytes = b""  # the body as sent (an encrypted Web Push message is not text)


@dataclass
class Reply:
    status: int = 200
    body: Any = field(default_factory=dict)
    content_type: str = "application/json"
    delay_seconds: float = 0.0  # answer late (to exercise client timeouts)
    headers: dict[str, str] = field(default_factory=dict)  # e.g. Location of a redirect


Route = Callable[[Recorded], Reply]


class SimulatorServer:
    """Routes are ``(METHOD, path)`` -> handler. Unknown routes answer 404 with a JSON error."""

    name = "simulator"

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.requests: list[Recorded] = []
        self.routes: dict[tuple[str, str], Route] = {}
        self.forced: list[Reply] = []  # replies to give, in order, before routing (failure injection)
        self.delays: list[float] = []  # requests handled as usual but answered this late (client timeouts)
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body: Any
                if "x-www-form-urlencoded" in (self.headers.get("Content-Type") or ""):
                    body = {k: v[-1] for k, v in parse_qs(raw.decode("utf-8", "replace")).items()}
                else:
                    try:
                        body = json.loads(raw) if raw else None
                    except ValueError:
                        body = raw.decode("utf-8", "replace")
                rec = Recorded(
                    self.command,
                    parts.path,
                    {k: v[-1] for k, v in parse_qs(parts.query).items()},
                    {k.lower(): v for k, v in self.headers.items()},
                    body,
                    raw,
                )
                reply = server.dispatch(rec)
                with server._lock:
                    if server.delays and not reply.delay_seconds:
                        reply.delay_seconds = server.delays.pop(0)  # handled, then answered late
                if reply.delay_seconds:
                    time.sleep(reply.delay_seconds)
                payload = reply.body if isinstance(reply.body, bytes | str) else json.dumps(reply.body)
                data = payload.encode() if isinstance(payload, str) else payload
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    if self.command != "HEAD":  # a HEAD answer has headers only
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up waiting (a late-answer test): nothing to tell it

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _handle

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

        self._httpd = ThreadingHTTPServer((host, port), Handler)
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{host}:{port}"

    def dispatch(self, rec: Recorded) -> Reply:
        with self._lock:
            self.requests.append(rec)
            if self.forced:
                return self.forced.pop(0)
        route = self.routes.get((rec.method, rec.path)) or self.route_for(rec)
        if route is None:
            return Reply(404, {"errorMessage": f"no route {rec.method} {rec.path}"})
        return route(rec)

    def route_for(self, rec: Recorded) -> Route | None:
        """Routes with a variable path (override); the exact routes are tried first."""
        return None

    def fail_next(self, status: int, body: Any = None, times: int = 1, delay_seconds: float = 0.0) -> None:
        with self._lock:
            self.forced.extend(
                Reply(status, body if body is not None else {"errorMessage": "simulated"}, delay_seconds=delay_seconds)
                for _ in range(times)
            )

    def slow_next(self, seconds: float, times: int = 1) -> None:
        """Handle the next requests as usual but answer them late: the work is done, the client may time out."""
        with self._lock:
            self.delays.extend([seconds] * times)

    def clear_failures(self) -> None:
        with self._lock:
            self.forced.clear()
            self.delays.clear()

    def calls(self, path: str) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.path == path]

    def start(self) -> SimulatorServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, name=self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> SimulatorServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
