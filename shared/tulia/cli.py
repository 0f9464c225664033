"""The ``tulia`` command: seed tenant packs, run the local stack, chat with a shop in the terminal."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tulia.packs.loader import Pack

DEFAULT_PACKS = ("packs/demo-shop", "packs/demo-salon", "packs/demo-grocer")


def _find_default_packs() -> list[Path]:
    for base in (Path.cwd(), *Path.cwd().parents):
        found = [base / p for p in DEFAULT_PACKS if (base / p).is_dir()]
        if found:
            return found
    return []


def _load_all(pack_dirs: list[Path]) -> tuple[list[Pack], bool]:
    from tulia.packs.loader import PackInvalid, load_pack

    packs, failed = [], False
    for d in pack_dirs:
        try:
            packs.append(load_pack(d))
        except PackInvalid as exc:
            failed = True
            print(f"Pack {exc.pack_dir} is invalid; nothing was written:", file=sys.stderr)
            for issue in exc.issues:
                print(f"  - {issue}", file=sys.stderr)
    return packs, failed


def cmd_seed(ns: argparse.Namespace) -> int:
    from tulia.config import get_settings
    from tulia.packs.seed import seed_pack
    from tulia.services import build_services
    from tulia.store.tables import create_tables

    packs, failed = _load_all([Path(p) for p in ns.pack])
    if failed:
        return 1
    ids = [p.tenant.tenant_id for p in packs]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        print(f"Two packs use the same tenant_id: {', '.join(sorted(dupes))}; nothing was written.", file=sys.stderr)
        return 1
    if ns.dry_run:
        for p in packs:
            print(
                f"valid: {p.tenant.tenant_id} ({len(p.catalog)} items, {len(p.offers)} offers, "
                f"{len(p.documents)} documents)"
            )
        return 0
    from botocore.exceptions import BotoCoreError, ClientError

    settings = get_settings()
    services = build_services(settings)
    upload = None
    if settings.kb_bucket:  # AWS: documents go through the bucket and the kb_ingest function
        import boto3

        s3 = boto3.client("s3", region_name=settings.aws_region, endpoint_url=settings.aws_endpoint_url)

        def upload(key: str, data: bytes) -> None:
            s3.put_object(Bucket=settings.kb_bucket, Key=key, Body=data)

    try:
        if ns.create_tables:
            create_tables(services.db.client, settings.table_prefix)
        for p in packs:
            print(f"seeded {seed_pack(services, p, upload=upload)}")
    except (BotoCoreError, ClientError) as exc:
        where = settings.aws_endpoint_url or f"AWS region {settings.aws_region}"
        print(f"Could not write to DynamoDB at {where}: {exc}", file=sys.stderr)
        print(
            "Set TULIA_AWS_ENDPOINT_URL for a local store (see `make dev`), or AWS credentials for AWS; "
            "--create-tables creates missing tables.",
            file=sys.stderr,
        )
        return 1
    return 0


def cmd_dev(ns: argparse.Namespace) -> int:
    from tulia.local.stack import run_dev

    pack_dirs = _find_default_packs() + [Path(p) for p in ns.pack or []]
    packs, failed = _load_all(pack_dirs)
    if failed:
        return 1
    starts_at = None
    if ns.clock:
        from datetime import datetime

        try:
            starts_at = datetime.fromisoformat(ns.clock)
        except ValueError:
            print(f"--clock {ns.clock!r} is not a time: write it as 2026-12-24T21:30+03:00", file=sys.stderr)
            return 2
        if starts_at.tzinfo is None:
            print("--clock needs its time zone (Nairobi is +03:00): 2026-12-24T21:30+03:00", file=sys.stderr)
            return 2
    code = run_dev(packs, port=ns.port, data_dir=Path(ns.data_dir) if ns.data_dir else None, starts_at=starts_at)
    # the stack was stopped; leave now even if a server thread of a dependency lingers
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def cmd_register_urls(ns: argparse.Namespace) -> int:
    from tulia.config import get_settings
    from tulia.credentials import deployment_settings
    from tulia.errors import TuliaError
    from tulia.payments.setup import register_provider_urls
    from tulia.services import build_services

    settings = deployment_settings(get_settings(), "payments")
    services = build_services(settings)
    status = 0
    for tenant_id in ns.tenant_id:
        try:
            result = register_provider_urls(services, tenant_id)
        except TuliaError as exc:
            print(f"{tenant_id}: {exc.message}", file=sys.stderr)
            status = 1
            continue
        for line in result.done:
            print(f"{tenant_id}: registered {line}")
        for line in result.failed:
            print(f"{tenant_id}: NOT registered {line}", file=sys.stderr)
        if not result.done and not result.failed:
            print(f"{tenant_id}: nothing to register (no Paybill/Till and no PesaPal)")
        status = status or (1 if result.failed else 0)
    return status


def cmd_admin_token(ns: argparse.Namespace) -> int:
    from tulia.domain.common import TENANT_ID_PATTERN
    from tulia.local.auth import issue_token, load_pool, tenant_known

    if not TENANT_ID_PATTERN.fullmatch(ns.tenant_id):
        print(f"'{ns.tenant_id}' is not a tenant id (lowercase letters, digits and dashes).", file=sys.stderr)
        return 2
    try:
        pool = load_pool(ns.port)
        if not tenant_known(pool, ns.tenant_id):
            print(f"No shop '{ns.tenant_id}' in the running stack ({pool.api_url}).", file=sys.stderr)
            return 1
        token = issue_token(pool, ns.tenant_id, ns.role, ns.email)
    except FileNotFoundError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - the stack is gone or not answering
        print(f"The local stack did not answer ({exc.__class__.__name__}): is `tulia dev` running?", file=sys.stderr)
        return 1
    print(token)
    return 0


def cmd_chat(ns: argparse.Namespace) -> int:
    from tulia.local.chat import run_chat

    pack_dirs = [Path(p) for p in ns.pack] if ns.pack else _find_default_packs()
    if not pack_dirs:
        print("No packs: give --pack DIR (the demo packs are in packs/).", file=sys.stderr)
        return 1
    packs, failed = _load_all(pack_dirs)
    if failed:
        return 1
    interactive = sys.stdin.isatty()
    return run_chat(
        packs, sys.stdin, tenant_id=ns.tenant, phone=ns.phone, markdown=ns.markdown, interactive=interactive
    )


def cmd_eval(ns: argparse.Namespace) -> int:
    from tulia.config import get_settings
    from tulia.evaluation import SETS, credentials_problem, run_eval
    from tulia.nlu.labelled_sets import EvalSetInvalid

    settings = get_settings()
    problem = credentials_problem(settings)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    eval_dir = Path(ns.eval_dir)
    if not (eval_dir / "phrases").is_dir():
        print(f"No phrase sets in {eval_dir}/phrases: give --eval-dir (the repository's eval/).", file=sys.stderr)
        return 1
    # the phrase sets span every demo pack and the evaluation packs: by default, each pack beside the eval
    # folder and in it
    roots = (eval_dir.resolve().parent / "packs", eval_dir.resolve() / "packs")
    pack_dirs = (
        [Path(p) for p in ns.pack]
        if ns.pack
        else [d for root in roots for d in sorted(root.glob("*")) if (d / "tenant.yaml").exists()]
    )
    packs, failed = _load_all(pack_dirs)
    if failed or not packs:
        print("No packs: give --pack DIR (the demo packs are in packs/).", file=sys.stderr)
        return 1
    sets = SETS if ns.set == "all" else (ns.set,)
    try:
        run_eval(settings, packs, eval_dir, sets=sets, limit=ns.limit, out=sys.stdout)
    except EvalSetInvalid as exc:
        print(f"tulia eval: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tulia", description="Tulia: WhatsApp sales and support agent.")
    sub = parser.add_subparsers(dest="command", required=True)

    seed = sub.add_parser("seed", help="validate tenant packs and load them into the store")
    seed.add_argument("--pack", action="append", required=True, metavar="DIR", help="pack folder (repeatable)")
    seed.add_argument("--dry-run", action="store_true", help="only validate; write nothing")
    seed.add_argument("--create-tables", action="store_true", help="create missing tables first (local/moto)")
    seed.set_defaults(func=cmd_seed)

    reg = sub.add_parser(
        "register-urls",
        help="tell Daraja (C2B) and PesaPal (IPN) a tenant's callback URLs under TULIA_PUBLIC_BASE_URL",
    )
    reg.add_argument("--tenant-id", action="append", required=True, metavar="T", help="tenant (repeatable)")
    reg.set_defaults(func=cmd_register_urls)

    dev = sub.add_parser("dev", help="run the embedded local stack with the demo packs")
    dev.add_argument("--port", type=int, default=8080)
    dev.add_argument("--pack", action="append", metavar="DIR", help="extra pack folder (repeatable)")
    dev.add_argument(
        "--data-dir",
        metavar="DIR",
        help="keep orders, customers and conversations here across restarts (default: none)",
    )
    dev.add_argument(
        "--clock",
        metavar="TIME",
        help="run the shops' clock from this time (ISO 8601 with its zone, e.g. 2026-12-24T21:30+03:00): "
        "opening hours, the 24-hour window and reminders tried by hand",
    )
    dev.set_defaults(func=cmd_dev)

    tok = sub.add_parser(
        "admin-token",
        help="print a staff ID token (JWT) from the running local stack's user pool, for the admin API",
    )
    tok.add_argument("--tenant-id", required=True, metavar="T", help="the shop the staff member belongs to")
    tok.add_argument("--role", choices=["owner", "agent"], default="owner")
    tok.add_argument("--email", help="the staff member (default: <role>@<tenant>.local; created on first use)")
    tok.add_argument("--port", type=int, help="the stack's port (needed when several stacks run)")
    tok.set_defaults(func=cmd_admin_token)

    chat = sub.add_parser("chat", help="chat with a shop's bot in the terminal (one stdin line = one message)")
    chat.add_argument("--pack", action="append", metavar="DIR", help="pack folder (repeatable; default: demo packs)")
    chat.add_argument("--tenant", help="tenant_id to chat with (default: the first pack's)")
    chat.add_argument("--phone", default="+254712345678", help="the customer's WhatsApp number")
    chat.add_argument("--markdown", action="store_true", help="print the transcript as Markdown")
    chat.set_defaults(func=cmd_chat)

    ev = sub.add_parser(
        "eval",
        help="measure the configured engine (TULIA_LLM) on the labelled phrase sets and conversations: "
        "accuracy, model calls per turn, cost (a live model needs AWS credentials; never run in CI)",
    )
    ev.add_argument("--eval-dir", default="eval", metavar="DIR", help="phrases/ and conversations.yaml (default: eval)")
    ev.add_argument(
        "--set",
        choices=["blind", "blind2", "blind3", "slots", "trades", "issue18", "tuning", "all"],
        default="all",
        help="which phrase set",
    )
    ev.add_argument("--limit", type=int, metavar="N", help="at most N phrases a set and N conversations (a quick look)")
    ev.add_argument(
        "--pack",
        action="append",
        metavar="DIR",
        help="pack folder (repeatable; default: every pack in packs/ beside the eval folder)",
    )
    ev.set_defaults(func=cmd_eval)

    ns = parser.parse_args(argv)
    from pydantic import ValidationError

    try:
        return int(ns.func(ns))
    except ValidationError as exc:  # a TULIA_* setting with a value it cannot take
        print("Invalid settings:", file=sys.stderr)
        for err in exc.errors(include_url=False):
            name = "TULIA_" + "_".join(str(p) for p in err["loc"]).upper()
            print(f"  - {name}: {err['msg']}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
