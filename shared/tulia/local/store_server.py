"""The local stack's AWS stand-in (moto's server) on a port of its own, one DynamoDB request at a time.

moto keeps tables in plain dictionaries: a transaction deep-copies the tables it touches while another thread's
write changes them, and the request fails with ``RuntimeError: dictionary changed size during iteration`` (a 500
that the SDK retries, and a traceback in the stack's log; seen in a fresh clone's e2e run). DynamoDB is in memory
here and each request takes a millisecond, so its requests simply take turns; SQS's long polls and Cognito run as
they come."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

DYNAMODB_TARGET = "DynamoDB_20120810."


class OneTableRequestAtATime:
    """WSGI middleware: DynamoDB requests under one lock (each answer read whole inside it), the rest as they come."""

    def __init__(self, app: Callable[..., Iterable[bytes]], lock: Any = None) -> None:
        self.app = app
        self.lock = lock if lock is not None else threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not str(environ.get("HTTP_X_AMZ_TARGET", "")).startswith(DYNAMODB_TARGET):
            return self.app(environ, start_response)
        with self.lock:
            return list(self.app(environ, start_response))


class StoreServer:
    """moto's server app (as ``moto.server.ThreadedMotoServer`` runs it), optionally behind another WSGI layer."""

    def __init__(self, port: int, wrap: Callable[[Any], Callable[..., Iterable[bytes]]] | None = None) -> None:
        """``wrap``: a WSGI layer around the serialized moto app (the journal: it holds its own lock while it waits
        for a DynamoDB turn, and so does its snapshot while it scans, so the two locks are always taken in one
        order)."""
        self.port, self.wrap = port, wrap
        self.app: Any = None
        self._server: Any = None
        self._ready = threading.Event()

    def start(self) -> Any:
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
        from werkzeug.serving import make_server

        from tulia.local.moto_attribute_values import write_attribute_values_directly

        write_attribute_values_directly()
        one_at_a_time = OneTableRequestAtATime(DomainDispatcherApplication(create_backend_app))
        served: Any = self.wrap(one_at_a_time) if self.wrap is not None else one_at_a_time
        self.app = served

        def serve() -> None:
            self._server = make_server("127.0.0.1", self.port, served, True, request_handler=MotoRequestHandler)
            self._ready.set()
            self._server.serve_forever()

        self._thread = threading.Thread(target=serve, name="store", daemon=True)
        self._thread.start()
        self._ready.wait()
        return served

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
        self._thread.join()
