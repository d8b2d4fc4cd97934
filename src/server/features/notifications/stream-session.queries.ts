import { and, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { sessions, users } from "#server/db/schema/index.ts";

/** Which of these sessions still exist, have not expired, and belong to an active person. */
export async function findLiveSessionIds(db: Db, sessionIds: string[], now: Date): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(inArray(sessions.id, sessionIds), gt(sessions.expiresAt, now), eq(users.status, "Active")));
  return new Set(rows.map((row) => row.id));
}
