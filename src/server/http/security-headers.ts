import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import { themeScript } from "#shared/theme/theme-script.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** false: this route sends none of the page headers below (an event stream, decision 051). */
    securityHeaders?: false;
  }
}

/** The CSP source that allows the inline theme script of index.html (decision 035), and nothing else inline. */
export const themeScriptHash = `'sha256-${createHash("sha256").update(themeScript).digest("base64")}'`;

/** Strict CSP: only our own scripts, styles and connections; no inline scripts but the theme one (by hash), no framing. */
export function helmetOptions({ isHttps }: { isHttps: boolean }): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", themeScriptHash],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(isHttps ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: isHttps,
    crossOriginEmbedderPolicy: false,
    // What frame-ancestors 'none' says, for browsers that read only the older header. helmet's default,
    // SAMEORIGIN, would contradict it: no page of ours is framed, not even by our own pages.
    xFrameOptions: { action: "deny" },
    // No address of ours goes to another site, as with helmet's default (no-referrer); but a form posted to
    // our own page must say where it comes from: under no-referrer a browser sends `Origin: null` with it,
    // which the same-origin check (origins.ts) rightly refuses, and no form would work without the app's
    // code (decision 065).
    referrerPolicy: { policy: "same-origin" },
  };
}

/**
 * The headers helmet sends with these options, and the ones it removes, read once by running its middleware
 * against a response that only records them. None of our options depends on the request (no nonces, no
 * directive computed per request), so every answer gets the same headers.
 */
export function securityHeadersOf(options: HelmetOptions) {
  const csp = options.contentSecurityPolicy;
  const values = typeof csp === "object" ? Object.values(csp.directives ?? {}).flat() : [];
  if (values.some((value) => typeof value === "function"))
    throw new Error("A Content-Security-Policy directive computed per request cannot be read once at start.");
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name.toLowerCase(), String(value));
      removed.delete(name.toLowerCase());
    },
    removeHeader(name: string) {
      set.delete(name.toLowerCase());
      removed.add(name.toLowerCase());
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return { set: [...set], removed: [...removed] };
}

/**
 * helmet's page headers on every answer but a route's that says `config: { securityHeaders: false }`.
 * Set on the raw response, as @fastify/helmet did, so answers written straight to the socket carry them
 * too. Built once at start: @fastify/helmet built helmet's middleware again on every request (2.7 % of the
 * server's CPU on a list page, docs/performance.md).
 */
export async function registerSecurityHeaders(app: FastifyInstance, { isHttps }: { isHttps: boolean }) {
  const { set, removed } = securityHeadersOf(helmetOptions({ isHttps }));
  app.addHook("onRequest", (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders !== false) {
      const raw = reply.raw;
      for (const [name, value] of set) raw.setHeader(name, value);
      for (const name of removed) raw.removeHeader(name);
    }
    done();
  });
}
