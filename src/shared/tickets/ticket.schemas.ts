import { z } from "zod";
import { attachmentIdsSchema } from "#shared/attachments/attachment.schemas.ts";
import { ticketSlaSchema } from "#shared/service-levels/ticket-sla.ts";
import { tagSchema } from "#shared/tags/tag.schemas.ts";
import { teamIdSchema } from "#shared/teams/team-queues.schemas.ts";
import { storableText } from "#shared/text/storable-text.ts";

export const ticketCategories = ["Hardware", "Software", "Network", "Other"] as const;
export type TicketCategory = (typeof ticketCategories)[number];

import { sortDirections, ticketSorts } from "./ticket-order.ts";
import { ticketPriorities } from "./ticket-priority.ts";
import { ticketStatuses } from "./ticket-statuses.ts";

export { type TicketPriority, ticketPriorities } from "./ticket-priority.ts";

export { type TicketStatus, ticketStatuses } from "./ticket-statuses.ts";

/** TKT + uppercase base-36 timestamp + random uppercase base-36 suffix. */
export const ticketIdPattern = /^TKT[0-9A-Z]{6,12}[0-9A-Z]{8}$/;
export const ticketIdSchema = z.string().regex(ticketIdPattern, "Not a ticket id");

export const ticketPageSize = 25;

const requiredText = (label: string, max: number) =>
  storableText(
    z
      .string({
        error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
      })
      .trim()
      .min(1, `${label} is required`)
      .max(max, `${label} must be at most ${max} characters`),
    label,
  );

/**
 * A ticket's reference in the system it came from (decision 079): any text up to 200 characters, not unique
 * (one outage in a monitoring tool may raise several tickets); the list filters by it.
 */
export const externalRefSchema = storableText(
  z
    .string({ error: "externalRef must be text" })
    .trim()
    .min(1, "externalRef must not be empty")
    .max(200, "externalRef must be at most 200 characters"),
  "externalRef",
);

/** The Create New Ticket form: every field required. */
export const createTicketInputSchema = z.object({
  title: requiredText("Title", 200),
  description: requiredText("Description", 5000),
  category: z.enum(ticketCategories, { error: "Category must be Hardware, Software, Network or Other" }),
  priority: z.enum(ticketPriorities, { error: "Priority must be Low, Medium or High" }),
  department: requiredText("Department", 100),
  floor: requiredText("Floor", 20),
  officeNumber: requiredText("Office number", 20),
  /** Files uploaded beforehand with POST /api/attachments (decision 012). */
  attachmentIds: attachmentIdsSchema.optional(),
  /** Decision 022: custom field id → value, checked against the definitions (custom-field-values.ts). */
  customFields: z
    .record(z.string().max(40), z.unknown(), { error: "customFields must be an object of field id → value" })
    .optional(),
  /**
   * Decision 079 (staff): the ticket is raised for this person, who becomes its requester. They must have an
   * active account, or, when Admin settings › Ticket intake allows it, are invited as a new user.
   */
  requesterEmail: z
    .email("requesterEmail must be an e-mail address")
    .max(254, "requesterEmail must be at most 254 characters")
    .optional(),
  externalRef: externalRefSchema.optional(),
});
export type CreateTicketInput = z.infer<typeof createTicketInputSchema>;

/** What the form starts with: its defaults (Hardware, Low) and the non-form defaults (General, floor 1). */
export const createTicketDefaults: CreateTicketInput = {
  title: "",
  description: "",
  category: "Hardware",
  priority: "Low",
  department: "General",
  floor: "1",
  officeNumber: "",
};

