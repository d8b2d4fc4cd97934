// The contract between the server and the client's page renderer (src/client/server-rendering.tsx, decision 052): the
// server never imports client code; it loads the renderer the build wrote (dist/ssr/ssr.js) and calls it
// with these.

/**
 * A form posted to the server without the app's code (decision 065) that did not go through: the page is
 * drawn again with it, as the app would show it after the same answer from the API.
 */
export interface FormAnswer {
  /** Which form (its `name`), so that only that one shows it. */
  form: string;
  /** The API's answer: its status and message (400 with the rule broken, 401 wrong credentials, …). */
  status: number;
  message: string;
  /** The fields as they were sent (the first of each name), but never a password or a secret key. */
  values: Record<string, string>;
  /** Every value of a name sent more than once (several ticked boxes of one custom field). */
  lists?: Record<string, string[]>;
  /** A later step of the same form to show (the sign-in's authenticator code). */
  step?: string;
  /** The API's error code, where the page shows something of its own for it (a used-up reset link). */
  code?: string;
  /**
   * What is wrong with each field, by its name, in the words the app's own check of the form shows under
   * it (the shared schemas' messages; a custom field's as "customFields.<id>"): the page shows them where
   * the app would.
   */
  fieldErrors?: Record<string, string>;
}

/** What the server gives the renderer for one request. */
export interface RenderPageInput {
  /** The path and query string the browser asked for. */
  url: string;
  /** GET requests to the app's own API, answered as for the person asking (their cookies go with them). */
  fetch: (path: string, init: RequestInit) => Promise<Response>;
  /** The browser's languages (its Accept-Language), for a person whose language is "the browser's". */
  languages: readonly string[];
  /**
   * The browser's time zone (its `helpdesk-tz` cookie): dates are written as that browser writes them; UTC
   * when it has not said (no code has run in it yet), as the state the page carries tells the browser.
   */
  timeZone: string;
  /** A form posted without the app's code that did not go through, to be shown on the page drawn. */
  formAnswer?: FormAnswer;
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

/**
 * A page not drawn because what it shows does not exist for this person (the API answered 404, say): the
 * browser draws it, and the server answers with this status, as the API did.
 */
export interface UndrawnPage {
  status: number;
}

export type RenderPage = (input: RenderPageInput) => Promise<ServerRenderedPage | UndrawnPage | null>;

/** The cookie the browser keeps its time zone in (src/client/lib/time-zone-cookie.ts). */
export const timeZoneCookie = "helpdesk-tz";

/**
 * The root element of a built page before anything is drawn into it: empty, or holding only the
 * <noscript> that says what the page needs without its code (src/client/index.html). Whatever is drawn
 * (at build time, or by the server) replaces that noscript: a drawn page needs no code to be read.
 * [1] is the element's attributes, [2] the noscript, when there is one.
 */
export const emptyRootPattern = /<div id="root"([^>]*)>\s*(<noscript>[\s\S]*?<\/noscript>)?\s*<\/div>/;

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
