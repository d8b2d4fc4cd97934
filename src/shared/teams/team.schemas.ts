import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { personIdSchema } from "#shared/users/user.schemas.ts";
import { teamAssignmentModes } from "./team-assignment.ts";

/**
 * Teams (decision 069): administrators group technicians into teams (a technician may be in several); a
 * ticket belongs to at most one. Names are unique whatever their case.
 */
export const teamNameMaxLength = 60;
export const teamDescriptionMaxLength = 300;
/** Members of one team: a team is a group of people who share a queue, not the whole staff list. */
export const teamMembersMax = 200;

export const teamIdPattern = /^team_[0-9a-z]{4,40}$/;
export const teamIdSchema = z.string().regex(teamIdPattern, "Not a team id");
export const teamIdParamsSchema = z.object({ teamId: teamIdSchema });

/** Compares team names as the database's unique index does (lower(name)). */
export const teamNameKey = (name: string) => name.trim().toLowerCase();

/** What an administrator sends to create or change a team: the whole team, members included. */
export const teamInputSchema = z
  .object({
    name: storableText(
      z
        .string({ error: "Name is required" })
        .trim()
        .min(1, "Name is required")
        .max(teamNameMaxLength, `Name must be at most ${teamNameMaxLength} characters`),
      "Name",
    ),
    description: storableText(
      z
        .string({ error: "Description must be text" })
        .trim()
        .max(teamDescriptionMaxLength, `Description must be at most ${teamDescriptionMaxLength} characters`),
      "Description",
    ).default(""),
    memberIds: z
      .array(personIdSchema("Members", "Members must be a list of people's ids"), {
        error: "Members must be a list of people's ids",
      })
      .max(teamMembersMax, `A team has at most ${teamMembersMax} members`)
      .default([])
      .transform((ids) => [...new Set(ids)]),
    /** One of the members, or null for a team without a lead. */
    leadId: personIdSchema("Lead", "Lead must be a member's id or empty").nullable().default(null),
  })
  .strict()
  .refine((team) => team.leadId === null || team.memberIds.includes(team.leadId), {
    path: ["leadId"],
    message: "The lead must be one of the team's members",
  });
export type TeamInput = z.input<typeof teamInputSchema>;
export type TeamInputParsed = z.output<typeof teamInputSchema>;

/** A member as the team's page shows them: whether they still hear the team's tickets (an active technician). */
export const teamMemberSchema = z.object({
  id: z.string(),
  name: z.string(),
  isActiveTechnician: z.boolean(),
  /** Marked themselves away (decision 073): the team's auto-assignment passes them over. */
  isAway: z.boolean(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  leadId: z.string().nullable(),
  leadName: z.string().nullable(),
  /** By name. */
  members: z.array(teamMemberSchema),
  memberCount: z.number().int(),
  /** The team new tickets go to when no routing rule matches (at most one team is). */
  isDefault: z.boolean(),
  /** How the team gives out its new tickets (decision 073): off, round robin or fewest open. */
  assignment: z.enum(teamAssignmentModes),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Team = z.infer<typeof teamSchema>;

export const teamListSchema = z.object({ items: z.array(teamSchema) });
export type TeamList = z.infer<typeof teamListSchema>;

/** PUT /api/tickets/:ticketId/team: the team to move the ticket to, or null for none. */
export const changeTicketTeamInputSchema = z
  .object({ teamId: teamIdSchema.nullable() }, { error: "Send the team's id, or null for no team" })
  .strict();
export type ChangeTicketTeamInput = z.infer<typeof changeTicketTeamInputSchema>;

export const onlyAdminsManageTeams = "Only administrators can manage teams.";