export const ticketSchema = z.object({
  ticketId: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.enum(ticketCategories),
  priority: z.enum(ticketPriorities),
  status: z.enum(ticketStatuses),
  createdBy: z.string(),
  createdByName: z.string().nullable(),
  assignedTo: z.string().nullable(),
  assignedToName: z.string().nullable(),
  department: z.string(),
  floor: z.string(),
  officeNumber: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** When this Resolved ticket closes by itself unless someone acts on it (decision 021); else null. */
  autoCloseAt: z.iso.datetime().nullable(),
  /** Service levels at the server's clock; null for those who do not see them (decision 019). */
  sla: ticketSlaSchema.nullable(),
  /** Decision 070: since when this In Progress ticket waits on its requester; null when it does not. */
  onHoldSince: z.iso.datetime().nullable(),
  /** When the hold lifts by itself; null when it has no date (or the ticket is not on hold). */
  holdUntil: z.iso.datetime().nullable(),
  /** The team whose queue it is in (decision 069); null when in none, and for those who do not see teams. */
  teamId: z.string().nullable(),
  teamName: z.string().nullable(),
  /** Its tags, sorted (decision 071); null for those who do not see tags (requesters). */
  tags: z.array(z.string()).nullable(),
  /**
   * The ticket this one was merged into (decision 074; it is then Closed), for everyone who may see this
   * one: the one pointer to another ticket a requester is given. Null when it was not merged.
   */
  mergedIntoId: z.string().nullable(),
  /** Its reference in the system it came from (decision 079); null when it was raised here. */
  externalRef: z.string().nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/**
 * Which slice of the tickets the caller may see: `mine` and `unassigned` are the technician tabs;
 * `created` is what the caller raised (the /user-home dashboard, whoever opens it). `team_unassigned` and
 * `team` are the team tabs (decision 073, staff): the unassigned tickets of the caller's teams, and every
 * ticket of their teams that they may see — never more than `visible`.
 */
export const ticketScopes = ["visible", "mine", "unassigned", "created", "team_unassigned", "team"] as const;
export type TicketScope = (typeof ticketScopes)[number];
/** The team tabs (decision 073): staff only, narrowed to the caller's teams. */
export const isTeamScope = (scope: TicketScope) => scope === "team" || scope === "team_unassigned";

/** Service-level filters of the lists (staff only): a target past its due time, or due within the window. */
export const ticketDueFilters = ["overdue", "due_soon"] as const;
export type TicketDueFilter = (typeof ticketDueFilters)[number];
export {
  defaultSortDirection,
  type SortDirection,
  searchCountCap,
  sortDirections,
  type TicketSort,
  ticketCountCap,
  ticketSorts,
} from "./ticket-order.ts";

const updatedSinceMessage =
  "updatedSince must be an ISO 8601 time with its zone, such as 2026-11-30T12:00:00.000Z";

export const listTicketsQuerySchema = z.object({
  scope: z.enum(ticketScopes).default("visible"),
  status: z.enum(ticketStatuses).optional(),
  priority: z.enum(ticketPriorities).optional(),
  category: z.enum(ticketCategories).optional(),
  /** Words of the title or description, or a TKT id. */
  q: storableText(z.string().trim().max(200, "Search must be at most 200 characters"), "Search").optional(),
  /** Decision 022: custom field filters, each `<fieldId>:<value>` (repeat the parameter for several). */
  cf: z
    .union([z.string().max(260), z.array(z.string().max(260)).max(5, "cf: at most 5 custom field filters")])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .optional(),
  due: z.enum(ticketDueFilters, { error: "Due filter must be overdue or due_soon" }).optional(),
  /** Decision 070: only tickets on hold (true) or only those not on hold (false). */
  onHold: z
    .enum(["true", "false"], { error: "onHold must be true or false" })
    .transform((value) => value === "true")
    .optional(),
  /** Decision 073 (staff): one team's tickets, within what the caller may see. */
  team: teamIdSchema.optional(),
  /** Decision 071 (staff): only the tickets with this tag. */
  tag: tagSchema.optional(),
  /** Decision 079: the tickets raised with this external reference. */
  externalRef: externalRefSchema.optional(),
  /**
   * Decision 079: a sync. The tickets whose last change is at or after this time, by last change, oldest
   * first (sort and dir left out); the last page says where the next sync starts (nextUpdatedSince).
   */
  updatedSince: z.iso
    .datetime({ offset: true, error: updatedSinceMessage })
    // Year 0 passes the format but not PostgreSQL (what fails the format is refused by it alone).
    .refine((value) => Number.isNaN(Date.parse(value)) || new Date(value).getUTCFullYear() >= 1, {
      error: updatedSinceMessage,
    })
    .optional(),
  sort: z
    .enum(ticketSorts, { error: "Sort must be newest, created, updated, priority, status or due" })
    .default("newest"),
  /** Without it, the sort's own direction (defaultSortDirection); the due-time order is ascending only. */
  dir: z.enum(sortDirections, { error: "Direction must be asc or desc" }).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(ticketPageSize),
});
export type ListTicketsQuery = z.infer<typeof listTicketsQuerySchema>;

export const ticketPageSchema = z.object({
  items: z.array(ticketSchema),
  nextCursor: z.string().nullable(),
  /**
   * How many tickets match, on the first page only (null when a cursor is given): exact up to
   * ticketCountCap (searchCountCap with a search), past it `capped` with count = the cap ("10,000+").
   */
  total: z.object({ count: z.number().int(), capped: z.boolean() }).nullable(),
  /**
   * A sync (updatedSince, decision 079) only: on its last page, the updatedSince to send next time; null on
   * the pages before it. It reaches back a little (syncOverlapMs) so that a change that committed late is
   * read again rather than missed.
   */
  nextUpdatedSince: z.iso.datetime().nullable().optional(),
});
export type TicketPage = z.infer<typeof ticketPageSchema>;

/** The dashboards count everything the caller may see, or (/user-home) what they raised. */
export const summaryScopes = ["visible", "created"] as const;
export type SummaryScope = (typeof summaryScopes)[number];
export const ticketSummaryQuerySchema = z.object({ scope: z.enum(summaryScopes).default("visible") });
export type TicketSummaryQuery = z.infer<typeof ticketSummaryQuerySchema>;

/**
 * Dashboard counts over the tickets in the scope (one aggregate query, never loaded rows);
 * resolvedByMe counts every ticket the caller set Resolved, including those Closed since.
 */
export const ticketSummarySchema = z.object({
  total: z.number().int(),
  open: z.number().int(),
  inProgress: z.number().int(),
  resolved: z.number().int(),
  closed: z.number().int(),
  assignedToMe: z.number().int(),
  unassigned: z.number().int(),
  resolvedByMe: z.number().int(),
  /** Running service-level targets past due, and due within the policy's window; null for non-staff. */
  overdue: z.number().int().nullable(),
  dueSoon: z.number().int().nullable(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

/** GET /api/tickets/export.csv: the list's query without paging; every matching ticket comes back. */
export const exportTicketsQuerySchema = listTicketsQuerySchema.omit({ cursor: true, limit: true });
export type ExportTicketsQuery = z.infer<typeof exportTicketsQuerySchema>;
