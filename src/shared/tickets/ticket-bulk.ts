import { z } from "zod";
import { personIdSchema } from "#shared/users/user.schemas.ts";
import { ticketIdSchema, ticketPriorities } from "./ticket.schemas.ts";
import { changeableStatuses } from "./ticket-status.ts";

/** One request changes at most this many tickets: a page of the list is 25, "load more" a few pages. */
export const bulkTicketLimit = 100;

/** What a bulk action does to each ticket: exactly what the single action on the ticket page does. */
export const bulkActionSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("status"),
      status: z.enum(changeableStatuses, { error: "Status must be In Progress, Resolved or Closed" }),
    }),
    z.object({
      kind: z.literal("priority"),
      priority: z.enum(ticketPriorities, { error: "Priority must be Low, Medium or High" }),
    }),
    z.object({
      kind: z.literal("assign"),
      /** null sends the tickets back to the queue. */
      assigneeId: personIdSchema("Assignee", "Assignee must be a person's id or null").nullable(),
    }),
    z.object({ kind: z.literal("assignToMe") }),
  ],
  { error: "Action must be one of status, priority, assign or assignToMe" },
);
export type BulkAction = z.infer<typeof bulkActionSchema>;

export const bulkTicketsInputSchema = z.object({
  ticketIds: z
    .array(ticketIdSchema, { error: "ticketIds must be a list of ticket ids" })
    .min(1, "Choose at least one ticket")
    .max(bulkTicketLimit, `Choose at most ${bulkTicketLimit} tickets at once`)
    .refine((ids) => new Set(ids).size === ids.length, "Each ticket may be listed only once"),
  action: bulkActionSchema,
});
export type BulkTicketsInput = z.infer<typeof bulkTicketsInputSchema>;

/** How many changed, and for each that did not, the message the single action would have given. */
export const bulkResultSchema = z.object({
  changed: z.array(z.string()),
  refused: z.array(z.object({ ticketId: z.string(), message: z.string() })),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;
