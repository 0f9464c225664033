import "../styles-more";

import { Alert, Badge, Button, Card, Group, NativeSelect, Stack, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { all, api, describe, type Page } from "../api";
import { slugOf } from "../logic/ids";
import { refresh } from "../logic/refresh";
import type { Broadcast, BroadcastDetail, DryRun, MessageTemplate } from "../types";
import { Guarded } from "./Layout";
import { Ago, Failure, Loading, NumberField, when } from "./common";

/** The parameters ({{1}}, {{2}} ...) a template's body asks for. */
export function parameterCount(body: string): number {
  return Math.max(0, ...Array.from(body.matchAll(/\{\{(\d+)\}\}/g), (m) => Number(m[1])));
}

export function MessagesScreen() {
  return (
    <Guarded screen="messages">
      <Messages />
    </Guarded>
  );
}

function Messages() {
  const { t } = useTranslation();
  const templates = useQuery({ queryKey: ["templates"], queryFn: () => all<MessageTemplate>("/admin/templates") });
  return (
    <Stack>
      <Title order={3}>{t("messages.title")}</Title>
      <Text size="sm" c="dimmed">
        {t("messages.intro")}
      </Text>
      {templates.error && <Failure error={templates.error} />}
      <Broadcasts templates={templates.data ?? []} />
      <Templates templates={templates.data} />
    </Stack>
  );
}

function Templates({ templates }: { templates: MessageTemplate[] | undefined }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [title, setTitle] = useState("");
  const [language, setLanguage] = useState("en");
  const [category, setCategory] = useState<"marketing" | "utility">("marketing");
  const [body, setBody] = useState("");
  const sync = useMutation({
    mutationFn: () => api<{ added: number; changed: number; removed: number }>("/admin/templates/sync", { method: "POST" }),
    onSuccess: () => void refresh(client, ["templates"]),
  });
  const submit = useMutation({
    mutationFn: () =>
      api<MessageTemplate>("/admin/templates", {
        method: "POST",
        body: { name: slugOf(title).replace(/-/g, "_").slice(0, 60), language, category, body },
      }),
    onSuccess: () => {
      setTitle("");
      setBody("");
      void refresh(client, ["templates"]);
    },
  });
  const remove = useMutation({
    mutationFn: (name: string) => api(`/admin/templates/${encodeURIComponent(name)}`, { method: "DELETE" }),
    onSuccess: () => void refresh(client, ["templates"]),
  });
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={4}>{t("messages.templates")}</Title>
        <Button variant="light" onClick={() => sync.mutate()} loading={sync.isPending}>
          {t("messages.sync")}
        </Button>
      </Group>
      {sync.data && (
        <Alert color="teal" data-testid="synced">
          {t("messages.synced", sync.data)}
        </Alert>
      )}
      {!templates && <Loading />}
      {templates?.map((tpl) => (
        <Card key={`${tpl.name}-${tpl.language}`} withBorder padding="sm" data-testid="template">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} truncate>
              {tpl.name} · {tpl.language}
            </Text>
            <Badge color={tpl.status === "approved" ? "teal" : tpl.status === "rejected" ? "red" : "yellow"} data-testid="template-status">
              {t(`messages.status.${tpl.status}`, { defaultValue: tpl.status })}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {t(`messages.category.${tpl.category}`, { defaultValue: tpl.category })}
          </Text>
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {tpl.body}
          </Text>
          {tpl.rejected_reason && <Text size="sm" c="red">{tpl.rejected_reason}</Text>}
          <Group justify="flex-end">
            <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(tpl.name)} loading={remove.isPending && remove.variables === tpl.name}>
              {t("common.delete")}
            </Button>
          </Group>
        </Card>
      ))}
      <Card withBorder padding="sm" data-testid="new-template">
        <Text fw={600}>{t("messages.newTemplate")}</Text>
        <TextInput label={t("messages.templateTitle")} description={t("messages.templateTitleHelp")} value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
        <Group grow>
          <NativeSelect label={t("messages.language")} value={language} onChange={(e) => setLanguage(e.currentTarget.value)} data={[{ value: "en", label: "English" }, { value: "sw", label: "Kiswahili" }]} />
          <NativeSelect
            label={t("messages.kind")}
            value={category}
            onChange={(e) => setCategory(e.currentTarget.value as "marketing" | "utility")}
            data={[
              { value: "marketing", label: t("messages.category.marketing") },
              { value: "utility", label: t("messages.category.utility") },
            ]}
          />
        </Group>
        <Textarea label={t("messages.body")} description={t("messages.bodyHelp")} autosize minRows={2} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
        {(submit.error || remove.error || sync.error) && (
          <Alert color="red" role="alert" mt="xs">
            {describe(submit.error ?? remove.error ?? sync.error)}
          </Alert>
        )}
        <Button mt="xs" onClick={() => submit.mutate()} loading={submit.isPending} disabled={!title.trim() || !body.trim()}>
          {t("messages.submit")}
        </Button>
      </Card>
    </Stack>
  );
}

