import type { FastifyInstance, FastifyRequest } from "fastify";
import { forbidden } from "#server/errors.ts";

const loopbackHostnames = ["localhost", "127.0.0.1", "[::1]"];

const isLoopback = (hostname: string) => loopbackHostnames.includes(hostname);

/**
 * The origins this app answers to: BASE_URL's, and, when BASE_URL is on loopback, the same scheme and
 * port on the other loopback names (a person told "localhost" often types 127.0.0.1). Our own origin
 * check and better-auth's trustedOrigins both use this list.
 */
export function allowedOrigins(baseURL: string): string[] {
  const base = new URL(baseURL);
  if (!isLoopback(base.hostname)) return [base.origin];
  const aliases = loopbackHostnames.map((hostname) => {
    const alias = new URL(base.origin);
    alias.hostname = hostname;
    return alias.origin;
  });
  return [...new Set([base.origin, ...aliases])];
}

/**
 * Same test as the session hook's: a Bearer header on an /api route it resolves (not /api/auth); or on
 * /scim/v2, which takes a SCIM token and nothing else (decision 081).
 */
const usesApiToken = (request: FastifyRequest) =>
  /^bearer\s/i.test(request.headers.authorization ?? "") &&
  ((request.url.startsWith("/api/") && !request.url.startsWith("/api/auth/")) ||
    request.url.startsWith("/scim/v2/"));

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);
// An identity provider may post the sign-in result from its own site (response_mode=form_post);
// better-auth ties that callback to the browser with its state cookie and PKCE.
const crossSiteEndpoint = /^\/api\/auth\/callback\/[\w-]+(?:\?|$)/;

function wrongAddressMessage(baseURL: string, usedOrigin: string): string {
  return `This Helpdesk is configured for ${baseURL}. Open ${baseURL}, or set BASE_URL=${usedOrigin} and restart.`;
}

/**
 * No state change from another site (decision 007). A browser always sends Origin on a POST, PUT, PATCH
 * or DELETE, and modern ones Sec-Fetch-Site too: either one naming another site refuses the request
 * before its body is read. A request with neither comes from curl or a server, which holds no
 * victim's cookie, so it is let through to the usual sign-in checks. A request with an API token
 * (Authorization: Bearer, outside /api/auth) skips the check: the session hook then ignores its cookie,
 * and no other site can make a browser send that header.
 */
export function registerSameOriginCheck(app: FastifyInstance, { baseURL }: { baseURL: string }) {
  const origins = new Set(allowedOrigins(baseURL));
  app.addHook("onRequest", async (request) => {
    if (safeMethods.has(request.method) || crossSiteEndpoint.test(request.url)) return;
    if (usesApiToken(request)) return;
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
      throw forbidden(
        /^https?:\/\/[^/]+$/.test(origin)
          ? wrongAddressMessage(baseURL, origin)
          : "Requests from other sites cannot change anything here.",
      );
    }
    const site = request.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin" && site !== "none") {
      throw forbidden("Requests from other sites cannot change anything here.");
    }
  });
}

const proxyHeaders = [
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-real-ip",
  "via",
];

/** The address the browser used, when Host can be trusted to say so; null when it cannot. */
function directlyUsedOrigin(request: FastifyRequest): URL | null {
  // A reverse proxy may rewrite Host to its upstream address: only a direct request's Host is the address typed.
  if (proxyHeaders.some((name) => request.headers[name] !== undefined)) return null;
  try {
    const used = new URL(`${request.protocol}://${request.host}`);
    return used.host === request.host ? used : null;
  } catch {
    return null;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * A browser that opens the app on an address other than BASE_URL would get a sign-in form that can
 * only fail ("Invalid origin"). It gets a page saying which address to open instead.
 */
export function registerWrongAddressPage(app: FastifyInstance, { baseURL }: { baseURL: string }) {
  const base = new URL(baseURL);
  const hosts = new Set(allowedOrigins(baseURL).map((origin) => new URL(origin).host));
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "GET" && request.method !== "HEAD") return;
    if (request.url.startsWith("/api/") || !request.headers.accept?.includes("text/html")) return;
    const used = directlyUsedOrigin(request);
    if (!used || hosts.has(used.host)) return;
    // On the server itself, a local proxy without forwarding headers looks like a direct loopback request.
    if (isLoopback(used.hostname) && !isLoopback(base.hostname)) return;
    const target = escapeHtml(new URL(request.url, base).href);
    const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Helpdesk: wrong address</title></head>
<body>
<h1>Helpdesk is on another address</h1>
<p>This Helpdesk is configured for ${escapeHtml(base.origin)}.</p>
<p>Open <a href="${target}">${target}</a>, or set BASE_URL=${escapeHtml(used.origin)} and restart.</p>
</body>
</html>
`;
    return reply.code(421).header("cache-control", "no-store").type("text/html; charset=utf-8").send(page);
  });
}
