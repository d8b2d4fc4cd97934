import { timeZoneCookie } from "#shared/page-rendering/server-rendered.ts";

/**
 * Keeps this browser's time zone in a cookie for the server, which writes dates in it when it draws a
 * signed-in home (decision 052). Written once the page is drawn and the browser is idle (the first page
 * of a visit is the sign-in page, well before any home), on every page load, so a laptop that travelled
 * is right from its next page on. Not secret, so not HttpOnly: only a script can know the zone.
 */
export function rememberTimeZoneWhenIdle() {
  const write = () => {
    try {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (!zone) return;
      const secure = window.location.protocol === "https:" ? "; secure" : "";
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari before 2025
      document.cookie = `${timeZoneCookie}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax${secure}`;
    } catch {
      // No Intl time zone here: the server leaves the homes to the browser.
    }
  };
  if (typeof requestIdleCallback === "function") requestIdleCallback(write, { timeout: 2_000 });
  else setTimeout(write, 1_000);
}
