import { asc, count, eq, type SQL } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type UserRow, users } from "#server/db/schema/index.ts";
import type { ScimFilter } from "./scim-filter.ts";

/** A filter's condition: e-mail addresses are stored in lower case, so userName compares in any case. */
export function whereOfFilter(filter: ScimFilter | null): SQL | undefined {
  if (!filter) return undefined;
  if (filter.attribute === "email") return eq(users.email, filter.value.toLowerCase());
  if (filter.attribute === "externalId") return eq(users.externalId, filter.value);
  return eq(users.id, filter.value);
}

/** One page in creation order, as SCIM pages: from an offset (RFC 7644's startIndex is 1-based). */
export function findScimUsersPage(
  db: Db,
  where: SQL | undefined,
  { offset, limit }: { offset: number; limit: number },
): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.createdAt), asc(users.id))
    .offset(offset)
    .limit(limit);
}

export async function countScimUsers(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(where);
  return row?.n ?? 0;
}

export async function findUserByExternalId(db: Db, externalId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.externalId, externalId));
  return row;
}
