import { Alert, Badge, Center, Loader, NativeSelect, TextInput } from "@mantine/core";
import dayjs from "dayjs";
import relativeTime from "dayjs/plugin/relativeTime";
import "dayjs/locale/sw";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";

import { api, describe } from "../api";
import { LANGUAGES, setLanguage } from "../i18n";

dayjs.extend(relativeTime);

export function Loading() {
  return (
    <Center p="xl">
      <Loader size="sm" />
    </Center>
  );
}

export function Failure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={t("common.error")} role="alert">
      {describe(error)}
    </Alert>
  );
}

/** "5 minutes ago", in the console's language. */
export function Ago({ at }: { at: string }) {
  const { i18n } = useTranslation();
  return (
    <span title={dayjs(at).format("D MMM YYYY HH:mm")}>
      {dayjs(at).locale(i18n.language === "sw" ? "sw" : "en").fromNow()}
    </span>
  );
}

export function when(at: string | null | undefined): string {
  return at ? dayjs(at).format("D MMM YYYY, HH:mm") : "-";
}

const COLOURS: Record<string, string> = {
  urgent: "red",
  high: "orange",
  normal: "blue",
  low: "gray",
  open: "orange",
  claimed: "blue",
  paid: "teal",
  fulfilled: "green",
  cancelled: "gray",
  payment_failed: "red",
  pending_payment: "yellow",
  draft: "gray",
  ready: "teal",
  failed: "red",
  pending: "yellow",
  processing: "blue",
};

/** A status or priority as a coloured badge with its translated name. */
export function StatusBadge({ value, group }: { value: string; group: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLOURS[value] ?? "gray"} variant="light">
      {t(`${group}.${value}`, { defaultValue: value.replace(/_/g, " ") })}
    </Badge>
  );
}

/** The console's language (English or Kiswahili), remembered in this browser. */
export function LanguagePicker({ w }: { w?: number }) {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      aria-label={t("nav.language")}
      data={LANGUAGES.map((l) => ({ ...l }))}
      value={i18n.language}
      onChange={(e) => setLanguage(e.currentTarget.value as "en" | "sw")}
      size="xs"
      w={w}
    />
  );
}

/** How the console names a person of the shop: the name on the staff list, else the email their actions carry. */
export function useWho(): (actor: string | null | undefined) => string {
  const names = useQuery({
    queryKey: ["staff-names"],
    queryFn: () => api<{ email: string; name: string }[]>("/admin/staff/names"),
    staleTime: 5 * 60_000,
  });
  const byEmail = new Map((names.data ?? []).map((n) => [n.email.toLowerCase(), n.name]));
  return (actor) => (actor ? (byEmail.get(actor.toLowerCase()) ?? actor) : "");
}

/** A number typed in a plain input (the phone's number pad): what the screens need of Mantine's NumberInput,
 * without its 9 KB formatting library. ``onChange`` gets the number, or "" while the field is empty. */
export function NumberField({
  label,
  description,
  value,
  min,
  max,
  step,
  unit,
  w,
  "aria-label": ariaLabel,
  onChange,
}: {
  label?: string;
  description?: string;
  value: number | string;
  min?: number;
  max?: number;
  step?: number;
  unit?: string; // shown beside the number ("KES", "min")
  w?: number;
  "aria-label"?: string;
  onChange: (value: number | string) => void;
}) {
  return (
    <TextInput
      type="number"
      inputMode="decimal"
      label={label}
      description={description}
      aria-label={ariaLabel}
      value={value}
      min={min}
      max={max}
      step={step}
      w={w}
      rightSection={unit ? <span style={{ fontSize: 12, color: "var(--mantine-color-dimmed)" }}>{unit}</span> : undefined}
      rightSectionWidth={unit ? 44 : undefined}
      onChange={(e) => {
        const raw = e.currentTarget.value;
        onChange(raw === "" ? "" : Number(raw));
      }}
    />
  );
}
