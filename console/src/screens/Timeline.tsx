import { Button, Group, Modal, Paper, ScrollArea, Text } from "@mantine/core";
import { useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { useTranslation } from "react-i18next";

import { clockOf, droppedAt, eatClock, eatIso, eatMinutes, movable, offTimes, timelineSpan, type Span } from "../logic/bookings";
import type { BlockedTime, Booking } from "../types";

const PX_PER_MINUTE = 1; // an hour is 60 pixels tall
const COLOURS: Record<string, string> = {
  confirmed: "var(--mantine-color-teal-1)",
  held: "var(--mantine-color-yellow-1)",
  completed: "var(--mantine-color-gray-2)",
  no_show: "var(--mantine-color-red-1)",
  cancelled: "var(--mantine-color-gray-0)",
  expired: "var(--mantine-color-gray-0)",
};

export interface TimelineColumn {
  key: string; // a staff id (a day's book) or a day (a person's week)
  title: string;
  day: string; // the day the column shows (YYYY-MM-DD)
  staffId: string;
  bookings: Booking[];
  blocks: BlockedTime[];
  working: { start: string; end: string }[]; // when the person takes appointments that day (none: a day off)
}

export interface Moving {
  booking: Booking;
  start: string; // ISO with +03:00
  staffId: string;
  staffName: string;
}

/** The day (or week) at a glance: hours down, a column per person (or per day), each appointment where
 * its time is. A confirmed appointment that has not started can be dragged to another time or person;
 * the move is confirmed before it is made (the customer is told). */
export function Timeline({ columns, onMove }: { columns: TimelineColumn[]; onMove?: (m: Moving) => void }) {
  const { t } = useTranslation();
  const live = columns.flatMap((c) => c.bookings.filter((b) => !["cancelled", "expired"].includes(b.status_now)));
  const span = timelineSpan(
    [...live.map((b) => b.start), ...columns.flatMap((c) => [...c.blocks, ...c.working].map((b) => b.start))],
    [...live.map((b) => b.end), ...columns.flatMap((c) => [...c.blocks, ...c.working].map((b) => b.end))],
  );
  const height = (span.to - span.from) * PX_PER_MINUTE;
  const hours = Array.from({ length: (span.to - span.from) / 60 + 1 }, (_, n) => span.from + n * 60);
  const [drag, setDrag] = useState<{ booking: Booking; x0: number; y0: number; dx: number; dy: number; grab: number } | null>(null);
  const [proposal, setProposal] = useState<Moving | null>(null);
  const board = useRef<HTMLDivElement>(null);

  const down = (e: ReactPointerEvent<HTMLDivElement>, booking: Booking) => {
    if (!onMove || !movable(booking)) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    const box = e.currentTarget.getBoundingClientRect();
    setDrag({ booking, x0: e.clientX, y0: e.clientY, dx: 0, dy: 0, grab: e.clientY - box.top });
  };
  const move = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (drag) setDrag({ ...drag, dx: e.clientX - drag.x0, dy: e.clientY - drag.y0 });
  };
  const up = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const { booking, grab } = drag;
    setDrag(null);
    if (Math.abs(e.clientX - drag.x0) < 4 && Math.abs(e.clientY - drag.y0) < 4) return; // a tap, not a drag
    const under = document.elementsFromPoint(e.clientX, e.clientY).find((el) => el instanceof HTMLElement && el.dataset.column);
    const target = columns.find((c) => under instanceof HTMLElement && c.key === under.dataset.column);
    if (!target || !(under instanceof HTMLElement)) return;
    const top = e.clientY - grab - under.getBoundingClientRect().top;
    const minutes = eatMinutes(booking.end) - eatMinutes(booking.start);
    const at = droppedAt(top, span, PX_PER_MINUTE, minutes);
    const start = eatIso(target.day, clockOf(at));
    if (Date.parse(start) === Date.parse(booking.start) && target.staffId === booking.staff_id) return;
    setProposal({ booking, start, staffId: target.staffId, staffName: target.title });
  };

  return (
    <>
      <ScrollArea type="auto" data-testid="timeline">
        <div ref={board} style={{ display: "flex", minWidth: 56 + columns.length * 120, userSelect: "none" }}>
          <div style={{ width: 48, flexShrink: 0, paddingTop: 28 }}>
            {hours.map((h) => (
              <div key={h} style={{ height: h === span.to ? 0 : 60 * PX_PER_MINUTE, fontSize: 11, color: "var(--mantine-color-dimmed)" }}>
                {clockOf(h)}
              </div>
            ))}
          </div>
          {columns.map((col) => (
            <div key={col.key} style={{ flex: 1, minWidth: 110 }}>
              <Text size="sm" fw={600} ta="center" h={28} truncate>
                {col.title}
              </Text>
              <div
                data-column={col.key}
                data-testid="timeline-column"
                data-title={col.title}
                style={{
                  position: "relative",
                  height,
                  borderLeft: "1px solid var(--mantine-color-gray-3)",
                  backgroundImage: `repeating-linear-gradient(to bottom, var(--mantine-color-gray-2) 0 1px, transparent 1px ${60 * PX_PER_MINUTE}px)`,
                }}
              >
                {offTimes(col.working, span).map((off) => (
                  <div
                    key={`off-${off.from}`}
                    data-testid="timeline-off"
                    style={{
                      position: "absolute", left: 0, right: 0, top: (off.from - span.from) * PX_PER_MINUTE,
                      height: (off.to - off.from) * PX_PER_MINUTE, background: "var(--mantine-color-gray-1)",
                      fontSize: 10, color: "var(--mantine-color-dimmed)", padding: 2, pointerEvents: "none",
                    }}
                  >
                    {col.working.length === 0 && off.from === span.from ? t("bookings.dayOff") : ""}
                  </div>
                ))}
                {col.blocks.map((b) => (
                  <div
                    key={b.block_id}
                    data-testid="timeline-block"
                    style={{
                      position: "absolute", left: 2, right: 2, top: (eatMinutes(b.start) - span.from) * PX_PER_MINUTE,
                      height: Math.max(16, (eatMinutes(b.end) - eatMinutes(b.start)) * PX_PER_MINUTE), fontSize: 11,
                      background: "repeating-linear-gradient(45deg, var(--mantine-color-gray-1) 0 6px, var(--mantine-color-gray-3) 6px 12px)",
                      borderRadius: 4, padding: 2, overflow: "hidden",
                    }}
                  >
                    {t("bookings.blocked")} · {b.reason}
                  </div>
                ))}
                {col.bookings.map((b) => {
                  const dragging = drag?.booking.booking_id === b.booking_id;
                  const closed = ["cancelled", "expired"].includes(b.status_now);
                  return (
                    <Paper
                      key={b.booking_id}
                      withBorder
                      data-testid="timeline-booking"
                      data-booking={b.booking_id}
                      data-status={b.status_now}
                      title={t(`bookingStatus.${b.status_now}`, { defaultValue: b.status_now })}
                      onPointerDown={(e) => down(e, b)}
                      onPointerMove={move}
                      onPointerUp={up}
                      style={{
                        position: "absolute", left: closed ? "55%" : 2, right: 2,
                        top: (eatMinutes(b.start) - span.from) * PX_PER_MINUTE,
                        height: Math.max(18, (eatMinutes(b.end) - eatMinutes(b.start)) * PX_PER_MINUTE - 2),
                        background: COLOURS[b.status_now] ?? "white", padding: "1px 4px", overflow: "hidden", fontSize: 11,
                        opacity: closed ? 0.6 : 1, cursor: onMove && movable(b) ? "grab" : "default", touchAction: onMove && movable(b) ? "none" : "auto",
                        transform: dragging ? `translate(${drag.dx}px, ${drag.dy}px)` : undefined, zIndex: dragging ? 5 : 1,
                        textDecoration: closed ? "line-through" : undefined,
                      }}
                    >
                      <b>{eatClock(b.start)}</b> {b.service_name} · {b.customer?.name ?? b.customer?.phone ?? t("bookings.someone")}
                    </Paper>
                  );
                })}
              </div>
            </div>
          ))}
        </div>
      </ScrollArea>
      {proposal && (
        <Modal opened onClose={() => setProposal(null)} title={t("bookings.moveTitle")}>
          <Text data-testid="move-proposal">
            {t("bookings.moveTo", {
              service: proposal.booking.service_name,
              who: proposal.booking.customer?.name ?? t("bookings.someone"),
              when: `${proposal.start.slice(0, 10)} ${eatClock(proposal.start)}`,
              staff: proposal.staffName,
            })}
          </Text>
          <Group mt="md">
            <Button
              onClick={() => {
                onMove?.(proposal);
                setProposal(null);
              }}
            >
              {t("bookings.confirmMove")}
            </Button>
            <Button variant="default" onClick={() => setProposal(null)}>
              {t("bookings.keep")}
            </Button>
          </Group>
        </Modal>
      )}
    </>
  );
}

export type { Span };
