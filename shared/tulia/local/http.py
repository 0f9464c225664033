"""The local stack's HTTP front door: the same routes as API Gateway, calling the same handlers with
API Gateway HTTP API (payload v2) events built from each request."""

from __future__ import annotations

import base64
import threading
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

LambdaHandler = Callable[[dict[str, Any]], dict[str, Any]]


def event_of(method: str, raw_path: str, headers: dict[str, str], body: bytes, source_ip: str) -> dict[str, Any]:
    parts = urlsplit(raw_path)
    textual = not body or _is_text(headers.get("content-type", ""))
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": parts.path,
        "rawQueryString": parts.query,
        "headers": {k.lower(): v for k, v in headers.items()},
        "requestContext": {
            "accountId": "000000000000",
            "apiId": "local",
            "domainName": headers.get("host", "localhost"),
            "http": {
                "method": method,
                "path": parts.path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": headers.get("user-agent", ""),
            },
            "requestId": uuid.uuid4().hex,  # the correlation id of the request's log lines
            "routeKey": "$default",
            "stage": "$default",
        },
        "isBase64Encoded": not textual,
    }
    if parts.query:
        event["queryStringParameters"] = dict(parse_qsl(parts.query, keep_blank_values=True))
    if body:
        try:
            event["body"] = body.decode("utf-8") if textual else base64.b64encode(body).decode()
        except UnicodeDecodeError:  # a "text" body that is not UTF-8: passed on as bytes, as API Gateway does
            event["body"], event["isBase64Encoded"] = base64.b64encode(body).decode(), True
    return event


def _is_text(content_type: str) -> bool:
    ct = content_type.lower()
    return ct.startswith("text/") or "json" in ct or "x-www-form-urlencoded" in ct


class LocalApi:
    """Routes: exact paths or path prefixes (ending in '/'; the root is exact) -> a Lambda-style handler."""

    def __init__(self, port: int, routes: dict[str, LambdaHandler], host: str = "127.0.0.1") -> None:
        self.routes = routes
        api = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                path = urlsplit(self.path).path
                handler = api.route(path)
                if handler is None:
                    self._reply(404, {"content-type": "application/json"}, b'{"error":"not_found"}')
                    return
                event = event_of(self.command, self.path, dict(self.headers.items()), body, self.client_address[0])
                try:
                    response = handler(event)
                except Exception:  # noqa: BLE001 - a crash is a 500, as API Gateway would answer
                    from tulia.observability import logger

                    logger.exception("handler failed", extra={"path": path})
                    self._reply(500, {"content-type": "application/json"}, b'{"message":"Internal Server Error"}')
                    return
                raw = response.get("body") or ""
                payload = base64.b64decode(raw) if response.get("isBase64Encoded") else raw.encode("utf-8")
                self._reply(int(response.get("statusCode", 200)), response.get("headers") or {}, payload)

            def _reply(self, status: int, headers: dict[str, str], payload: bytes) -> None:
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client went away (a browser leaving the page)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

        self._httpd = ThreadingHTTPServer((host, port), Handler)
        # stopping waits for the requests being answered: none reaches a store that stopped after it
        self._httpd.daemon_threads = False
        self._httpd.block_on_close = True

    def route(self, path: str) -> LambdaHandler | None:
        if path in self.routes:
            return self.routes[path]
        prefixes = [p for p in self.routes if p.endswith("/") and p != "/" and path.startswith(p)]
        return self.routes[max(prefixes, key=len)] if prefixes else None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    def start(self) -> LocalApi:
        threading.Thread(target=self._httpd.serve_forever, name="local-api", daemon=True).start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
