import { BarChart, LineChart } from "@mantine/charts";
import { Card, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api } from "../api";
import { dailyRows, funnelRows, rangeOf, type RangePreset } from "../logic/analytics";
import { kes } from "../logic/orders";
import type { Analytics } from "../types";
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
  const [preset, setPreset] = useState<RangePreset>("7d");
  const range = rangeOf(preset, new Date());
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
          onChange={(v) => setPreset(v as RangePreset)}
          data={(["7d", "30d", "90d"] as const).map((p) => ({ value: p, label: t(`analytics.range.${p}`) }))}
        />
      </Group>
      {data.isPending && <Loading />}
      {data.error && <Failure error={data.error} />}
      {data.data && <Charts a={data.data} />}
    </Stack>
  );
}

function Charts({ a }: { a: Analytics }) {
  const { t } = useTranslation();
  const rows = dailyRows(a);
  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        <Figure label={t("analytics.conversations")} value={String(a.conversations)} testId="figure-conversations" />
        <Figure label={t("analytics.paidOrders")} value={String(a.orders_paid)} testId="figure-paid" />
        <Figure label={t("analytics.revenue")} value={kes(a.revenue_kes)} testId="figure-revenue" />
        <Figure label={t("analytics.modelCost")} value={`KES ${a.llm_estimated_cost_kes.toFixed(2)}`} />
      </SimpleGrid>
      <Card withBorder>
        <Text fw={600} mb="xs">
          {t("analytics.conversationsPerDay")}
        </Text>
        <LineChart h={200} data={rows} dataKey="day" series={[{ name: "conversations", label: t("analytics.conversations"), color: "teal.6" }]} curveType="monotone" />
      </Card>
      <Card withBorder>
        <Text fw={600} mb="xs">
          {t("analytics.funnel")}
        </Text>
        <BarChart
          h={200}
          data={funnelRows(a).map((r) => ({ ...r, step: t(`analytics.step.${r.step}`) }))}
          dataKey="step"
          series={[{ name: "count", label: t("analytics.count"), color: "teal.6" }]}
          data-testid="funnel-chart"
        />
      </Card>
      <Card withBorder>
        <Text fw={600} mb="xs">
          {t("analytics.revenueByMethod")}
        </Text>
        <BarChart
          h={220}
          data={rows}
          dataKey="day"
          type="stacked"
          valueFormatter={(v) => kes(v)}
          series={[
            { name: "mpesa_stk", label: t("methods.mpesa_stk"), color: "green.6" },
            { name: "mpesa_c2b", label: t("methods.mpesa_c2b"), color: "teal.4" },
            { name: "pesapal", label: t("methods.pesapal"), color: "blue.6" },
          ]}
          withLegend
        />
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t("analytics.handoverRate")}
          </Text>
          <LineChart h={180} data={rows} dataKey="day" unit="%" series={[{ name: "handover", label: t("analytics.handoverRate"), color: "orange.6" }]} />
        </Card>
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t("analytics.modelCostPerDay")}
          </Text>
          <BarChart h={180} data={rows} dataKey="day" series={[{ name: "cost", label: "KES", color: "grape.6" }]} />
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
