"""The embedded local stack.

Today it runs the embedded store (moto in server mode) and the Daraja and PesaPal simulators,
creates the tables from :mod:`tulia.store.tables`, seeds the packs and reports what was loaded.
The HTTP routes, the agent poller and the chat page join it with the pipeline issue.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
from typing import TYPE_CHECKING

from tulia.config import Settings

if TYPE_CHECKING:
    from tulia.packs.loader import Pack

LOCAL_AWS_ENV = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_DEFAULT_REGION": "eu-west-1"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_dev(packs: list[Pack], *, port: int) -> int:
    from moto.server import ThreadedMotoServer

    from tulia.local.simulators.daraja import DarajaSimulator
    from tulia.local.simulators.pesapal import PesapalSimulator
    from tulia.packs.seed import seed_pack
    from tulia.services import build_services
    from tulia.store.tables import create_tables

    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    for key, value in LOCAL_AWS_ENV.items():
        os.environ.setdefault(key, value)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's server would log every request
    store_port = free_port()
    store = ThreadedMotoServer(ip_address="127.0.0.1", port=store_port, verbose=False)
    store.start()
    daraja = DarajaSimulator(
        passkeys={
            p.tenant.payments.mpesa_stk.shortcode: p.tenant.payments.mpesa_stk.passkey
            for p in packs
            if p.tenant.payments.mpesa_stk
        }
    ).start()
    pesapal = PesapalSimulator().start()
    try:
        settings = Settings(
            aws_endpoint_url=f"http://127.0.0.1:{store_port}", public_base_url=f"http://localhost:{port}"
        )
        services = build_services(settings, mpesa_api_base=daraja.base_url, pesapal_api_base=pesapal.base_url)
        create_tables(services.db.client, settings.table_prefix)
        print(f"Embedded store (moto server): http://127.0.0.1:{store_port}")
        print(f"Daraja simulator: {daraja.base_url}   PesaPal simulator: {pesapal.base_url}")
        for pack in packs:
            print(f"seeded {seed_pack(services, pack)}")
        print(
            "Tools are live against this store. The webhook routes and the chat page on port "
            f"{port} arrive with the pipeline issue. Press Ctrl-C to stop.",
            flush=True,
        )
        stop.wait()
    finally:
        daraja.stop()
        pesapal.stop()
        store.stop()
        print("stopped.")
    return 0
