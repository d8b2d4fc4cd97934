import type { FastifyInstance, FastifyRequest, LightMyRequestResponse as InjectedResponse } from "fastify";

/** The headers of the browser's request that its answers depend on: who, from where, in which language. */
const forwardedHeaders = [
  "cookie",
  "host",
  "origin",
  "referer",
  "sec-fetch-site",
  "user-agent",
  "accept-language",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
] as const;

/** One request to the app's own API. */
export interface OwnApiCall {
  method: "GET" | "POST" | "PUT" | "PATCH";
  url: string;
  body?: unknown;
  /** Instead of the request's cookies: the session a sign-in has just started, say. */
  cookie?: string;
}

/**
 * Who is asking, once per request: the redirect decision (page-visitor.ts) and the page renderer both ask
 * GET /api/me for the same cookies; the second gets the first answer.
 */
const whoAsked = new WeakMap<FastifyRequest, Promise<InjectedResponse>>();

/**
 * Asks this app's own API as the person behind `request` (their cookies, their address, their origin), so
 * that a page drawn or a form posted on the server goes through exactly the checks, limits and messages
 * of the API the app calls (decisions 052, 065): nothing is decided twice.
 */
export function askOwnApi(
  app: FastifyInstance,
  request: FastifyRequest,
  call: OwnApiCall,
): Promise<InjectedResponse> {
  const { method, url, cookie } = call;
  if (method === "GET" && url === "/api/me" && cookie === undefined) {
    let answer = whoAsked.get(request);
    if (!answer) {
      answer = inject(app, request, { method, url });
      whoAsked.set(request, answer);
    }
    return answer;
  }
  return inject(app, request, call);
}

function inject(
  app: FastifyInstance,
  request: FastifyRequest,
  { method, url, body, cookie }: OwnApiCall,
): Promise<InjectedResponse> {
  const headers: Record<string, string> = { accept: "application/json" };
  for (const name of forwardedHeaders) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  if (cookie !== undefined) headers.cookie = cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  return app.inject({
    method,
    url,
    headers,
    // The socket's address, so that the rate limits and the client address (with TRUST_PROXY, from
    // X-Forwarded-For as above) are the person's, not this server's.
    remoteAddress: request.socket.remoteAddress,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
