import "../styles-more";
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Paper,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Timeline,
  Title,
} from "@mantine/core";
import { useDebouncedValue, useMediaQuery } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";

import { api, describe, type Page } from "../api";
import { refresh } from "../logic/refresh";
import { useAuth } from "../auth";
import { actionsFor, kes, type OrderAction } from "../logic/orders";
import type { OrderDetail, OrderRow } from "../types";
import { Ago, Failure, Loading, StatusBadge, useWho, when } from "./common";

const STATUSES = ["draft", "pending_payment", "paid", "fulfilled", "cancelled", "payment_failed"];
const PAYMENTS = ["none", "pending", "paid", "failed", "cancelled", "timeout"];

interface Filters {
  status: string | null;
  payment: string | null;
  from: string;
  to: string;
}

export function OrdersScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const phoneScreen = useMediaQuery("(max-width: 48em)");
  const [filters, setFilters] = useState<Filters>({ status: null, payment: null, from: "", to: "" });
  const [phone, setPhone] = useState("");
  const [typedPhone] = useDebouncedValue(phone.replace(/\D/g, "").length >= 9 ? phone : "", 400);
  const [cursor, setCursor] = useState<string | null>(null);
  const orders = useQuery({
    queryKey: ["orders", filters, typedPhone, cursor],
    queryFn: () =>
      api<Page<OrderRow>>("/admin/orders", {
        query: { ...filters, phone: typedPhone, limit: 30, cursor },
      }),
    refetchInterval: 10_000,
  });
  const set = (change: Partial<Filters>) => {
    setCursor(null);
    setFilters((f) => ({ ...f, ...change }));
  };

  return (
    <Stack>
      <Title order={3}>{t("orders.title")}</Title>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
        <NativeSelect
          label={t("orders.status")}
          data={[{ value: "", label: t("orders.any") }, ...STATUSES.map((s) => ({ value: s, label: t(`orderStatus.${s}`) }))]}
          value={filters.status ?? ""}
          onChange={(e) => set({ status: e.currentTarget.value || null })}
        />
        <NativeSelect
          label={t("orders.payment")}
          data={[{ value: "", label: t("orders.any") }, ...PAYMENTS.map((s) => ({ value: s, label: t(`paymentState.${s}`) }))]}
          value={filters.payment ?? ""}
          onChange={(e) => set({ payment: e.currentTarget.value || null })}
        />
        <TextInput label={t("orders.from")} type="date" value={filters.from} onChange={(e) => set({ from: e.currentTarget.value })} />
        <TextInput label={t("orders.to")} type="date" value={filters.to} onChange={(e) => set({ to: e.currentTarget.value })} />
        <TextInput
          label={t("orders.customerPhone")}
          placeholder="07..."
          value={phone}
          onChange={(e) => {
            setCursor(null);
            setPhone(e.currentTarget.value);
          }}
        />
      </SimpleGrid>
      {orders.isPending && <Loading />}
      {orders.error && <Failure error={orders.error} />}
      {orders.data?.items.length === 0 && <Text c="dimmed">{t("orders.none")}</Text>}
      {phoneScreen ? (
        <Stack gap="xs">
          {orders.data?.items.map((o) => (
            <Card key={o.order_id} withBorder padding="sm" data-testid="order-row" onClick={() => navigate(`/orders/${o.order_id}`)}>
              <Group justify="space-between">
                <Text fw={600}>{o.order_id}</Text>
                <Text>{kes(o.totals.total)}</Text>
              </Group>
              <Text size="sm">{[o.customer?.name, o.customer?.phone].filter(Boolean).join(" · ") || o.customer_id}</Text>
              <Group justify="space-between">
                <StatusBadge value={o.status} group="orderStatus" />
                <Text size="xs" c="dimmed">
                  <Ago at={o.created_at} />
                </Text>
              </Group>
            </Card>
          ))}
        </Stack>
      ) : (
        orders.data &&
        orders.data.items.length > 0 && (
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("orders.reference")}</Table.Th>
                <Table.Th>{t("orders.customer")}</Table.Th>
                <Table.Th>{t("orders.total")}</Table.Th>
                <Table.Th>{t("orders.status")}</Table.Th>
                <Table.Th>{t("orders.fulfilment")}</Table.Th>
                <Table.Th>{t("orders.made")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {orders.data.items.map((o) => (
                <Table.Tr key={o.order_id} data-testid="order-row" style={{ cursor: "pointer" }} onClick={() => navigate(`/orders/${o.order_id}`)}>
                  <Table.Td>{o.order_id}</Table.Td>
                  <Table.Td>
                    {o.customer?.name ?? "-"}
                    <Text size="xs" c="dimmed">
                      {o.customer?.phone ?? o.customer_id}
                    </Text>
                  </Table.Td>
                  <Table.Td>{kes(o.totals.total)}</Table.Td>
                  <Table.Td>
                    <StatusBadge value={o.status} group="orderStatus" />
                  </Table.Td>
                  <Table.Td>{t(`fulfilment.${o.fulfilment_status}`)}</Table.Td>
                  <Table.Td>
                    <Ago at={o.created_at} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      )}
      <Group>
        {cursor && (
          <Button variant="subtle" onClick={() => setCursor(null)}>
            {t("common.first")}
          </Button>
        )}
        {orders.data?.cursor && (
          <Button variant="subtle" onClick={() => setCursor(orders.data.cursor ?? null)}>
            {t("common.more")}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

const ACTION_PATH: Record<OrderAction, string> = {
  confirm: "confirm",
  dispatch: "dispatch",
  ready: "ready",
  deliver: "deliver",
  cancel: "cancel",
};

export function OrderScreen() {
  const who = useWho();
  const { orderId = "" } = useParams();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session } = useAuth();
  const client = useQueryClient();
  const detail = useQuery({
    queryKey: ["order", orderId],
    queryFn: () => api<OrderDetail>(`/admin/orders/${encodeURIComponent(orderId)}`),
    refetchInterval: 5_000,
  });
  const act = useMutation({
    mutationFn: (action: OrderAction) => api<OrderDetail>(`/admin/orders/${orderId}/${ACTION_PATH[action]}`, { method: "POST" }),
    onSuccess: (data) => {
      client.setQueryData(["order", orderId], data);
      void refresh(client, ["orders"]);
    },
  });

  if (detail.isPending) return <Loading />;
  if (detail.error) return <Failure error={detail.error} />;
  const { order, payments, customer, history } = detail.data;
  const actions = actionsFor(order, session?.roles ?? []);

  return (
    <Stack data-testid="order-detail">
      <Anchor size="sm" onClick={() => navigate("/orders")}>
        ← {t("orders.title")}
      </Anchor>
      <Group justify="space-between">
        <Title order={3}>{order.order_id}</Title>
        <Group gap="xs">
          <StatusBadge value={order.status} group="orderStatus" />
          <Text size="sm" data-testid="fulfilment">
            {t(`fulfilment.${order.fulfilment_status}`)}
          </Text>
        </Group>
      </Group>
      <Text>
        {customer?.name ?? t("inbox.unknownName")} · {customer?.phone ?? order.customer_id}
      </Text>
      <Text size="sm" c="dimmed">
        {order.delivery.mode === "pickup"
          ? t("orders.pickup")
          : order.delivery.mode === "delivery"
            ? `${t("orders.delivery")}: ${[order.delivery.zone, order.delivery.address_text].filter(Boolean).join(", ")}`
            : ""}
      </Text>
      <Table>
        <Table.Tbody>
          {order.lines.map((l, i) => (
            <Table.Tr key={i}>
              <Table.Td>
                {l.quantity} × {l.name}
                {Object.keys(l.variant_selection ?? {}).length > 0 && (
                  <Text size="xs" c="dimmed">
                    {Object.entries(l.variant_selection).map(([k, v]) => `${k}: ${v}`).join(", ")}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>{kes(l.line_total)}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td>{t("orders.subtotal")}</Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>{kes(order.totals.subtotal)}</Table.Td>
          </Table.Tr>
          {order.totals.discount > 0 && (
            <Table.Tr>
              <Table.Td>
                {t("orders.discount")} {order.offer?.code ?? ""}
              </Table.Td>
              <Table.Td ta="right">−{kes(order.totals.discount)}</Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Td>{t("orders.deliveryFee")}</Table.Td>
            <Table.Td ta="right">{kes(order.totals.delivery_fee)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td fw={700}>{t("orders.total")}</Table.Td>
            <Table.Td ta="right" fw={700} data-testid="order-total" style={{ whiteSpace: "nowrap" }}>
              {kes(order.totals.total)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {actions.length > 0 && (
        <Group gap="xs">
          {actions.map((a) => (
            <Button key={a} variant={a === "cancel" ? "outline" : "filled"} color={a === "cancel" ? "red" : undefined} loading={act.isPending && act.variables === a} onClick={() => act.mutate(a)}>
              {t(`orders.action.${a}`)}
            </Button>
          ))}
        </Group>
      )}
      {act.error && (
        <Alert color="red" role="alert">
          {describe(act.error)}
        </Alert>
      )}
      <Title order={5}>{t("orders.payments")}</Title>
      {payments.length === 0 && <Text c="dimmed">{t("orders.noPayments")}</Text>}
      {payments.map((p) => (
        <Paper key={p.payment_id} withBorder p="xs">
          <Group justify="space-between">
            <Text size="sm">
              {t(`methods.${p.method}`, { defaultValue: p.method })} · {kes(p.amount)}
            </Text>
            <StatusBadge value={p.status} group="paymentStatus" />
          </Group>
          <Text size="xs" c="dimmed">
            {p.receipt ?? ""} {when(p.updated_at)}
          </Text>
        </Paper>
      ))}
      <Title order={5}>{t("orders.history")}</Title>
      <Timeline bulletSize={12} lineWidth={2} data-testid="history">
        {history.map((h, i) => (
          <Timeline.Item key={i} title={t(`history.${h.event}`, { defaultValue: h.event.replace(/_/g, " ") })}>
            <Text size="xs" c="dimmed">
              {when(h.at)}
              {h.method ? ` · ${t(`methods.${h.method}`, { defaultValue: h.method })}` : ""}
              {h.by ? ` · ${who(h.by)}` : ""}
              {h.detail ? ` · ${h.detail}` : ""}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}
