import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { ticketFollowers, users } from "#server/db/schema/index.ts";

/** Idempotent: following twice keeps the first row. */
export async function insertFollower(db: Db, ticketId: string, userId: string, at: Date) {
  await db.insert(ticketFollowers).values({ ticketId, userId, createdAt: at }).onConflictDoNothing();
}

export async function deleteFollower(db: Db, ticketId: string, userId: string) {
  await db
    .delete(ticketFollowers)
    .where(and(eq(ticketFollowers.ticketId, ticketId), eq(ticketFollowers.userId, userId)));
}

/** The followers' ids: who recordTicketEvent considers beyond the creator and assignee. */
export async function findFollowerIds(db: Db, ticketId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: ticketFollowers.userId })
    .from(ticketFollowers)
    .where(eq(ticketFollowers.ticketId, ticketId));
  return rows.map((row) => row.userId);
}

/** Followers by name, oldest follow first. */
export function findFollowers(db: Db, ticketId: string) {
  return db
    .select({ id: users.id, name: users.name })
    .from(ticketFollowers)
    .innerJoin(users, eq(users.id, ticketFollowers.userId))
    .where(eq(ticketFollowers.ticketId, ticketId))
    .orderBy(asc(ticketFollowers.createdAt), asc(users.id));
}

export async function countFollowers(db: Db, ticketId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(ticketFollowers)
    .where(eq(ticketFollowers.ticketId, ticketId));
  return row?.count ?? 0;
}

export async function isFollowing(db: Db, ticketId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: ticketFollowers.userId })
    .from(ticketFollowers)
    .where(and(eq(ticketFollowers.ticketId, ticketId), eq(ticketFollowers.userId, userId)));
  return rows.length > 0;
}
