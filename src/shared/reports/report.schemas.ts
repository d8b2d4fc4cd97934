import { z } from "zod";
import { ticketCategories, ticketPriorities } from "#shared/tickets/ticket.schemas.ts";

/** Decision 027: the reports' buckets; a week starts on Monday (ISO 8601), as the business calendar does. */
export const reportGroupings = ["day", "week"] as const;
export type ReportGrouping = (typeof reportGroupings)[number];

/** A year and a leap day: enough for "this year so far", small enough that a day chart stays readable. */
export const reportRangeDaysMax = 366;
/** The latest feedback comments the satisfaction report shows. */
export const reportRecentCommentsMax = 10;

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dayMs = 86_400_000;

/** Whole days from one calendar date to another (both "YYYY-MM-DD"), counting both ends. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs) + 1;
}

/** "YYYY-MM-DD" of a real calendar day (2026-02-30 is refused). */
const isCalendarDate = (value: string) => {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
};

const reportDate = (label: string) =>
  z
    .string({ error: `${label} is required (a date like 2026-01-31)` })
    .regex(datePattern, `${label} must be a date like 2026-01-31`)
    .refine(isCalendarDate, `${label} is not a calendar date`);

/**
 * The range every report reads: calendar dates in the business calendar's time zone, both ends included.
 */
export const reportQuerySchema = z
  .object({
    from: reportDate("From"),
    to: reportDate("To"),
    group: z.enum(reportGroupings, { error: "Group must be day or week" }).default("day"),
  })
  .refine((q) => !isCalendarDate(q.from) || !isCalendarDate(q.to) || q.from <= q.to, {
    message: "From must be on or before To",
    path: ["from"],
  })
  .refine(
    (q) =>
      !isCalendarDate(q.from) || !isCalendarDate(q.to) || daysInRange(q.from, q.to) <= reportRangeDaysMax,
    { message: `A report covers at most ${reportRangeDaysMax} days`, path: ["to"] },
  );
export type ReportQuery = z.infer<typeof reportQuerySchema>;
export type ReportQueryInput = z.input<typeof reportQuerySchema>;

const count = z.number().int().nonnegative();

/** The range as the server read it, with the time zone its days were counted in. */
export const reportRangeSchema = z.object({
  from: z.string(),
  to: z.string(),
  group: z.enum(reportGroupings),
  timeZone: z.string(),
});
export type ReportRange = z.infer<typeof reportRangeSchema>;

export const ticketVolumeBucketSchema = z.object({
  /** The bucket's first day ("YYYY-MM-DD"; a week's Monday, which may fall before the range's start). */
  start: z.string(),
  opened: count,
  /** Reached Resolved (or Closed without a resolution) in the bucket. */
  resolved: count,
  /** Open or In Progress at the end of the bucket (or now, for a bucket that has not ended). */
  backlog: count,
});
export const ticketVolumeReportSchema = z.object({
  range: reportRangeSchema,
  buckets: z.array(ticketVolumeBucketSchema),
});
export type TicketVolumeReport = z.infer<typeof ticketVolumeReportSchema>;

const countByKey = z.array(z.object({ key: z.string(), count }));
export const ticketBreakdownReportSchema = z.object({
  range: reportRangeSchema,
  /** Tickets opened in the range; every category and priority listed, departments as found. */
  byCategory: countByKey,
  byPriority: countByKey,
  byDepartment: countByKey,
});
export type TicketBreakdownReport = z.infer<typeof ticketBreakdownReportSchema>;
export const breakdownKeys = { category: ticketCategories, priority: ticketPriorities } as const;

const durationSummary = z.object({
  count,
  /** Wall-clock seconds (not business hours); null when no ticket counts. */
  medianSeconds: z.number().nonnegative().nullable(),
  p90Seconds: z.number().nonnegative().nullable(),
});
export type DurationSummary = z.infer<typeof durationSummary>;
export const responseTimesReportSchema = z.object({
  range: reportRangeSchema,
  /** Tickets opened in the range that have had a first response: from opening to that response. */
  firstResponse: durationSummary,
  /** Tickets resolved in the range: from opening to Resolved. */
  resolution: durationSummary,
});
export type ResponseTimesReport = z.infer<typeof responseTimesReportSchema>;

export const satisfactionReportSchema = z.object({
  range: reportRangeSchema,
  count,
  average: z.number().nullable(),
  /** Ratings 1 to 5, each listed. */
  distribution: z.array(z.object({ rating: z.number().int().min(1).max(5), count })),
  /** The latest comments (rating, words, date): no ticket, no person. */
  recentComments: z.array(
    z.object({ rating: z.number().int(), comment: z.string(), submittedAt: z.string() }),
  ),
  /** Administrators only (can.seeTechnicianSatisfaction); null for technicians. */
  perTechnician: z
    .array(z.object({ technicianId: z.string(), name: z.string(), count, average: z.number() }))
    .nullable(),
});
export type SatisfactionReport = z.infer<typeof satisfactionReportSchema>;

export const workloadReportSchema = z.object({
  /** Now, whatever the range: each technician (and any admin holding tickets) with their open work. */
  rows: z.array(z.object({ technicianId: z.string(), name: z.string(), open: count, inProgress: count })),
  unassigned: count,
});
export type WorkloadReport = z.infer<typeof workloadReportSchema>;

export const onlyStaffSeeReports = "Only technicians and administrators can see reports.";

/**
 * By team (decision 073): each team, by name, then the tickets in no team (`teamId` null). Opened and done
 * in the range (done as the volume report's "resolved"), the resolution times of those resolved in it (as
 * the response-times report's), and Open or In Progress now, whatever the range.
 */
export const teamReportSchema = z.object({
  range: reportRangeSchema,
  rows: z.array(
    z.object({
      teamId: z.string().nullable(),
      /** null for the tickets in no team. */
      name: z.string().nullable(),
      opened: count,
      resolved: count,
      open: count,
      resolution: durationSummary,
    }),
  ),
});
export type TeamReport = z.infer<typeof teamReportSchema>;