function Broadcasts({ templates }: { templates: MessageTemplate[] }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const usable = templates.filter((x) => x.status === "approved" && x.category === "marketing");
  const names = Array.from(new Set(usable.map((x) => x.name)));
  const [template, setTemplate] = useState("");
  const [params, setParams] = useState<string[]>([]);
  const [language, setLanguage] = useState("");
  const [days, setDays] = useState<number | string>("");
  const [category, setCategory] = useState("");
  const [minSpent, setMinSpent] = useState<number | string>("");
  const chosen = template || names[0] || "";
  const count = parameterCount(usable.find((x) => x.name === chosen)?.body ?? "");
  const input = () => ({
    template: chosen,
    parameters: Array.from({ length: count }, (_, n) => params[n] ?? ""),
    segment: {
      language: language || null,
      ordered_within_days: days === "" ? null : Number(days),
      category: category.trim() || null,
      min_spent_kes: minSpent === "" ? null : Number(minSpent),
    },
  });
  const dry = useMutation({ mutationFn: () => api<DryRun>("/admin/broadcasts/dry-run", { method: "POST", body: input() }) });
  const send = useMutation({
    mutationFn: () => api<Broadcast>("/admin/broadcasts", { method: "POST", body: input() }),
    onSuccess: () => {
      dry.reset();
      void refresh(client, ["broadcasts"]);
    },
  });
  const list = useQuery({
    queryKey: ["broadcasts"],
    queryFn: () => api<Page<Broadcast>>("/admin/broadcasts", { query: { limit: 20 } }),
    refetchInterval: 5000, // progress while sending
  });
  return (
    <Stack gap="xs">
      <Title order={4}>{t("messages.broadcasts")}</Title>
      {names.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("messages.noMarketing")}
        </Text>
      ) : (
        <Card withBorder padding="sm" data-testid="new-broadcast">
          <NativeSelect label={t("messages.template")} value={chosen} onChange={(e) => { setTemplate(e.currentTarget.value); dry.reset(); }} data={names} />
          {Array.from({ length: count }, (_, n) => (
            <TextInput key={n} label={t("messages.parameter", { n: n + 1 })} value={params[n] ?? ""} onChange={(e) => { const v = e.currentTarget.value; setParams((p) => { const q = [...p]; q[n] = v; return q; }); dry.reset(); }} />
          ))}
          <Text size="sm" fw={500} mt="xs">
            {t("messages.who")}
          </Text>
          <Text size="xs" c="dimmed">
            {t("messages.whoHelp")}
          </Text>
          <Group grow align="flex-start">
            <NativeSelect label={t("messages.language")} value={language} onChange={(e) => { setLanguage(e.currentTarget.value); dry.reset(); }} data={[{ value: "", label: t("messages.anyLanguage") }, { value: "en", label: "English" }, { value: "sw", label: "Kiswahili" }]} />
            <NumberField label={t("messages.orderedWithin")} value={days} min={1} max={3650} onChange={(v) => { setDays(v); dry.reset(); }} />
          </Group>
          <Group grow align="flex-start">
            <TextInput label={t("messages.boughtCategory")} value={category} onChange={(e) => { setCategory(e.currentTarget.value); dry.reset(); }} />
            <NumberField label={t("messages.minSpent")} value={minSpent} min={0} onChange={(v) => { setMinSpent(v); dry.reset(); }} />
          </Group>
          {dry.data && (
            <Alert color={dry.data.recipients ? "teal" : "yellow"} mt="xs" data-testid="dry-run">
              <Text size="sm">{t("messages.reaches", { count: dry.data.recipients })}</Text>
              <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
                “{dry.data.preview}”
              </Text>
              {!dry.data.sends_now && <Text size="sm">{t("messages.laterAt", { at: when(dry.data.opens_at) })}</Text>}
            </Alert>
          )}
          {(dry.error || send.error) && (
            <Alert color="red" role="alert" mt="xs">
              {describe(dry.error ?? send.error)}
            </Alert>
          )}
          <Group mt="xs">
            <Button variant="light" onClick={() => dry.mutate()} loading={dry.isPending}>
              {t("messages.dryRun")}
            </Button>
            <Button onClick={() => send.mutate()} loading={send.isPending} disabled={!dry.data || dry.data.recipients === 0}>
              {t("messages.send", { count: dry.data?.recipients ?? 0 })}
            </Button>
          </Group>
        </Card>
      )}
      {list.error && <Failure error={list.error} />}
      {list.data?.items.map((b) => <BroadcastCard key={b.broadcast_id} broadcast={b} />)}
    </Stack>
  );
}

function BroadcastCard({ broadcast }: { broadcast: Broadcast }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const stop = useMutation({
    mutationFn: () => api<BroadcastDetail>(`/admin/broadcasts/${broadcast.broadcast_id}/cancel`, { method: "POST" }),
    onSuccess: () => void refresh(client, ["broadcasts"]),
  });
  const counts = broadcast.counts ?? {};
  return (
    <Card withBorder padding="sm" data-testid="broadcast">
      <Group justify="space-between" wrap="nowrap">
        <Text fw={600} truncate>
          {broadcast.template}
        </Text>
        <Badge color={broadcast.status === "sending" ? "blue" : broadcast.status === "cancelled" ? "gray" : "teal"} data-testid="broadcast-status">
          {t(`messages.broadcastStatus.${broadcast.status}`, { defaultValue: broadcast.status })}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        <Ago at={broadcast.created_at} /> · {broadcast.created_by}
      </Text>
      <Text size="sm" data-testid="broadcast-counts">
        {t("messages.counts", {
          recipients: broadcast.recipients,
          sent: counts.sent ?? 0,
          delivered: counts.delivered ?? 0,
          read: counts.read ?? 0,
          failed: (counts.failed ?? 0) + (counts.skipped ?? 0),
          stopped: counts.stopped ?? 0,
        })}
      </Text>
      {broadcast.status === "sending" && (
        <Group justify="flex-end">
          <Button size="xs" variant="subtle" color="red" onClick={() => stop.mutate()} loading={stop.isPending}>
            {t("messages.stop")}
          </Button>
        </Group>
      )}
    </Card>
  );
}
