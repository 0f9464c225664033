import type { LocalText } from "../types";

export interface LocalTextFields {
  en: string;
  sw: string;
}

/** A text the shop writes per language (or once for all), as the two fields the console edits. */
export function toFields(value: LocalText | null | undefined): LocalTextFields {
  if (!value) return { en: "", sw: "" };
  if (typeof value === "string") return { en: value, sw: "" };
  return { en: value.en ?? "", sw: value.sw ?? "" };
}

/** Back to the API's shape: one text when only English is given, null when nothing is; a Sheng text
 * the pack had (the console does not edit it) is kept. */
export function fromFields(fields: LocalTextFields, original?: LocalText | null): LocalText | null {
  const en = fields.en.trim();
  const sw = fields.sw.trim();
  const sheng = original && typeof original === "object" ? original.sheng : undefined;
  if (!en && !sw) return sheng ? { sheng } : null;
  if (!sw && !sheng) return en;
  return { ...(en ? { en } : {}), ...(sw ? { sw } : {}), ...(sheng ? { sheng } : {}) };
}
