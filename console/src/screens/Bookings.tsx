import "../styles-more";
import { Alert, Button, Card, Checkbox, Group, Modal, NativeSelect, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describe } from "../api";
import { refresh } from "../logic/refresh";
import {
  bookingActions,
  clockOf,
  columns,
  eatClock,
  eatDay,
  eatIso,
  eatMinutes,
  shiftDay,
  todayInNairobi,
  weekOf,
} from "../logic/bookings";
import { kes } from "../logic/orders";
import type { BlockedTime, Booking, Calendar, CustomerChange, Me } from "../types";
import { Guarded } from "./Layout";
import { Ago, Failure, Loading, StatusBadge } from "./common";
import { Timeline, type Moving, type TimelineColumn } from "./Timeline";

export function BookingsScreen() {
  return (
    <Guarded screen="bookings">
      <Bookings />
    </Guarded>
  );
}

/** The appointment book: one day, a column per staff member (stacked on a phone), time blocked off,
 * and the deposits due back. Refreshed every 15 seconds: customers book on WhatsApp meanwhile. */
function Bookings() {
  const { t } = useTranslation();
  const me = useQuery({ queryKey: ["me"], queryFn: () => api<Me>("/admin/me") });
  if (me.data && !me.data.takes_bookings) {
    return (
      <Text c="dimmed" data-testid="no-bookings">
        {t("bookings.none")}
      </Text>
    );
  }
  return <Book />;
}

