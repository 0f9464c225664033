import "../styles-more";
import "../strings-understanding";
import { Alert, Badge, Button, Card, Code, Group, NativeSelect, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { all, api, describe, type Page } from "../api";
import { refresh } from "../logic/refresh";
import { INTENTS, isPurchase, type Intent } from "../logic/understanding";
import type { CatalogItem, CorpusExport, Misread } from "../types";
import { Guarded } from "./Layout";
import { Ago, Failure, Loading, NumberField } from "./common";

/** *Not understood*: what customers said that the bot did not understand; the owner says what each meant and the
 * shop's reading changes with her next customer's message (issue 53, part 5). */
export default function UnderstandingScreen() {
  return (
    <Guarded screen="understanding">
      <Understanding />
    </Guarded>
  );
}

type Shown = "open" | "labelled";

function Understanding() {
  const { t } = useTranslation("understanding");
  const [shown, setShown] = useState<Shown>("open");
  const list = useQuery({
    queryKey: ["not-understood", shown],
    queryFn: () => api<Page<Misread>>("/admin/understanding/not-understood", { query: { shown } }),
  });
  const items = useQuery({ queryKey: ["catalog"], queryFn: () => all<CatalogItem>("/admin/catalog/items") });
  const [corpus, setCorpus] = useState<string[] | null>(null);
  const exported = useMutation({
    mutationFn: () => api<CorpusExport>("/admin/understanding/corpus"),
    onSuccess: (data) => setCorpus(data.lines),
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t("title")}</Title>
        <Button variant="default" loading={exported.isPending} onClick={() => exported.mutate()}>
          {t("export")}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t("help")}
      </Text>
      <SegmentedControl
        value={shown}
        onChange={(v) => setShown(v as Shown)}
        data={[
          { value: "open", label: t("open") },
          { value: "labelled", label: t("labelled") },
        ]}
      />
      {exported.error && <Failure error={exported.error} />}
      {corpus && (
        <Stack gap={4} data-testid="corpus-lines">
          <Text size="xs" c="dimmed">
            {t("exportHelp", { count: corpus.length })}
          </Text>
          <Code block>{corpus.join("\n") || t("noLines")}</Code>
        </Stack>
      )}
      {list.isPending && <Loading />}
      {list.error && <Failure error={list.error} />}
      {list.data?.items.length === 0 && <Text c="dimmed">{t(shown === "open" ? "none" : "noneLabelled")}</Text>}
      {list.data?.items.map((m) => (
        <MisreadCard key={m.misread_id} misread={m} items={items.data ?? []} />
      ))}
    </Stack>
  );
}

function MisreadCard({ misread, items }: { misread: Misread; items: CatalogItem[] }) {
  const { t } = useTranslation("understanding");
  const client = useQueryClient();
  const [intent, setIntent] = useState<Intent | "">("");
  const [itemId, setItemId] = useState("");
  const [quantity, setQuantity] = useState<number | "">("");
  const save = useMutation({
    mutationFn: () =>
      api<Misread>(`/admin/understanding/not-understood/${misread.misread_id}/label`, {
        method: "PUT",
        body: {
          intent,
          item_id: isPurchase(intent) && itemId ? itemId : null,
          quantity: isPurchase(intent) && quantity !== "" ? quantity : null,
        },
      }),
    onSuccess: () => void refresh(client, ["not-understood"]),
  });
  const undo = useMutation({
    mutationFn: () => api<Misread>(`/admin/understanding/not-understood/${misread.misread_id}/label`, { method: "DELETE" }),
    onSuccess: () => void refresh(client, ["not-understood"]),
  });
  return (
    <Card withBorder padding="sm" data-testid="misread">
      <Text fw={600} style={{ wordBreak: "break-word" }}>
        “{misread.text}”
      </Text>
      <Group gap={6} mt={4}>
        <Badge variant="light">{t(`why.${misread.why}`)}</Badge>
        <Text size="xs" c="dimmed">
          {t("times", { count: misread.times })} · {t("readAs", { intent: t(`intent.${misread.read_as}`, { defaultValue: misread.read_as }), percent: Math.round(misread.confidence * 100) })} · <Ago at={misread.last_at} />
        </Text>
      </Group>
      {misread.label ? (
        <Group justify="space-between" mt="xs" wrap="nowrap">
          <Text size="sm" data-testid="misread-label">
            {t("meant", { intent: t(`intent.${misread.label.intent}`) })}
            {misread.label.item_name ? ` · ${misread.label.item_name}` : ""}
            {misread.label.quantity ? ` × ${misread.label.quantity}` : ""}
          </Text>
          <Button size="xs" variant="subtle" color="red" loading={undo.isPending} onClick={() => undo.mutate()}>
            {t("undo")}
          </Button>
        </Group>
      ) : (
        <Stack gap="xs" mt="xs">
          <NativeSelect
            label={t("whatMeant")}
            value={intent}
            onChange={(e) => setIntent(e.currentTarget.value as Intent | "")}
            data={[{ value: "", label: t("choose") }, ...INTENTS.map((i) => ({ value: i, label: t(`intent.${i}`) }))]}
          />
          {isPurchase(intent) && (
            <Group grow align="flex-end">
              <NativeSelect
                label={t("item")}
                value={itemId}
                onChange={(e) => setItemId(e.currentTarget.value)}
                data={[{ value: "", label: t("anyItem") }, ...items.map((i) => ({ value: i.item_id, label: i.name }))]}
              />
              <NumberField label={t("quantity")} value={quantity} onChange={(v) => setQuantity(v === "" ? "" : Number(v))} min={1} max={1000} />
            </Group>
          )}
          {save.error && (
            <Alert color="red" role="alert">
              {describe(save.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button size="xs" disabled={!intent} loading={save.isPending} onClick={() => save.mutate()}>
              {t("save")}
            </Button>
          </Group>
        </Stack>
      )}
    </Card>
  );
}
