import type { FastifyInstance, FastifyRequest, LightMyRequestResponse } from "fastify";
import type { PageVisitor } from "#shared/page-rendering/page-access.ts";
import { askOwnApi } from "./own-api.ts";
import { sessionTokenOf } from "./session.ts";

/**
 * Who is asking for a page, as GET /api/me answers for their cookie: null when nobody is signed in,
 * undefined when it cannot be told now (the database not answering, say); the page is then sent as
 * before and the browser's guards decide (decision 065).
 */
export async function pageVisitorOf(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<PageVisitor | null | undefined> {
  if (!sessionTokenOf(request.headers.cookie)) return null;
  return visitorOf(await askOwnApi(app, request, { method: "GET", url: "/api/me" }));
}

/** The visitor in an answer of GET /api/me: null when signed out, undefined when it did not answer. */
export function visitorOf(answer: LightMyRequestResponse): PageVisitor | null | undefined {
  if (answer.statusCode !== 200) return undefined;
  const me = answer.json<PageVisitor | null>();
  return me && { role: me.role, mustSetUpTwoFactor: me.mustSetUpTwoFactor };
}
