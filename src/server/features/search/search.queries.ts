import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { containsPattern } from "#server/db/like-pattern.ts";
import { users } from "#server/db/schema/index.ts";

/** Active people with a role whose name contains `text`, by name; one statement, `limit` rows. */
export function findActivePeopleByName(db: Db, text: string, limit: number) {
  return db
    .select({ id: users.id, name: users.name, role: users.role })
    .from(users)
    .where(
      and(
        eq(users.status, "Active"),
        isNotNull(users.role),
        sql`lower(${users.name}) like ${containsPattern(text)}`,
      ),
    )
    .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
    .limit(limit);
}
