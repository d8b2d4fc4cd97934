import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { accounts, sessions, type UserRow, users } from "#server/db/schema/index.ts";
import type { SignUpRole } from "#shared/users/roles.ts";

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

export async function updateUser(db: Db, id: string, values: Partial<typeof users.$inferInsert>) {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Whether the person signs in through this provider (an account of theirs names it). */
export async function hasAccountWith(db: Db, userId: string, providerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, providerId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Conditional update: of several role choices sent at once, exactly one finds the role still unset.
 * Returns undefined for the others (and for a person who does not exist).
 */
export async function setRoleIfUnset(db: Db, id: string, role: SignUpRole): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(and(eq(users.id, id), isNull(users.role)))
    .returning();
  return row;
}

/** A user with an e-mail/password account, written together or not at all. */
export async function insertUserWithPassword(
  db: Db,
  user: typeof users.$inferInsert & { id: string },
  passwordHash: string,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(users).values(user).returning();
    await tx.insert(accounts).values({
      id: crypto.randomUUID(),
      accountId: user.id,
      providerId: "credential",
      userId: user.id,
      password: passwordHash,
    });
    return row!;
  });
}

export async function deleteSessionsOf(db: Db, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Everyone a ticket can be given to, by name. */
export function findActiveTechnicians(db: Db) {
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.role, "technician"), eq(users.status, "Active")))
    .orderBy(asc(users.name), asc(users.id));
}

/** Active administrators' ids: who hears that a webhook was switched off (decision 080). */
export async function findActiveAdminIds(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), eq(users.status, "Active")))
    .orderBy(asc(users.id));
  return rows.map((row) => row.id);
}

/** The people with these ids, as notification and mention rules need them: role and status. */
export function findPeopleByIds(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: users.id, name: users.name, role: users.role, status: users.status })
    .from(users)
    .where(inArray(users.id, [...ids]));
}

/** The people with these (lower-cased) e-mail addresses: who they are, their role and status. */
export function findPeopleByEmails(db: Db, emails: readonly string[]) {
  if (emails.length === 0) return Promise.resolve([]);
  return db
    .select({ id: users.id, email: users.email, role: users.role, status: users.status })
    .from(users)
    .where(inArray(users.email, [...emails]));
}
