import { Alert, Button, Container, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Navigate } from "react-router";

import "../styles-more";
import { api, download } from "../api";
import { useAuth } from "../auth";
import type { ShopRow } from "../types";
import { Failure, Loading } from "./common";

// The platform operator's screen (issue 34, part 8): every shop, its status and this month's use, suspend and
// resume with a reason, the month's usage as CSV. In English only: the deployer's people, not the shops'.

const KES = new Intl.NumberFormat("en-KE");

export function PlatformScreen() {
  const { session, loading, leave } = useAuth();
  const client = useQueryClient();
  const [month, setMonth] = useState(new Date().toISOString().slice(0, 7));
  const [reason, setReason] = useState("");
  const shops = useQuery({
    queryKey: ["platform-shops", month],
    queryFn: () => api<ShopRow[]>("/admin/platform/shops", { query: { month } }),
    enabled: !!session?.operator,
  });
  const change = useMutation({
    mutationFn: ({ id, to }: { id: string; to: "suspend" | "resume" }) =>
      api<ShopRow>(`/admin/platform/shops/${encodeURIComponent(id)}/${to}`, { method: "POST", body: { reason } }),
    onSuccess: () => {
      setReason("");
      void client.invalidateQueries({ queryKey: ["platform-shops"] });
    },
  });
  if (loading) return null;
  if (!session) return <Navigate to="/sign-in" replace />;
  if (!session.operator) return <Navigate to="/inbox" replace />;
  return (
    <Container size="xl" py="md">
      <Stack>
        <Group justify="space-between">
          <Title order={3}>Every shop</Title>
          <Group>
            <TextInput aria-label="Month" type="month" value={month} onChange={(e) => setMonth(e.currentTarget.value)} />
            <Button variant="default" onClick={() => void download("/admin/platform/usage.csv", { month }, `tulia-usage-${month}.csv`)}>
              Usage as CSV
            </Button>
            <Button variant="subtle" onClick={() => void leave()}>
              Sign out
            </Button>
          </Group>
        </Group>
        <TextInput
          label="Reason for a suspension or its end (the shop's owner sees it)"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          maw={520}
        />
        {change.error && <Failure error={change.error} />}
        {shops.isLoading ? (
          <Loading />
        ) : shops.error ? (
          <Failure error={shops.error} />
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  {["Shop", "Status", "WhatsApp", "Conversations", "Orders (paid)", "Payments KES", "Model KES", "Last tool error", ""].map((h) => (
                    <Table.Th key={h}>{h}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(shops.data ?? []).map((s) => (
                  <Table.Tr key={s.tenant_id} data-testid="platform-shop" data-shop={s.tenant_id}>
                    <Table.Td>
                      <Text fw={600}>{s.name}</Text>
                      <Text size="xs" c="dimmed">
                        {s.tenant_id}
                      </Text>
                    </Table.Td>
                    <Table.Td data-testid="platform-status">
                      {s.status}
                      {s.status_reason ? ` (${s.status_reason})` : ""}
                    </Table.Td>
                    <Table.Td>{s.whatsapp ?? "—"}</Table.Td>
                    <Table.Td>{s.conversations}</Table.Td>
                    <Table.Td>
                      {s.orders} ({s.orders_paid})
                    </Table.Td>
                    <Table.Td>{KES.format(s.payments_kes)}</Table.Td>
                    <Table.Td>{KES.format(s.model_cost_kes)}</Table.Td>
                    <Table.Td>{s.last_error_day ? `${s.last_error_day} (${s.tool_errors})` : "—"}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant={s.status === "suspended" ? "light" : "outline"}
                        color={s.status === "suspended" ? "teal" : "red"}
                        disabled={reason.trim().length < 3}
                        loading={change.isPending}
                        onClick={() => change.mutate({ id: s.tenant_id, to: s.status === "suspended" ? "resume" : "suspend" })}
                      >
                        {s.status === "suspended" ? "Resume" : "Suspend"}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {shops.data?.length === 0 && <Alert>No shops yet.</Alert>}
      </Stack>
    </Container>
  );
}