function Book() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const phone = useMediaQuery("(max-width: 48em)");
  const [day, setDay] = useState(todayInNairobi());
  const [view, setView] = useState<"day" | "week">("day");
  const [person, setPerson] = useState<string | null>(null); // a phone shows one column at a time
  const [adding, setAdding] = useState(false);
  const week = weekOf(day);
  const calendar = useQuery({
    queryKey: ["bookings", day],
    queryFn: () => api<Calendar>("/admin/bookings", { query: { day } }),
    refetchInterval: 15_000,
  });
  const weekBook = useQuery({
    queryKey: ["bookings", "week", week[0]],
    queryFn: () => api<Calendar>("/admin/bookings", { query: { day: week[0], days: 7 } }),
    refetchInterval: 15_000,
    enabled: view === "week",
  });
  const refunds = useQuery({ queryKey: ["refunds"], queryFn: () => api<Booking[]>("/admin/bookings/refunds") });
  const changes = useQuery({
    queryKey: ["booking-changes"],
    queryFn: () => api<CustomerChange[]>("/admin/bookings/changes"),
    refetchInterval: 15_000,
  });
  const moveTo = useMutation({
    mutationFn: (m: Moving) =>
      api<Booking>(`/admin/bookings/${m.booking.booking_id}/move`, { method: "POST", body: { start: m.start, staff_id: m.staffId } }),
    onSettled: () => void refresh(client, ["bookings"]),
  });
  const cols = calendar.data ? columns(calendar.data) : [];
  const staff = calendar.data?.staff ?? [];
  const shown = person ?? (phone || view === "week" ? staff[0]?.staff_id : null) ?? null;
  const dayColumns: TimelineColumn[] = cols
    .filter((c) => !phone || c.staffId === shown)
    .map((c) => ({
      key: c.staffId,
      title: c.name,
      day,
      staffId: c.staffId,
      bookings: c.entries.flatMap((e) => (e.kind === "booking" ? [e.booking] : [])),
      blocks: c.entries.flatMap((e) => (e.kind === "block" ? [e.block] : [])),
      working: (calendar.data?.working ?? []).filter((w) => w.staff_id === c.staffId),
    }));
  const member = staff.find((m) => m.staff_id === shown);
  const weekColumns: TimelineColumn[] = (weekBook.data && member ? week : [])
    .filter((d) => !phone || d === day)
    .map((d) => ({
      key: d,
      title: dayName(d),
      day: d,
      staffId: member?.staff_id ?? "",
      bookings: (weekBook.data?.bookings ?? []).filter((b) => b.staff_id === member?.staff_id && eatDay(b.start) === d),
      blocks: (weekBook.data?.blocks ?? []).filter((b) => b.staff_id === member?.staff_id && eatDay(b.start) === d),
      working: (weekBook.data?.working ?? []).filter((w) => w.staff_id === member?.staff_id && eatDay(w.start) === d),
    }));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t("bookings.title")}</Title>
        <Button onClick={() => setAdding(true)}>{t("bookings.add")}</Button>
      </Group>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Button variant="default" onClick={() => setDay(shiftDay(day, view === "week" && !phone ? -7 : -1))}>
          {t("bookings.previous")}
        </Button>
        <TextInput
          type="date"
          label={t("bookings.day")}
          value={day}
          onChange={(e) => e.currentTarget.value && setDay(e.currentTarget.value)}
        />
        <Button variant="default" onClick={() => setDay(shiftDay(day, view === "week" && !phone ? 7 : 1))}>
          {t("bookings.next")}
        </Button>
        <Button variant="subtle" onClick={() => setDay(todayInNairobi())}>
          {t("bookings.today")}
        </Button>
        <SegmentedControl
          value={view}
          onChange={(v) => setView(v as "day" | "week")}
          data={[
            { value: "day", label: t("bookings.dayView") },
            { value: "week", label: t("bookings.weekView") },
          ]}
        />
        {(phone || view === "week") && staff.length > 1 && (
          <NativeSelect
            label={t("bookings.whose")}
            value={shown ?? ""}
            onChange={(e) => setPerson(e.currentTarget.value)}
            data={staff.map((m) => ({ value: m.staff_id, label: m.name }))}
          />
        )}
      </Group>
      {calendar.isPending && <Loading />}
      {calendar.error && <Failure error={calendar.error} />}
      {moveTo.error && (
        <Alert color="red" role="alert">
          {describe(moveTo.error)}
        </Alert>
      )}
      {view === "day" ? (
        calendar.data && <Timeline columns={dayColumns} onMove={(m) => moveTo.mutate(m)} />
      ) : (
        weekBook.data && <Timeline columns={weekColumns} onMove={(m) => moveTo.mutate(m)} />
      )}
      {adding && calendar.data && <NewBooking calendar={calendar.data} day={day} onDone={() => setAdding(false)} />}
      <SimpleGrid cols={{ base: 1, sm: Math.max(1, Math.min(cols.length, 3)) }}>
        {cols.map((col) => (
          <Stack key={col.staffId} gap="xs" data-testid="staff-column">
            <Title order={4}>{col.name}</Title>
            {col.entries.length === 0 && (
              <Text size="sm" c="dimmed">
                {t("bookings.free")}
              </Text>
            )}
            {col.entries.map((e) =>
              e.kind === "booking" ? (
                <BookingCard key={e.booking.booking_id} booking={e.booking} />
              ) : (
                <BlockCard key={e.block.block_id} block={e.block} />
              ),
            )}
          </Stack>
        ))}
      </SimpleGrid>
      {calendar.data && <BlockForm day={day} staff={calendar.data.staff} />}
      <Title order={3}>{t("bookings.changes")}</Title>
      {changes.data?.length === 0 && <Text c="dimmed">{t("bookings.noChanges")}</Text>}
      {changes.data?.map((c) => (
        <Card key={`${c.booking.booking_id}-${c.at}`} withBorder padding="sm" data-testid="customer-change">
          <Group justify="space-between">
            <Text fw={600}>{t(`bookings.changed.${c.event}`, { defaultValue: c.event })}</Text>
            <Text size="xs" c="dimmed">
              <Ago at={c.at} />
            </Text>
          </Group>
          <Text size="sm">
            {c.booking.service_name} · {eatDay(c.booking.start)} {eatClock(c.booking.start)} · {c.booking.staff_name}
          </Text>
          <Text size="sm">
            {c.booking.customer?.name ?? t("bookings.someone")} · {c.booking.customer?.phone ?? "-"} · {c.booking.booking_id}
            {c.booking.deposit_outcome === "kept" && ` · ${t("bookings.depositKept")}`}
            {c.booking.deposit_outcome === "refund_due" && ` · ${t("bookings.refundDue")}`}
          </Text>
        </Card>
      ))}
      <Title order={3}>{t("bookings.refunds")}</Title>
      <Text size="sm" c="dimmed">
        {t("bookings.refundsHelp")}
      </Text>
      {refunds.data?.length === 0 && <Text c="dimmed">{t("bookings.noRefunds")}</Text>}
      {refunds.data?.map((b) => <RefundCard key={b.booking_id} booking={b} />)}
    </Stack>
  );
}

