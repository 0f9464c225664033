import "../styles-more";
import { Alert, Badge, Button, Card, Checkbox, Drawer, Group, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describe, type Page } from "../api";
import { refresh } from "../logic/refresh";
import { kes } from "../logic/orders";
import { newId } from "../logic/ids";
import type { Offer, OfferRow } from "../types";
import { Guarded } from "./Layout";
import { Failure, Loading, NumberField } from "./common";

const STATE_COLOURS: Record<OfferRow["state"], string> = {
  live: "teal",
  upcoming: "blue",
  used_up: "orange",
  ended: "gray",
  off: "gray",
};

export function OffersScreen() {
  return (
    <Guarded screen="offers">
      <Offers />
    </Guarded>
  );
}

function Offers() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Offer | "new" | null>(null);
  const offers = useQuery({ queryKey: ["offers"], queryFn: () => api<Page<OfferRow>>("/admin/offers") });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t("offers.title")}</Title>
        <Button onClick={() => setEditing("new")}>{t("offers.add")}</Button>
      </Group>
      {offers.isPending && <Loading />}
      {offers.error && <Failure error={offers.error} />}
      {offers.data?.items.length === 0 && <Text c="dimmed">{t("offers.none")}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {offers.data?.items.map((o) => (
          <Card
            key={o.offer_id}
            withBorder
            padding="sm"
            data-testid="offer"
            data-state={o.state}
            style={{ cursor: "pointer", opacity: o.state === "live" ? 1 : 0.65 }}
            onClick={() => setEditing(o)}
          >
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600} truncate>
                {o.title}
              </Text>
              <Group gap={4} wrap="nowrap">
                {o.code && <Badge variant="outline">{o.code}</Badge>}
                <Badge color={STATE_COLOURS[o.state]} variant="light" data-testid="offer-state">
                  {t(`offers.state.${o.state}`)}
                </Badge>
              </Group>
            </Group>
            <Text size="sm">
              {o.kind === "percent" ? `${o.value}%` : kes(o.value)} {o.min_order ? `· ${t("offers.minOrder")} ${kes(o.min_order)}` : ""}
            </Text>
            <Text size="xs" c="dimmed">
              {o.valid_from} → {o.valid_to} · {t("offers.used", { count: o.redemptions })}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Drawer opened={editing !== null} onClose={() => setEditing(null)} position="right" title={editing === "new" ? t("offers.add") : t("offers.edit")}>
        {editing !== null && <OfferForm offer={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
      </Drawer>
    </Stack>
  );
}

function OfferForm({ offer, onDone }: { offer: Offer | null; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const today = dayjs().format("YYYY-MM-DD");
  const [id] = useState(offer?.offer_id ?? null); // a new offer's id is made from its title when saved
  const [title, setTitle] = useState(offer?.title ?? "");
  const [code, setCode] = useState(offer?.code ?? "");
  const [kind, setKind] = useState<"percent" | "fixed">(offer?.kind ?? "percent");
  const [value, setValue] = useState<number | string>(offer?.value ?? 10);
  const [from, setFrom] = useState(offer?.valid_from ?? today);
  const [to, setTo] = useState(offer?.valid_to ?? dayjs().add(30, "day").format("YYYY-MM-DD"));
  const [minOrder, setMinOrder] = useState<number | string>(offer?.min_order ?? 0);
  const [optIn, setOptIn] = useState(offer?.requires_opt_in ?? false);
  const [active, setActive] = useState(offer?.active ?? true);
  const done = () => {
    void refresh(client, ["offers"]);
    onDone();
  };
  const save = useMutation({
    mutationFn: () =>
      api<Offer>(`/admin/offers/${encodeURIComponent(id ?? newId(title))}`, {
        method: "PUT",
        body: {
          ...(offer ?? {}),
          offer_id: undefined,
          tenant_id: undefined,
          redemptions: undefined,
          title: title.trim(),
          code: code.trim().toUpperCase() || null,
          kind,
          value: Number(value),
          valid_from: from,
          valid_to: to,
          min_order: Number(minOrder),
          requires_opt_in: optIn,
          active,
        },
      }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: () => api(`/admin/offers/${encodeURIComponent(id ?? "")}`, { method: "DELETE" }),
    onSuccess: done,
  });
  return (
    <Stack gap="xs">
      <TextInput label={t("offers.titleField")} value={title} required onChange={(e) => setTitle(e.currentTarget.value)} />
      <TextInput label={t("offers.code")} description={t("offers.codeHelp")} value={code} onChange={(e) => setCode(e.currentTarget.value)} />
      <SegmentedControl
        value={kind}
        onChange={(v) => setKind(v as "percent" | "fixed")}
        data={[
          { value: "percent", label: t("offers.percent") },
          { value: "fixed", label: t("offers.fixed") },
        ]}
      />
      <NumberField label={t("offers.value")} value={value} min={1} onChange={setValue} />
      <Group grow>
        <TextInput type="date" label={t("offers.from")} value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput type="date" label={t("offers.to")} value={to} onChange={(e) => setTo(e.currentTarget.value)} />
      </Group>
      <NumberField label={t("offers.minOrder")} value={minOrder} min={0} onChange={setMinOrder} />
      <Checkbox label={t("offers.optIn")} checked={optIn} onChange={(e) => setOptIn(e.currentTarget.checked)} />
      <Checkbox label={t("offers.active")} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
      {(save.error || remove.error) && (
        <Alert color="red" role="alert">
          {describe(save.error ?? remove.error)}
        </Alert>
      )}
      <Group>
        <Button onClick={() => save.mutate()} loading={save.isPending}>
          {t("common.save")}
        </Button>
        {offer && (
          <Button variant="outline" color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
            {t("common.delete")}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
