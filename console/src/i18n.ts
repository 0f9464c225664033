import i18next from "i18next";
import { initReactI18next } from "react-i18next";

import { en } from "./strings";

export const LANGUAGES = [
  { value: "en", label: "English" },
  { value: "sw", label: "Kiswahili" },
] as const;

const STORED = "tulia-console-language";

export function savedLanguage(): "en" | "sw" {
  const saved = typeof localStorage !== "undefined" ? localStorage.getItem(STORED) : null;
  if (saved === "en" || saved === "sw") return saved;
  return typeof navigator !== "undefined" && navigator.language.startsWith("sw") ? "sw" : "en";
}

/** The Swahili words, fetched the first time they are needed (most first loads are in one language). */
async function withSwahili(): Promise<void> {
  if (i18next.hasResourceBundle("sw", "translation")) return;
  const { sw } = await import("./strings-sw");
  i18next.addResourceBundle("sw", "translation", sw);
}

export function setLanguage(lang: "en" | "sw"): void {
  localStorage.setItem(STORED, lang);
  document.documentElement.lang = lang;
  void (lang === "sw" ? withSwahili() : Promise.resolve()).then(() => i18next.changeLanguage(lang));
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: "en",
  fallbackLng: "en",
  fallbackNS: "translation", // a screen with words of its own (the "start" namespace) finds the console's too
  interpolation: { escapeValue: false },
});

/** The language this browser chose, ready before the first screen is drawn. */
export async function startLanguage(): Promise<void> {
  const lang = savedLanguage();
  if (lang === "sw") await withSwahili();
  document.documentElement.lang = lang;
  await i18next.changeLanguage(lang);
}

export default i18next;
