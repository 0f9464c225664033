"""The local stack's data across restarts, including a ``kill -9``: ``tulia dev --data-dir``.

The embedded store (moto's server, in this process) is fronted by a write-ahead journal: every write
it acknowledges (a table write, a queue send, delete or delay, a change to the staff user pool) is
appended to ``journal-<generation>.jsonl`` *before* its answer leaves the store, so whatever the
stack answered 200 for (a webhook, a callback, an admin change) is on disk. Every minute, and on stop,
a snapshot (tables, the messages waiting in each queue, the staff users) replaces the journal.

On start: the snapshot is read back (older snapshots are migrated), the journal replayed over it, the
queues refilled with what was waiting (delayed messages keep what is left of their delay), the staff
users recreated with their passwords and groups, and every M-Pesa prompt still pending gets a status
check queued again. Written to the operating system on every write: it survives the process being
killed, not the machine losing power (no fsync per write).

Only for ``tulia dev``: the tables are scanned, which no request path in AWS ever does."""

from __future__ import annotations

import base64
import io
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tulia.store.tables import ALL_TABLES

SNAPSHOT = "tables.json"
SNAPSHOT_VERSION = 2  # 1: tables only (no queues, users or journal)
SNAPSHOT_EVERY_SECONDS = 60.0
MAX_SQS_DELAY_SECONDS = 900

DB_WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"})
POOL_READS = ("Get", "List", "Describe", "InitiateAuth", "AdminInitiateAuth", "AdminGet", "AdminList")