function BookingCard({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const [deposit, setDeposit] = useState<"refund_due" | "kept">("refund_due");
  const act = useMutation({
    mutationFn: (action: "completed" | "no_show" | "cancel") =>
      action === "cancel"
        ? api<Booking>(`/admin/bookings/${booking.booking_id}/cancel`, {
            method: "POST",
            body: booking.deposit ? { deposit } : {},
          })
        : api<Booking>(`/admin/bookings/${booking.booking_id}/mark`, { method: "POST", body: { outcome: action } }),
    onSuccess: () => {
      setCancelling(false);
      void refresh(client, ["bookings"]);
      void refresh(client, ["refunds"]);
    },
  });
  const [moving, setMoving] = useState(false);
  const [moveDay, setMoveDay] = useState(eatDay(booking.start));
  const [moveAt, setMoveAt] = useState(eatClock(booking.start));
  const move = useMutation({
    mutationFn: () =>
      api<Booking>(`/admin/bookings/${booking.booking_id}/move`, { method: "POST", body: { start: eatIso(moveDay, moveAt) } }),
    onSuccess: () => {
      setMoving(false);
      void refresh(client, ["bookings"]);
    },
  });
  const closed = ["cancelled", "expired"].includes(booking.status_now);
  const paid = booking.deposit > 0 && booking.status !== "held";
  return (
    <Card withBorder padding="sm" data-testid="booking" opacity={closed ? 0.55 : 1}>
      <Group justify="space-between" wrap="nowrap">
        <Text fw={700}>
          {eatClock(booking.start)}–{eatClock(booking.end)}
        </Text>
        <StatusBadge value={booking.status_now} group="bookingStatus" />
      </Group>
      <Text size="sm" fw={600}>
        {booking.service_name}
      </Text>
      <Text size="sm">
        {booking.customer?.name ?? t("bookings.someone")} · {booking.customer?.phone ?? "-"}
      </Text>
      {booking.place === "home" && (
        <Text size="sm">
          {t("bookings.atHome")}: {[booking.address, booking.zone].filter(Boolean).join(", ")}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {booking.booking_id}
        {booking.deposit > 0 && ` · ${t(paid ? "bookings.depositPaid" : "bookings.depositWaiting", { amount: kes(booking.deposit) })}`}
        {` · ${t("bookings.toPay", { amount: kes(booking.to_pay_there) })}`}
        {booking.deposit_outcome === "refund_due" && ` · ${t("bookings.refundDue")}`}
      </Text>
      <Group gap="xs" mt="xs">
        {bookingActions(booking).map((a) =>
          a === "move" ? (
            !moving && (
              <Button key={a} size="xs" variant="light" onClick={() => setMoving(true)}>
                {t("bookings.move")}
              </Button>
            )
          ) : a === "cancel" ? (
            !cancelling && (
              <Button key={a} size="xs" variant="light" color="red" onClick={() => setCancelling(true)}>
                {t("bookings.cancel")}
              </Button>
            )
          ) : (
            <Button key={a} size="xs" variant="light" onClick={() => act.mutate(a)} loading={act.isPending}>
              {t(`bookings.mark.${a}`)}
            </Button>
          ),
        )}
      </Group>
      {moving && (
        <Stack gap="xs" mt="xs">
          <Group gap="xs" grow>
            <TextInput size="xs" type="date" label={t("bookings.newDay")} value={moveDay} onChange={(e) => setMoveDay(e.currentTarget.value)} />
            <TextInput size="xs" type="time" step={900} label={t("bookings.newTime")} value={moveAt} onChange={(e) => setMoveAt(e.currentTarget.value)} />
          </Group>
          <Group gap="xs">
            <Button size="xs" onClick={() => move.mutate()} loading={move.isPending} disabled={!moveDay || !moveAt}>
              {t("bookings.confirmMove")}
            </Button>
            <Button size="xs" variant="default" onClick={() => setMoving(false)}>
              {t("bookings.keep")}
            </Button>
          </Group>
          {move.error && (
            <Alert color="red" role="alert">
              {describe(move.error)}
            </Alert>
          )}
        </Stack>
      )}
      {cancelling && (
        <Stack gap="xs" mt="xs">
          {paid && (
            <NativeSelect
              size="xs"
              label={t("bookings.deposit")}
              value={deposit}
              onChange={(e) => setDeposit(e.currentTarget.value as "refund_due" | "kept")}
              data={[
                { value: "refund_due", label: t("bookings.refundIt") },
                { value: "kept", label: t("bookings.keepIt") },
              ]}
            />
          )}
          <Group gap="xs">
            <Button size="xs" color="red" onClick={() => act.mutate("cancel")} loading={act.isPending}>
              {t("bookings.confirmCancel")}
            </Button>
            <Button size="xs" variant="default" onClick={() => setCancelling(false)}>
              {t("bookings.keep")}
            </Button>
          </Group>
        </Stack>
      )}
      {act.error && (
        <Alert color="red" role="alert" mt="xs">
          {describe(act.error)}
        </Alert>
      )}
    </Card>
  );
}

function BlockCard({ block }: { block: BlockedTime }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const free = useMutation({
    mutationFn: () =>
      api<unknown>(`/admin/bookings/blocks/${block.block_id}`, { method: "DELETE", query: { start: block.start } }),
    onSuccess: () => void refresh(client, ["bookings"]),
  });
  return (
    <Card withBorder padding="sm" bg="gray.1" data-testid="blocked">
      <Group justify="space-between" wrap="nowrap">
        <Text fw={700}>
          {eatClock(block.start)}–{eatClock(block.end)}
        </Text>
        <Button size="xs" variant="subtle" onClick={() => free.mutate()} loading={free.isPending}>
          {t("bookings.giveBack")}
        </Button>
      </Group>
      <Text size="sm">
        {t("bookings.blocked")}: {block.reason}
      </Text>
      {free.error && <Failure error={free.error} />}
    </Card>
  );
}

function BlockForm({ day, staff }: { day: string; staff: Calendar["staff"] }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [who, setWho] = useState(staff[0]?.staff_id ?? "");
  const [from, setFrom] = useState("13:00");
  const [to, setTo] = useState("14:00");
  const [reason, setReason] = useState("");
  const block = useMutation({
    mutationFn: () =>
      api<BlockedTime>("/admin/bookings/blocks", {
        method: "POST",
        body: { staff_id: who, start: eatIso(day, from), end: eatIso(day, to), reason: reason.trim() || "away" },
      }),
    onSuccess: () => {
      setReason("");
      void refresh(client, ["bookings"]);
    },
  });
  return (
    <Card withBorder padding="sm">
      <Title order={5}>{t("bookings.blockTitle")}</Title>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <NativeSelect
          label={t("bookings.who")}
          value={who}
          onChange={(e) => setWho(e.currentTarget.value)}
          data={staff.map((s) => ({ value: s.staff_id, label: s.name }))}
        />
        <TextInput type="time" step={900} label={t("bookings.from")} value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput type="time" step={900} label={t("bookings.to")} value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        <TextInput label={t("bookings.reason")} value={reason} onChange={(e) => setReason(e.currentTarget.value)} maxLength={100} />
        <Button onClick={() => block.mutate()} loading={block.isPending} disabled={!who}>
          {t("bookings.block")}
        </Button>
      </Group>
      {block.error && (
        <Alert color="red" role="alert" mt="xs">
          {describe(block.error)}
        </Alert>
      )}
    </Card>
  );
}

/** A deposit due back: the owner refunds it by M-Pesa, then records it here (with the M-Pesa code). */
function RefundCard({ booking }: { booking: Booking }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [note, setNote] = useState("");
  const done = useMutation({
    mutationFn: () =>
      api<Booking>(`/admin/bookings/${booking.booking_id}/refunded`, { method: "POST", body: { note: note.trim() || null } }),
    onSuccess: () => void refresh(client, ["refunds"]),
  });
  return (
    <Card withBorder padding="sm" data-testid="refund">
      <Group justify="space-between">
        <Text fw={600}>{kes(booking.deposit)}</Text>
        <Text size="sm">{booking.booking_id}</Text>
      </Group>
      <Text size="sm">
        {booking.customer?.name ?? t("bookings.someone")} · {booking.customer?.phone ?? "-"} · {booking.order_id ?? "-"}
      </Text>
      <Group gap="xs" align="flex-end" mt="xs">
        <TextInput size="xs" label={t("bookings.refundCode")} value={note} maxLength={200} onChange={(e) => setNote(e.currentTarget.value)} />
        <Button size="xs" onClick={() => done.mutate()} loading={done.isPending}>
          {t("bookings.refunded")}
        </Button>
      </Group>
      {done.error && <Failure error={done.error} />}
    </Card>
  );
}

function dayName(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { weekday: "short", day: "numeric", timeZone: "UTC" });
}

/** A customer who walked in or phoned: booked at once (no deposit) and told on WhatsApp; without a number,
 * the time is blocked for them instead. */
function NewBooking({ calendar, day, onDone }: { calendar: Calendar; day: string; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [service, setService] = useState(calendar.services[0]?.item_id ?? "");
  const [staffId, setStaffId] = useState("");
  const [date, setDate] = useState(day);
  const [at, setAt] = useState("10:00");
  const [phone, setPhone] = useState("");
  const [name, setName] = useState("");
  const [askDeposit, setAskDeposit] = useState(false);
  const chosen = calendar.services.find((x) => x.item_id === service);
  const able = calendar.staff.filter((m) => !chosen || chosen.staff_ids.length === 0 || chosen.staff_ids.includes(m.staff_id));
  const save = useMutation({
    mutationFn: () => {
      const start = eatIso(date, at);
      if (!phone.trim()) {
        // nobody to tell: the time is kept for them as blocked time
        const end = eatIso(date, clockOf(eatMinutes(start) + (chosen?.duration_minutes ?? 30)));
        return api("/admin/bookings/blocks", {
          method: "POST",
          body: { staff_id: staffId || able[0]?.staff_id, start, end, reason: `${t("bookings.walkIn")}: ${name.trim() || chosen?.name || ""}`.slice(0, 100) },
        });
      }
      return api("/admin/bookings", {
        method: "POST",
        body: { item_id: service, start, staff_id: staffId || null, phone: phone.trim(), name: name.trim() || null, ask_deposit: askDeposit },
      });
    },
    onSuccess: () => {
      void refresh(client, ["bookings"]);
      onDone();
    },
  });
  return (
    <Modal opened onClose={onDone} title={t("bookings.add")}>
      <Stack gap="xs" data-testid="new-booking">
        <NativeSelect label={t("bookings.service")} value={service} onChange={(e) => setService(e.currentTarget.value)}
          data={calendar.services.map((x) => ({ value: x.item_id, label: `${x.name} (${x.duration_minutes} min)` }))} />
        <NativeSelect label={t("bookings.who")} value={staffId} onChange={(e) => setStaffId(e.currentTarget.value)}
          data={[{ value: "", label: t("bookings.anyone") }, ...able.map((m) => ({ value: m.staff_id, label: m.name }))]} />
        <Group grow>
          <TextInput type="date" label={t("bookings.day")} value={date} onChange={(e) => setDate(e.currentTarget.value)} />
          <TextInput type="time" step={900} label={t("bookings.time")} value={at} onChange={(e) => setAt(e.currentTarget.value)} />
        </Group>
        <TextInput label={t("bookings.customerPhone")} description={t("bookings.customerPhoneHelp")} value={phone} onChange={(e) => setPhone(e.currentTarget.value)} />
        <TextInput label={t("bookings.customerName")} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        {phone.trim() && (
          <Checkbox label={t("bookings.askDeposit")} description={t("bookings.askDepositHelp")} checked={askDeposit} onChange={(e) => setAskDeposit(e.currentTarget.checked)} />
        )}
        {save.error && (
          <Alert color="red" role="alert">
            {describe(save.error)}
          </Alert>
        )}
        <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!service || !at || !date}>
          {phone.trim() ? t("bookings.bookIt") : t("bookings.holdIt")}
        </Button>
      </Stack>
    </Modal>
  );
}
