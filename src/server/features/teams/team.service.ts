import { randomBytes } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { isUniqueViolation } from "#server/db/connection-errors.ts";
import { conflict, forbidden, notFound, ruleViolation, validationFailed } from "#server/errors.ts";
import { insertAdminChange } from "#server/features/settings/settings.queries.ts";
import { can } from "#shared/permissions.ts";
import {
  onlyAdminsManageTeams,
  type Team,
  type TeamInputParsed,
  type TeamList,
} from "#shared/teams/team.schemas.ts";
import { toTeamDto, toTeamSnapshot } from "./team.presenter.ts";
import {
  deleteTeamRow,
  findMembersOf,
  findPeopleForTeam,
  findTeamNamed,
  findTeams,
  insertTeamRow,
  lockTeam,
  replaceTeamMembers,
  updateTeamRow,
} from "./team.queries.ts";

/** The admin change history's area for teams and routing (decision 023's history, decision 069). */
export const teamsArea = "teams";
const newTeamId = () => `team_${randomBytes(8).toString("hex")}`;

export function requireTeamManager(ctx: ServiceContext) {
  if (!can.manageTeams(ctx.actor)) throw forbidden(onlyAdminsManageTeams);
}

/** GET /api/teams: staff read the teams (a ticket's team picker); only admins change them. */
export async function listTeams(ctx: ServiceContext): Promise<TeamList> {
  if (!can.seeTeams(ctx.actor)) throw forbidden("Only technicians and administrators can see teams.");
  const rows = await findTeams(ctx.db);
  const members = await findMembersOf(
    ctx.db,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => toTeamDto(row, members)) };
}

async function teamDtoOf(db: Db, teamId: string): Promise<Team> {
  const [row] = await findTeams(db, teamId);
  if (!row) throw notFound("Team", teamId);
  return toTeamDto(row, await findMembersOf(db, [teamId]));
}

const nameTaken = (name: string) => conflict(`There is already a team named “${name}”.`);

/**
 * Members are technicians (a team shares out technicians' work). One who joins must be an active
 * technician; one already in the team may stay while deactivated (they hear nothing meanwhile, and again
 * once back), but not once they are no longer a technician.
 */
async function checkMembers(tx: Db, memberIds: readonly string[], current: ReadonlySet<string>) {
  const people = new Map((await findPeopleForTeam(tx, memberIds)).map((person) => [person.id, person]));
  for (const id of memberIds) {
    const person = people.get(id);
    if (!person) {
      throw validationFailed(`Members: there is no person '${id}'`, [
        { path: ["memberIds"], message: `There is no person '${id}'` },
      ]);
    }
    if (person.role !== "technician") throw ruleViolation(`Members: ${person.name} is not a technician.`);
    if (!current.has(id) && person.status !== "Active") {
      throw ruleViolation(`Members: ${person.name} is not an active technician.`);
    }
  }
}

export async function createTeam(ctx: ServiceContext, input: TeamInputParsed): Promise<Team> {
  requireTeamManager(ctx);
  const at = nowOf(ctx);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      if (await findTeamNamed(tx, input.name)) throw nameTaken(input.name);
      await checkMembers(tx, input.memberIds, new Set());
      const row = await insertTeamRow(tx, {
        id: newTeamId(),
        name: input.name,
        description: input.description,
        leadId: input.leadId,
        createdAt: at,
        updatedAt: at,
      });
      await replaceTeamMembers(tx, row.id, input.memberIds);
      await insertAdminChange(tx, {
        actorId: ctx.actor.id,
        area: teamsArea,
        summary: `Added the team “${row.name}”`,
        before: null,
        after: toTeamSnapshot(row, input.memberIds),
        at,
      });
      return row.id;
    });
    return teamDtoOf(ctx.db, id);
  } catch (error) {
    // Two admins naming two teams alike at once: the unique index decides.
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
}

/** Replaces the team's name, description, members and lead with what the admin sent. */
export async function updateTeam(ctx: ServiceContext, teamId: string, input: TeamInputParsed): Promise<Team> {
  requireTeamManager(ctx);
  const at = nowOf(ctx);
  try {
    await ctx.db.transaction(async (tx) => {
      const before = await lockTeam(tx, teamId);
      if (!before) throw notFound("Team", teamId);
      if (await findTeamNamed(tx, input.name, teamId)) throw nameTaken(input.name);
      const current = (await findMembersOf(tx, [teamId])).map((member) => member.id);
      await checkMembers(tx, input.memberIds, new Set(current));
      const isSame =
        before.name === input.name &&
        before.description === input.description &&
        before.leadId === input.leadId &&
        [...current].sort().join() === [...input.memberIds].sort().join();
      if (isSame) return;
      const after = await updateTeamRow(tx, teamId, {
        name: input.name,
        description: input.description,
        leadId: input.leadId,
        updatedAt: at,
      });
      await replaceTeamMembers(tx, teamId, input.memberIds);
      await insertAdminChange(tx, {
        actorId: ctx.actor.id,
        area: teamsArea,
        summary: `Changed the team “${after.name}”`,
        before: toTeamSnapshot(before, current),
        after: toTeamSnapshot(after, input.memberIds),
        at,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
  return teamDtoOf(ctx.db, teamId);
}

/**
 * Deletes a team: its tickets stay, in no team; its routing rules go, and it stops being the default; the
 * notifications addressed to it go, since no one is in its audience any more (team.queries.ts).
 */
export async function deleteTeam(ctx: ServiceContext, teamId: string): Promise<void> {
  requireTeamManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = await lockTeam(tx, teamId);
    if (!before) throw notFound("Team", teamId);
    const members = (await findMembersOf(tx, [teamId])).map((member) => member.id);
    await deleteTeamRow(tx, teamId);
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area: teamsArea,
      summary: `Deleted the team “${before.name}”`,
      before: toTeamSnapshot(before, members),
      after: null,
      at,
    });
  });
}
