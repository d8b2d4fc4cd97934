import { z } from "zod";

/**
 * GET/PUT/DELETE /api/tickets/:ticketId/follow: the caller's follow state. `followers` (names) only for
 * staff; a user sees how many follow, never who (a requester need not learn which staff watch them).
 * `implicit` says why the caller hears about the ticket without following it: its creator or assignee.
 */
export const followStateSchema = z.object({
  following: z.boolean(),
  implicit: z.enum(["creator", "assignee"]).nullable(),
  followerCount: z.number().int(),
  followers: z.array(z.object({ id: z.string(), name: z.string() })).nullable(),
});
export type FollowState = z.infer<typeof followStateSchema>;
