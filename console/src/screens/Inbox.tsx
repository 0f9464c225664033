import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from "@mantine/core";
import { useLocalStorage, useMediaQuery } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";

import { all, api, describe } from "../api";
import { refresh } from "../logic/refresh";
import { handoffSummary } from "../logic/conversations";
import { customerLabel, newKey, replyWindow, sortInbox, unreadCount } from "../logic/inbox";
import type { Ticket, TicketContext, TranscriptEntry } from "../types";
import { Ago, Failure, Loading, StatusBadge, useWho, when } from "./common";

const POLL_MS = 3000; // new customer messages appear without a reload

/** When this browser last showed each conversation's messages (for the "new" badges). */
function useSeen() {
  return useLocalStorage<Record<string, string>>({ key: "tulia-console-seen", defaultValue: {} });
}

export function InboxScreen() {
  const { ticketId } = useParams();
  const { t } = useTranslation();
  const phone = useMediaQuery("(max-width: 48em)");
  const tickets = useQuery({
    queryKey: ["tickets"],
    queryFn: async () => {
      const [open, claimed] = await Promise.all([
        all<Ticket>("/admin/handoffs", { status: "open" }),
        all<Ticket>("/admin/handoffs", { status: "claimed" }),
      ]);
      return sortInbox([...open, ...claimed]);
    },
    refetchInterval: POLL_MS,
  });

  const list = (
    <Stack gap="xs">
      <Title order={3}>{t("inbox.title")}</Title>
      {tickets.isPending && <Loading />}
      {tickets.error && <Failure error={tickets.error} />}
      {tickets.data?.length === 0 && <Text c="dimmed">{t("inbox.empty")}</Text>}
      {tickets.data?.map((ticket) => (
        <TicketCard key={ticket.ticket_id} ticket={ticket} selected={ticket.ticket_id === ticketId} />
      ))}
    </Stack>
  );
  if (phone) return ticketId ? <TicketView ticketId={ticketId} /> : list;
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 4 }}>{list}</Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        {ticketId ? <TicketView ticketId={ticketId} /> : <Text c="dimmed">{t("inbox.pick")}</Text>}
      </Grid.Col>
    </Grid>
  );
}

function TicketCard({ ticket, selected }: { ticket: Ticket; selected: boolean }) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const [seen] = useSeen();
  const fresh = selected ? 0 : unreadCount(ticket, seen[ticket.ticket_id]);
  return (
    <Card
      withBorder
      padding="sm"
      data-testid="ticket"
      style={{ cursor: "pointer", borderColor: selected ? "var(--mantine-color-teal-6)" : undefined }}
      onClick={() => navigate(`/inbox/${ticket.ticket_id}`)}
    >
      <Group justify="space-between" wrap="nowrap">
        <Text fw={600} truncate>
          {ticket.customer?.name ?? customerLabel(ticket)}
        </Text>
        <StatusBadge value={ticket.priority} group="priority" />
      </Group>
      {ticket.customer?.name && ticket.customer.phone && <Text size="sm">{ticket.customer.phone}</Text>}
      <Text size="sm" c="dimmed" truncate>
        {t(`reasons.${ticket.reason}`, { defaultValue: ticket.reason.replace(/_/g, " ") })}
      </Text>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          <Ago at={ticket.created_at} />
        </Text>
        <Group gap={4}>
          {fresh > 0 && (
            <Badge color="red" data-testid="new-messages">
              {t("inbox.new", { count: fresh })}
            </Badge>
          )}
          <StatusBadge value={ticket.status} group="ticketStatus" />
        </Group>
      </Group>
    </Card>
  );
}

