import { afterEach, describe, expect, it } from "vitest";
import { themeScript } from "#shared/theme/theme-script.ts";
import { localeStorageKey, resolveLocale, storedLocale } from "./i18n.ts";

const setLanguages = (languages: string[]) =>
  Object.defineProperty(navigator, "languages", { value: languages, configurable: true });

/** Runs the inline <head> script as the browser does, before the app (decision 043). */
function runHeadScript() {
  document.documentElement.className = "";
  // The script's text is what index.html inlines: this runs exactly it, in the page's global scope.
  const script = document.createElement("script");
  script.textContent = themeScript;
  document.head.append(script);
  script.remove();
  return document.documentElement.classList.contains("other-language");
}

afterEach(() => {
  localStorage.clear();
  setLanguages(["en-US", "en"]);
  document.documentElement.className = "";
});

describe("the inline script before the first paint", () => {
  // The prerendered first screens are English: the script must hide them exactly when main.tsx will draw
  // the page in another language, or a German reader sees English first (or an English one sees nothing).
  const cases: [stored: string | null, languages: string[]][] = [
    [null, ["en-US", "en"]],
    [null, ["de-DE", "de"]],
    [null, ["fr-FR", "de-CH"]],
    [null, ["fr-FR", "es"]],
    [null, ["EN-gb", "de"]],
    ["en", ["de-DE"]],
    ["de", ["en-US"]],
    ["fr", ["de-AT"]],
    ["browser", ["en-US"]],
  ];
  it.each(cases)(
    "stored %s, browser %j: hidden exactly when the app's language is not English",
    (stored, languages) => {
      setLanguages(languages);
      if (stored !== null) localStorage.setItem(localeStorageKey, stored);
      expect(runHeadScript()).toBe(resolveLocale(storedLocale()) !== "en");
    },
  );
});
