import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  notifications,
  type TeamRow,
  teamAudience,
  teamMembers,
  teams,
  users,
} from "#server/db/schema/index.ts";

/** A member with what the team's page says of them. */
export interface TeamMemberRow {
  teamId: string;
  id: string;
  name: string;
  role: string | null;
  status: string;
  awaySince: Date | null;
}

/** Every team by name, or the one with `teamId`. */
export async function findTeams(db: Db, teamId?: string): Promise<TeamRow[]> {
  return db
    .select()
    .from(teams)
    .where(teamId === undefined ? undefined : eq(teams.id, teamId))
    .orderBy(sql`lower(${teams.name})`, asc(teams.id));
}

/** The members of these teams, by name. */
export async function findMembersOf(db: Db, teamIds: readonly string[]): Promise<TeamMemberRow[]> {
  if (teamIds.length === 0) return [];
  return db
    .select({
      teamId: teamMembers.teamId,
      id: users.id,
      name: users.name,
      role: users.role,
      status: users.status,
      awaySince: users.awaySince,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(inArray(teamMembers.teamId, [...teamIds]))
    .orderBy(asc(users.name), asc(users.id));
}

/** A team under a row lock: a change and its check (members, lead) are decided on it. */
export async function lockTeam(tx: Db, teamId: string): Promise<TeamRow | undefined> {
  const [row] = await tx.select().from(teams).where(eq(teams.id, teamId)).for("update");
  return row;
}

/** Another team already named `name`, whatever its case (the unique index's rule). */
export async function findTeamNamed(db: Db, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(
      and(
        sql`lower(${teams.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(teams.id, exceptId),
      ),
    );
  return row;
}

export async function insertTeamRow(tx: Db, values: typeof teams.$inferInsert): Promise<TeamRow> {
  const [row] = await tx.insert(teams).values(values).returning();
  return row!;
}

export async function updateTeamRow(
  tx: Db,
  teamId: string,
  values: Partial<Pick<TeamRow, "name" | "description" | "leadId" | "isDefault">> &
    Pick<TeamRow, "updatedAt">,
): Promise<TeamRow> {
  const [row] = await tx.update(teams).set(values).where(eq(teams.id, teamId)).returning();
  return row!;
}

/**
 * Makes the team's members exactly `memberIds`: those who left are deleted, those who joined inserted (a
 * trigger keeps their place in the team's audience, decision 069); who stays keeps their place.
 */
export async function replaceTeamMembers(tx: Db, teamId: string, memberIds: readonly string[]) {
  await tx
    .delete(teamMembers)
    .where(
      and(
        eq(teamMembers.teamId, teamId),
        memberIds.length === 0
          ? undefined
          : sql`${teamMembers.userId} <> all(${sql.param(memberIds)}::text[])`,
      ),
    );
  if (memberIds.length === 0) return;
  await tx
    .insert(teamMembers)
    .values(memberIds.map((userId) => ({ teamId, userId })))
    .onConflictDoNothing();
}

/**
 * Deletes a team. Its tickets keep working without it (tickets.team_id is set null by its foreign key), its
 * rules and memberships go with it (cascade), and the notifications addressed to it go too: no one is in
 * its audience any more, so no one could ever read them.
 */
export async function deleteTeamRow(tx: Db, teamId: string): Promise<boolean> {
  await tx.delete(notifications).where(eq(notifications.audience, teamAudience(teamId)));
  const rows = await tx.delete(teams).where(eq(teams.id, teamId)).returning({ id: teams.id });
  return rows.length > 0;
}

/** Makes `teamId` the default team (null: none); the partial unique index allows one. */
export async function setDefaultTeamRow(tx: Db, teamId: string | null, at: Date) {
  await tx
    .update(teams)
    .set({ isDefault: false, updatedAt: at })
    .where(and(eq(teams.isDefault, true), teamId === null ? undefined : ne(teams.id, teamId)));
  if (teamId !== null) {
    await tx.update(teams).set({ isDefault: true, updatedAt: at }).where(eq(teams.id, teamId));
  }
}

/** The people with these ids: role and status decide who may be a member. */
export async function findPeopleForTeam(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, name: users.name, role: users.role, status: users.status })
    .from(users)
    .where(inArray(users.id, [...ids]));
}
