import "../styles-more";

import { Alert, Anchor, Badge, Button, Card, Drawer, Group, Modal, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { all, api, describe, download } from "../api";
import { useAuth } from "../auth";
import { findCustomers } from "../logic/customers";
import { kes } from "../logic/orders";
import { refresh } from "../logic/refresh";
import type { Customer, CustomerDetail } from "../types";
import { Ago, Failure, Loading, StatusBadge, when } from "./common";

/** The shop's customers: found by name or number; each with what they agreed to and when, their orders, their
 * conversation; an owner exports everything kept about one, or erases them (confirmed, audited). */
export function CustomersScreen() {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const customers = useQuery({ queryKey: ["customers"], queryFn: () => all<Customer>("/admin/customers") });
  const shown = useMemo(() => findCustomers(customers.data ?? [], query), [customers.data, query]);
  return (
    <Stack>
      <Title order={3}>{t("customers.title")}</Title>
      <TextInput
        placeholder={t("customers.search")}
        aria-label={t("customers.search")}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        type="search"
      />
      {customers.isPending && <Loading />}
      {customers.error && <Failure error={customers.error} />}
      <Text size="xs" c="dimmed">
        {t("customers.count", { shown: shown.length, total: customers.data?.length ?? 0 })}
      </Text>
      {shown.map((c) => (
        <Card key={c.customer_id} withBorder padding="sm" data-testid="customer" style={{ cursor: "pointer" }} onClick={() => setOpen(c.customer_id)}>
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} truncate>
              {c.display_name ?? c.phone_e164 ?? t("inbox.unknownName")}
            </Text>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              <Ago at={c.created_at} />
            </Text>
          </Group>
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{c.phone_e164 ?? "-"}</Text>
            <Badge variant="light" color={c.marketing_opt_in ? "teal" : c.marketing_opt_in === false ? "red" : "gray"} data-testid="offers-consent">
              {c.marketing_opt_in ? t("conv.offersYes") : c.marketing_opt_in === false ? t("conv.offersNo") : t("conv.offersNever")}
            </Badge>
          </Group>
        </Card>
      ))}
      <Drawer opened={open !== null} onClose={() => setOpen(null)} position="right" size="md" title={t("customers.one")}>
        {open && <CustomerView customerId={open} onGone={() => setOpen(null)} />}
      </Drawer>
    </Stack>
  );
}

function CustomerView({ customerId, onGone }: { customerId: string; onGone: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { session } = useAuth();
  const owner = session?.roles.includes("owner") ?? false;
  const [erasing, setErasing] = useState(false);
  const [typed, setTyped] = useState("");
  const detail = useQuery({
    queryKey: ["customer", customerId],
    queryFn: () => api<CustomerDetail>(`/admin/customers/${encodeURIComponent(customerId)}`),
  });
  const exporting = useMutation({
    mutationFn: () => download(`/admin/customers/${encodeURIComponent(customerId)}/export`, {}, `customer-${customerId}.json`),
  });
  const erase = useMutation({
    mutationFn: () => api(`/admin/customers/${encodeURIComponent(customerId)}/erase`, { method: "POST", body: { confirm: true, reason: "erased from the console" } }),
    onSuccess: () => {
      void refresh(client, ["customers"]);
      void refresh(client, ["conversations"]);
      setErasing(false);
      onGone();
    },
  });
  if (detail.isPending) return <Loading />;
  if (detail.error) return <Failure error={detail.error} />;
  const { customer, consent_events: events, recent_orders: orders } = detail.data;
  const word = (customer.phone_e164 ?? "").slice(-4) || "ERASE";
  return (
    <Stack gap="sm" data-testid="customer-view">
      <div>
        <Title order={4}>{customer.display_name ?? t("inbox.unknownName")}</Title>
        <Text size="sm">{customer.phone_e164 ?? customer.wa_user_id}</Text>
        <Anchor size="sm" onClick={() => navigate(`/conversations/${customer.customer_id}`)}>
          {t("inbox.whole")}
        </Anchor>
      </div>
      <Text fw={600} size="sm">
        {t("customers.consent")}
      </Text>
      {events.length === 0 && <Text size="sm" c="dimmed">{t("customers.noConsent")}</Text>}
      <Table fz="xs" data-testid="consent-history">
        <Table.Tbody>
          {events.map((e) => (
            <Table.Tr key={e.event_id}>
              <Table.Td>{when(e.at)}</Table.Td>
              <Table.Td>{t(`customers.field.${e.field}`, { defaultValue: e.field.replace(/_/g, " ") })}</Table.Td>
              <Table.Td>
                {String(e.old_value ?? "-")} → {String(e.new_value ?? "-")}
              </Table.Td>
              <Table.Td>{t(`customers.source.${e.source}`, { defaultValue: e.source.replace(/_/g, " ") })}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text fw={600} size="sm">
        {t("conv.orders")}
      </Text>
      {orders.length === 0 && <Text size="sm" c="dimmed">{t("conv.noOrders")}</Text>}
      {orders.map((o) => (
        <Group key={o.order_id} justify="space-between" wrap="nowrap">
          <Anchor size="sm" onClick={() => navigate(`/orders/${o.order_id}`)}>
            {o.order_id}
          </Anchor>
          <Text size="sm">{kes(o.totals.total)}</Text>
          <StatusBadge value={o.status} group="orderStatus" />
        </Group>
      ))}
      {owner && (
        <Group mt="md">
          <Button variant="light" onClick={() => exporting.mutate()} loading={exporting.isPending}>
            {t("customers.export")}
          </Button>
          <Button color="red" variant="outline" onClick={() => setErasing(true)}>
            {t("customers.erase")}
          </Button>
        </Group>
      )}
      {(exporting.error || erase.error) && (
        <Alert color="red" role="alert">
          {describe(exporting.error ?? erase.error)}
        </Alert>
      )}
      {erasing && (
        <Modal opened onClose={() => setErasing(false)} title={t("customers.eraseTitle")}>
          <Stack gap="sm">
            <Text size="sm">{t("customers.eraseWhat")}</Text>
            <TextInput label={t("customers.typeToConfirm", { word })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />
            <Button color="red" disabled={typed.trim() !== word} loading={erase.isPending} onClick={() => erase.mutate()}>
              {t("customers.eraseNow")}
            </Button>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}
