import { z } from "zod";
import { type CreateTicketInput, createTicketInputSchema } from "./ticket.schemas.ts";

/** The fields a ticket's edit may change: the create form's fields, with the same rules and limits. */
export const editableTicketFields = [
  "title",
  "description",
  "category",
  "priority",
  "department",
  "floor",
  "officeNumber",
] as const satisfies ReadonlyArray<keyof CreateTicketInput>;
export type EditableTicketField = (typeof editableTicketFields)[number];

/** What staff correct (can.editTicketDetails); the description is the creator's (can.editDescription). */
export const ticketDetailFields = [
  "title",
  "category",
  "priority",
  "department",
  "floor",
  "officeNumber",
] as const satisfies ReadonlyArray<EditableTicketField>;

/** The create form's labels, so that the timeline reads "Priority: Low → High". */
export const ticketFieldLabels: Record<EditableTicketField, string> = {
  title: "Title",
  description: "Description",
  category: "Category",
  priority: "Priority",
  department: "Department",
  floor: "Floor",
  officeNumber: "Office Number",
};

/**
 * PATCH /api/tickets/:ticketId: only the fields the person changed (a stale form then never reverts what
 * someone else changed meanwhile), each checked as on the create form.
 */
export const editTicketInputSchema = createTicketInputSchema
  // Who it is for and where it came from are set when it is raised (decision 079), not edited.
  .omit({ requesterEmail: true, externalRef: true })
  .partial()
  .refine((input) => editableTicketFields.some((field) => input[field] !== undefined), {
    message: `Nothing to change: send at least one of ${editableTicketFields.join(", ")}`,
  });
export type EditTicketInput = z.infer<typeof editTicketInputSchema>;

/**
 * One field of an "edited" event, as the timeline shows it. A custom field's change (decision 022) names it
 * `cf:<fieldId>` and carries its label as it was then, with the values as they read.
 */
export const ticketChangeSchema = z.union([
  z.object({ field: z.enum(editableTicketFields), from: z.string(), to: z.string() }),
  z.object({
    field: z.templateLiteral(["cf:", z.string()]),
    label: z.string(),
    from: z.string(),
    to: z.string(),
  }),
]);
export type TicketChange = z.infer<typeof ticketChangeSchema>;

/** "Priority", or a custom field's label. */
export const ticketChangeLabel = (change: TicketChange): string =>
  "label" in change ? change.label : ticketFieldLabels[change.field];

/** The staff edit form: the create form's detail fields, all required as there. */
export const ticketDetailsFormSchema = createTicketInputSchema.pick({
  title: true,
  category: true,
  priority: true,
  department: true,
  floor: true,
  officeNumber: true,
});
export type TicketDetailsForm = z.infer<typeof ticketDetailsFormSchema>;

/** The creator's "Edit description" form. */
export const descriptionFormSchema = createTicketInputSchema.pick({ description: true });
export type DescriptionForm = z.infer<typeof descriptionFormSchema>;
