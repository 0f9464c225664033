import "../styles-more";
import { Button, Card, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type uPlot from "uplot";

import { api, download } from "../api";
import { dailySeries, funnelRows, rangeOf, type RangePreset } from "../logic/analytics";
import { kes } from "../logic/orders";
import type { Analytics } from "../types";
import { COLOURS, Chart, barOptions, lineOptions } from "./Chart";
import { Guarded } from "./Layout";
import { Failure, Loading } from "./common";

export function AnalyticsScreen() {
  return (
    <Guarded screen="analytics">
      <AnalyticsView />
    </Guarded>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

function AnalyticsView() {
  const { t } = useTranslation();
  const [preset, setPreset] = useState<RangePreset | "custom">("7d");
  const [range, setRange] = useState(() => rangeOf("7d", new Date()));
  const choose = (p: RangePreset) => {
    setPreset(p);
    setRange(rangeOf(p, new Date()));
  };
  const data = useQuery({
    queryKey: ["analytics", range.from, range.to],
    queryFn: () => api<Analytics>("/admin/analytics", { query: range }),
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t("analytics.title")}</Title>
        <SegmentedControl
          value={preset}
          onChange={(v) => choose(v as RangePreset)}
          data={[
            ...(["7d", "30d", "90d"] as const).map((p) => ({ value: p, label: t(`analytics.range.${p}`) })),
            ...(preset === "custom" ? [{ value: "custom", label: t("analytics.range.custom") }] : []),
          ]}
        />
      </Group>
      <Group grow>
        <TextInput
          type="date"
          label={t("orders.from")}
          value={range.from}
          max={range.to}
          onChange={(e) => {
            const from = e.currentTarget.value;
            if (from) {
              setPreset("custom");
              setRange((r) => ({ ...r, from }));
            }
          }}
        />
        <TextInput
          type="date"
          label={t("orders.to")}
          value={range.to}
          min={range.from}
          onChange={(e) => {
            const to = e.currentTarget.value;
            if (to) {
              setPreset("custom");
              setRange((r) => ({ ...r, to }));
            }
          }}
        />
      </Group>
      <Group>
        <Button
          variant="light"
          size="xs"
          onClick={() => void download("/admin/analytics.csv", range, `tulia-${range.from}-${range.to}.csv`)}
        >
          {t("analytics.download")}
        </Button>
      </Group>
      {data.isPending && <Loading />}
      {data.error && <Failure error={data.error} />}
      {data.data && <Charts a={data.data} />}
    </Stack>
  );
}

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder>
      <Text fw={600} mb="xs">
        {title}
      </Text>
      {children}
    </Card>
  );
}

function Charts({ a }: { a: Analytics }) {
  const { t, i18n } = useTranslation();
  const charts = useMemo(() => {
    const s = dailySeries(a);
    const funnel = funnelRows(a);
    const methods = [
      { label: t("methods.mpesa_stk"), colour: COLOURS[1] },
      { label: t("methods.mpesa_c2b"), colour: COLOURS[0] },
      { label: t("methods.pesapal"), colour: COLOURS[2] },
    ];
    return {
      conversations: { options: lineOptions([{ label: t("analytics.conversations"), colour: COLOURS[0] }]), data: [s.x, s.conversations] as uPlot.AlignedData },
      funnel: {
        options: barOptions(funnel.map((f) => t(`analytics.step.${f.step}`)), t("analytics.count"), COLOURS[0]),
        data: [funnel.map((_, i) => i), funnel.map((f) => f.count)] as uPlot.AlignedData,
      },
      revenue: { options: lineOptions(methods, (v) => kes(v)), data: [s.x, s.mpesa_stk, s.mpesa_c2b, s.pesapal] as uPlot.AlignedData },
      handover: { options: lineOptions([{ label: t("analytics.handoverRate"), colour: COLOURS[3] }], (v) => `${v}%`), data: [s.x, s.handover] as uPlot.AlignedData },
      cost: { options: lineOptions([{ label: "KES", colour: COLOURS[4] }], undefined, false), data: [s.x, s.cost] as uPlot.AlignedData },
    };
  }, [a, t, i18n.language]); // the labels follow the console's language
  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        <Figure label={t("analytics.conversations")} value={String(a.conversations)} testId="figure-conversations" />
        <Figure label={t("analytics.paidOrders")} value={String(a.orders_paid)} testId="figure-paid" />
        <Figure label={t("analytics.revenue")} value={kes(a.revenue_kes)} testId="figure-revenue" />
        <Figure label={t("analytics.refunds")} value={kes(a.refunds_kes)} testId="figure-refunds" />
        {a.bookings.booked + a.bookings.cancelled > 0 && (
          <>
            <Figure label={t("analytics.booked")} value={String(a.bookings.booked)} testId="figure-booked" />
            <Figure label={t("analytics.noShows")} value={String(a.bookings.no_shows)} testId="figure-no-shows" />
            <Figure label={t("analytics.cancelledBookings")} value={String(a.bookings.cancelled)} testId="figure-cancelled" />
            <Figure label={t("analytics.deposits")} value={kes(a.bookings.deposits_paid_kes)} testId="figure-deposits" />
          </>
        )}
        <Figure label={t("analytics.modelCost")} value={`KES ${a.llm_estimated_cost_kes.toFixed(2)}`} />
      </SimpleGrid>
      <Panel title={t("analytics.conversationsPerDay")}>
        <Chart {...charts.conversations} testId="chart-conversations" />
      </Panel>
      <Panel title={t("analytics.funnel")}>
        <Chart {...charts.funnel} testId="chart-funnel" />
      </Panel>
      <Panel title={t("analytics.revenueByMethod")}>
        <Chart {...charts.revenue} height={220} testId="chart-revenue" />
      </Panel>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Panel title={t("analytics.handoverRate")}>
          <Chart {...charts.handover} height={180} testId="chart-handover" />
        </Panel>
        <Panel title={t("analytics.modelCostPerDay")}>
          <Chart {...charts.cost} height={180} testId="chart-cost" />
        </Panel>
      </SimpleGrid>
    </Stack>
  );
}
