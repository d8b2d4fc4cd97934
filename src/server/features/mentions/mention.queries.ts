import { and, asc, eq, ilike, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { containsPattern } from "#server/db/like-pattern.ts";
import { users } from "#server/db/schema/index.ts";
import { mentionableRoles } from "#shared/mentions/mention.schemas.ts";

/** Active technicians and administrators whose name contains `q` (any case), by name. */
export function findActiveStaff(db: Db, { q, limit }: { q: string; limit: number }) {
  const nameMatches: SQL | undefined = q ? ilike(users.name, containsPattern(q)) : undefined;
  return db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(and(inArray(users.role, [...mentionableRoles]), eq(users.status, "Active"), nameMatches))
    .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
    .limit(limit);
}
