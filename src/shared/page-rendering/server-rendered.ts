// The contract between the server and the client's page renderer (src/client/server-rendering.tsx, decision 052): the
// server never imports client code; it loads the renderer the build wrote (dist/ssr/ssr.js) and calls it
// with these.

/** What the server gives the renderer for one request. */
export interface RenderPageInput {
  /** The path and query string the browser asked for. */
  url: string;
  /** GET requests to the app's own API, answered as for the person asking (their cookies go with them). */
  fetch: (path: string, init: RequestInit) => Promise<Response>;
  /** The browser's languages (its Accept-Language), for a person whose language is "the browser's". */
  languages: readonly string[];
  /** The browser's time zone (its `helpdesk-tz` cookie): dates are written as that browser writes them. */
  timeZone: string;
}

/** A page drawn for one person, or null when it is not theirs to see (the browser then draws it). */
export interface ServerRenderedPage {
  /** The page's <title> element. */
  title: string | null;
  /** The app's markup, to go inside <div id="root">. */
  markup: string;
  /** What the page was drawn from (query cache, language), as JSON safe inside a <script> element. */
  state: string;
  /** The language it was drawn in, for <html lang>. */
  locale: string;
}

export type RenderPage = (input: RenderPageInput) => Promise<ServerRenderedPage | null>;

/** The cookie the browser keeps its time zone in (src/client/lib/time-zone-cookie.ts). */
export const timeZoneCookie = "helpdesk-tz";

/** The id of the <script type="application/json"> element that carries ServerRenderedPage.state. */
export const serverRenderedStateElementId = "drawn-state";

/** JSON that cannot end the <script> element it sits in, nor start a comment there. */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

const validTimeZone = /^[A-Za-z0-9_+\-/]{1,64}$/;

/** The browser's time zone from its cookie, if it names one this server knows. */
export function timeZoneOf(cookie: string): string | null {
  const raw = new RegExp(`(?:^|;\\s*)${timeZoneCookie}=([^;]*)`).exec(cookie)?.[1];
  if (!raw) return null;
  let zone: string;
  try {
    zone = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (!validTimeZone.test(zone)) return null;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}
