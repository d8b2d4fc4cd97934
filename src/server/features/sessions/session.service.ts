import { nowOf, type ServiceContext } from "#server/context.ts";
import { notFound, ruleViolation } from "#server/errors.ts";
import type { MySession, MySessionList, RevokedSessions } from "#shared/users/session.schemas.ts";
import { deleteSessionOf, deleteSessionsOfExcept, findLiveSessionsOf } from "./my-sessions.queries.ts";

export const useSignOutHere = "This is the session you are using: use Sign Out to end it.";

type SessionRow = Awaited<ReturnType<typeof findLiveSessionsOf>>[number];

const toMySessionDto = (row: SessionRow, currentSessionId: string): MySession => ({
  id: row.id,
  userAgent: row.userAgent || null,
  ipAddress: row.ipAddress || null,
  createdAt: row.createdAt.toISOString(),
  lastActiveAt: row.updatedAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  isCurrent: row.id === currentSessionId,
});

/** The signed-in browsers of the person asking; `currentSessionId` is the one they ask from. */
export async function listMySessions(ctx: ServiceContext, currentSessionId: string): Promise<MySessionList> {
  const rows = await findLiveSessionsOf(ctx.db, ctx.actor.id, nowOf(ctx));
  return { items: rows.map((row) => toMySessionDto(row, currentSessionId)) };
}

/**
 * Ends one of the person's other sessions. Someone else's session answers 404, as an unknown one does.
 * The announcement makes every instance's session cache forget this person and re-check their live
 * streams, so the revoked browser is refused at its very next request.
 */
export async function revokeMySession(
  ctx: ServiceContext,
  currentSessionId: string,
  sessionId: string,
): Promise<void> {
  if (sessionId === currentSessionId) throw ruleViolation(useSignOutHere);
  if ((await deleteSessionOf(ctx.db, ctx.actor.id, sessionId)) === 0) throw notFound("session", sessionId);
  ctx.dispatcher?.dispatch([{ kind: "session-ended", userId: ctx.actor.id }]);
}

/** "Sign out everywhere else": every session of the person but the one asking. */
export async function revokeMyOtherSessions(
  ctx: ServiceContext,
  currentSessionId: string,
): Promise<RevokedSessions> {
  const revoked = await deleteSessionsOfExcept(ctx.db, ctx.actor.id, currentSessionId);
  if (revoked > 0) ctx.dispatcher?.dispatch([{ kind: "session-ended", userId: ctx.actor.id }]);
  return { revoked };
}
