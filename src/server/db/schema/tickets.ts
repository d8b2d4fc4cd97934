import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  check,
  customType,
  doublePrecision,
  index,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { ticketCategories, ticketPriorities, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import { teams } from "./teams.ts";
import { users } from "./users.ts";

export const ticketCategoryEnum = pgEnum("ticket_category", ticketCategories);
export const ticketPriorityEnum = pgEnum("ticket_priority", ticketPriorities);
export const ticketStatusEnum = pgEnum("ticket_status", ticketStatuses);

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const tickets = pgTable(
  "tickets",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    category: ticketCategoryEnum("category").notNull().default("Hardware"),
    priority: ticketPriorityEnum("priority").notNull().default("Low"),
    status: ticketStatusEnum("status").notNull().default("Open"),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    assignedTo: text("assigned_to").references(() => users.id),
    // Who set it Resolved (the technician's "Resolved" card counts these). Kept when the ticket is
    // later Closed, cleared when it goes back to In Progress.
    resolvedBy: text("resolved_by").references(() => users.id),
    /** The team whose queue it is in (decision 069); null when it is in no team's. */
    teamId: text("team_id").references(() => teams.id, { onDelete: "set null" }),
    // The ticket this one was merged into (decision 074): it is Closed and points its readers there.
    mergedIntoId: text("merged_into_id").references((): AnyPgColumn => tickets.id, { onDelete: "set null" }),
    /** Its reference in the system it came from (decision 079): not unique; the lists filter by it. */
    externalRef: text("external_ref"),
    /**
     * A major incident (decision 077): its public one-line headline while declared (null: not an incident),
     * and when it was declared. The headline, status, declared time and updates are its public face.
     */
    incidentHeadline: text("incident_headline"),
    incidentDeclaredAt: stamp("incident_declared_at"),
    department: text("department").notNull().default("General"),
    floor: text("floor").notNull().default("1"),
    officeNumber: text("office_number").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    // Service levels (docs/decisions/019-service-levels.md): due times from the SLA policy of the
    // ticket's priority, counted in business hours from createdAt; null when the policy sets no target.
    firstResponseDueAt: stamp("first_response_due_at"),
    /** The first public comment by staff or the first assignment, whichever came first. */
    firstRespondedAt: stamp("first_responded_at"),
    resolutionDueAt: stamp("resolution_due_at"),
    /** When the ticket last reached Resolved; cleared when it goes back to In Progress. */
    resolvedAt: stamp("resolved_at"),
    /** The due time of the earlier target still running (Open or In Progress); lists sort and filter on it. */
    slaDueAt: stamp("sla_due_at"),
    /** When 80% of each target's business time has passed: the escalation job warns then. */
    firstResponseWarnAt: stamp("first_response_warn_at"),
    resolutionWarnAt: stamp("resolution_warn_at"),
    /** Set once, by the escalation job's claim, when it sent the warning or the breach notifications. */
    firstResponseWarnedAt: stamp("first_response_warned_at"),
    firstResponseBreachedAt: stamp("first_response_breached_at"),
    resolutionWarnedAt: stamp("resolution_warned_at"),
    resolutionBreachedAt: stamp("resolution_breached_at"),
    /**
     * On hold (decision 070): since when this In Progress ticket waits on its requester (null when it does
     * not), and when to lift the hold by itself (null: no date). While it holds, the resolution target is
     * paused: slaDueAt leaves it out and the escalation job's resolution claims skip the ticket.
     */
    onHoldSince: stamp("on_hold_since"),
    holdUntil: stamp("hold_until"),
    /**
     * The business minutes of every hold that has ended: the resolution due and warn times were moved on by
     * them, and a priority change computes them again from createdAt with these minutes added.
     */
    slaPausedMinutes: doublePrecision("sla_paused_minutes").notNull().default(0),
    /**
     * Its tags (decision 071), in their normal form (trimmed, lowercase; src/shared/tags/tag.schemas.ts),
     * sorted. Staff only: presenters leave them out for requesters. The lists filter with `tags @> {tag}`
     * through the GIN index.
     */
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    /**
     * The last activity anyone can see: every change, and every recorded event except an internal note
     * (recordTicketEvent moves it). Auto-close counts its days from here.
     */
    updatedAt: timestamp("updated_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /**
     * When the ticket left the backlog (reports, decision 027): it reached Resolved, or was Closed without a
     * resolution, when its last activity stands in (no closing time is kept). Null while Open or In Progress.
     */
    doneAt: stamp("done_at").generatedAlwaysAs(
      sql`coalesce(resolved_at, case when status in ('Resolved', 'Closed') then updated_at end)`,
    ),
    /**
     * Reports (decision 027): which of the duration buckets (report-rollups.ts) the first response and the
     * resolution fall in (under 1.1 s: bucket 0), null while there is none (greatest() skips nulls: hence the case). The daily rollup counts per bucket; a percentile then
     * reads the exact durations of one bucket only.
     */
    firstResponseBucket: smallint("first_response_bucket").generatedAlwaysAs(
      sql`case when first_responded_at is not null then floor(ln(greatest(extract(epoch from first_responded_at - created_at), 1)) / ln(1.1))::smallint end`,
    ),
    resolutionBucket: smallint("resolution_bucket").generatedAlwaysAs(
      sql`case when resolved_at is not null then floor(ln(greatest(extract(epoch from resolved_at - created_at), 1)) / ln(1.1))::smallint end`,
    ),
    // Search over the TKT id, title and description; 'simple' so that ids and jargon are not stemmed away.
    search: tsvector("search").generatedAlwaysAs(
      sql`to_tsvector('simple'::regconfig, "id" || ' ' || "title" || ' ' || "description")`,
    ),
  },
  (t) => [
    // One index per role list in the lists' keyset order. Ascending on purpose: scanned backwards it serves
    // `order by created_at desc, id desc` (nulls first); a `desc nulls last` index cannot.
    index("tickets_created_idx").on(t.createdAt, t.id),
    index("tickets_created_by_idx").on(t.createdBy, t.createdAt, t.id),
    index("tickets_assigned_to_idx").on(t.assignedTo, t.createdAt, t.id),
    index("tickets_unassigned_idx").on(t.createdAt, t.id).where(sql`${t.assignedTo} is null`),
    // Priority and category after the keyset: a status list filtered by them too (Resolved + High) finds its
    // page and its count in the index alone instead of reading each ticket of the status (decision 067).
    index("tickets_status_idx").on(t.status, t.createdAt, t.id, t.priority, t.category),
    index("tickets_search_idx").using("gin", t.search),
    // The lists' other orders (decision 034), each for every visibility branch: by last activity, by
    // priority and by status (tickets_status_idx above serves the admin's), then created_at and id.
    index("tickets_updated_idx").on(t.updatedAt, t.id),
    index("tickets_created_by_updated_idx").on(t.createdBy, t.updatedAt, t.id),
    index("tickets_assigned_to_updated_idx").on(t.assignedTo, t.updatedAt, t.id),
    index("tickets_unassigned_updated_idx").on(t.updatedAt, t.id).where(sql`${t.assignedTo} is null`),
    index("tickets_priority_idx").on(t.priority, t.createdAt, t.id),
    // Decision 079: the few tickets of one external reference, found before each branch's order is read.
    index("tickets_external_ref_idx").on(t.externalRef).where(sql`${t.externalRef} is not null`),
    index("tickets_created_by_priority_idx").on(t.createdBy, t.priority, t.createdAt, t.id),
    index("tickets_assigned_to_priority_idx").on(t.assignedTo, t.priority, t.createdAt, t.id),
    index("tickets_unassigned_priority_idx")
      .on(t.priority, t.createdAt, t.id)
      .where(sql`${t.assignedTo} is null`),
    index("tickets_created_by_status_idx").on(t.createdBy, t.status, t.createdAt, t.id),
    index("tickets_assigned_to_status_idx").on(t.assignedTo, t.status, t.createdAt, t.id),
    index("tickets_unassigned_status_idx")
      .on(t.status, t.createdAt, t.id)
      .where(sql`${t.assignedTo} is null`),
    // A team's queue (decision 069): its tickets, and its unassigned ones, newest first.
    index("tickets_team_idx").on(t.teamId, t.createdAt, t.id).where(sql`${t.teamId} is not null`),
    index("tickets_team_unassigned_idx")
      .on(t.teamId, t.createdAt, t.id)
      .where(sql`${t.teamId} is not null and ${t.assignedTo} is null`),
    // A list filtered by a tag (decision 071); and the tagged tickets alone, for the tag suggestions' counts.
    index("tickets_tags_idx").using("gin", t.tags),
    // The open major incidents (decision 077): the known issues every signed-in person is shown.
    index("tickets_incidents_idx").on(t.incidentDeclaredAt).where(sql`${t.incidentHeadline} is not null`),
    index("tickets_tagged_idx").on(t.id).where(sql`${t.tags} <> '{}'::text[]`),
    // Lists sorted or filtered by due time read only tickets with a running target.
    index("tickets_sla_due_idx").on(t.slaDueAt, t.id).where(sql`${t.slaDueAt} is not null`),
    index("tickets_resolved_by_idx").on(t.resolvedBy).where(sql`${t.resolvedBy} is not null`),
    // The escalation job's four claims (features/service-levels/sla-escalation.queries.ts repeats these
    // predicates): each reads only tickets with a target still running and not yet announced.
    index("tickets_first_response_warn_idx")
      .on(t.firstResponseWarnAt)
      .where(
        sql`first_response_warned_at is null and first_responded_at is null and status in ('Open', 'In Progress')`,
      ),
    index("tickets_first_response_breach_idx")
      .on(t.firstResponseDueAt)
      .where(
        sql`first_response_breached_at is null and first_responded_at is null and status in ('Open', 'In Progress')`,
      ),
    // A ticket on hold is not warned nor breached for resolution while it waits (decision 070).
    index("tickets_resolution_warn_idx")
      .on(t.resolutionWarnAt)
      .where(
        sql`resolution_warned_at is null and status in ('Open', 'In Progress') and on_hold_since is null`,
      ),
    index("tickets_resolution_breach_idx")
      .on(t.resolutionDueAt)
      .where(
        sql`resolution_breached_at is null and status in ('Open', 'In Progress') and on_hold_since is null`,
      ),
    // Reports (decision 027): a range of days read from the index alone (index-only scans: no heap visit per
    // ticket), for the tickets opened in it (breakdown, first response) and those done in it (resolution).
    index("tickets_report_created_idx").on(
      t.createdAt,
      t.category,
      t.priority,
      t.department,
      t.firstRespondedAt,
    ),
    index("tickets_report_done_idx").on(t.doneAt, t.createdAt, t.resolvedAt),
    // A percentile's one bucket over the range, durations read from the index alone.
    index("tickets_report_first_response_idx")
      .on(t.firstResponseBucket, t.createdAt, t.firstRespondedAt)
      .where(sql`first_response_bucket is not null`),
    index("tickets_report_resolution_idx")
      .on(t.resolutionBucket, t.doneAt, t.createdAt, t.resolvedAt)
      .where(sql`resolution_bucket is not null`),
    // Auto-close reads the Resolved tickets idle the longest (updated_at is the last activity: decision 021).
    index("tickets_resolved_activity_idx").on(t.updatedAt, t.id).where(sql`${t.status} = 'Resolved'`),
    // Decision 070: the few tickets on hold, longest held first: the list's onHold=true filter (an admin's
    // list would otherwise read every ticket to find them) and the auto-resolve job's oldest holds.
    index("tickets_on_hold_idx").on(t.onHoldSince, t.id).where(sql`${t.onHoldSince} is not null`),
    // The lift-date job reads the holds whose date has come.
    index("tickets_hold_until_idx").on(t.holdUntil).where(sql`${t.holdUntil} is not null`),
    // A hold is a state within In Progress, and a lift date belongs to a hold: a status change that forgot
    // to end the hold fails here instead of leaving a Resolved ticket "on hold".
    check("tickets_on_hold_in_progress_check", sql`${t.onHoldSince} is null or ${t.status} = 'In Progress'`),
    check("tickets_hold_until_check", sql`${t.holdUntil} is null or ${t.onHoldSince} is not null`),
    // Decision 077: a headline and its declared time come and go together; a headline is one short line.
    check(
      "tickets_incident_check",
      sql`(${t.incidentHeadline} is null) = (${t.incidentDeclaredAt} is null) and coalesce(char_length(${t.incidentHeadline}), 0) <= 120`,
    ),
  ],
);

export type TicketRow = typeof tickets.$inferSelect;