function TicketView({ ticketId }: { ticketId: string }) {
  const who = useWho();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [draft, setDraft] = useState("");
  // one key per message written: sending it again after a failure cannot send it twice
  const replyKey = useRef(newKey());
  const ticket = useQuery({
    queryKey: ["ticket", ticketId],
    queryFn: () => api<Ticket>(`/admin/handoffs/${encodeURIComponent(ticketId)}`),
    refetchInterval: POLL_MS,
  });
  const refreshTicket = () => {
    void refresh(client, ["ticket", ticketId]);
    void refresh(client, ["tickets"]);
  };
  const claim = useMutation({
    mutationFn: () => api<Ticket>(`/admin/handoffs/${ticketId}/claim`, { method: "POST" }),
    onSuccess: refreshTicket,
  });
  const reply = useMutation({
    mutationFn: (text: string) =>
      api<Ticket>(`/admin/handoffs/${ticketId}/reply`, {
        method: "POST",
        body: { text },
        headers: { "Idempotency-Key": replyKey.current },
      }),
    onSuccess: () => {
      replyKey.current = newKey();
      setDraft("");
      refreshTicket();
    },
  });
  const [, setSeen] = useSeen();
  const lastSaid = ticket.data?.transcript.filter((e) => e.role === "customer").at(-1)?.at;
  useEffect(() => {
    if (lastSaid) setSeen((seen) => ({ ...seen, [ticketId]: lastSaid }));
  }, [ticketId, lastSaid, setSeen]);
  const resolve = useMutation({
    mutationFn: () => api<Ticket>(`/admin/handoffs/${ticketId}/resolve`, { method: "POST", body: {} }),
    onSuccess: () => {
      refreshTicket();
      navigate("/inbox");
    },
  });

  // a conversation opens at its newest message, and follows new ones
  const viewport = useRef<HTMLDivElement>(null);
  const shown = ticket.data ? ticket.data.transcript.length + ((ticket.data.context_snapshot as TicketContext).last_messages?.length ?? 0) : 0;
  useLayoutEffect(() => {
    const v = viewport.current;
    if (v) v.scrollTop = v.scrollHeight;
  }, [shown]);

  if (ticket.isPending) return <Loading />;
  if (ticket.error) return <Failure error={ticket.error} />;
  const tk = ticket.data;
  const replyWin = replyWindow(tk.last_customer_message_at, new Date());
  const context = tk.context_snapshot as TicketContext;
  const before = (context.last_messages ?? []) as { role?: string; text?: string; content?: string }[];

  return (
    <Stack gap="sm" data-testid="ticket-view">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Anchor size="sm" onClick={() => navigate("/inbox")} hiddenFrom="md">
            ← {t("inbox.back")}
          </Anchor>
          <Title order={4} data-testid="customer-name">
            {tk.customer?.name ?? t("inbox.unknownName")}
          </Title>
          <Text size="sm" data-testid="customer-phone">
            {tk.customer?.phone ?? tk.customer_id}
          </Text>
        </div>
        <Group gap="xs">
          <StatusBadge value={tk.priority} group="priority" />
          <StatusBadge value={tk.status} group="ticketStatus" />
        </Group>
      </Group>
      {/* what to do comes first: on a phone it is above the fold, not under the conversation */}
      <Group gap="xs" data-testid="ticket-actions">
        {tk.status === "open" && (
          <Button onClick={() => claim.mutate()} loading={claim.isPending}>
            {t("inbox.claim")}
          </Button>
        )}
        <Button variant="outline" color="gray" onClick={() => resolve.mutate()} loading={resolve.isPending}>
          {t("inbox.resolve")}
        </Button>
        <Anchor size="sm" onClick={() => navigate(`/conversations/${tk.customer_id}`)}>
          {t("inbox.whole")}
        </Anchor>
      </Group>
      <Paper withBorder p="sm" bg="var(--mantine-color-gray-0)">
        <Text size="xs" c="dimmed">
          {t("inbox.summary")}
        </Text>
        <Text size="sm" data-testid="summary">
          {handoffSummary(t, context.facts, context.summary ?? tk.reason)}
        </Text>
        {context.order_id && (
          <Anchor size="sm" onClick={() => navigate(`/orders/${context.order_id}`)}>
            {t("inbox.order")} {context.order_id}
          </Anchor>
        )}
        <Text size="xs" c="dimmed">
          {tk.assigned_to ? t("inbox.assigned", { who: who(tk.assigned_to) }) : t("inbox.unassigned")}
        </Text>
      </Paper>
      {/* the page's own scrolling (no scroll-area component: the inbox is in the first load) */}
      <div ref={viewport} data-testid="thread" style={{ maxHeight: 420, overflowY: "auto" }}>
        <Stack gap={6}>
          {before.length > 0 && (
            <Text size="xs" c="dimmed">
              {t("inbox.before")}
            </Text>
          )}
          {before.map((m, i) =>
            m.role === "event" ? (
              <Text key={`b${i}`} size="xs" c="dimmed" ta="center" data-testid="event">
                {m.text}
              </Text>
            ) : (
              <Bubble key={`b${i}`} role={m.role === "user" || m.role === "customer" ? "customer" : "bot"} text={m.text ?? m.content ?? ""} />
            ),
          )}
          {tk.transcript.map((e, i) => (
            <Bubble key={i} role={e.role} text={e.text} at={e.at} by={e.by} failed={e.message_id?.startsWith("failed")} />
          ))}
        </Stack>
      </div>
      {replyWin.open ? (
        <Text size="xs" c="dimmed" data-testid="window">
          {t("inbox.windowOpen", { until: when(replyWin.closesAt?.toISOString()) })}
        </Text>
      ) : (
        <Alert color="yellow" data-testid="window">
          {t("inbox.windowClosed")}
        </Alert>
      )}
      <Textarea
        placeholder={t("inbox.replyPlaceholder")}
        aria-label={t("inbox.reply")}
        autosize
        minRows={2}
        maxRows={6}
        value={draft}
        onChange={(e) => setDraft(e.currentTarget.value)}
      />
      {(claim.error || reply.error || resolve.error) && (
        <Alert color="red" role="alert">
          {describe(claim.error ?? reply.error ?? resolve.error)}
        </Alert>
      )}
      <Group gap="xs">
        <Button onClick={() => draft.trim() && reply.mutate(draft.trim())} loading={reply.isPending} disabled={!draft.trim()}>
          {t("inbox.send")}
        </Button>
      </Group>
    </Stack>
  );
}

function Bubble({ role, text, at, by, failed }: { role: TranscriptEntry["role"]; text: string; at?: string; by?: string | null; failed?: boolean }) {
  const who = useWho();
  const { t } = useTranslation();
  const mine = role !== "customer";
  return (
    <Paper
      data-testid={`message-${role}`}
      p="xs"
      maw="85%"
      ml={mine ? "auto" : undefined}
      bg={role === "agent" ? "var(--mantine-color-teal-0)" : role === "bot" ? "var(--mantine-color-gray-1)" : "white"}
      withBorder
    >
      <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
        {text}
      </Text>
      <Group gap={4} justify="flex-end">
        {failed && (
          <Badge color="red" size="xs">
            {t("inbox.notSent")}
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          {t(`inbox.role.${role}`)}
          {by ? ` · ${who(by)}` : ""}
          {at ? ` · ${when(at)}` : ""}
        </Text>
      </Group>
    </Paper>
  );
}
