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

/** Minutes since midnight in Nairobi. */
export function eatMinutes(iso: string): number {
  const [h, m] = eatClock(iso).split(":").map(Number);
  return h * 60 + m;
}

/** "HH:MM" of minutes since midnight. */
export function clockOf(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

export interface Span {
  from: number; // minutes since midnight, on the hour
  to: number;
}

/** The hours a timeline shows: the working day (08:00-19:00) widened to hold everything listed. */
export function timelineSpan(starts: readonly string[], ends: readonly string[], base: Span = { from: 8 * 60, to: 19 * 60 }): Span {
  const from = Math.min(base.from, ...starts.map(eatMinutes));
  const to = Math.max(base.to, ...ends.map((e) => eatMinutes(e) || 1440));
  return { from: Math.floor(from / 60) * 60, to: Math.min(1440, Math.ceil(to / 60) * 60) };
}

/** Where a dragged booking lands: its top edge (pixels from the column's top) as a start in minutes, on the
 * slot grid, kept inside the timeline. */
export function droppedAt(topPx: number, span: Span, pxPerMinute: number, durationMinutes: number, grid = 15): number {
  const raw = span.from + topPx / pxPerMinute;
  const snapped = Math.round(raw / grid) * grid;
  return Math.max(span.from, Math.min(span.to - durationMinutes, snapped));
}

/** The seven days of the week (Monday first) holding ``day``. */
export function weekOf(day: string): string[] {
  const at = new Date(`${day}T12:00:00Z`);
  const monday = shiftDay(day, -((at.getUTCDay() + 6) % 7));
  return Array.from({ length: 7 }, (_, n) => shiftDay(monday, n));
}

/** Whether staff may drag a booking to another time (a confirmed one that has not started). */
export function movable(booking: Booking, now: Date = new Date()): boolean {
  return booking.status_now === "confirmed" && Date.parse(booking.start) > now.getTime();
}

/** The time of a column nobody works (before, between and after a person's working times), in minutes of the
 * day inside the timeline's span; the whole span when they do not work that day. */
export function offTimes(working: readonly { start: string; end: string }[], span: Span): { from: number; to: number }[] {
  const spans = working
    .map((w) => ({ from: Math.max(span.from, eatMinutes(w.start)), to: Math.min(span.to, eatMinutes(w.end) || 1440) }))
    .filter((w) => w.to > w.from)
    .sort((a, b) => a.from - b.from);
  const off: { from: number; to: number }[] = [];
  let at = span.from;
  for (const w of spans) {
    if (w.from > at) off.push({ from: at, to: w.from });
    at = Math.max(at, w.to);
  }
  if (at < span.to) off.push({ from: at, to: span.to });
  return off;
}
