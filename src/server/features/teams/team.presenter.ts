import type { TeamRow } from "#server/db/schema/index.ts";
import type { Team } from "#shared/teams/team.schemas.ts";
import type { TeamMemberRow } from "./team.queries.ts";

const isActiveTechnician = (member: Pick<TeamMemberRow, "role" | "status">) =>
  member.role === "technician" && member.status === "Active";

export function toTeamDto(row: TeamRow, members: readonly TeamMemberRow[]): Team {
  const own = members.filter((member) => member.teamId === row.id);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    leadId: row.leadId,
    leadName: own.find((member) => member.id === row.leadId)?.name ?? null,
    members: own.map((member) => ({
      id: member.id,
      name: member.name,
      isActiveTechnician: isActiveTechnician(member),
      isAway: member.awaySince !== null,
    })),
    memberCount: own.length,
    isDefault: row.isDefault,
    assignment: row.assignment,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the admin change history keeps of a team. */
export function toTeamSnapshot(row: TeamRow, memberIds: readonly string[]) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    leadId: row.leadId,
    memberIds: [...memberIds].sort(),
  };
}
