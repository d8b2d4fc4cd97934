import { msg } from "@lingui/core/macro";
import { afterEach, describe, expect, it } from "vitest";
import {
  activateLocale,
  browserLocale,
  i18n,
  localeStorageKey,
  rememberLocale,
  resolveLocale,
  storedLocale,
} from "./i18n.ts";

afterEach(async () => {
  localStorage.clear();
  await activateLocale("en");
});

const signIn = msg`Sign In`;

describe("the interface language", () => {
  it("follows the browser: the first of its languages that is German or English, English otherwise", () => {
    expect(browserLocale(["de-DE", "en"])).toBe("de");
    expect(browserLocale(["de-AT"])).toBe("de");
    expect(browserLocale(["DE"])).toBe("de");
    expect(browserLocale(["en-GB", "de"])).toBe("en");
    expect(browserLocale(["fr-FR", "de-CH"])).toBe("de");
    expect(browserLocale(["fr-FR", "es"])).toBe("en");
    expect(browserLocale([])).toBe("en");
  });

  it("keeps a signed-out choice in this browser; the browser's own choice forgets it", () => {
    expect(storedLocale()).toBeNull();
    rememberLocale("de");
    expect(localStorage.getItem(localeStorageKey)).toBe("de");
    expect(storedLocale()).toBe("de");
    rememberLocale("browser");
    expect(storedLocale()).toBeNull();
    localStorage.setItem(localeStorageKey, "fr");
    expect(storedLocale()).toBeNull();
  });

  it("resolves a person's choice, and 'browser' to the browser's languages", () => {
    expect(resolveLocale("de")).toBe("de");
    expect(resolveLocale("en")).toBe("en");
    expect(resolveLocale("browser")).toBe(browserLocale());
    expect(resolveLocale(null)).toBe(browserLocale());
  });

  it("loads German on demand, translates, and marks <html lang>", async () => {
    expect(i18n._(signIn)).toBe("Sign In");
    await activateLocale("de");
    expect(i18n.locale).toBe("de");
    expect(document.documentElement.lang).toBe("de");
    expect(i18n._(signIn)).toBe("Anmelden");
    await activateLocale("en");
    expect(document.documentElement.lang).toBe("en");
    expect(i18n._(signIn)).toBe("Sign In");
  });

  it("when two switches overlap, the last one asked for wins", async () => {
    const german = activateLocale("de");
    const english = activateLocale("en");
    await Promise.all([german, english]);
    expect(i18n.locale).toBe("en");
  });
});
