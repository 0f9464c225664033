import "../styles-more";
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Chip,
  Divider,
  Grid,
  Group,
  Menu,
  Modal,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from "@mantine/core";
import { useDebouncedValue, useDisclosure, useMediaQuery } from "@mantine/hooks";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";

import { api, describe, type Page } from "../api";
import { useAuth } from "../auth";
import { eventText, handoffSummary, kes, preview, withOlder } from "../logic/conversations";
import { newKey, replyWindow } from "../logic/inbox";
import { refresh } from "../logic/refresh";
import type {
  Conversation,
  ConversationSummary,
  QuickReplies,
  QuickReply,
  ThreadEntry,
  Ticket,
  TicketContext,
} from "../types";
import { Ago, Failure, Loading, StatusBadge, useWho, when } from "./common";

const LIST_POLL_MS = 5000;
const THREAD_POLL_MS = 3000;
const FILTERS = ["all", "waiting", "unpaid", "booked"] as const;
type Filter = (typeof FILTERS)[number];

export function ConversationsScreen() {
  const { customerId } = useParams();
  const { t } = useTranslation();
  const phone = useMediaQuery("(max-width: 48em)");
  if (phone) return customerId ? <ConversationView customerId={customerId} /> : <ConversationList />;
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <ConversationList selected={customerId} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        {customerId ? <ConversationView key={customerId} customerId={customerId} /> : <Text c="dimmed">{t("conv.pick")}</Text>}
      </Grid.Col>
    </Grid>
  );
}

