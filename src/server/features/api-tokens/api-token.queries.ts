import { and, count, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type ApiTokenRow, apiTokens, users } from "#server/db/schema/index.ts";

/** A person's tokens that are not revoked, newest first (expired ones stay listed until revoked). */
export function findTokensOf(db: Db, userId: string): Promise<ApiTokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

export async function countActiveTokensOf(db: Db, userId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiTokens)
    .where(
      and(
        eq(apiTokens.userId, userId),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
      ),
    );
  return row?.n ?? 0;
}

export async function insertToken(db: Db, values: typeof apiTokens.$inferInsert): Promise<ApiTokenRow> {
  const [row] = await db.insert(apiTokens).values(values).returning();
  if (!row) throw new Error("insert into api_tokens returned no row");
  return row;
}

/** Revokes one of the person's own tokens; false when it is not theirs or already revoked. */
export async function revokeToken(db: Db, userId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/** The token with its owner's role and status, for authentication. */
export async function findTokenWithOwner(db: Db, id: string) {
  const [row] = await db
    .select({ token: apiTokens, role: users.role, status: users.status })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.id, id));
  return row ?? null;
}

/** Records a use, at most once a minute per token (a busy script does not write on every request). */
export async function touchToken(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiTokens.id, id),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - 60_000))),
      ),
    );
}
