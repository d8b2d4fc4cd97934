import { z } from "zod";
import { teamAssignmentModes } from "./team-assignment.ts";

/** A team's id as a caller sends it, in a path or a list's `team` filter. */
export const teamIdSchema = z
  .string({ error: "Team must be a team's id" })
  .regex(/^[A-Za-z0-9_-]{1,100}$/, "Team must be a team's id");

/** How many tickets a queue holds: exact up to ticketCountCap, past it `capped` ("10,000+"), as a list's total. */
const queueCountSchema = z.object({ count: z.number().int(), capped: z.boolean() });

/**
 * GET /api/tickets/queues (decision 073), staff only: every team by name (the lists' team filter) and, for a
 * member of at least one team, the counts of their two team tabs — the same numbers as those lists' totals.
 */
export const teamQueuesSchema = z.object({
  teams: z.array(z.object({ id: z.string(), name: z.string(), isMember: z.boolean() })),
  /** "My team's unassigned" and "My team's"; null for someone in no team (they see no team tabs). */
  mine: z.object({ unassigned: queueCountSchema, all: queueCountSchema }).nullable(),
  /**
   * Administrators (who see every ticket): each team's Open and In Progress tickets now, and how many of
   * them nobody holds, from the counters; `teamId` null for the tickets in no team. Null for technicians,
   * whose counts stay within what they may see.
   */
  openByTeam: z
    .array(
      z.object({
        teamId: z.string().nullable(),
        open: z.number().int(),
        unassigned: z.number().int(),
      }),
    )
    .nullable(),
});
export type TeamQueues = z.infer<typeof teamQueuesSchema>;

/** PUT /api/teams/:teamId/assignment: how the team gives its new tickets to its members (admins). */
export const setTeamAssignmentInputSchema = z.object({
  assignment: z.enum(teamAssignmentModes, { error: "Assignment must be off, round_robin or least_open" }),
});
export type SetTeamAssignmentInput = z.infer<typeof setTeamAssignmentInputSchema>;

export const teamAssignmentSchema = z.object({
  teamId: z.string(),
  assignment: z.enum(teamAssignmentModes),
});
export type TeamAssignment = z.infer<typeof teamAssignmentSchema>;

/** PUT /api/me/away: a technician marks themselves away (true) or back (false). */
export const setAwayInputSchema = z.object({ away: z.boolean({ error: "away must be true or false" }) });
export type SetAwayInput = z.infer<typeof setAwayInputSchema>;
