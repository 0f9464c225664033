import i18next from "i18next";
import { initReactI18next } from "react-i18next";

import { en, sw } from "./strings";

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

export function setLanguage(lang: "en" | "sw"): void {
  localStorage.setItem(STORED, lang);
  document.documentElement.lang = lang;
  void i18next.changeLanguage(lang);
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, sw: { translation: sw } },
  lng: savedLanguage(),
  fallbackLng: "en",
  interpolation: { escapeValue: false },
});

export default i18next;
