import { z } from "zod";
import { maxTagsPerTicket, tagSchema } from "#shared/tags/tag.schemas.ts";
import { teamIdSchema } from "#shared/teams/team.schemas.ts";
import { storableText } from "#shared/text/storable-text.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";
import { ticketIdSchema, ticketPriorities, ticketSchema } from "#shared/tickets/ticket.schemas.ts";
import { bulkTicketLimit } from "#shared/tickets/ticket-bulk.ts";
import { changeableStatuses } from "#shared/tickets/ticket-status.ts";
import { personIdSchema } from "#shared/users/user.schemas.ts";

// Macros (decision 075): a canned reply plus changes to the ticket, applied in one step. Scopes as canned
// responses have them (decision 013): personal to its owner, or shared with every staff member and
// managed by admins.

export const macroScopes = ["personal", "shared"] as const;
export type MacroScope = (typeof macroScopes)[number];
export const macroReplyVisibilities = ["public", "internal"] as const;
export type MacroReplyVisibility = (typeof macroReplyVisibilities)[number];

export const macroTitleMaxLength = 100;
export const macroBodyMaxLength = commentMaxLength;
/** Whoever applies the macro, as its assignee. */
export const macroAssigneeMe = "me";

const tagList = (label: string) =>
  z
    .array(tagSchema, { error: `${label} must be a list of tags` })
    .max(maxTagsPerTicket, `${label}: at most ${maxTagsPerTicket} tags`)
    .overwrite((tags) => [...new Set(tags)]);

/**
 * What a macro changes besides its reply; a field left out is left alone. `assigneeId` "me" is whoever
 * applies it; null returns the ticket to the queue. `teamId` null takes it out of any team. `hold` "on"
 * puts the ticket on hold with the macro's reply as the public comment a hold needs; "off" takes it off.
 */
/**
 * The changes a macro and an automation rule (decision 076) share: the status, the priority, the team (null:
 * none) and tags to add and remove. Each is left alone when left out.
 */
export const ticketChangeFields = {
  status: z.enum(changeableStatuses, { error: "Status must be In Progress, Resolved or Closed" }).optional(),
  priority: z.enum(ticketPriorities, { error: "Priority must be Low, Medium or High" }).optional(),
  teamId: teamIdSchema.nullable().optional(),
  addTags: tagList("addTags").optional(),
  removeTags: tagList("removeTags").optional(),
};

/** A tag is added or removed, not both (the refinement of every schema with ticketChangeFields). */
export const tagsOneWay: [
  (actions: { addTags?: string[]; removeTags?: string[] }) => boolean,
  { message: string; path: string[] },
] = [
  ({ addTags = [], removeTags = [] }) => !addTags.some((tag) => removeTags.includes(tag)),
  { message: "A tag cannot be both added and removed", path: ["removeTags"] },
];

export const macroActionsSchema = z
  .object({
    ...ticketChangeFields,
    assigneeId: personIdSchema("Assignee", 'Assignee must be a person\'s id, "me" or null')
      .nullable()
      .optional(),
    hold: z.enum(["on", "off"], { error: "Hold must be on or off" }).optional(),
  })
  .refine(...tagsOneWay)
  .refine(({ hold, status }) => !(hold === "on" && status !== undefined && status !== "In Progress"), {
    message: "A ticket on hold stays In Progress: choose no status or In Progress",
    path: ["hold"],
  });
export type MacroActions = z.infer<typeof macroActionsSchema>;

const titleSchema = storableText(
  z
    .string({ error: (issue) => (issue.input === undefined ? "Title is required" : "Title must be text") })
    .trim()
    .min(1, "Title is required")
    .max(macroTitleMaxLength, `Title must be at most ${macroTitleMaxLength} characters`),
  "Title",
);

const bodySchema = storableText(
  z
    .string({ error: "Reply must be text" })
    .trim()
    .max(macroBodyMaxLength, `Reply must be at most ${macroBodyMaxLength} characters`),
  "Reply",
);

const visibilitySchema = z.enum(macroReplyVisibilities, { error: "Reply must be public or internal" });

/** Why these fields do not make a macro, or null: it must do something, and a hold needs a public reply. */
export function macroContentRefusal(
  body: string,
  visibility: MacroReplyVisibility,
  actions: MacroActions,
): { path: string; message: string } | null {
  const doesSomething = Object.values(actions).some((value) =>
    Array.isArray(value) ? value.length > 0 : value !== undefined,
  );
  if (body === "" && !doesSomething) {
    return { path: "body", message: "Write a reply or choose at least one action" };
  }
  if (actions.hold === "on" && (body === "" || visibility !== "public")) {
    return { path: "body", message: "Putting a ticket on hold needs a public reply for the requester" };
  }
  return null;
}

