import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";

// docs/security.md: no secret, token or password hash in any response. Every app the server suite builds
// (createTestApp) scans every response body it sends, so the thousand-odd route tests are also a scan of
// every response shape they reach; a leak fails the test file when its app closes.

const passwordHash = /\$argon2(?:id|i|d)\$/;
const apiTokenPattern = /hd_[A-Za-z0-9]+_[A-Za-z0-9_-]{20,}/g;
const sessionCookie = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^.;]+)/;

/** Where a token may legitimately appear in a body: shown once to its owner when they create it. */
const issuesApiTokens = (method: string, url: string) =>
  method === "POST" && url.split("?")[0] === "/api/me/tokens";

export interface ResponseScanner {
  /** What leaked so far: one line per response, naming the route and the kind of secret. */
  readonly leaks: string[];
}

/**
 * Adds an onSend hook (before the app is ready) that checks each string or buffer body for: a password
 * hash, the server's own secrets, any session token issued in a cookie so far, any API token secret (or
 * its stored hash) outside the one response that issues it. Streams (live push, file downloads) are not
 * read.
 */
export function scanResponsesForSecrets(app: FastifyInstance, serverSecrets: string[]): ResponseScanner {
  const leaks: string[] = [];
  const known = new Map<string, string>(
    serverSecrets.filter(Boolean).map((secret) => [secret, "a server secret"]),
  );
  app.addHook("onSend", async (request, reply, payload) => {
    const cookies = reply.getHeader("set-cookie");
    for (const cookie of Array.isArray(cookies) ? cookies : cookies ? [String(cookies)] : []) {
      const token = sessionCookie.exec(cookie)?.[1];
      if (token) known.set(token, "a session token");
    }
    const body =
      typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : null;
    if (body === null || body.length === 0) return payload;
    const where = `${request.method} ${request.url} (${reply.statusCode})`;
    if (passwordHash.test(body)) leaks.push(`${where}: a password hash`);
    for (const [secret, kind] of known) if (body.includes(secret)) leaks.push(`${where}: ${kind}`);
    for (const [token] of body.matchAll(apiTokenPattern)) {
      const secret = token.slice(token.indexOf("_", 3) + 1);
      if (issuesApiTokens(request.method, request.url) && !known.has(token)) {
        known.set(token, "an API token");
        known.set(createHash("sha256").update(secret).digest("hex"), "an API token's stored hash");
      } else {
        leaks.push(`${where}: an API token`);
      }
    }
    return payload;
  });
  return { leaks };
}

/** Throws when anything leaked, naming each response. */
export function assertNoSecretsLeaked(scanner: ResponseScanner) {
  if (scanner.leaks.length === 0) return;
  throw new Error(`Secrets in response bodies:\n${[...new Set(scanner.leaks)].join("\n")}`);
}
