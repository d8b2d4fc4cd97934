import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { teamMembers, teams, ticketCounts, users } from "#server/db/schema/index.ts";
import type { TeamAssignmentMode } from "#shared/teams/team-assignment.ts";

/**
 * Locks a team's row for the rest of the transaction (decision 073): whoever gives out the team's tickets
 * takes turns on it, so two tickets created at once, on two instances, never both read the same
 * `last_assigned_to`. FOR NO KEY UPDATE, as the ticket writers take (decision 053): a ticket inserted or
 * moved into the team takes a key-share lock on the team's row through its foreign key, which this lock
 * neither waits for nor holds up.
 */
export async function lockTeam(tx: Db, teamId: string) {
  const [row] = await tx
    .select({
      id: teams.id,
      name: teams.name,
      assignment: teams.assignment,
      lastAssignedTo: teams.lastAssignedTo,
    })
    .from(teams)
    .where(eq(teams.id, teamId))
    .for("no key update");
  return row;
}

/** The members a team may give a ticket to: active technicians who are not away. */
export async function findAssignableMembers(tx: Db, teamId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(
      and(
        eq(teamMembers.teamId, teamId),
        eq(users.role, "technician"),
        eq(users.status, "Active"),
        isNull(users.awaySince),
      ),
    );
  return rows.map((row) => row.id);
}

/**
 * How many Open and In Progress tickets each of `ids` holds, from the dashboard counters ('a:<person>',
 * decision 039): a few rows by primary key each, whatever the table's size. Read after the team's lock,
 * so an assignment the team made a moment ago on another instance has committed and is counted.
 */
export async function countOpenTicketsOf(tx: Db, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ scope: ticketCounts.scope, n: sql<number>`sum(${ticketCounts.n})::int` })
    .from(ticketCounts)
    .where(
      and(
        inArray(
          ticketCounts.scope,
          ids.map((id) => `a:${id}`),
        ),
        inArray(ticketCounts.status, ["Open", "In Progress"]),
      ),
    )
    .groupBy(ticketCounts.scope);
  return new Map(rows.map((row) => [row.scope.slice(2), Number(row.n)]));
}

export async function updateLastAssigned(tx: Db, teamId: string, userId: string) {
  await tx.update(teams).set({ lastAssignedTo: userId }).where(eq(teams.id, teamId));
}

export async function updateTeamAssignment(db: Db, teamId: string, assignment: TeamAssignmentMode, at: Date) {
  const [row] = await db
    .update(teams)
    .set({ assignment, updatedAt: at })
    .where(eq(teams.id, teamId))
    .returning({ teamId: teams.id, assignment: teams.assignment });
  return row;
}

/** Marks a person away from `at`, or back (null); an away mark already set keeps its first time. */
export async function updateAwaySince(db: Db, userId: string, at: Date | null) {
  const [row] = await db
    .update(users)
    .set({
      awaySince: at === null ? null : sql`coalesce(${users.awaySince}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(users.id, userId))
    .returning();
  return row;
}
