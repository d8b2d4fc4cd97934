import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Actor } from "#shared/permissions.ts";
import { roles } from "#shared/users/roles.ts";
import type { Auth } from "../auth/auth.ts";
import { type Clock, systemClock } from "../clock.ts";
import type { ServiceContext } from "../context.ts";
import type { Db } from "../db/client.ts";
import { databaseUnavailable, unauthenticated } from "../errors.ts";
import type { Dispatcher } from "../events/dispatcher.ts";
import { endSessionsOf } from "../events/end-sessions.ts";

declare module "fastify" {
  interface FastifyRequest {
    actor: Actor | null;
    /** The signed-in session's id: a live stream closes when this session ends. */
    sessionId: string | null;
  }
}

export function toWebHeaders(raw: FastifyRequest["headers"]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : String(value));
  }
  return headers;
}

const isRole = (value: unknown): value is Actor["role"] & string => roles.includes(value as never);

/** Resolves the session cookie into request.actor for every /api route outside /api/auth. */
export function registerSession(
  app: FastifyInstance,
  {
    auth,
    db,
    isDatabaseAnswering,
    dispatcher,
  }: { auth: Auth; db: Db; isDatabaseAnswering: () => Promise<boolean>; dispatcher?: Dispatcher },
) {
  app.decorateRequest("actor", null);
  app.decorateRequest("sessionId", null);
  app.addHook("preHandler", async (request) => {
    if (!request.url.startsWith("/api/") || request.url.startsWith("/api/auth/")) return;
    const session = await auth.api
      .getSession({ headers: toWebHeaders(request.headers) })
      .catch(async (error) => {
        // better-auth hides the driver's error behind "Failed to get session"; ask the database itself.
        throw (await isDatabaseAnswering()) ? error : databaseUnavailable();
      });
    if (!session) return;
    const user = session.user as { id: string; role?: unknown; status?: unknown };
    // A deactivated person's sessions end at once, whatever cookie they still hold.
    if (user.status === "Inactive") {
      await endSessionsOf({ db, dispatcher }, user.id);
      return;
    }
    request.actor = { id: user.id, role: isRole(user.role) ? user.role : null };
    request.sessionId = session.session.id;
  });
}

/** The service context for a signed-in request; 401 when nobody is signed in. */
export function contextFor(db: Db, dispatcher?: Dispatcher, clock: Clock = systemClock) {
  return (request: FastifyRequest): ServiceContext => {
    if (!request.actor) throw unauthenticated();
    return { db, actor: request.actor, dispatcher, clock };
  };
}
