import type { CatalogItem, VariantDimension } from "../types";

/** Lower case, accents and punctuation away: "Écran  TV-55" -> "ecran tv 55". */
export function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The item whose sku is the query; else items whose sku, name, brand, category or tags hold every
 * word of the query. */
export function searchItems(items: readonly CatalogItem[], query: string): CatalogItem[] {
  const sku = items.filter((i) => i.item_id.toLowerCase() === query.trim().toLowerCase());
  if (sku.length) return sku;
  const words = fold(query).split(" ").filter(Boolean);
  if (!words.length) return [...items];
  return items.filter((item) => {
    const hay = fold([item.item_id, item.name, item.brand ?? "", item.category, ...item.tags].join(" "));
    return words.every((w) => hay.includes(w));
  });
}

/** Variants as one line a shop owner can type: "colour: black, blue +500; storage: 128GB, 256GB +3000". */
export function variantsToText(dims: readonly VariantDimension[]): string {
  return dims
    .map(
      (d) =>
        `${d.name}: ` +
        d.options.map((o) => (o.price_delta ? `${o.value} ${o.price_delta > 0 ? "+" : ""}${o.price_delta}` : o.value)).join(", "),
    )
    .join("; ");
}

export class VariantSyntaxError extends Error {}

/** The inverse of variantsToText; a dimension without options or a bad price change is an error. */
export function textToVariants(text: string): VariantDimension[] {
  const dims: VariantDimension[] = [];
  for (const part of text.split(";").map((p) => p.trim()).filter(Boolean)) {
    const colon = part.indexOf(":");
    if (colon < 1) throw new VariantSyntaxError(`"${part}": write name: option, option`);
    const name = part.slice(0, colon).trim();
    const options = part
      .slice(colon + 1)
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => {
        const m = o.match(/^(.*?)\s+([+-]\d+)$/);
        return m ? { value: m[1].trim(), price_delta: Number(m[2]) } : { value: o, price_delta: 0 };
      });
    if (!options.length) throw new VariantSyntaxError(`"${name}" has no options`);
    dims.push({ name, options });
  }
  return dims;
}

export interface DepositValue {
  percent?: number | null;
  amount?: number | null;
}

/** A service's deposit as the owner writes it (as the pack's CSV does): "30%", "1000" (KES), "none"; empty:
 * the shop's usual deposit (null). Anything else is an error naming what to write. */
export function depositFromText(raw: string): DepositValue | null {
  const text = raw.trim().toLowerCase().replace(/kes|ksh|,/g, "").trim();
  if (!text) return null;
  if (["none", "no", "0", "0%", "hakuna"].includes(text)) return { amount: 0 };
  const percent = text.match(/^(\d{1,3})\s*%$/);
  if (percent && Number(percent[1]) >= 1 && Number(percent[1]) <= 100) return { percent: Number(percent[1]) };
  if (/^\d+$/.test(text)) return { amount: Number(text) };
  throw new VariantSyntaxError(`"${raw}": write a percent (30%), an amount in KES (1000) or none`);
}

export function depositToText(deposit: DepositValue | null | undefined): string {
  if (!deposit) return "";
  if (deposit.percent) return `${deposit.percent}%`;
  return deposit.amount ? String(deposit.amount) : "none";
}

/** A variant row being edited: an option and its price difference. */
export interface OptionRow {
  value: string;
  price_delta: number;
}

/** The variant rows as the API stores them: empty options and dimensions dropped, names trimmed; a dimension
 * with a name and no option, or two dimensions of one name, is an error. */
export function rowsToVariants(dims: readonly { name: string; options: readonly OptionRow[] }[]): VariantDimension[] {
  const out: VariantDimension[] = [];
  for (const d of dims) {
    const options = d.options.map((o) => ({ value: o.value.trim(), price_delta: Math.round(Number(o.price_delta) || 0) })).filter((o) => o.value);
    const name = d.name.trim();
    if (!name && !options.length) continue;
    if (!name) throw new VariantSyntaxError(`options ${options.map((o) => o.value).join(", ")} need a name (e.g. colour)`);
    if (!options.length) throw new VariantSyntaxError(`"${name}" has no options`);
    if (out.some((x) => x.name.toLowerCase() === name.toLowerCase())) throw new VariantSyntaxError(`"${name}" is there twice`);
    out.push({ name, options });
  }
  return out;
}
