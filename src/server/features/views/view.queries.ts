import { and, asc, count, eq, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "#server/db/client.ts";
import { type SavedViewRow, savedViews, teamMembers, teams, users } from "#server/db/schema/index.ts";
import type { Actor } from "#shared/permissions.ts";

export type ViewWithNames = SavedViewRow & { teamName: string | null; ownerName: string | null };

const owner = alias(users, "view_owner");

function selectViewsWithNames(db: Db) {
  return db
    .select({ view: savedViews, teamName: teams.name, ownerName: owner.name })
    .from(savedViews)
    .leftJoin(teams, eq(teams.id, savedViews.teamId))
    .leftJoin(owner, eq(owner.id, savedViews.ownerId));
}

const flatten = (row: {
  view: SavedViewRow;
  teamName: string | null;
  ownerName: string | null;
}): ViewWithNames => ({ ...row.view, teamName: row.teamName, ownerName: row.ownerName });

/**
 * The views a person may open (decision 071): their own personal ones; staff also those shared with all
 * staff, and those shared with a team they are in (an administrator: every team's, to manage them).
 */
export function visibleViewsWhere(actor: Actor): SQL {
  if (actor.role === null) return sql`false`;
  const mine = and(eq(savedViews.sharing, "personal"), eq(savedViews.ownerId, actor.id))!;
  if (actor.role === "user") return mine;
  const myTeams =
    actor.role === "admin"
      ? eq(savedViews.sharing, "team")
      : and(
          eq(savedViews.sharing, "team"),
          sql`${savedViews.teamId} in (select ${teamMembers.teamId} from ${teamMembers} where ${teamMembers.userId} = ${actor.id})`,
        )!;
  return or(mine, eq(savedViews.sharing, "staff"), myTeams)!;
}

/** The person's views: their personal ones first, then the shared ones, each by name. */
export async function findViewsFor(db: Db, actor: Actor, limit: number): Promise<ViewWithNames[]> {
  const rows = await selectViewsWithNames(db)
    .where(visibleViewsWhere(actor))
    .orderBy(
      sql`${savedViews.sharing} <> 'personal'`,
      asc(sql`lower(${savedViews.name})`),
      asc(savedViews.id),
    )
    .limit(limit);
  return rows.map(flatten);
}

/** One view, if the person may open it (visibleViewsWhere). */
export async function findVisibleView(db: Db, actor: Actor, id: string): Promise<ViewWithNames | undefined> {
  const [row] = await selectViewsWithNames(db).where(and(eq(savedViews.id, id), visibleViewsWhere(actor)));
  return row && flatten(row);
}

export async function countPersonalViews(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(savedViews)
    .where(and(eq(savedViews.ownerId, ownerId), eq(savedViews.sharing, "personal")));
  return row?.n ?? 0;
}

export async function insertView(db: Db, values: typeof savedViews.$inferInsert) {
  await db.insert(savedViews).values(values);
}

export async function updateView(
  db: Db,
  id: string,
  values: Pick<SavedViewRow, "name" | "query" | "sharing" | "teamId" | "updatedAt">,
) {
  await db.update(savedViews).set(values).where(eq(savedViews.id, id));
}

export async function deleteView(db: Db, id: string) {
  await db.delete(savedViews).where(eq(savedViews.id, id));
}

export async function teamExists(db: Db, teamId: string): Promise<boolean> {
  const [row] = await db.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId));
  return row !== undefined;
}
