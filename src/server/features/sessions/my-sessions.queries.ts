import { and, asc, desc, eq, gt, ne } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { sessions } from "#server/db/schema/index.ts";

/** A person's sessions that have not expired, the most recently active first. */
export function findLiveSessionsOf(db: Db, userId: string, now: Date) {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.updatedAt), asc(sessions.id));
}

/** Deletes one session if it is this person's; how many rows went (0 or 1). */
export async function deleteSessionOf(db: Db, userId: string, sessionId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return deleted.length;
}

/** Deletes every session of this person except one; how many went. */
export async function deleteSessionsOfExcept(db: Db, userId: string, keptSessionId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keptSessionId)))
    .returning({ id: sessions.id });
  return deleted.length;
}
