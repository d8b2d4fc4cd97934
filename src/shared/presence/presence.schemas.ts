import { z } from "zod";

/**
 * Who else is on a ticket (decision 072): staff with its page open are `viewing`; while their reply box
 * holds a draft they are editing, `typing`. Presence is ephemeral: kept in memory by each app instance,
 * shared over the push bus, never stored.
 */
export const presenceStates = ["viewing", "typing"] as const;
export type PresenceState = (typeof presenceStates)[number];

/**
 * One open ticket page (a browser tab): its presence comes and goes with it, so that a second tab on the
 * same ticket, or the same page's requests reaching two instances, are told apart. Chosen by the page.
 */
export const presencePageIdSchema = z
  .string({ error: "pageId must be text" })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "pageId must be 8 to 64 letters, digits, - or _");

/** PUT /api/tickets/:ticketId/presence: "I am on this ticket's page, viewing or typing". */
export const sharePresenceInputSchema = z.object({
  state: z.enum(presenceStates, { error: "State must be viewing or typing" }),
  pageId: presencePageIdSchema,
});
export type SharePresenceInput = z.infer<typeof sharePresenceInputSchema>;

/** DELETE /api/tickets/:ticketId/presence?pageId=…: the page closed. */
export const leavePresenceQuerySchema = z.object({ pageId: presencePageIdSchema });

export const presentPersonSchema = z.object({
  userId: z.string(),
  name: z.string(),
  /** `typing` when any of their pages on the ticket is typing. */
  state: z.enum(presenceStates),
});
export type PresentPerson = z.infer<typeof presentPersonSchema>;

/**
 * Everyone on the ticket's page now, the caller included, in the order they came. The answer to PUT, and
 * the `presence` frame of the live stream (to the staff on the same ticket, whenever it changes).
 */
export const ticketPresenceSchema = z.object({
  ticketId: z.string(),
  people: z.array(presentPersonSchema),
});
export type TicketPresence = z.infer<typeof ticketPresenceSchema>;

/** How often an open page says it is still there. */
export const presenceHeartbeatMs = 10_000;
/** A page not heard from for this long is gone (two heartbeats lost, and some). */
export const presenceTtlMs = 30_000;
/** A draft not touched for this long is no longer being typed: back to viewing. */
export const typingIdleMs = 6_000;
