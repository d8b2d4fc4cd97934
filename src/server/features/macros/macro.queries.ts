import { and, asc, eq, getTableColumns, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type MacroRow, macros, users } from "#server/db/schema/index.ts";

export type MacroWithOwner = MacroRow & { ownerName: string | null };

const withOwner = { ...getTableColumns(macros), ownerName: users.name };

/** What a staff member may see: their own personal macros and every shared one. The SQL twin of can.viewMacro. */
const visibleMacrosWhere = (actorId: string): SQL =>
  or(eq(macros.scope, "shared"), and(eq(macros.scope, "personal"), eq(macros.ownerId, actorId)))!;

export function findMacrosFor(db: Db, actorId: string, limit: number): Promise<MacroWithOwner[]> {
  return db
    .select(withOwner)
    .from(macros)
    .leftJoin(users, eq(users.id, macros.ownerId))
    .where(visibleMacrosWhere(actorId))
    .orderBy(sql`lower(${macros.title})`, asc(macros.scope), asc(macros.id))
    .limit(limit);
}

export async function findMacroById(db: Db, id: string): Promise<MacroWithOwner | undefined> {
  const [row] = await db
    .select(withOwner)
    .from(macros)
    .leftJoin(users, eq(users.id, macros.ownerId))
    .where(eq(macros.id, id));
  return row;
}

export async function insertMacro(db: Db, values: typeof macros.$inferInsert) {
  const [row] = await db.insert(macros).values(values).returning();
  return row!;
}

export async function updateMacro(
  db: Db,
  id: string,
  values: Partial<Pick<MacroRow, "title" | "body" | "replyVisibility" | "actions">>,
) {
  const [row] = await db
    .update(macros)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(macros.id, id))
    .returning();
  return row;
}

export async function deleteMacro(db: Db, id: string) {
  const rows = await db.delete(macros).where(eq(macros.id, id)).returning({ id: macros.id });
  return rows.length > 0;
}
