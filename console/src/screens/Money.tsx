import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describe, type Page } from "../api";
import { refresh } from "../logic/refresh";
import { kes } from "../logic/orders";
import type { Order, OrderDetail, UnmatchedPayment } from "../types";
import { Guarded } from "./Layout";
import { Ago, Failure, Loading } from "./common";

interface Overpayment {
  payment_id: string;
  order_id: string;
  method: string;
  amount: number;
  receipt: string | null;
  reason: string;
  status: string;
}

export function MoneyScreen() {
  return (
    <Guarded screen="money">
      <Money />
    </Guarded>
  );
}

function Money() {
  const { t } = useTranslation();
  const unmatched = useQuery({
    queryKey: ["unmatched"],
    queryFn: () => api<Page<UnmatchedPayment>>("/admin/payments/unmatched", { query: { limit: 100 } }),
  });
  const over = useQuery({
    queryKey: ["overpayments"],
    queryFn: () => api<Page<Overpayment>>("/admin/payments/overpayments", { query: { limit: 100 } }),
  });
  const open = unmatched.data?.items.filter((u) => u.status === "open") ?? [];
  const [applied, setApplied] = useState<string | null>(null);
  return (
    <Stack>
      <Title order={3}>{t("money.unmatched")}</Title>
      {applied && (
        <Alert color="teal" data-testid="applied" withCloseButton onClose={() => setApplied(null)}>
          {t("money.applied", { order: applied })}
        </Alert>
      )}
      <Text size="sm" c="dimmed">
        {t("money.unmatchedHelp")}
      </Text>
      {unmatched.isPending && <Loading />}
      {unmatched.error && <Failure error={unmatched.error} />}
      {unmatched.data && open.length === 0 && <Text c="dimmed">{t("money.noneUnmatched")}</Text>}
      {open.map((u) => (
        <UnmatchedCard key={u.trans_id} payment={u} onApplied={setApplied} />
      ))}
      <Title order={3}>{t("money.overpayments")}</Title>
      {over.error && <Failure error={over.error} />}
      {over.data?.items.length === 0 && <Text c="dimmed">{t("money.noneOver")}</Text>}
      {over.data?.items.map((o) => (
        <Card key={o.payment_id} withBorder padding="sm">
          <Group justify="space-between">
            <Text fw={600}>{kes(o.amount)}</Text>
            <Text size="sm">{o.order_id}</Text>
          </Group>
          <Text size="sm" c="dimmed">
            {t(`methods.${o.method}`, { defaultValue: o.method })} {o.receipt ?? ""} · {t(`money.reason.${o.reason}`, { defaultValue: o.reason })} · {o.status}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}

function UnmatchedCard({ payment, onApplied }: { payment: UnmatchedPayment; onApplied: (order: string) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [looking, setLooking] = useState(false);
  const [orderId, setOrderId] = useState("");
  const suggestions = useQuery({
    queryKey: ["suggestions", payment.trans_id],
    queryFn: () => api<Page<Order>>(`/admin/payments/unmatched/${encodeURIComponent(payment.trans_id)}/suggestions`),
    enabled: looking,
  });
  const apply = useMutation({
    mutationFn: (target: string) =>
      api<OrderDetail>(`/admin/payments/unmatched/${encodeURIComponent(payment.trans_id)}/apply`, {
        method: "POST",
        body: { order_id: target.trim().toUpperCase() },
      }),
    onSuccess: (detail) => {
      onApplied(detail.order.order_id); // the card leaves the list: the page says what happened
      void refresh(client, ["unmatched"]);
      void refresh(client, ["orders"]);
    },
  });
  return (
    <Card withBorder padding="sm" data-testid="unmatched">
      <Group justify="space-between">
        <Text fw={700}>{kes(payment.amount)}</Text>
        <Text size="sm" ff="monospace">
          {payment.trans_id}
        </Text>
      </Group>
      <Text size="sm">
        {payment.payer_name || t("money.unknownPayer")} · {t("money.account")}: {payment.bill_ref || "-"}
      </Text>
      <Text size="xs" c="dimmed">
        {t(`money.reason.${payment.reason}`, { defaultValue: payment.reason })} · <Ago at={payment.received_at} />
      </Text>
      {apply.isSuccess ? null : (
        <Stack gap="xs" mt="xs">
          {!looking && (
            <Button size="xs" variant="light" onClick={() => setLooking(true)}>
              {t("money.findOrders")}
            </Button>
          )}
          {looking && suggestions.isPending && <Loading />}
          {suggestions.data?.items.length === 0 && <Text size="sm">{t("money.noSuggestions")}</Text>}
          {suggestions.data?.items.map((o) => (
            <Group key={o.order_id} justify="space-between">
              <Text size="sm">
                {o.order_id} · {kes(o.totals.total)} · <Ago at={o.created_at} />
              </Text>
              <Button size="xs" onClick={() => apply.mutate(o.order_id)} loading={apply.isPending}>
                {t("money.apply")}
              </Button>
            </Group>
          ))}
          {looking && (
            <Group gap="xs" align="flex-end">
              <TextInput size="xs" label={t("money.orderRef")} placeholder="ORD-XXXXX" value={orderId} onChange={(e) => setOrderId(e.currentTarget.value)} />
              <Button size="xs" disabled={!orderId.trim()} onClick={() => apply.mutate(orderId)} loading={apply.isPending}>
                {t("money.apply")}
              </Button>
            </Group>
          )}
          {apply.error && (
            <Alert color="red" role="alert">
              {describe(apply.error)}
            </Alert>
          )}
        </Stack>
      )}
    </Card>
  );
}
