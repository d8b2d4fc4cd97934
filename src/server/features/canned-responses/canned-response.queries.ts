import { and, asc, eq, getTableColumns, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { containsPattern } from "#server/db/like-pattern.ts";
import { type CannedResponseRow, cannedResponses, users } from "#server/db/schema/index.ts";
import type { CannedResponseScope } from "#shared/canned-responses/canned-response.schemas.ts";

export type CannedResponseWithOwner = CannedResponseRow & { ownerName: string | null };

const withOwner = { ...getTableColumns(cannedResponses), ownerName: users.name };

/** `like` pattern for "contains", with the person's own % and _ taken literally. */

/** What a staff member may see: their own personal responses and every shared one. The SQL twin of can.viewCannedResponse. */
export const visibleCannedResponsesWhere = (actorId: string): SQL =>
  or(
    eq(cannedResponses.scope, "shared"),
    and(eq(cannedResponses.scope, "personal"), eq(cannedResponses.ownerId, actorId)),
  )!;

export async function findCannedResponsesFor(
  db: Db,
  actorId: string,
  { scope, q, limit }: { scope?: CannedResponseScope; q?: string; limit: number },
): Promise<CannedResponseWithOwner[]> {
  const pattern = q ? containsPattern(q) : undefined;
  return db
    .select(withOwner)
    .from(cannedResponses)
    .leftJoin(users, eq(users.id, cannedResponses.ownerId))
    .where(
      and(
        visibleCannedResponsesWhere(actorId),
        scope ? eq(cannedResponses.scope, scope) : undefined,
        pattern
          ? or(
              sql`lower(${cannedResponses.title}) like ${pattern}`,
              sql`lower(${cannedResponses.body}) like ${pattern}`,
            )
          : undefined,
      ),
    )
    .orderBy(sql`lower(${cannedResponses.title})`, asc(cannedResponses.scope), asc(cannedResponses.id))
    .limit(limit);
}

export async function findCannedResponseById(
  db: Db,
  id: string,
): Promise<CannedResponseWithOwner | undefined> {
  const [row] = await db
    .select(withOwner)
    .from(cannedResponses)
    .leftJoin(users, eq(users.id, cannedResponses.ownerId))
    .where(eq(cannedResponses.id, id));
  return row;
}

export async function insertCannedResponse(db: Db, values: typeof cannedResponses.$inferInsert) {
  const [row] = await db.insert(cannedResponses).values(values).returning();
  return row!;
}

export async function updateCannedResponse(
  db: Db,
  id: string,
  values: Partial<Pick<CannedResponseRow, "title" | "body">>,
) {
  const [row] = await db
    .update(cannedResponses)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(cannedResponses.id, id))
    .returning();
  return row;
}

export async function deleteCannedResponse(db: Db, id: string) {
  const rows = await db.delete(cannedResponses).where(eq(cannedResponses.id, id)).returning();
  return rows.length > 0;
}
