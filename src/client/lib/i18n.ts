import { i18n, type Messages } from "@lingui/core";
import type { LocaleChoice } from "#shared/users/user.schemas.ts";
import { compileMessage } from "./compile-message.ts";

/**
 * The client's languages (decision 038, docs/i18n.md). English is the source language: its texts come with
 * the code (the macros keep them; locales/en/messages.po is checked to hold them verbatim), so no English
 * catalogue is downloaded. Every other catalogue is its own chunk, loaded only when that language is chosen.
 */
export const locales = ["en", "de"] as const;
export type Locale = (typeof locales)[number];

/** Each language named in itself, as a language switch shows it (never translated). */
export const localeNames: Record<Locale, string> = { en: "English", de: "Deutsch" };

const loaders: Record<Exclude<Locale, "en">, () => Promise<{ messages: Messages }>> = {
  de: () => import("#client/locales/de/messages.po"),
};

/** Where a browser keeps its last language: the choice of a signed-out person, or a copy of a signed-in one's. */
export const localeStorageKey = "helpdesk-locale";

// English texts are compiled once each, when first shown (the other catalogues arrive compiled).
type Compiler = Parameters<typeof i18n.setMessagesCompiler>[0];
const compiled = new Map<string, ReturnType<Compiler>>();
i18n.setMessagesCompiler((message) => {
  let result = compiled.get(message);
  if (result === undefined) {
    result = compileMessage(message) as ReturnType<Compiler>;
    compiled.set(message, result);
  }
  return result;
});
i18n.loadAndActivate({ locale: "en", messages: {} });

const isLocale = (value: unknown): value is Locale => locales.some((locale) => locale === value);

/** The browser's preferred languages, first match wins: German for de*, English for en* and anything else. */
export function browserLocale(languages: readonly string[] = browserLanguages()): Locale {
  for (const language of languages) {
    const primary = language.toLowerCase().split("-")[0];
    if (isLocale(primary)) return primary;
  }
  return "en";
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === "undefined") return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** This browser's stored choice, or null when it has none (then the browser's languages decide). */
export function storedLocale(): Locale | null {
  try {
    const stored = localStorage.getItem(localeStorageKey);
    return isLocale(stored) ? stored : null;
  } catch {
    return null;
  }
}

/** Keeps this browser's choice; "browser" forgets it, so the browser's languages decide again. */
export function rememberLocale(choice: LocaleChoice) {
  try {
    if (choice === "browser") localStorage.removeItem(localeStorageKey);
    else localStorage.setItem(localeStorageKey, choice);
  } catch {
    // Storage refused (private mode): the language still applies to this page.
  }
}

/** The language a choice means here: the person's own, else the browser's. */
export const resolveLocale = (choice: LocaleChoice | null): Locale =>
  choice && choice !== "browser" ? choice : browserLocale();

const loadedLocales = new Set<Locale>(["en"]);
let latestRequest: Locale = "en";

/**
 * Loads the language's catalogue if needed, then switches every text and <html lang> to it. When two
 * switches overlap, the last one asked for wins, whichever catalogue arrives first.
 */
export async function activateLocale(locale: Locale) {
  latestRequest = locale;
  if (locale !== "en" && !loadedLocales.has(locale)) {
    const { messages } = await loaders[locale]();
    i18n.load(locale, messages);
    loadedLocales.add(locale);
  }
  if (latestRequest !== locale) return;
  if (i18n.locale !== locale) i18n.activate(locale);
  if (typeof document !== "undefined") document.documentElement.lang = locale;
}

export { i18n };
