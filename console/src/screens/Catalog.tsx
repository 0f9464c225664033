import {
  Alert,
  Button,
  Card,
  Checkbox,
  Drawer,
  FileButton,
  Group,
  NumberInput,
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
import { searchItems, textToVariants, variantsToText } from "../logic/catalog";
import { kes } from "../logic/orders";
import type { CatalogItem, ImportReport } from "../types";
import { Guarded } from "./Layout";
import { Failure, Loading } from "./common";

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
  const [sku, setSku] = useState(item?.item_id ?? "");
  const [name, setName] = useState(item?.name ?? "");
  const [category, setCategory] = useState(item?.category ?? "");
  const [price, setPrice] = useState<number | string>(item?.price ?? 0);
  const [tracked, setTracked] = useState(item ? item.stock !== null : true);
  const [stock, setStock] = useState<number | string>(item?.stock ?? 0);
  const [brand, setBrand] = useState(item?.brand ?? "");
  const [description, setDescription] = useState(item?.description ?? "");
  const [variants, setVariants] = useState(variantsToText(item?.variants ?? []));
  const [tags, setTags] = useState((item?.tags ?? []).join(", "));
  const [active, setActive] = useState(item?.active ?? true);
  const [problem, setProblem] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: async () => {
      const body = {
        type: item?.type ?? "product",
        name: name.trim(),
        category: category.trim(),
        price: Number(price),
        stock: tracked ? Number(stock) : null,
        brand: brand.trim() || null,
        description,
        variants: textToVariants(variants),
        tags: tags.split(",").map((x) => x.trim()).filter(Boolean),
        active,
      };
      const id = encodeURIComponent(sku.trim());
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
    <Stack gap="xs">
      <TextInput label={t("catalog.sku")} value={sku} disabled={!!item} required onChange={(e) => setSku(e.currentTarget.value)} />
      <TextInput label={t("catalog.name")} value={name} required onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput label={t("catalog.category")} value={category} required onChange={(e) => setCategory(e.currentTarget.value)} />
      <NumberInput label={t("catalog.price")} value={price} min={0} thousandSeparator="," prefix="KES " onChange={setPrice} />
      <Switch label={t("catalog.trackStock")} checked={tracked} onChange={(e) => setTracked(e.currentTarget.checked)} />
      {tracked && <NumberInput label={t("catalog.stock")} value={stock} min={0} onChange={setStock} />}
      <TextInput label={t("catalog.brand")} value={brand} onChange={(e) => setBrand(e.currentTarget.value)} />
      <Textarea label={t("catalog.description")} value={description} autosize minRows={2} onChange={(e) => setDescription(e.currentTarget.value)} />
      <TextInput label={t("catalog.variants")} description={t("catalog.variantsHelp")} value={variants} onChange={(e) => setVariants(e.currentTarget.value)} />
      <TextInput label={t("catalog.tags")} value={tags} onChange={(e) => setTags(e.currentTarget.value)} />
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

function CsvImport() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [partial, setPartial] = useState(false);
  const reset = useRef<() => void>(null);
  const upload = useMutation({
    mutationFn: async (file: File) =>
      api<ImportReport>("/admin/catalog/import", { method: "POST", raw: await file.text(), contentType: "text/csv", query: { partial } }),
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
      <FileButton resetRef={reset} onChange={(f) => { setError(null); setReport(null); if (f) upload.mutate(f); }} accept=".csv,text/csv">
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