function ConversationList({ selected }: { selected?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState("");
  const [q] = useDebouncedValue(search.trim(), 300);
  const [filter, setFilter] = useState<Filter>("all");
  const list = useInfiniteQuery({
    queryKey: ["conversations", q, filter],
    queryFn: ({ pageParam }) =>
      api<Page<ConversationSummary>>("/admin/conversations", { query: { q, filter, limit: 30, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? null,
    refetchInterval: LIST_POLL_MS,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="xs">
      <Title order={3}>{t("conv.title")}</Title>
      <TextInput
        placeholder={t("conv.search")}
        aria-label={t("conv.search")}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        type="search"
      />
      <Chip.Group multiple={false} value={filter} onChange={(v) => setFilter(v as Filter)}>
        <Group gap={6}>
          {FILTERS.map((f) => (
            <Chip key={f} value={f} size="xs" data-testid={`filter-${f}`}>
              {t(`conv.filter.${f}`)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {list.isPending && <Loading />}
      {list.error && <Failure error={list.error} />}
      {list.isSuccess && items.length === 0 && <Text c="dimmed">{t("conv.none")}</Text>}
      {items.map((c) => (
        <Card
          key={c.customer.customer_id}
          withBorder
          padding="sm"
          data-testid="conversation"
          style={{
            cursor: "pointer",
            borderColor: c.customer.customer_id === selected ? "var(--mantine-color-teal-6)" : undefined,
          }}
          onClick={() => navigate(`/conversations/${c.customer.customer_id}`)}
        >
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} truncate>
              {c.customer.name ?? c.customer.phone ?? t("inbox.unknownName")}
            </Text>
            {c.last_at && (
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                <Ago at={c.last_at} />
              </Text>
            )}
          </Group>
          {c.customer.name && c.customer.phone && <Text size="xs">{c.customer.phone}</Text>}
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" c="dimmed" truncate>
              {preview(t, c.last_role, c.last_text)}
            </Text>
            {c.waiting && (
              <Badge color="orange" size="sm" style={{ flexShrink: 0 }}>
                {t("conv.waiting")}
              </Badge>
            )}
          </Group>
        </Card>
      ))}
      {list.hasNextPage && (
        <Button variant="subtle" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t("common.more")}
        </Button>
      )}
    </Stack>
  );
}

function ConversationView({ customerId }: { customerId: string }) {
  const who = useWho();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { session } = useAuth();
  const phone = useMediaQuery("(max-width: 48em)");
  const path = `/admin/conversations/${encodeURIComponent(customerId)}`;
  const conv = useQuery({ queryKey: ["conversation", customerId], queryFn: () => api<Conversation>(path), refetchInterval: THREAD_POLL_MS });
  const [older, setOlder] = useState<{ entries: ThreadEntry[]; cursor: string | null } | null>(null);
  const loadOlder = useMutation({
    mutationFn: (cursor: string) => api<Page<ThreadEntry>>(`${path}/entries`, { query: { cursor } }),
    onSuccess: (page) => setOlder((o) => ({ entries: [...page.items, ...(o?.entries ?? [])], cursor: page.cursor ?? null })),
  });
  const changed = () => {
    void refresh(client, ["conversation", customerId]);
    void refresh(client, ["conversations"]);
    void refresh(client, ["tickets"]);
  };
  const take = useMutation({ mutationFn: () => api<Ticket>(`${path}/take`, { method: "POST" }), onSuccess: changed });
  const handBack = useMutation({
    mutationFn: (ticketId: string) => api<Ticket>(`/admin/handoffs/${ticketId}/resolve`, { method: "POST", body: {} }),
    onSuccess: changed,
  });

  if (conv.isPending) return <Loading />;
  if (conv.error) return <Failure error={conv.error} />;
  const c = conv.data;
  const ticket = c.ticket;
  const mine = ticket?.status === "claimed" && ticket.assigned_to === session?.email;
  const someoneElse = ticket?.status === "claimed" && ticket.assigned_to && ticket.assigned_to !== session?.email;
  const entries = withOlder(older?.entries ?? [], c.entries);
  const moreCursor = older ? older.cursor : c.cursor;
  const context = (ticket?.context_snapshot ?? {}) as TicketContext;

  const actions = (
    <Group gap="xs" data-testid="conversation-actions">
      {!ticket && (
        <Button size="xs" onClick={() => take.mutate()} loading={take.isPending}>
          {t("conv.takeOver")}
        </Button>
      )}
      {ticket?.status === "open" && (
        <Button size="xs" onClick={() => take.mutate()} loading={take.isPending}>
          {t("conv.takeIt")}
        </Button>
      )}
      {ticket && (ticket.status === "open" || mine || session?.roles.includes("owner")) && (
        <Button size="xs" variant="outline" color="gray" onClick={() => handBack.mutate(ticket.ticket_id)} loading={handBack.isPending}>
          {t("conv.handBack")}
        </Button>
      )}
    </Group>
  );

  const thread = (
    <Stack gap="sm" data-testid="conversation-view">
      <Paper
        withBorder
        p="xs"
        style={{ position: "sticky", top: "calc(var(--app-shell-header-height, 56px) + 4px)", zIndex: 2 }}
      >
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div>
            <Anchor size="sm" onClick={() => navigate("/conversations")} hiddenFrom="md">
              ← {t("conv.back")}
            </Anchor>
            <Title order={4} data-testid="customer-name">
              {c.customer.name ?? t("inbox.unknownName")}
            </Title>
            <Text size="sm" data-testid="customer-phone">
              {c.customer.phone ?? c.customer.customer_id}
            </Text>
          </div>
          {actions}
        </Group>
        {ticket && (
          <Text size="sm" mt={4} data-testid="summary">
            {handoffSummary(t, context.facts, context.summary ?? ticket.reason)}
          </Text>
        )}
        <Text size="xs" c="dimmed" data-testid="who-has-it">
          {mine
            ? t("conv.yours")
            : someoneElse
              ? t("conv.theirs", { who: who(ticket?.assigned_to) })
              : ticket
                ? t("conv.askedFor")
                : t("conv.botHas")}
        </Text>
      </Paper>
      {(take.error || handBack.error) && (
        <Alert color="red" role="alert">
          {describe(take.error ?? handBack.error)}
        </Alert>
      )}
      <Thread
        entries={entries}
        more={moreCursor ? () => loadOlder.mutate(moreCursor) : undefined}
        loadingMore={loadOlder.isPending}
      />
      {ticket && (mine || ticket.status === "open") && <ReplyBox ticket={ticket} onSent={changed} />}
    </Stack>
  );
  const side = <CustomerSide conversation={c} customerId={customerId} />;
  if (phone) {
    return (
      <Stack>
        {thread}
        <Divider />
        {side}
      </Stack>
    );
  }
  return (
    <Grid>
      <Grid.Col span={{ base: 12, lg: 8 }}>{thread}</Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>{side}</Grid.Col>
    </Grid>
  );
}

/** The messages, oldest at the top, opened at the newest (and kept there as new ones arrive, unless the
 * reader scrolled up to read). */
function Thread({ entries, more, loadingMore }: { entries: ThreadEntry[]; more?: () => void; loadingMore: boolean }) {
  const who = useWho();
  const { t } = useTranslation();
  const viewport = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const last = entries.at(-1);
  const lastKey = last ? `${last.at}|${last.role}` : "";
  useLayoutEffect(() => {
    const v = viewport.current;
    if (v && atBottom.current) v.scrollTop = v.scrollHeight;
  }, [lastKey]);
  return (
    <ScrollArea.Autosize
      mah="60vh"
      viewportRef={viewport}
      onScrollPositionChange={() => {
        const v = viewport.current;
        if (v) atBottom.current = v.scrollHeight - v.scrollTop - v.clientHeight < 40;
      }}
      data-testid="thread"
    >
      <Stack gap={6} p={2}>
        {more && (
          <Button variant="subtle" size="xs" onClick={more} loading={loadingMore}>
            {t("conv.older")}
          </Button>
        )}
        {entries.length === 0 && <Text c="dimmed">{t("conv.nothingYet")}</Text>}
        {entries.map((e) =>
          e.role === "event" ? (
            <Text key={`${e.at}${e.ref}`} size="xs" c="dimmed" ta="center" data-testid="event">
              {eventText(t, { ...e, by: e.by ? who(e.by) : e.by })} · {when(e.at)}
            </Text>
          ) : (
            <Paper
              key={`${e.at}${e.ref}`}
              data-testid={`message-${e.role}`}
              p="xs"
              maw="85%"
              ml={e.role === "customer" ? undefined : "auto"}
              bg={e.role === "staff" ? "var(--mantine-color-teal-0)" : e.role === "bot" ? "var(--mantine-color-gray-1)" : "white"}
              withBorder
            >
              <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
                {e.text}
              </Text>
              <Text size="xs" c="dimmed" ta="right">
                {t(`conv.role.${e.role}`)}
                {e.by ? ` · ${who(e.by)}` : ""}
                {e.template ? ` · ${t("conv.template", { name: e.template })}` : ""}
                {` · ${when(e.at)}`}
              </Text>
            </Paper>
          ),
        )}
      </Stack>
    </ScrollArea.Autosize>
  );
}

function ReplyBox({ ticket, onSent }: { ticket: Ticket; onSent: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState("");
  const replyKey = useRef(newKey());
  const reply = useMutation({
    mutationFn: (text: string) =>
      api<Ticket>(`/admin/handoffs/${ticket.ticket_id}/reply`, {
        method: "POST",
        body: { text },
        headers: { "Idempotency-Key": replyKey.current },
      }),
    onSuccess: () => {
      replyKey.current = newKey();
      setDraft("");
      onSent();
    },
  });
  const win = replyWindow(ticket.last_customer_message_at, new Date());
  return (
    <Stack gap="xs">
      {win.open ? (
        <Text size="xs" c="dimmed" data-testid="window">
          {t("inbox.windowOpen", { until: when(win.closesAt?.toISOString()) })}
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
      {reply.error && (
        <Alert color="red" role="alert">
          {describe(reply.error)}
        </Alert>
      )}
      <Group gap="xs">
        <Button onClick={() => draft.trim() && reply.mutate(draft.trim())} loading={reply.isPending} disabled={!draft.trim()}>
          {t("inbox.send")}
        </Button>
        <QuickReplyMenu onPick={(text) => setDraft((d) => (d.trim() ? `${d.trim()}\n${text}` : text))} />
      </Group>
    </Stack>
  );
}

function QuickReplyMenu({ onPick }: { onPick: (text: string) => void }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const [editing, { open, close }] = useDisclosure(false);
  const replies = useQuery({ queryKey: ["quick-replies"], queryFn: () => api<QuickReplies>("/admin/quick-replies") });
  const owner = session?.roles.includes("owner") ?? false;
  return (
    <>
      <Menu position="top-start" withinPortal>
        <Menu.Target>
          <Button variant="light" data-testid="quick-replies">
            {t("conv.quick")}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {(replies.data?.replies ?? []).map((r, i) => (
            <Menu.Item key={i} onClick={() => onPick(r.text)}>
              {r.title}
            </Menu.Item>
          ))}
          {replies.data?.replies.length === 0 && <Menu.Label>{t("conv.quickNone")}</Menu.Label>}
          {owner && (
            <>
              <Menu.Divider />
              <Menu.Item onClick={open}>{t("conv.quickEdit")}</Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      {owner && editing && (
        <Modal opened onClose={close} title={t("conv.quickEdit")} size="lg">
          <QuickReplyEditor initial={replies.data?.replies ?? []} onDone={close} />
        </Modal>
      )}
    </>
  );
}

function QuickReplyEditor({ initial, onDone }: { initial: QuickReply[]; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [rows, setRows] = useState<QuickReply[]>(initial.length ? initial : [{ title: "", text: "" }]);
  const save = useMutation({
    mutationFn: () =>
      api<QuickReplies>("/admin/quick-replies", {
        method: "PUT",
        body: { replies: rows.filter((r) => r.title.trim() || r.text.trim()).map((r) => ({ title: r.title.trim(), text: r.text.trim() })) },
      }),
    onSuccess: () => {
      void refresh(client, ["quick-replies"]);
      onDone();
    },
  });
  const set = (i: number, change: Partial<QuickReply>) => setRows((rs) => rs.map((r, n) => (n === i ? { ...r, ...change } : r)));
  return (
    <Stack gap="sm">
      {rows.map((r, i) => (
        <Group key={i} align="flex-start" wrap="nowrap" data-testid="quick-reply-row">
          <TextInput label={t("conv.quickTitle")} value={r.title} maxLength={40} onChange={(e) => set(i, { title: e.currentTarget.value })} w={140} />
          <Textarea label={t("conv.quickText")} value={r.text} maxLength={1000} autosize minRows={1} onChange={(e) => set(i, { text: e.currentTarget.value })} style={{ flex: 1 }} />
          <ActionIcon variant="subtle" color="red" mt={28} aria-label={t("common.delete")} onClick={() => setRows((rs) => rs.filter((_, n) => n !== i))}>
            ×
          </ActionIcon>
        </Group>
      ))}
      <Button variant="subtle" onClick={() => setRows((rs) => [...rs, { title: "", text: "" }])}>
        {t("conv.quickAdd")}
      </Button>
      {save.error && (
        <Alert color="red" role="alert">
          {describe(save.error)}
        </Alert>
      )}
      <Button onClick={() => save.mutate()} loading={save.isPending}>
        {t("common.save")}
      </Button>
    </Stack>
  );
}

/** Who the customer is to the shop: consent, orders, bookings, and the staff's private notes. */
function CustomerSide({ conversation, customerId }: { conversation: Conversation; customerId: string }) {
  const who = useWho();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { session } = useAuth();
  const [note, setNote] = useState("");
  const path = `/admin/conversations/${encodeURIComponent(customerId)}/notes`;
  const changed = () => void refresh(client, ["conversation", customerId]);
  const add = useMutation({
    mutationFn: (text: string) => api(path, { method: "POST", body: { text } }),
    onSuccess: () => {
      setNote("");
      changed();
    },
  });
  const remove = useMutation({
    mutationFn: (noteId: string) => api(`${path}/${encodeURIComponent(noteId)}`, { method: "DELETE" }),
    onSuccess: changed,
  });
  const consent = conversation.consent;
  useEffect(() => setNote(""), [customerId]);
  return (
    <Stack gap="sm" data-testid="customer-side">
      <Paper withBorder p="sm">
        <Text fw={600} size="sm">
          {t("conv.consent")}
        </Text>
        <Text size="sm" data-testid="consent-offers">
          {consent.marketing_opt_in === true ? t("conv.offersYes") : consent.marketing_opt_in === false ? t("conv.offersNo") : t("conv.offersNever")}
        </Text>
        <Text size="sm">{consent.notification_prefs.order_updates_whatsapp ? t("conv.updatesOn") : t("conv.updatesOff")}</Text>
        <Text size="sm">{consent.language_preference ? t("conv.languageIs", { lang: consent.language_preference }) : t("conv.languageNone")}</Text>
      </Paper>
      <Paper withBorder p="sm">
        <Text fw={600} size="sm">
          {t("conv.orders")}
        </Text>
        {conversation.orders.length === 0 && <Text size="sm" c="dimmed">{t("conv.noOrders")}</Text>}
        {conversation.orders.map((o) => (
          <Group key={o.order_id} justify="space-between" wrap="nowrap" data-testid="customer-order">
            <Anchor size="sm" onClick={() => navigate(`/orders/${o.order_id}`)}>
              {o.order_id}
            </Anchor>
            <Text size="sm">{kes(o.total)}</Text>
            <StatusBadge value={o.status} group="orderStatus" />
          </Group>
        ))}
      </Paper>
      <Paper withBorder p="sm">
        <Text fw={600} size="sm">
          {t("conv.bookings")}
        </Text>
        {conversation.bookings.length === 0 && <Text size="sm" c="dimmed">{t("conv.noBookings")}</Text>}
        {conversation.bookings.map((b) => (
          <Text key={b.booking_id} size="sm" data-testid="customer-booking">
            {b.booking_id} · {b.service_name} · {when(b.start)} · {b.staff_name}
          </Text>
        ))}
      </Paper>
      <Paper withBorder p="sm">
        <Text fw={600} size="sm">
          {t("conv.notes")}
        </Text>
        <Text size="xs" c="dimmed">
          {t("conv.notesHint")}
        </Text>
        {conversation.notes.map((n) => (
          <Paper key={n.note_id} bg="var(--mantine-color-yellow-0)" p="xs" mt={4} data-testid="note">
            <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
              {n.text}
            </Text>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {who(n.by)} · {when(n.at)}
              </Text>
              {(n.by === session?.email || session?.roles.includes("owner")) && (
                <Anchor size="xs" c="red" onClick={() => remove.mutate(n.note_id)}>
                  {t("common.delete")}
                </Anchor>
              )}
            </Group>
          </Paper>
        ))}
        <Textarea
          mt="xs"
          placeholder={t("conv.notePlaceholder")}
          aria-label={t("conv.notes")}
          autosize
          minRows={2}
          value={note}
          maxLength={2000}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
        {(add.error || remove.error) && (
          <Alert color="red" role="alert" mt="xs">
            {describe(add.error ?? remove.error)}
          </Alert>
        )}
        <Button mt="xs" size="xs" variant="light" disabled={!note.trim()} loading={add.isPending} onClick={() => add.mutate(note.trim())}>
          {t("conv.addNote")}
        </Button>
      </Paper>
    </Stack>
  );
}
