import { and, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { containsPattern } from "#server/db/like-pattern.ts";
import {
  type UserChangeRow,
  type UserRow,
  userChanges,
  users,
  verifications,
} from "#server/db/schema/index.ts";
import type { ListUsersQuery, UserSort } from "#shared/users/user-management.schemas.ts";

/** Where the previous page ended: the sort value as the database printed it, and the id. */
export interface UserKeyset {
  value: string;
  id: string;
}

type UserFilters = Pick<ListUsersQuery, "q" | "role" | "status">;

export function userFiltersWhere({ q, role, status }: UserFilters): SQL | undefined {
  const pattern = q ? containsPattern(q) : undefined;
  return and(
    role ? eq(users.role, role) : undefined,
    status ? eq(users.status, status) : undefined,
    pattern
      ? or(
          sql`lower(${users.name}) like ${pattern}`,
          sql`lower(${users.email}) like ${pattern}`,
          sql`lower(${users.department}) like ${pattern}`,
        )
      : undefined,
  );
}

// The sort key of each order, and its text form for the cursor. created_at goes through text so that a
// cursor keeps the database's microseconds (a JavaScript Date would round them and skip rows).
const sortKeys: Record<
  UserSort,
  { key: SQL; asText: SQL; cast: (value: string) => SQL; descending: boolean }
> = {
  newest: {
    key: sql`${users.createdAt}`,
    asText: sql`${users.createdAt}::text`,
    cast: (value) => sql`${value}::timestamptz`,
    descending: true,
  },
  name: {
    key: sql`lower(${users.name})`,
    asText: sql`lower(${users.name})`,
    cast: (value) => sql`${value}`,
    descending: false,
  },
};

/** One page in keyset order (never OFFSET), with each row's cursor. */
export async function findUsersPage(
  db: Db,
  query: UserFilters & { sort: UserSort; after?: UserKeyset; limit: number },
): Promise<Array<{ user: UserRow; cursorValue: string }>> {
  const { key, asText, cast, descending } = sortKeys[query.sort];
  const after = query.after
    ? descending
      ? sql`(${key}, ${users.id}) < (${cast(query.after.value)}, ${query.after.id})`
      : sql`(${key}, ${users.id}) > (${cast(query.after.value)}, ${query.after.id})`
    : undefined;
  const rows = await db
    .select({ user: users, cursorValue: sql<string>`${asText}` })
    .from(users)
    .where(and(userFiltersWhere(query), after))
    .orderBy(...(descending ? [sql`${key} desc`, desc(users.id)] : [sql`${key} asc`, users.id]))
    .limit(query.limit);
  return rows;
}

export async function countMatchingUsers(db: Db, filters: UserFilters): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(userFiltersWhere(filters));
  return row!.count;
}

/** Every count of the admin screens in one pass over the users table. */
export async function countUsers(db: Db) {
  const counted = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      active: counted(sql`${users.status} = 'Active'`),
      users: counted(sql`${users.role} = 'user'`),
      technicians: counted(sql`${users.role} = 'technician'`),
      admins: counted(sql`${users.role} = 'admin'`),
    })
    .from(users);
  return row!;
}

/**
 * Locks the active administrators' rows and the target's for the rest of the transaction, and returns the
 * ids of the active administrators. Two admins demoting each other at once: the second waits for the
 * first, then sees one admin fewer and is refused.
 */
export async function lockActiveAdminsAnd(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(users)
    .where(or(and(eq(users.role, "admin"), eq(users.status, "Active")), eq(users.id, userId)))
    .orderBy(users.id)
    .for("update");
  return {
    target: rows.find((row) => row.id === userId),
    activeAdminIds: rows.filter((row) => row.role === "admin" && row.status === "Active").map((r) => r.id),
  };
}

/** Creates an invited person: no password account until they set one from the mailed link. */
export async function insertInvitedUser(
  db: Db,
  values: typeof users.$inferInsert,
): Promise<UserRow | undefined> {
  const [row] = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.email })
    .returning();
  return row;
}

export async function deleteUser(db: Db, id: string) {
  await db.delete(users).where(eq(users.id, id));
}

export async function deletePasswordToken(db: Db, token: string) {
  await db.delete(verifications).where(eq(verifications.identifier, `reset-password:${token}`));
}

export async function deleteUserChange(db: Db, id: string) {
  await db.delete(userChanges).where(eq(userChanges.id, id));
}

export async function insertUserChange(db: Db, values: typeof userChanges.$inferInsert) {
  await db.insert(userChanges).values(values);
}

/** A person's history, newest first, with the acting admin's name. */
export async function findUserChanges(
  db: Db,
  userId: string,
  { after, limit }: { after?: { createdAt: Date; id: string }; limit: number },
): Promise<Array<UserChangeRow & { actorName: string | null }>> {
  const rows = await db
    .select({ change: userChanges, actorName: users.name })
    .from(userChanges)
    .leftJoin(users, eq(users.id, userChanges.actorId))
    .where(
      and(
        eq(userChanges.userId, userId),
        after
          ? sql`(${userChanges.createdAt}, ${userChanges.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(userChanges.createdAt), desc(userChanges.id))
    .limit(limit);
  return rows.map((row) => ({ ...row.change, actorName: row.actorName }));
}

/**
 * A one-time link better-auth's own reset-password endpoints accept (they look tokens up under this
 * identifier), so invitations and admin-sent resets land on the same /reset-password page.
 */
export async function insertPasswordToken(
  db: Db,
  { token, userId, expiresAt }: { token: string; userId: string; expiresAt: Date },
) {
  await db
    .insert(verifications)
    .values({ id: crypto.randomUUID(), identifier: `reset-password:${token}`, value: userId, expiresAt });
}