def _encode(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return {"__b64__": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, set):  # binary sets
        return {"__set__": [_encode(v) for v in value]}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"__b64__"}:
            return base64.b64decode(value["__b64__"])
        if set(value) == {"__set__"}:
            return [_decode(v) for v in value["__set__"]]
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _queue_name(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


@dataclass
class Waiting:
    """A message waiting in a queue, as the journal knows it."""

    body: str
    group: str | None = None
    dedup: str | None = None
    visible_at: float = 0.0  # when it may be received (a delay or a changed visibility)


@dataclass
class Restored:
    items: int = 0  # table items put back (snapshot and journal)
    queues: dict[str, dict[str, Waiting]] | None = None  # None: the data predates saved queues
    users: list[dict[str, Any]] = field(default_factory=list)


class StoreJournal:
    """WSGI middleware in front of the embedded store that journals the writes it acknowledges.

    Writes pass one at a time (a lock), so a snapshot taken under the same lock is exactly the state
    after the journal so far. Reads are never held up."""

    def __init__(self, app: Callable[..., Iterable[bytes]], directory: Path) -> None:
        self.app, self.directory = app, directory
        self.lock = threading.RLock()
        self.paused = True  # while the stack restores and seeds: nothing appended (a snapshot follows)
        self.generation = 0
        self.queued: dict[str, dict[str, Waiting]] = {}
        self._receipts: dict[str, tuple[str, str]] = {}  # receipt handle -> (queue, message id)
        self._file: io.TextIOWrapper | None = None
        self.users: Callable[[], list[dict[str, Any]]] = lambda: []
        self.clock: Callable[[], float] = time.time

    # WSGI --------------------------------------------------------------------------------------------
    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        service, _, op = str(environ.get("HTTP_X_AMZ_TARGET", "")).partition(".")
        if service == "DynamoDB_20120810" and op in DB_WRITES:
            kind = "db"
        elif service == "AmazonSQS" and op in {
            "SendMessage",
            "SendMessageBatch",
            "DeleteMessage",
            "DeleteMessageBatch",
            "ChangeMessageVisibility",
            "ChangeMessageVisibilityBatch",
            "PurgeQueue",
            "ReceiveMessage",
        }:
            kind = "sqs"
        elif service == "AWSCognitoIdentityProviderService" and not op.startswith(POOL_READS):
            kind = "pool"
        else:
            return self.app(environ, start_response)
        length = int(environ.get("CONTENT_LENGTH") or 0)
        raw = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(raw)
        answered: dict[str, Any] = {}

        def keep(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answered["status"] = status
            return start_response(status, headers, exc_info)

        if kind == "sqs" and op == "ReceiveMessage":  # no write: only learn the receipt handles
            chunks = list(self.app(environ, keep))
            if str(answered.get("status", "")).startswith("2"):
                self._received(raw, b"".join(chunks))
            return chunks
        with self.lock:
            chunks = list(self.app(environ, keep))
            if str(answered.get("status", "")).startswith("2"):
                if kind == "db":
                    self._append({"db": op, "auth": environ.get("HTTP_AUTHORIZATION", ""), "body": raw.decode()})
                elif kind == "sqs":
                    self._queue_write(op, json.loads(raw or b"{}"), json.loads(b"".join(chunks) or b"{}"))
                elif not self.paused:
                    self._append({"users": self.users()})
        return chunks  # the answer leaves only now, after its journal line

    # queues ------------------------------------------------------------------------------------------
    def _received(self, request: bytes, answer: bytes) -> None:
        queue = _queue_name(json.loads(request or b"{}").get("QueueUrl", ""))
        for message in json.loads(answer or b"{}").get("Messages", []):
            self._receipts[message["ReceiptHandle"]] = (queue, message["MessageId"])

    def _queue_write(self, op: str, request: dict[str, Any], answer: dict[str, Any]) -> None:
        queue = _queue_name(request.get("QueueUrl", ""))
        now = self.clock()
        if op == "SendMessage":
            self._sent(queue, answer["MessageId"], request, now)
        elif op == "SendMessageBatch":
            ids = {e["Id"]: e["MessageId"] for e in answer.get("Successful", [])}
            for entry in request.get("Entries", []):
                if entry["Id"] in ids:
                    self._sent(queue, ids[entry["Id"]], entry, now)
        elif op in ("DeleteMessage", "DeleteMessageBatch"):
            handles = (
                [request.get("ReceiptHandle")]
                if op == "DeleteMessage"
                else [e.get("ReceiptHandle") for e in request.get("Entries", [])]
            )
            for handle in handles:
                where = self._receipts.pop(str(handle), None)
                if where and self.queued.get(where[0], {}).pop(where[1], None) is not None:
                    self._append({"q": "delete", "queue": where[0], "id": where[1]})
        elif op in ("ChangeMessageVisibility", "ChangeMessageVisibilityBatch"):
            entries = [request] if op == "ChangeMessageVisibility" else request.get("Entries", [])
            for entry in entries:
                where = self._receipts.get(str(entry.get("ReceiptHandle")))
                waiting = self.queued.get(where[0], {}).get(where[1]) if where else None
                if where and waiting is not None:
                    waiting.visible_at = now + int(entry.get("VisibilityTimeout", 0))
                    self._append({"q": "delay", "queue": where[0], "id": where[1], "until": waiting.visible_at})
        elif op == "PurgeQueue":
            self.queued.pop(queue, None)
            self._append({"q": "purge", "queue": queue})

    def _sent(self, queue: str, message_id: str, entry: dict[str, Any], now: float) -> None:
        waiting = Waiting(
            body=entry["MessageBody"],
            group=entry.get("MessageGroupId"),
            dedup=entry.get("MessageDeduplicationId"),
            visible_at=now + int(entry.get("DelaySeconds", 0) or 0),
        )
        self.queued.setdefault(queue, {})[message_id] = waiting
        self._append({"q": "send", "queue": queue, "id": message_id, **waiting.__dict__})

    # the journal file --------------------------------------------------------------------------------
    def journal_path(self, generation: int) -> Path:
        return self.directory / f"journal-{generation}.jsonl"

    def _append(self, line: dict[str, Any]) -> None:
        if self.paused:
            return
        if self._file is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._file = self.journal_path(self.generation).open("a", encoding="utf-8")
        self._file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._file.flush()  # in the operating system's hands: a killed process cannot lose it

    def rotate(self, generation: int) -> None:
        """Start journal ``generation`` (a snapshot of that generation now holds everything before)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self.generation = generation
        for stale in self.directory.glob("journal-*.jsonl"):
            if stale != self.journal_path(generation):
                stale.unlink(missing_ok=True)
        live = {(q, i) for q, msgs in self.queued.items() for i in msgs}
        self._receipts = {h: w for h, w in self._receipts.items() if w in live}


def replay_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The journal's lines; a last line cut short by the kill is ignored."""
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            return


class DataDirectory:
    """Saves and restores the local store (tables, queues, staff users) through snapshots and the journal."""

    def __init__(self, path: Path, client: Any, prefix: str, journal: StoreJournal, store_url: str) -> None:
        self.path, self.client, self.prefix, self.journal, self.store_url = path, client, prefix, journal, store_url

    # start ------------------------------------------------------------------------------------------
    def restore(self) -> Restored:
        """Put back the last snapshot and replay the journal written after it."""
        import httpx

        restored = Restored()
        snapshot_file = self.path / SNAPSHOT
        snapshot: dict[str, Any] = {}
        if snapshot_file.exists():
            snapshot = migrate(json.loads(snapshot_file.read_text(encoding="utf-8")))
        tables: dict[str, list[dict[str, Any]]] = _decode(snapshot.get("tables", {}))
        for name, items in tables.items():
            for start in range(0, len(items), 25):
                pending: dict[str, Any] = {name: [{"PutRequest": {"Item": i}} for i in items[start : start + 25]]}
                while pending:
                    pending = self.client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
            restored.items += len(items)
        generation = int(snapshot.get("generation", 0))
        queues: dict[str, dict[str, Waiting]] | None = None
        if snapshot.get("queues") is not None:
            queues = {q: {i: Waiting(**w) for i, w in msgs.items()} for q, msgs in snapshot["queues"].items()}
        restored.users = list(snapshot.get("users", []))
        with httpx.Client(base_url=self.store_url, timeout=30) as http:
            for line in replay_lines(self.journal.journal_path(generation)):
                if "db" in line:
                    answer = http.post(
                        "/",
                        content=line["body"].encode(),
                        headers={
                            "x-amz-target": f"DynamoDB_20120810.{line['db']}",
                            "content-type": "application/x-amz-json-1.0",
                            "authorization": line["auth"],
                        },
                    )
                    answer.raise_for_status()
                    restored.items += 1
                elif "users" in line:
                    restored.users = line["users"]
                elif "q" in line:
                    queues = {} if queues is None else queues
                    _apply(queues, line)
        restored.queues = queues
        self.journal.generation = generation
        return restored

    def refill(self, sqs: Any, queues: dict[str, dict[str, Waiting]], urls: dict[str, str]) -> int:
        """Send the messages that were waiting into the new queues (delays: what was left of them)."""
        now, sent = self.journal.clock(), 0
        for name, waiting in queues.items():
            url = urls.get(name)
            if url is None:
                continue
            for message in waiting.values():
                kwargs: dict[str, Any] = {"QueueUrl": url, "MessageBody": message.body}
                if name.endswith(".fifo"):  # FIFO queues have no per-message delay: at once, in order
                    kwargs["MessageGroupId"] = message.group or "restored"
                    if message.dedup:
                        kwargs["MessageDeduplicationId"] = message.dedup
                else:
                    kwargs["DelaySeconds"] = max(0, min(int(message.visible_at - now), MAX_SQS_DELAY_SECONDS))
                sqs.send_message(**kwargs)
                sent += 1
        return sent

    # while running ----------------------------------------------------------------------------------
    def save(self) -> int:
        """Snapshot every table, queue and user (atomically: a crash mid-write keeps the previous
        snapshot and its journal), then start a new journal."""
        with self.journal.lock:
            tables: dict[str, list[dict[str, Any]]] = {}
            for table in ALL_TABLES:
                name = self.prefix + table.logical_name
                items: list[dict[str, Any]] = []
                kwargs: dict[str, Any] = {"TableName": name}
                while True:
                    page = self.client.scan(**kwargs)
                    items += page.get("Items", [])
                    if "LastEvaluatedKey" not in page:
                        break
                    kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
                tables[name] = items
            generation = self.journal.generation + 1
            snapshot = {
                "version": SNAPSHOT_VERSION,
                "generation": generation,
                "tables": _encode(tables),
                "queues": {q: {i: w.__dict__ for i, w in msgs.items()} for q, msgs in self.journal.queued.items()},
                "users": self.journal.users(),
            }
            self.path.mkdir(parents=True, exist_ok=True)
            partial = self.path / (SNAPSHOT + ".tmp")
            partial.write_text(json.dumps(snapshot), encoding="utf-8")
            os.replace(partial, self.path / SNAPSHOT)
            self.journal.rotate(generation)
            return sum(len(items) for items in tables.values())

    def keep_saving(self, stop: threading.Event) -> threading.Thread:
        """Snapshot every minute until ``stop`` is set (so the journal stays short)."""

        def loop() -> None:
            while not stop.wait(SNAPSHOT_EVERY_SECONDS):
                self.save()

        thread = threading.Thread(target=loop, name="data-dir", daemon=True)
        thread.start()
        return thread


def _apply(queues: dict[str, dict[str, Waiting]], line: dict[str, Any]) -> None:
    queue = line["queue"]
    if line["q"] == "send":
        queues.setdefault(queue, {})[line["id"]] = Waiting(
            body=line["body"], group=line.get("group"), dedup=line.get("dedup"), visible_at=line.get("visible_at", 0)
        )
    elif line["q"] == "delete":
        queues.get(queue, {}).pop(line["id"], None)
    elif line["q"] == "delay" and line["id"] in queues.get(queue, {}):
        queues[queue][line["id"]].visible_at = line["until"]
    elif line["q"] == "purge":
        queues.pop(queue, None)


def migrate(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot of any earlier version in the current shape. Version 1 (no "version" key) was the
    tables alone, keyed by table name: its queues are unknown (None), its users none."""
    if "version" not in snapshot:
        return {"version": SNAPSHOT_VERSION, "generation": 0, "tables": snapshot, "queues": None, "users": []}
    if snapshot["version"] > SNAPSHOT_VERSION:
        raise ValueError(
            f"the data directory was written by a newer Tulia (snapshot version {snapshot['version']}); "
            f"this one reads up to {SNAPSHOT_VERSION}"
        )
    return snapshot


class JournaledStore:
    """moto's server behind the journal (its DynamoDB requests one at a time: ``tulia.local.store_server``)."""

    def __init__(self, port: int, directory: Path) -> None:
        from tulia.local.store_server import StoreServer

        self.port, self.directory = port, directory
        self.journal: StoreJournal | None = None
        self._server = StoreServer(port, wrap=lambda app: StoreJournal(app, directory))

    def start(self) -> StoreJournal:
        journal: StoreJournal = self._server.start()
        self.journal = journal
        return journal

    def stop(self) -> None:
        self._server.stop()


# the staff user pool ------------------------------------------------------------------------------------
def pool_users(region: str, user_pool_id: str) -> list[dict[str, Any]]:
    """The pool's users with what the API never returns (their passwords), from moto's own records:
    the local pool is recreated on every start and its people must be able to sign in again."""
    from moto.cognitoidp.models import cognitoidp_backends
    from moto.core.models import DEFAULT_ACCOUNT_ID

    pool = cognitoidp_backends[DEFAULT_ACCOUNT_ID][region].user_pools.get(user_pool_id)
    if pool is None:
        return []
    return [
        {
            "attributes": [a for a in user.attributes if a["Name"] != "sub"],
            "password": user.password,
            "status": user.status,
            "enabled": user.enabled,
            "groups": sorted(g.group_name for g in user.groups),
        }
        for user in pool.users.values()
    ]


def recreate_users(idp: Any, user_pool_id: str, users: list[dict[str, Any]]) -> int:
    """Put the saved users back into a new pool (a user who already exists gets her password and groups)."""
    done = 0
    for user in users:
        email = next((a["Value"] for a in user["attributes"] if a["Name"] == "email"), None)
        if not email or not user.get("password"):
            continue
        try:
            idp.admin_get_user(UserPoolId=user_pool_id, Username=email)
        except idp.exceptions.UserNotFoundException:
            idp.admin_create_user(
                UserPoolId=user_pool_id,
                Username=email,
                UserAttributes=user["attributes"],
                TemporaryPassword=user["password"],
                MessageAction="SUPPRESS",
            )
        if user["status"] != "FORCE_CHANGE_PASSWORD":  # an invited person who never signed in keeps hers temporary
            idp.admin_set_user_password(
                UserPoolId=user_pool_id, Username=email, Password=user["password"], Permanent=True
            )
        for group in user["groups"]:
            idp.admin_add_user_to_group(UserPoolId=user_pool_id, Username=email, GroupName=group)
        if not user.get("enabled", True):
            idp.admin_disable_user(UserPoolId=user_pool_id, Username=email)
        done += 1
    return done


def prompts_without_check(client: Any, prefix: str, waiting_checks: Iterable[Waiting]) -> list[dict[str, str]]:
    """The M-Pesa prompts (STK pushes) still pending with no status check waiting for them: after a
    restart of data that predates saved queues, their delayed check is gone and would never come."""
    from tulia.store.keys import PAYMENT_PREFIX
    from tulia.store.tables import ORDERS

    checked = set()
    for message in waiting_checks:
        try:
            checked.add(json.loads(message.body).get("payment_id"))
        except (ValueError, AttributeError):
            continue
    found: list[dict[str, str]] = []
    kwargs: dict[str, Any] = {
        "TableName": prefix + ORDERS.logical_name,
        "FilterExpression": "begins_with(sk, :pay) AND #m = :stk AND #s = :pending",
        "ExpressionAttributeNames": {"#m": "method", "#s": "status"},
        "ExpressionAttributeValues": {
            ":pay": {"S": PAYMENT_PREFIX},
            ":stk": {"S": "mpesa_stk"},
            ":pending": {"S": "pending"},
        },
    }
    while True:
        page = client.scan(**kwargs)
        for item in page.get("Items", []):
            payment_id = item["payment_id"]["S"]
            if payment_id not in checked:
                found.append(
                    {"tenant_id": item["tenant_id"]["S"], "order_id": item["order_id"]["S"], "payment_id": payment_id}
                )
        if "LastEvaluatedKey" not in page:
            return found
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
