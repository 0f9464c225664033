import "../styles-more";
import { Alert, Anchor, Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { api, describe, type Page } from "../api";
import { refresh } from "../logic/refresh";
import { ordersItCanPay, remainingOf, stillOwed } from "../logic/money";
import { kes } from "../logic/orders";
import type { Order, OrderDetail, OwedBack, UnmatchedPayment } from "../types";
import { Guarded } from "./Layout";
import { Ago, Failure, Loading, useWho } from "./common";

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
    queryFn: () => api<Page<OwedBack>>("/admin/payments/overpayments", { query: { limit: 100 } }),
  });
  const open = unmatched.data?.items.filter((u) => u.status === "open") ?? [];
  const owing = over.data ? stillOwed(over.data.items, new Date()) : null;
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
      {owing && owing.count > 0 && (
        <Alert color="yellow" data-testid="still-owed">
          {t("money.stillOwed", { amount: kes(owing.total), count: owing.count })}{" "}
          {t("money.oldest", { count: owing.oldestDays ?? 0 })}
        </Alert>
      )}
      {over.error && <Failure error={over.error} />}
      {over.data?.items.length === 0 && <Text c="dimmed">{t("money.noneOver")}</Text>}
      <Text size="sm" c="dimmed">
        {t("money.overHelp")}
      </Text>
      {[...(over.data?.items ?? [])]
        .sort((a, b) => Number(a.status !== "open") - Number(b.status !== "open"))
        .map((o) => (
          <OwedBackCard key={`${o.method}:${o.provider_ref}`} owed={o} />
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
        {payment.payer_name || t("money.unknownPayer")}
        {payment.payer_phone ? ` ${t("money.payerPhone", { phone: payment.payer_phone })}` : ""} · {t("money.account")}:{" "}
        {payment.bill_ref || "-"}
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

/** One record of money owed back: open while any of it remains; applied to the customer's other orders (in
 * parts) or what remains recorded refunded with its M-Pesa code. */
function OwedBackCard({ owed }: { owed: OwedBack }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const who = useWho();
  const [note, setNote] = useState("");
  const open = owed.status === "open";
  const left = remainingOf(owed);
  const theirs = useQuery({
    queryKey: ["orders", "of", owed.customer_id],
    queryFn: () => api<Page<Order>>("/admin/orders", { query: { customer_id: owed.customer_id, limit: 50 } }),
    enabled: open,
  });
  const done = () => {
    void refresh(client, ["overpayments"]);
    void refresh(client, ["bookings"]); // a deposit due back closes on its booking too
    void refresh(client, ["refunds"]);
    void refresh(client, ["orders"]);
  };
  const path = `/admin/payments/overpayments/${encodeURIComponent(owed.method)}/${encodeURIComponent(owed.provider_ref)}`;
  const refunded = useMutation({
    mutationFn: () => api<OwedBack>(`${path}/close`, { method: "POST", body: { outcome: "refunded", note: note.trim() || null } }),
    onSuccess: done,
  });
  const apply = useMutation({
    mutationFn: (orderId: string) => api<OwedBack>(`${path}/apply`, { method: "POST", body: { order_id: orderId } }),
    onSuccess: done,
  });
  const targets = ordersItCanPay(owed, theirs.data?.items ?? []);
  const error = refunded.error ?? apply.error;
  return (
    <Card withBorder padding="sm" data-testid="owed-back" opacity={open ? 1 : 0.6}>
      <Group justify="space-between">
        <Text fw={600} data-testid="owed-back-amount">
          {left < owed.amount && open ? t("money.leftOf", { left: kes(left), amount: kes(owed.amount) }) : kes(owed.amount)}
        </Text>
        <Text size="sm">
          {owed.order_id}
          {owed.booking_id ? ` · ${t("money.booking", { id: owed.booking_id })}` : ""}
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {t(`methods.${owed.method}`, { defaultValue: owed.method })} {owed.receipt ?? ""} ·{" "}
        {t(`money.reason.${owed.reason}`, { defaultValue: owed.reason })} · <Ago at={owed.received_at} /> ·{" "}
        <Anchor size="sm" onClick={() => navigate(`/conversations/${owed.customer_id}`)}>
          {owed.handoff_ticket_id && open ? t("money.waiting") : t("inbox.whole")}
        </Anchor>
      </Text>
      {(owed.applied ?? []).map((use) => (
        <Text size="sm" key={use.payment_id} data-testid="owed-back-applied">
          {t("money.appliedTo", { amount: kes(use.amount), order: use.order_id, who: who(use.by) })} · <Ago at={use.at} />
        </Text>
      ))}
      {open ? (
        <Stack gap="xs" mt="xs">
          {targets.length > 0 && (
            <>
              <Text size="sm" fw={500}>
                {t("money.applyTo")}
              </Text>
              {targets.map(({ order, applies }) => (
                <Group key={order.order_id} justify="space-between" data-testid="owed-back-target">
                  <Text size="sm">
                    {order.order_id} · {t("money.due", { amount: kes(order.totals.total - order.paid_amount) })} · <Ago at={order.created_at} />
                  </Text>
                  <Button size="xs" variant="light" onClick={() => apply.mutate(order.order_id)} loading={apply.isPending && apply.variables === order.order_id}>
                    {t("money.applyAmount", { amount: kes(applies) })}
                  </Button>
                </Group>
              ))}
            </>
          )}
          {theirs.data && targets.length === 0 && (
            <Text size="sm" c="dimmed">
              {t("money.noOtherOrder")}
            </Text>
          )}
          <Group gap="xs" align="flex-end">
            <TextInput size="xs" label={t("money.closeNote")} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
            <Button size="xs" onClick={() => refunded.mutate()} loading={refunded.isPending}>
              {t("money.refundedAmount", { amount: kes(left) })}
            </Button>
          </Group>
          {error && (
            <Alert color="red" role="alert">
              {describe(error)}
            </Alert>
          )}
        </Stack>
      ) : (
        <Text size="sm" data-testid="owed-back-status">
          {t(`money.status.${owed.status}`)}
          {owed.note ? ` · ${owed.note}` : ""}
          {owed.closed_by ? ` · ${who(owed.closed_by)}` : ""}
        </Text>
      )}
    </Card>
  );
}
