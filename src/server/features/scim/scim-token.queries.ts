import { and, count, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type ScimTokenRow, scimTokens, users } from "#server/db/schema/index.ts";

/** The tokens not revoked, newest first, with the name of the administrator who created each. */
export function findActiveScimTokens(db: Db) {
  return db
    .select({ token: scimTokens, createdByName: users.name })
    .from(scimTokens)
    .leftJoin(users, eq(users.id, scimTokens.createdBy))
    .where(isNull(scimTokens.revokedAt))
    .orderBy(desc(scimTokens.createdAt), desc(scimTokens.id));
}

export async function countActiveScimTokens(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(scimTokens).where(isNull(scimTokens.revokedAt));
  return row?.n ?? 0;
}

export async function insertScimToken(db: Db, values: typeof scimTokens.$inferInsert): Promise<ScimTokenRow> {
  const [row] = await db.insert(scimTokens).values(values).returning();
  if (!row) throw new Error("insert into scim_tokens returned no row");
  return row;
}

/** The revoked token's name and prefix; undefined when there is no such token, or it is revoked already. */
export async function revokeScimToken(db: Db, id: string, now: Date) {
  const [row] = await db
    .update(scimTokens)
    .set({ revokedAt: now })
    .where(and(eq(scimTokens.id, id), isNull(scimTokens.revokedAt)))
    .returning({ name: scimTokens.name, prefix: scimTokens.prefix });
  return row;
}

/** The token with its creator's role and status, for authentication. */
export async function findScimTokenWithCreator(db: Db, id: string) {
  const [row] = await db
    .select({ token: scimTokens, role: users.role, status: users.status })
    .from(scimTokens)
    .innerJoin(users, eq(users.id, scimTokens.createdBy))
    .where(eq(scimTokens.id, id));
  return row ?? null;
}

/** Records a use, at most once a minute (an identity provider's sync cycle sends many requests at once). */
export async function touchScimToken(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(scimTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(scimTokens.id, id),
        or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, new Date(now.getTime() - 60_000))),
      ),
    );
}