const checkContent = (
  input: { body?: string; replyVisibility?: MacroReplyVisibility; actions?: MacroActions },
  context: z.RefinementCtx,
) => {
  if (input.body === undefined || input.replyVisibility === undefined || input.actions === undefined) return;
  const refusal = macroContentRefusal(input.body, input.replyVisibility, input.actions);
  if (refusal) context.addIssue({ code: "custom", message: refusal.message, path: [refusal.path] });
};

export const createMacroInputSchema = z
  .object({
    title: titleSchema,
    body: bodySchema.default(""),
    replyVisibility: visibilitySchema.default("public"),
    actions: macroActionsSchema.default({}),
    scope: z.enum(macroScopes, { error: "Scope must be personal or shared" }).default("personal"),
  })
  .superRefine(checkContent);
export type CreateMacroInput = z.input<typeof createMacroInputSchema>;
export type NewMacro = z.infer<typeof createMacroInputSchema>;

/** The scope stays what it was, as a canned response's does. What is left out stays as it was. */
export const updateMacroInputSchema = z
  .object({
    title: titleSchema.optional(),
    body: bodySchema.optional(),
    replyVisibility: visibilitySchema.optional(),
    actions: macroActionsSchema.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "Change the title, the reply or the actions",
  });
export type UpdateMacroInput = z.infer<typeof updateMacroInputSchema>;

export const macroIdPattern = /^mac_[0-9a-f-]{36}$/;
const macroIdSchema = z.string().regex(macroIdPattern, "Not a macro id");
export const macroIdParamsSchema = z.object({ macroId: macroIdSchema });
export const ticketMacroParamsSchema = z.object({ ticketId: ticketIdSchema, macroId: macroIdSchema });

export const macroSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  replyVisibility: z.enum(macroReplyVisibilities),
  actions: macroActionsSchema,
  scope: z.enum(macroScopes),
  ownerId: z.string(),
  ownerName: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Macro = z.infer<typeof macroSchema>;

/** A person keeps dozens of macros, not thousands: the list is every one the caller may use, at most this many. */
export const macroListLimit = 500;
export const macroListSchema = z.object({ items: z.array(macroSchema) });
export type MacroList = z.infer<typeof macroListSchema>;

/**
 * The steps of an application, in the order they run: the reply and the other changes before a status
 * that ends the work (Resolved, Closed), which would refuse them; a status back to In Progress runs first
 * instead, so that a hold can follow. The assignee's step runs last when it hands the ticket to someone and
 * the person applying would no longer see it (a technician's hand-off).
 */
export const macroStepKinds = [
  "hold_off",
  "assignee",
  "priority",
  "team",
  "tags",
  "reply",
  "hold_on",
  "status",
] as const;
export type MacroStepKind = (typeof macroStepKinds)[number];

/**
 * What one step does to this ticket: a change (from → to, by the names people read), nothing because the
 * ticket is already so, or a refusal with the reason the single action would give.
 */
export const macroStepSchema = z.object({
  kind: z.enum(macroStepKinds),
  outcome: z.enum(["change", "unchanged", "refused"]),
  from: z.string().nullable(),
  to: z.string().nullable(),
  tagsAdded: z.array(z.string()),
  tagsRemoved: z.array(z.string()),
  /** A reply's visibility; null for the other steps. */
  visibility: z.enum(macroReplyVisibilities).nullable(),
  reason: z.string().nullable(),
});
export type MacroStep = z.infer<typeof macroStepSchema>;

export const macroPreviewSchema = z.object({
  macroId: z.string(),
  title: z.string(),
  steps: z.array(macroStepSchema),
  /** True when no step is refused and at least one changes something. */
  canApply: z.boolean(),
});
export type MacroPreview = z.infer<typeof macroPreviewSchema>;

/** POST …/apply: the ticket after the macro and what each step did. */
export const macroApplicationSchema = z.object({ ticket: ticketSchema, steps: z.array(macroStepSchema) });
export type MacroApplication = z.infer<typeof macroApplicationSchema>;

export const bulkMacroInputSchema = z.object({
  ticketIds: z
    .array(ticketIdSchema, { error: "ticketIds must be a list of ticket ids" })
    .min(1, "Choose at least one ticket")
    .max(bulkTicketLimit, `Choose at most ${bulkTicketLimit} tickets at once`)
    .refine((ids) => new Set(ids).size === ids.length, "Each ticket may be listed only once"),
  macroId: macroIdSchema,
});
export type BulkMacroInput = z.infer<typeof bulkMacroInputSchema>;
