// The appointment book's pure parts: times in the shop's time (Nairobi, UTC+3 all year, whatever the
// browser's zone), one column per staff member, and what staff may do to a booking now.

import type { BlockedTime, Booking, Calendar } from "../types";

const EAT_MS = 3 * 3600 * 1000;

function inNairobi(iso: string): string {
  return new Date(Date.parse(iso) + EAT_MS).toISOString(); // "YYYY-MM-DDTHH:MM..." as read in Nairobi
}

/** "10:00": the time of day in Nairobi. */
export function eatClock(iso: string): string {
  return inNairobi(iso).slice(11, 16);
}

/** "2026-11-28": the day in Nairobi. */
export function eatDay(iso: string): string {
  return inNairobi(iso).slice(0, 10);
}

/** The day after (or before) a YYYY-MM-DD day. */
export function shiftDay(day: string, by: number): string {
  const at = new Date(`${day}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + by);
  return at.toISOString().slice(0, 10);
}

/** Today in Nairobi. */
export function todayInNairobi(now: Date = new Date()): string {
  return eatDay(now.toISOString());
}

/** A time typed in the shop's time on ``day`` as the API takes it ("2026-11-28T13:00:00+03:00"). */
export function eatIso(day: string, clock: string): string {
  return `${day}T${clock}:00+03:00`;
}

export type Entry = { kind: "booking"; booking: Booking } | { kind: "block"; block: BlockedTime };

export interface Column {
  staffId: string;
  name: string;
  entries: Entry[];
}

const startOf = (e: Entry) => Date.parse(e.kind === "booking" ? e.booking.start : e.block.start);

/** One column per staff member: their bookings and blocked time by start. Cancelled and lapsed
 * bookings stay listed (greyed) below the live ones of the same time. */
export function columns(calendar: Calendar): Column[] {
  return calendar.staff.map((member) => {
    const entries: Entry[] = [
      ...calendar.bookings.filter((b) => b.staff_id === member.staff_id).map((b) => ({ kind: "booking" as const, booking: b })),
      ...calendar.blocks.filter((b) => b.staff_id === member.staff_id).map((b) => ({ kind: "block" as const, block: b })),
    ];
    entries.sort((a, b) => startOf(a) - startOf(b) || Number(isClosed(a)) - Number(isClosed(b)));
    return { staffId: member.staff_id, name: member.name, entries };
  });
}

function isClosed(e: Entry): boolean {
  return e.kind === "booking" && ["cancelled", "expired"].includes(e.booking.status_now);
}

export type BookingAction = "completed" | "no_show" | "move" | "cancel";

/** What staff may do to a booking now: mark it after its start, cancel it while it is open. */
export function bookingActions(booking: Booking, now: Date = new Date()): BookingAction[] {
  const open = booking.status_now === "confirmed" || booking.status_now === "held";
  if (!open) return [];
  if (booking.status_now === "confirmed" && now.getTime() >= Date.parse(booking.start)) {
    return ["completed", "no_show", "cancel"];
  }
  return booking.status_now === "confirmed" ? ["move", "cancel"] : ["cancel"]; // staff move one at any time
}
