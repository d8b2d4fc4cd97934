import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";
import { ticketIdSchema, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";

/** A major incident's headline is one public line (decision 077): "VPN unavailable — we are working on it". */
export const incidentHeadlineMaxLength = 120;
/** How many tickets one request links to an incident (as a bulk action, decision 015). */
export const affectedTicketLimit = 100;
/** How many open known issues the create form and GET /api/known-issues show. */
export const knownIssueLimit = 10;

/** PUT /api/tickets/:ticketId/major-incident: declare the ticket a major incident, or change its headline. */
export const declareIncidentInputSchema = z.object({
  headline: storableText(
    z
      .string({ error: "Headline must be text" })
      .trim()
      .min(1, "Headline cannot be empty")
      .max(incidentHeadlineMaxLength, `Headline must be at most ${incidentHeadlineMaxLength} characters`)
      .refine((text) => !/[\r\n]/.test(text), "Headline must be one line"),
    "Headline",
  ),
});
export type DeclareIncidentInput = z.infer<typeof declareIncidentInputSchema>;

/** POST /api/tickets/:ticketId/incident/affected: the tickets the incident affects. */
export const addAffectedInputSchema = z.object({
  ticketIds: z
    .array(ticketIdSchema, { error: "ticketIds must be a list of ticket ids" })
    .min(1, "Choose at least one ticket")
    .max(affectedTicketLimit, `Choose at most ${affectedTicketLimit} tickets at once`)
    .refine((ids) => new Set(ids).size === ids.length, "Each ticket may be listed only once"),
});
export type AddAffectedInput = z.infer<typeof addAffectedInputSchema>;

/** Which tickets were linked, and for each that was not, why (as the bulk actions answer). */
export const addAffectedResultSchema = z.object({
  linked: z.array(z.string()),
  refused: z.array(z.object({ ticketId: z.string(), message: z.string() })),
});
export type AddAffectedResult = z.infer<typeof addAffectedResultSchema>;

/** POST /api/tickets/:ticketId/incident/updates: a public update. */
export const postIncidentUpdateInputSchema = z.object({
  body: storableText(
    z
      .string({ error: "Update must be text" })
      .trim()
      .min(1, "Update cannot be empty")
      .max(commentMaxLength, `Update must be at most ${commentMaxLength} characters`),
    "Update",
  ),
});
export type PostIncidentUpdateInput = z.infer<typeof postIncidentUpdateInputSchema>;

export const incidentUpdateSchema = z.object({
  id: z.string(),
  body: z.string(),
  authorName: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type IncidentUpdate = z.infer<typeof incidentUpdateSchema>;

/** What POST …/incident/updates answers: the update, and on how many affected tickets it was posted. */
export const postedIncidentUpdateSchema = z.object({
  update: incidentUpdateSchema,
  postedOn: z.number().int(),
});
export type PostedIncidentUpdate = z.infer<typeof postedIncidentUpdateSchema>;

/**
 * A major incident's public face (decision 077): its headline, status, declared time and public updates,
 * never its description, comments, requester or internal notes. `following`: the reader follows it.
 */
export const knownIssueSchema = z.object({
  ticketId: z.string(),
  headline: z.string(),
  status: z.enum(ticketStatuses),
  declaredAt: z.iso.datetime(),
  following: z.boolean(),
  updates: z.array(incidentUpdateSchema),
});
export type KnownIssue = z.infer<typeof knownIssueSchema>;

/** GET /api/known-issues: the open major incidents, newest first; updates left out (the list is a summary). */
export const knownIssueSummarySchema = knownIssueSchema.omit({ updates: true });
export type KnownIssueSummary = z.infer<typeof knownIssueSummarySchema>;
export const knownIssuesSchema = z.object({ items: z.array(knownIssueSummarySchema) });
export type KnownIssues = z.infer<typeof knownIssuesSchema>;

/** PUT/DELETE /api/known-issues/:ticketId/follow answer whether the caller follows now. */
export const knownIssueFollowSchema = z.object({ following: z.boolean() });
export type KnownIssueFollow = z.infer<typeof knownIssueFollowSchema>;

/** An affected ticket as the incident's card lists it (staff: those they may see). */
export const affectedTicketSchema = z.object({
  ticketId: z.string(),
  title: z.string(),
  status: z.enum(ticketStatuses),
});

/**
 * GET /api/tickets/:ticketId/major-incident: the ticket's part in a major incident, for whoever may see the
 * ticket. `incident`: it is one (its headline and declared time; `affected` for staff only, else empty).
 * `affectedBy`: the incident affecting it, by its public face's id, headline and status (the requester's
 * banner). Both null for an ordinary ticket.
 */
export const ticketIncidentSchema = z.object({
  incident: z
    .object({
      headline: z.string(),
      declaredAt: z.iso.datetime(),
      affected: z.array(affectedTicketSchema),
    })
    .nullable(),
  affectedBy: z
    .object({ ticketId: z.string(), headline: z.string(), status: z.enum(ticketStatuses) })
    .nullable(),
});
export type TicketIncident = z.infer<typeof ticketIncidentSchema>;
