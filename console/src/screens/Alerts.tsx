import "../styles-more";
import { Alert, Button, Card, Checkbox, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describe } from "../api";
import { pushSupported, subscribeThisDevice, unsubscribeThisDevice } from "../alerts";
import { deviceLabel } from "../logic/alerts";
import type { AlertKind, AlertSettings } from "../types";
import { Ago, Failure, Loading } from "./common";

/** The device id the server gives a subscription: its endpoint hashed (SHA-256, the first 32 hex digits). */
async function deviceId(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, 32);
}

async function thisDevice(): Promise<string | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  return subscription ? deviceId(subscription.endpoint) : null;
}

interface Choices {
  push: AlertKind[];
  whatsapp: AlertKind[];
  whatsapp_number: string;
  quiet_hours: string;
  language: "en" | "sw";
}

function choicesOf(s: AlertSettings): Choices {
  return {
    push: s.push,
    whatsapp: s.whatsapp,
    whatsapp_number: s.whatsapp_number ?? "",
    quiet_hours: s.quiet_hours ?? "",
    language: s.language,
  };
}

export function AlertsScreen() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: ["alert-settings"], queryFn: () => api<AlertSettings>("/admin/alerts/settings") });
  const mine = useQuery({ queryKey: ["this-device"], queryFn: thisDevice });
  if (settings.isPending) return <Loading />;
  if (settings.error) return <Failure error={settings.error} />;
  return (
    <Stack gap="md" maw={720}>
      <Title order={3}>{t("alerts.title")}</Title>
      <Text c="dimmed">{t("alerts.intro")}</Text>
      <Devices settings={settings.data} current={mine.data ?? null} />
      <Choose settings={settings.data} />
    </Stack>
  );
}

function Devices({ settings, current }: { settings: AlertSettings; current: string | null }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const done = (fresh: AlertSettings) => {
    queries.setQueryData(["alert-settings"], fresh);
    void queries.invalidateQueries({ queryKey: ["this-device"] });
    setProblem(null);
  };
  const turnOn = useMutation({
    mutationFn: async () => {
      const subscription = await subscribeThisDevice(settings.push_key ?? "");
      return api<AlertSettings>("/admin/alerts/devices", {
        body: { endpoint: subscription.endpoint, keys: subscription.keys, label: deviceLabel(navigator.userAgent) },
      });
    },
    onSuccess: done,
    onError: (error) =>
      setProblem(error instanceof Error && error.message === "notifications-refused" ? t("alerts.refused") : describe(error)),
  });
  const remove = useMutation({
    mutationFn: async (id: string) => {
      if (id === current) await unsubscribeThisDevice();
      await api(`/admin/alerts/devices/${id}`, { method: "DELETE" });
      return api<AlertSettings>("/admin/alerts/settings");
    },
    onSuccess: done,
    onError: (error) => setProblem(describe(error)),
  });
  const on = current !== null && settings.devices.some((d) => d.device_id === current);
  return (
    <Card withBorder>
      <Title order={5} mb="xs">
        {t("alerts.devices")}
      </Title>
      <Stack gap="xs">
        {!pushSupported() ? (
          <Text size="sm">{t("alerts.unsupported")}</Text>
        ) : settings.push_key === null ? (
          <Text size="sm">{t("alerts.notSetUp")}</Text>
        ) : on ? (
          <Text size="sm" data-testid="device-on">
            {t("alerts.on")}
          </Text>
        ) : (
          <Group>
            <Button onClick={() => turnOn.mutate()} loading={turnOn.isPending}>
              {t("alerts.turnOn")}
            </Button>
          </Group>
        )}
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        {settings.devices.map((d) => (
          <Group key={d.device_id} justify="space-between" data-testid="device">
            <Text size="sm">
              {d.label ?? t("alerts.aDevice")}
              {d.device_id === current ? ` (${t("alerts.thisOne")})` : ""} · <Ago at={d.created_at} />
            </Text>
            <Button variant="subtle" size="xs" color="red" onClick={() => remove.mutate(d.device_id)}>
              {t("alerts.remove")}
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

function Choose({ settings }: { settings: AlertSettings }) {
  const { t, i18n } = useTranslation();
  const queries = useQueryClient();
  const [choices, setChoices] = useState<Choices>(() => choicesOf(settings));
  const [saved, setSaved] = useState(false);
  useEffect(() => setChoices(choicesOf(settings)), [settings]);
  const save = useMutation({
    mutationFn: () =>
      api<AlertSettings>("/admin/alerts/settings", {
        method: "PUT",
        body: { ...choices, whatsapp_number: choices.whatsapp_number.trim() || null, quiet_hours: choices.quiet_hours.trim() || null },
      }),
    onSuccess: (fresh) => {
      queries.setQueryData(["alert-settings"], fresh);
      setSaved(true);
    },
    onMutate: () => setSaved(false),
  });
  const toggle = (where: "push" | "whatsapp", kind: AlertKind, checked: boolean) =>
    setChoices((c) => ({ ...c, [where]: checked ? [...c[where], kind] : c[where].filter((k) => k !== kind) }));
  return (
    <Card withBorder>
      <Title order={5} mb="xs">
        {t("alerts.what")}
      </Title>
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {(["push", "whatsapp"] as const).map((where) => (
            <Stack key={where} gap={4}>
              <Text fw={600} size="sm">
                {t(`alerts.${where}`)}
              </Text>
              {settings.kinds.map((kind) => (
                <Checkbox
                  key={kind}
                  label={t(`alerts.kind.${kind}`)}
                  checked={choices[where].includes(kind)}
                  onChange={(e) => toggle(where, kind, e.currentTarget.checked)}
                  data-testid={`${where}-${kind}`}
                />
              ))}
            </Stack>
          ))}
        </SimpleGrid>
        <TextInput
          label={t("alerts.number")}
          description={t("alerts.numberHint")}
          value={choices.whatsapp_number}
          onChange={(e) => setChoices({ ...choices, whatsapp_number: e.currentTarget.value })}
          inputMode="tel"
        />
        <TextInput
          label={t("alerts.quiet")}
          description={t("alerts.quietHint")}
          placeholder="21:00-07:00"
          value={choices.quiet_hours}
          onChange={(e) => setChoices({ ...choices, quiet_hours: e.currentTarget.value })}
        />
        <NativeSelect
          label={t("alerts.language")}
          data={[
            { value: "en", label: "English" },
            { value: "sw", label: "Kiswahili" },
          ]}
          value={choices.language}
          onChange={(e) => setChoices({ ...choices, language: e.currentTarget.value as "en" | "sw" })}
        />
        {save.error && <Failure error={save.error} />}
        {saved && (
          <Alert color="teal" data-testid="alerts-saved">
            {t("alerts.saved")}
          </Alert>
        )}
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending}>
            {t("alerts.save")}
          </Button>
          {choices.language !== i18n.language && <Text size="xs" c="dimmed">{t("alerts.languageNote")}</Text>}
        </Group>
      </Stack>
    </Card>
  );
}
