import "../styles-more";
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Checkbox,
  Drawer,
  FileButton,
  Group,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { ApiError, all, api, describe } from "../api";
import { refresh } from "../logic/refresh";
import { depositFromText, depositToText, rowsToVariants, searchItems, type OptionRow } from "../logic/catalog";
import { newId } from "../logic/ids";
import { kes } from "../logic/orders";
import type { CatalogItem, ImportReport, Tenant } from "../types";
import { Guarded } from "./Layout";
import { Failure, Loading, NumberField } from "./common";

export function CatalogScreen() {
  return (
    <Guarded screen="catalog">
      <Catalog />
    </Guarded>
  );
}

function Catalog() {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState<CatalogItem | "new" | null>(null);
  const items = useQuery({ queryKey: ["catalog"], queryFn: () => all<CatalogItem>("/admin/catalog/items") });
  const shown = useMemo(() => searchItems(items.data ?? [], query), [items.data, query]);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t("catalog.title")}</Title>
        <Group gap="xs">
          <CsvImport />
          <Button onClick={() => setEditing("new")}>{t("catalog.add")}</Button>
        </Group>
      </Group>
      <TextInput placeholder={t("catalog.search")} aria-label={t("catalog.search")} value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
      {items.isPending && <Loading />}
      {items.error && <Failure error={items.error} />}
      <Text size="xs" c="dimmed">
        {t("catalog.count", { shown: shown.length, total: items.data?.length ?? 0 })}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs">
        {shown.map((item) => (
          <Card key={item.item_id} withBorder padding="sm" data-testid="catalog-item" style={{ cursor: "pointer" }} onClick={() => setEditing(item)}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600} truncate>
                {item.name}
              </Text>
              <Text fw={600} data-testid="item-price">
                {kes(item.price)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {item.item_id} · {item.category}
              {item.brand ? ` · ${item.brand}` : ""}
            </Text>
            <Text size="sm" c={item.stock === 0 || !item.active ? "red" : undefined}>
              {!item.active ? t("catalog.hidden") : item.stock === null ? t("catalog.notTracked") : t("catalog.inStock", { count: item.stock })}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Drawer opened={editing !== null} onClose={() => setEditing(null)} position="right" size="md" title={editing === "new" ? t("catalog.add") : t("catalog.edit")}>
        {editing !== null && <ItemForm item={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
      </Drawer>
    </Stack>
  );
}

function ItemForm({ item, onDone }: { item: CatalogItem | null; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const shop = useQuery({ queryKey: ["tenant"], queryFn: () => api<Tenant>("/admin/tenant") });
  const [sku, setSku] = useState(item?.item_id ?? "");
  const [kind, setKind] = useState<"product" | "service">(item?.type ?? "product");
  const [name, setName] = useState(item?.name ?? "");
  const [category, setCategory] = useState(item?.category ?? "");
  const [price, setPrice] = useState<number | string>(item?.price ?? 0);
  const [tracked, setTracked] = useState(item ? item.stock !== null : true);
  const [stock, setStock] = useState<number | string>(item?.stock ?? 0);
  const [brand, setBrand] = useState(item?.brand ?? "");
  const [description, setDescription] = useState(item?.description ?? "");
  const [variants, setVariants] = useState<DimensionRows[]>(
    (item?.variants ?? []).map((d) => ({ name: d.name, options: d.options.map((o) => ({ value: o.value, price_delta: o.price_delta })) })),
  );
  const [tags, setTags] = useState((item?.tags ?? []).join(", "));
  const [active, setActive] = useState(item?.active ?? true);
  // a service booked as an appointment: how long, its deposit, who does it and where
  const [duration, setDuration] = useState<number | string>(item?.duration_minutes ?? 60);
  const [deposit, setDeposit] = useState(depositToText(item?.deposit));
  const [staff, setStaff] = useState<string[]>(item?.staff ?? []);
  const [place, setPlace] = useState<"shop" | "home">(item?.place ?? "shop");
  const [zones, setZones] = useState<string[]>(item?.zones ?? []);
  const [problem, setProblem] = useState<string | null>(null);
  const people = shop.data?.bookings?.staff ?? [];

  const save = useMutation({
    mutationFn: async () => {
      const service = kind === "service";
      const body = {
        type: kind,
        name: name.trim(),
        category: category.trim(),
        price: Number(price),
        stock: tracked && !service ? Number(stock) : null,
        brand: brand.trim() || null,
        description,
        variants: rowsToVariants(variants),
        tags: tags.split(",").map((x) => x.trim()).filter(Boolean),
        active,
        duration_minutes: service ? Number(duration) : null,
        deposit: service ? depositFromText(deposit) : null,
        staff: service ? staff : [],
        place: service ? place : "shop",
        zones: service && place === "home" ? zones : [],
      };
      const id = encodeURIComponent(sku.trim() || newSku(name));
      return item ? api<CatalogItem>(`/admin/catalog/items/${id}`, { method: "PATCH", body }) : api<CatalogItem>(`/admin/catalog/items/${id}`, { method: "PUT", body });
    },
    onSuccess: () => {
      void refresh(client, ["catalog"]);
      onDone();
    },
    onError: (e) => setProblem(describe(e)),
  });
  const remove = useMutation({
    mutationFn: () => api(`/admin/catalog/items/${encodeURIComponent(sku)}`, { method: "DELETE" }),
    onSuccess: () => {
      void refresh(client, ["catalog"]);
      onDone();
    },
    onError: (e) => setProblem(describe(e)),
  });

  return (
    <Stack gap="xs" data-testid="item-form">
      <SegmentedControl
        value={kind}
        onChange={(v) => setKind(v as "product" | "service")}
        data={[
          { value: "product", label: t("catalog.product") },
          { value: "service", label: t("catalog.service") },
        ]}
        aria-label={t("catalog.kind")}
      />
      <TextInput label={t("catalog.name")} value={name} required onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput
        label={t("catalog.sku")}
        description={item ? undefined : t("catalog.skuHelp")}
        value={sku}
        disabled={!!item}
        onChange={(e) => setSku(e.currentTarget.value)}
      />
      <TextInput label={t("catalog.category")} value={category} required onChange={(e) => setCategory(e.currentTarget.value)} />
      <NumberField label={t("catalog.price")} value={price} min={0} unit="KES" onChange={setPrice} />
      {kind === "service" ? (
        <Stack gap="xs" data-testid="service-fields">
          <NumberField label={t("catalog.duration")} value={duration} min={5} max={24 * 60} step={15} unit={t("catalog.minutes")} onChange={setDuration} />
          <TextInput label={t("catalog.deposit")} description={t("catalog.depositHelp")} value={deposit} onChange={(e) => setDeposit(e.currentTarget.value)} />
          {people.length > 0 && (
            <Checkbox.Group label={t("catalog.staff")} description={t("catalog.staffHelp")} value={staff} onChange={setStaff}>
              <Group gap="xs" mt={4}>
                {people.map((p) => (
                  <Checkbox key={p.id} value={p.id} label={p.name} />
                ))}
              </Group>
            </Checkbox.Group>
          )}
          <NativeSelect
            label={t("catalog.place")}
            value={place}
            onChange={(e) => setPlace(e.currentTarget.value as "shop" | "home")}
            data={[
              { value: "shop", label: t("catalog.atShop") },
              { value: "home", label: t("catalog.atHome") },
            ]}
          />
          {place === "home" && (
            <Checkbox.Group label={t("catalog.zones")} description={t("catalog.zonesHelp")} value={zones} onChange={setZones}>
              <Group gap="xs" mt={4}>
                {(shop.data?.delivery_zones ?? []).map((z) => (
                  <Checkbox key={z.name} value={z.name} label={z.name} />
                ))}
              </Group>
            </Checkbox.Group>
          )}
        </Stack>
      ) : (
        <>
          <Switch label={t("catalog.trackStock")} checked={tracked} onChange={(e) => setTracked(e.currentTarget.checked)} />
          {tracked && <NumberField label={t("catalog.stock")} value={stock} min={0} onChange={setStock} />}
          <TextInput label={t("catalog.brand")} value={brand} onChange={(e) => setBrand(e.currentTarget.value)} />
        </>
      )}
      <Textarea label={t("catalog.description")} value={description} autosize minRows={2} onChange={(e) => setDescription(e.currentTarget.value)} />
      <VariantRows value={variants} onChange={setVariants} />
      <TextInput label={t("catalog.tags")} value={tags} onChange={(e) => setTags(e.currentTarget.value)} />
      <ItemPicture item={item} />
      <Checkbox label={t("catalog.active")} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Group>
        <Button onClick={() => { setProblem(null); save.mutate(); }} loading={save.isPending}>
          {t("common.save")}
        </Button>
        {item && (
          <Button variant="outline" color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
            {t("common.delete")}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** The item's picture: uploaded as its own bytes (the server checks what it is), replaced or removed. */
function ItemPicture({ item }: { item: CatalogItem | null }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [url, setUrl] = useState<string | null>(item?.image_url ?? null);
  const [problem, setProblem] = useState<string | null>(null);
  const reset = useRef<() => void>(null);
  const path = item ? `/admin/catalog/items/${encodeURIComponent(item.item_id)}/picture` : "";
  const done = (saved: CatalogItem) => {
    setUrl(saved.image_url ?? null);
    void refresh(client, ["catalog"]);
  };
  const upload = useMutation({
    mutationFn: (file: File) => api<CatalogItem>(path, { method: "POST", raw: file, contentType: file.type || "image/jpeg" }),
    onSuccess: done,
    onSettled: () => reset.current?.(),
    onError: (e) => setProblem(describe(e)),
  });
  const remove = useMutation({
    mutationFn: () => api<CatalogItem>(path, { method: "DELETE" }),
    onSuccess: done,
    onError: (e) => setProblem(describe(e)),
  });
  return (
    <Stack gap={4} data-testid="item-picture">
      <Text size="sm" fw={500}>
        {t("catalog.picture")}
      </Text>
      <Text size="xs" c="dimmed">
        {item ? t("catalog.pictureHelp") : t("catalog.pictureAfterSave")}
      </Text>
      {url && <img src={url} alt={item?.name ?? ""} style={{ maxWidth: 160, maxHeight: 120, borderRadius: 6, objectFit: "cover" }} />}
      {item && (
        <Group gap="xs">
          <FileButton resetRef={reset} onChange={(f) => { setProblem(null); if (f) upload.mutate(f); }} accept="image/jpeg,image/png,image/webp">
            {(props) => (
              <Button size="xs" variant="light" loading={upload.isPending} {...props}>
                {url ? t("catalog.pictureReplace") : t("catalog.pictureUpload")}
              </Button>
            )}
          </FileButton>
          {url && (
            <Button size="xs" variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t("catalog.pictureRemove")}
            </Button>
          )}
        </Group>
      )}
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
    </Stack>
  );
}

interface DimensionRows {
  name: string;
  options: OptionRow[];
}

/** Variants as rows: each kind of choice (colour, size) with its options and what each adds to the price. */
function VariantRows({ value, onChange }: { value: DimensionRows[]; onChange: (v: DimensionRows[]) => void }) {
  const { t } = useTranslation();
  const setDim = (i: number, d: DimensionRows) => onChange(value.map((x, n) => (n === i ? d : x)));
  return (
    <Stack gap={6} data-testid="variants">
      <Text size="sm" fw={500}>
        {t("catalog.variants")}
      </Text>
      {value.map((d, i) => (
        <Card key={i} withBorder padding="xs" data-testid="variant-dimension">
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TextInput style={{ flex: 1 }} label={t("catalog.variantName")} placeholder={t("catalog.variantNameHint")} value={d.name} onChange={(e) => setDim(i, { ...d, name: e.currentTarget.value })} />
            <ActionIcon variant="subtle" color="red" mb={4} aria-label={t("catalog.removeVariant")} onClick={() => onChange(value.filter((_, n) => n !== i))}>
              ×
            </ActionIcon>
          </Group>
          {d.options.map((o, j) => (
            <Group key={j} gap="xs" wrap="nowrap" mt={4} align="flex-end" data-testid="variant-option">
              <TextInput style={{ flex: 1 }} label={j === 0 ? t("catalog.option") : undefined} aria-label={t("catalog.option")} value={o.value} onChange={(e) => setDim(i, { ...d, options: d.options.map((x, m) => (m === j ? { ...x, value: e.currentTarget.value } : x)) })} />
              <NumberField w={120} label={j === 0 ? t("catalog.priceDelta") : undefined} aria-label={t("catalog.priceDelta")} value={o.price_delta} onChange={(v) => setDim(i, { ...d, options: d.options.map((x, m) => (m === j ? { ...x, price_delta: Number(v) || 0 } : x)) })} />
              <ActionIcon variant="subtle" color="red" mb={4} aria-label={t("catalog.removeOption")} onClick={() => setDim(i, { ...d, options: d.options.filter((_, m) => m !== j) })}>
                ×
              </ActionIcon>
            </Group>
          ))}
          <Button variant="subtle" size="xs" mt={4} onClick={() => setDim(i, { ...d, options: [...d.options, { value: "", price_delta: 0 }] })}>
            {t("catalog.addOption")}
          </Button>
        </Card>
      ))}
      <Button variant="light" size="xs" onClick={() => onChange([...value, { name: "", options: [{ value: "", price_delta: 0 }] }])}>
        {t("catalog.addVariant")}
      </Button>
    </Stack>
  );
}

/** An item's id from its name when the owner gives none (she may keep her own SKUs). */
function newSku(name: string): string {
  return newId(name).toUpperCase();
}

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

function CsvImport() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [partial, setPartial] = useState(false);
  const reset = useRef<() => void>(null);
  const upload = useMutation({
    // a CSV goes as its text; an Excel workbook as its bytes (the server reads either, and says which it read)
    mutationFn: async (file: File) =>
      api<ImportReport>("/admin/catalog/import", {
        method: "POST",
        raw: /\.xlsx$/i.test(file.name) ? file : await file.text(),
        contentType: /\.xlsx$/i.test(file.name) ? XLSX : "text/csv",
        query: { partial },
      }),
    onSuccess: (r) => {
      setReport(r);
      void refresh(client, ["catalog"]);
    },
    onSettled: () => reset.current?.(), // the same file can be chosen again (after ticking "save the good rows")
    onError: (e) => {
      if (e instanceof ApiError && e.status === 422 && e.body && typeof e.body === "object" && "rows" in e.body) setReport(e.body as ImportReport);
      else setError(describe(e));
    },
  });
  return (
    <>
      <FileButton resetRef={reset} onChange={(f) => { setError(null); setReport(null); if (f) upload.mutate(f); }} accept={`.csv,text/csv,.xlsx,${XLSX}`}>
        {(props) => (
          <Button variant="light" loading={upload.isPending} {...props}>
            {t("catalog.import")}
          </Button>
        )}
      </FileButton>
      <Drawer opened={!!report || !!error} onClose={() => { setReport(null); setError(null); }} title={t("catalog.importReport")} position="right">
        {error && <Alert color="red">{error}</Alert>}
        {report && (
          <Stack gap="xs" data-testid="import-report">
            <Text>{t("catalog.importSummary", { rows: report.rows, written: report.written, invalid: report.invalid })}</Text>
            {report.written === 0 && report.invalid > 0 && <Alert color="orange">{t("catalog.nothingWritten")}</Alert>}
            {report.problems.map((p, i) => (
              <Alert key={i} color="orange">
                {p}
              </Alert>
            ))}
            {report.invalid_rows.map((r) => (
              <Text key={r.row} size="sm">
                {t("catalog.row", { row: r.row })} {r.sku}: {r.errors.map((e) => `${e.field ?? ""} ${e.message ?? ""}`.trim()).join("; ")}
              </Text>
            ))}
            {report.invalid > 0 && !report.partial && (
              <Checkbox label={t("catalog.partial")} checked={partial} onChange={(e) => setPartial(e.currentTarget.checked)} />
            )}
          </Stack>
        )}
      </Drawer>
    </>
  );
}
