"""Bookings and the staff time they hold.

A staff member's time is 15-minute cells; a booking or a block of time owns the cells it covers, one
item each, written with a condition: the cell must be free (no item), or held for a deposit that did
not come in time (``hold_until`` passed), or already this owner's (a move overlapping itself). Two
customers can therefore never get one person at overlapping times, however their requests
interleave: the second transaction's condition fails and nothing of it is written. Nothing is read
first to decide it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from botocore.exceptions import ClientError

from tulia.domain.booking import (
    ACTIVE_STATUSES,
    Booking,
    BookingMark,
    DepositOutcome,
    cell_key,
    cell_starts,
    local,
)
from tulia.domain.common import iso
from tulia.domain.order import Order
from tulia.domain.times import sortable
from tulia.errors import NotFound, StateConflict
from tulia.store import keys
from tulia.store.codec import from_item, to_item
from tulia.store.dynamo import Dynamo, Key
from tulia.store.order_items import order_item
from tulia.store.tables import BOOKINGS, BOOKINGS_BY_CUSTOMER, BOOKINGS_BY_TENANT, ORDERS

CELL_KEPT_DAYS = 35  # a cell outlives its appointment by this much, then DynamoDB's TTL removes it
SLOT_TAKEN = "That time was just taken."


@dataclass(frozen=True)
class Block:
    tenant_id: str
    block_id: str
    staff_id: str
    start: datetime
    end: datetime
    reason: str
    by: str | None
    created_at: datetime


def _epoch(at: datetime) -> int:
    return int(at.timestamp())


def _free_or_mine(owner: str, now: datetime) -> tuple[str, dict[str, str], dict[str, Any]]:
    return (
        "attribute_not_exists(pk) OR #owner = :owner OR (#state = :held AND hold_until < :now)",
        {"#owner": "owner", "#state": "state"},
        {":owner": owner, ":held": "held", ":now": iso(now)},
    )


class BookingRepo:
    def __init__(self, db: Dynamo) -> None:
        self.db = db

    # records --------------------------------------------------------------------------------------
    @staticmethod
    def key(tenant_id: str, booking_id: str) -> Key:
        return Key(BOOKINGS, keys.booking_pk(tenant_id, booking_id), keys.BOOKING)

    @staticmethod
    def from_item(item: dict[str, Any]) -> Booking:
        return from_item(Booking, {k: v for k, v in item.items() if k != "expires_at"})

    @staticmethod
    def to_item(booking: Booking) -> dict[str, Any]:
        return to_item(
            booking,
            pk=keys.booking_pk(booking.tenant_id, booking.booking_id),
            sk=keys.BOOKING,
            gsi1pk=keys.customer_bookings_gsi_pk(booking.tenant_id, booking.customer_id),
            gsi1sk=sortable(booking.start),
            gsi2pk=keys.tenant_bookings_gsi_pk(booking.tenant_id),
            gsi2sk=f"{sortable(booking.start)}#{booking.booking_id}",
        )

    def get(self, tenant_id: str, booking_id: str) -> Booking:
        item = self.db.get(BOOKINGS, keys.booking_pk(tenant_id, booking_id), keys.BOOKING)
        if item is None:
            raise NotFound(f"No booking '{booking_id}'.", field="booking_id")
        return self.from_item(item)

    def list_for_customer(self, tenant_id: str, customer_id: str, *, since: datetime, limit: int = 10) -> list[Booking]:
        """The customer's bookings that end after ``since``, soonest first."""
        page = self.db.page(
            BOOKINGS,
            keys.customer_bookings_gsi_pk(tenant_id, customer_id),
            index=BOOKINGS_BY_CUSTOMER,
            limit=limit,
            sk_between=(sortable(since - timedelta(hours=12)), "~"),
        )
        return [b for b in (self.from_item(i) for i in page.items) if b.end > since]

    def list_between(self, tenant_id: str, start: datetime, end: datetime, *, limit: int = 500) -> list[Booking]:
        """The shop's bookings starting in [start, end), by start time."""
        found: list[Booking] = []
        cursor: str | None = None
        while True:
            page = self.db.page(
                BOOKINGS,
                keys.tenant_bookings_gsi_pk(tenant_id),
                index=BOOKINGS_BY_TENANT,
                limit=min(limit, 200),
                cursor=cursor,
                sk_between=(sortable(start), sortable(end)),
            )
            found += [self.from_item(i) for i in page.items]
            if page.cursor is None or len(found) >= limit:
                return found[:limit]
            cursor = page.cursor

    # the time held ----------------------------------------------------------------------------------
    def taken_cells(self, tenant_id: str, first_day: str, last_day: str, now: datetime) -> set[str]:
        """The cells in use from ``first_day`` to ``last_day`` (ISO dates, inclusive): booked, blocked, or
        held for a deposit still awaited. One query of the shop's cells partition."""
        taken: set[str] = set()
        cursor: str | None = None
        now_iso = iso(now)
        while True:
            page = self.db.page(
                BOOKINGS,
                keys.cells_pk(tenant_id),
                limit=1000,
                cursor=cursor,
                sk_between=(f"{first_day}#", f"{last_day}#~"),
            )
            for item in page.items:
                if item.get("state") == "held" and str(item.get("hold_until", "")) < now_iso:
                    continue  # a deposit that did not come in time: the slot is free again
                taken.add(item["sk"])
            if page.cursor is None:
                return taken
            cursor = page.cursor

    def _cell_put(self, tenant_id: str, sk: str, owner: str, state: str, hold_until: datetime | None,
                  keep_until: datetime, now: datetime) -> dict[str, Any]:  # fmt: skip
        condition, names, values = _free_or_mine(owner, now)
        item: dict[str, Any] = {
            "pk": keys.cells_pk(tenant_id),
            "sk": sk,
            "owner": owner,
            "state": state,
            "expires_at": _epoch(keep_until),
        }
        if hold_until is not None:
            item["hold_until"] = iso(hold_until)
        return {"Put": {"table": BOOKINGS, "item": item, "condition": condition, "names": names, "values": values}}

    def _cell_puts(self, booking: Booking, now: datetime) -> list[dict[str, Any]]:
        state = "held" if booking.status == "held" else "booked"
        keep = booking.end + timedelta(days=CELL_KEPT_DAYS)
        hold_until = booking.hold_until if booking.status == "held" else None
        return [
            self._cell_put(booking.tenant_id, sk, booking.booking_id, state, hold_until, keep, now)
            for sk in booking.held_cells()
        ]

    def _transact(self, ops: Sequence[dict[str, Any]], message: str) -> None:
        try:
            self.db.transact(ops, conflict_message=message)
        except ClientError as exc:
            reasons = [r.get("Code") for r in exc.response.get("CancellationReasons", [])]
            if "TransactionConflict" in reasons:  # another request is writing the same cells this instant
                raise StateConflict(message, reason="slot_taken") from exc
            raise

    def hold(self, booking: Booking, now: datetime) -> Booking:
        """Write a new booking and take its cells, all or nothing: held until ``booking.hold_until`` when
        a deposit is due, else confirmed at once. StateConflict(reason=slot_taken) if any cell is in use."""
        ops = [
            *self._cell_puts(booking, now),
            {"Put": {"table": BOOKINGS, "item": self.to_item(booking), "condition": "attribute_not_exists(pk)"}},
        ]
        try:
            self._transact(ops, SLOT_TAKEN)
        except StateConflict as exc:
            raise StateConflict(SLOT_TAKEN, reason="slot_taken") from exc
        return booking

    def extend_hold(self, booking: Booking, until: datetime, now: datetime) -> Booking:
        """Keep a held slot for a payment starting now: refused (slot_taken) if it went to someone else."""
        ops: list[dict[str, Any]] = [
            {
                "Update": {
                    "table": BOOKINGS,
                    "pk": keys.cells_pk(booking.tenant_id),
                    "sk": sk,
                    "update": "SET hold_until = :until",
                    "condition": "#owner = :owner AND #state = :held",
                    "names": {"#owner": "owner", "#state": "state"},
                    "values": {":owner": booking.booking_id, ":held": "held", ":until": iso(until)},
                }
            }
            for sk in booking.held_cells()
        ]
        ops.append(self._status_update(booking, now, sets={"hold_until": iso(until)}, from_states=("held",)))
        try:
            self._transact(ops, SLOT_TAKEN)
        except StateConflict as exc:
            raise StateConflict(SLOT_TAKEN, reason="slot_taken") from exc
        return self.get(booking.tenant_id, booking.booking_id)

    def attach_order(self, booking: Booking, order: Order, now: datetime) -> None:
        """Write the deposit's order and point the held booking at it, all or nothing (once)."""
        update = self._status_update(booking, now, from_states=("held",), sets={"order_id": order.order_id})
        update["Update"]["condition"] += " AND attribute_not_exists(order_id)"
        ops = [
            {"Put": {"table": ORDERS, "item": order_item(order), "condition": "attribute_not_exists(pk)"}},
            update,
        ]
        self._transact(ops, f"Booking {booking.booking_id} has its deposit order already, or is no longer held.")

    def confirm_operations(self, booking: Booking, now: datetime) -> list[dict[str, Any]]:
        """Transaction parts that confirm a held booking (its deposit is paid): the booking, and each of
        its cells, still its own. Used inside the payment's own transaction, so the money and the slot
        are settled together; if the slot went to someone else, the payment is kept as money to refund
        or apply instead (:meth:`tulia.store.orders.PaymentRepo.settle`)."""
        keep = booking.end + timedelta(days=CELL_KEPT_DAYS)
        ops: list[dict[str, Any]] = [
            {
                "Update": {
                    "table": BOOKINGS,
                    "pk": keys.cells_pk(booking.tenant_id),
                    "sk": sk,
                    "update": "SET #state = :booked, expires_at = :keep REMOVE hold_until",
                    "condition": "#owner = :owner",
                    "names": {"#owner": "owner", "#state": "state"},
                    "values": {":owner": booking.booking_id, ":booked": "booked", ":keep": _epoch(keep)},
                }
            }
            for sk in booking.held_cells()
        ]
        ops.append(
            self._status_update(
                booking, now, to="confirmed", from_states=("held",), mark=BookingMark(event="confirmed", at=now),
                removes=("hold_until",),
            )
        )  # fmt: skip
        return ops

    def confirm(self, booking: Booking, now: datetime) -> Booking:
        self._transact(self.confirm_operations(booking, now), SLOT_TAKEN)
        return self.get(booking.tenant_id, booking.booking_id)

    def _status_update(
        self,
        booking: Booking,
        now: datetime,
        *,
        to: str | None = None,
        from_states: Iterable[str],
        sets: dict[str, Any] | None = None,
        removes: Iterable[str] = (),
        mark: BookingMark | None = None,
    ) -> dict[str, Any]:
        states = sorted(from_states)
        values: dict[str, Any] = {f":f{n}": s for n, s in enumerate(states)} | {":now": iso(now)}
        names = {"#s": "status"}
        parts = ["updated_at = :now"]
        if to is not None:
            parts.append("#s = :to")
            values[":to"] = to
        for n, (field, value) in enumerate((sets or {}).items()):
            names[f"#x{n}"] = field
            values[f":x{n}"] = value
            parts.append(f"#x{n} = :x{n}")
        if mark is not None:
            parts.append("marks = list_append(if_not_exists(marks, :none), :mark)")
            values[":none"], values[":mark"] = [], [mark.model_dump(mode="json")]
        update = "SET " + ", ".join(parts) + (" REMOVE " + ", ".join(removes) if removes else "")
        return {
            "Update": {
                "table": BOOKINGS,
                "pk": keys.booking_pk(booking.tenant_id, booking.booking_id),
                "sk": keys.BOOKING,
                "update": update,
                "condition": f"attribute_exists(pk) AND #s IN ({', '.join(f':f{n}' for n in range(len(states)))})",
                "names": names,
                "values": values,
            }
        }

    def expire_operation(self, booking: Booking, now: datetime) -> dict[str, Any]:
        """A transaction part: a held booking whose deposit came too late is expired."""
        return self._status_update(
            booking, now, to="expired", from_states=("held",), sets={"deposit_outcome": "refund_due"},
            mark=BookingMark(event="expired", at=now, by="system", note="deposit came after the slot was released"),
            removes=("hold_until",),
        )  # fmt: skip

    def own_cells(self, booking: Booking) -> list[str]:
        """Which of the booking's cells it still owns (an expired hold's cells may be someone else's)."""
        pk = keys.cells_pk(booking.tenant_id)
        found = self.db.batch_get([Key(BOOKINGS, pk, sk) for sk in booking.held_cells()])
        return [k.sk for k, item in found.items() if item.get("owner") == booking.booking_id]

    def _release(self, tenant_id: str, owner: str, sks: Iterable[str]) -> list[dict[str, Any]]:
        return [
            {
                "Delete": {
                    "table": BOOKINGS,
                    "pk": keys.cells_pk(tenant_id),
                    "sk": sk,
                    "condition": "#owner = :owner",
                    "names": {"#owner": "owner"},
                    "values": {":owner": owner},
                }
            }
            for sk in sks
        ]

    def cancel(
        self,
        booking: Booking,
        now: datetime,
        *,
        by: str,
        outcome: DepositOutcome,
        to: str = "cancelled",
        note: str | None = None,
        extra: Sequence[dict[str, Any]] = (),
    ) -> Booking:
        """Cancel (or expire) an open booking and free its time, with ``extra`` transaction parts (the
        record of a deposit now owed back), all or nothing; StateConflict if it is no longer open
        (cancelled twice, or confirmed meanwhile when expiring a hold)."""
        from_states = ("held",) if to == "expired" else tuple(sorted(ACTIVE_STATUSES))
        ops = self._release(booking.tenant_id, booking.booking_id, self.own_cells(booking))
        ops.append(
            self._status_update(
                booking, now, to=to, from_states=from_states, sets={"deposit_outcome": outcome},
                mark=BookingMark(event=to, at=now, by=by, note=note), removes=("hold_until",),
            )
        )  # fmt: skip
        ops += extra
        self._transact(ops, f"Booking {booking.booking_id} is no longer open.")
        return self.get(booking.tenant_id, booking.booking_id)

    def move(self, booking: Booking, start: datetime, staff_id: str, staff_name: str, now: datetime, *,
             by: str) -> Booking:  # fmt: skip
        """Move a confirmed booking to ``start`` with ``staff_id``: the new cells taken and the old ones
        freed in one transaction (a move that overlaps itself keeps the shared cells)."""
        length = booking.end - booking.start
        moved = booking.model_copy(
            update={"start": local(start), "end": local(start) + length, "staff_id": staff_id, "staff_name": staff_name}
        )
        new_cells = moved.held_cells()
        keep = moved.end + timedelta(days=CELL_KEPT_DAYS)
        ops = [self._cell_put(booking.tenant_id, sk, booking.booking_id, "booked", None, keep, now) for sk in new_cells]
        ops += self._release(
            booking.tenant_id, booking.booking_id, [c for c in booking.held_cells() if c not in new_cells]
        )
        mark = BookingMark(event="moved", at=now, by=by, note=f"from {local(booking.start):%Y-%m-%d %H:%M} "
                           f"({booking.staff_name})")  # fmt: skip
        update = self._status_update(
            booking, now, from_states=("confirmed",), mark=mark,
            sets={"start": moved.model_dump(mode="json")["start"], "end": moved.model_dump(mode="json")["end"],
                  "staff_id": staff_id, "staff_name": staff_name, "moves": booking.moves + 1,
                  "gsi1sk": sortable(moved.start), "gsi2sk": f"{sortable(moved.start)}#{booking.booking_id}"},
        )  # fmt: skip
        update["Update"]["condition"] += " AND updated_at = :before"
        update["Update"]["values"][":before"] = iso(booking.updated_at)
        ops.append(update)
        try:
            self._transact(ops, SLOT_TAKEN)
        except StateConflict as exc:
            raise StateConflict(SLOT_TAKEN, reason="slot_taken") from exc
        return self.get(booking.tenant_id, booking.booking_id)

    def mark(self, booking: Booking, status: str, now: datetime, *, by: str) -> Booking:
        """A confirmed booking's outcome, marked by staff after its start: completed or no-show."""
        if now < booking.start:
            raise StateConflict(f"Booking {booking.booking_id} has not started yet.", reason="not_started")
        op = self._status_update(
            booking, now, to=status, from_states=("confirmed",), mark=BookingMark(event=status, at=now, by=by)
        )["Update"]
        attrs = self.db.update(
            BOOKINGS, op["pk"], op["sk"], update=op["update"], condition=op["condition"], names=op["names"],
            values=op["values"], conflict_message=f"Booking {booking.booking_id} cannot be marked {status} now.",
        )  # fmt: skip
        return self.from_item(attrs)

    def deposit_returned_operation(
        self, booking: Booking, now: datetime, *, to: str = "refunded", by: str, note: str | None
    ) -> dict[str, Any]:
        """A transaction part: a deposit that was due back is refunded (or applied to another order),
        once: refused unless it is due. Money owed back closes with it (store.orders.PaymentRepo.close_owed_back)."""
        update = self._status_update(
            booking, now, from_states=("cancelled", "expired"), sets={"deposit_outcome": to},
            mark=BookingMark(event=to, at=now, by=by, note=note),
        )  # fmt: skip
        update["Update"]["condition"] += " AND deposit_outcome = :due"
        update["Update"]["values"][":due"] = "refund_due"
        return update

    def record_refund(self, booking: Booking, now: datetime, *, by: str, note: str | None) -> Booking:
        """Staff refunded a deposit that was due back and has no record of money owed back (a booking
        cancelled before those records existed)."""
        op = self.deposit_returned_operation(booking, now, by=by, note=note)["Update"]
        attrs = self.db.update(
            BOOKINGS, op["pk"], op["sk"], update=op["update"], condition=op["condition"], names=op["names"],
            values=op["values"], conflict_message=f"Booking {booking.booking_id} has no deposit due back.",
        )  # fmt: skip
        return self.from_item(attrs)

    # blocked time -------------------------------------------------------------------------------------
    def block(self, block: Block, now: datetime) -> Block:
        """Take the staff member's cells from ``start`` to ``end`` (one day at most), all or nothing;
        StateConflict(slot_taken) naming nothing if a booking or another block holds any of them."""
        minutes = int((block.end - block.start).total_seconds() // 60)
        keep = block.end + timedelta(days=CELL_KEPT_DAYS)
        ops = [
            self._cell_put(block.tenant_id, cell_key(block.staff_id, c), block.block_id, "blocked", None, keep, now)
            for c in cell_starts(block.start, minutes)
        ]
        ops.append(
            {
                "Put": {
                    "table": BOOKINGS,
                    "item": {
                        "pk": keys.blocks_pk(block.tenant_id),
                        "sk": keys.block_sk(sortable(block.start), block.block_id),
                        "block_id": block.block_id,
                        "staff_id": block.staff_id,
                        "start": iso(block.start),
                        "end": iso(block.end),
                        "reason": block.reason,
                        "by": block.by,
                        "created_at": iso(block.created_at),
                        "expires_at": _epoch(keep),
                    },
                    "condition": "attribute_not_exists(pk)",
                }
            }
        )
        try:
            self._transact(ops, "Some of that time is booked or blocked already.")
        except StateConflict as exc:
            raise StateConflict("Some of that time is booked or blocked already.", reason="slot_taken") from exc
        return block

    def blocks_between(self, tenant_id: str, start: datetime, end: datetime) -> list[Block]:
        page = self.db.page(
            BOOKINGS,
            keys.blocks_pk(tenant_id),
            limit=500,
            sk_between=(sortable(start - timedelta(days=1)), sortable(end)),
        )
        out = [_block_of(tenant_id, i) for i in page.items]
        return [b for b in out if b.end > start and b.start < end]

    def unblock(self, tenant_id: str, block_id: str, start: datetime) -> None:
        item = self.db.get(BOOKINGS, keys.blocks_pk(tenant_id), keys.block_sk(sortable(start), block_id))
        if item is None:
            raise NotFound(f"No blocked time '{block_id}'.", field="block_id")
        block = _block_of(tenant_id, item)
        minutes = int((block.end - block.start).total_seconds() // 60)
        ops = self._release(
            tenant_id, block_id, [cell_key(block.staff_id, c) for c in cell_starts(block.start, minutes)]
        )
        ops.append(
            {
                "Delete": {
                    "table": BOOKINGS,
                    "pk": keys.blocks_pk(tenant_id),
                    "sk": keys.block_sk(sortable(start), block_id),
                    "condition": "attribute_exists(pk)",
                }
            }
        )
        self._transact(ops, "That blocked time changed meanwhile.")


def _block_of(tenant_id: str, item: dict[str, Any]) -> Block:
    return Block(
        tenant_id=tenant_id,
        block_id=str(item["block_id"]),
        staff_id=str(item["staff_id"]),
        start=datetime.fromisoformat(str(item["start"])).astimezone(UTC),
        end=datetime.fromisoformat(str(item["end"])).astimezone(UTC),
        reason=str(item.get("reason") or ""),
        by=item.get("by"),
        created_at=datetime.fromisoformat(str(item["created_at"])),
    )
