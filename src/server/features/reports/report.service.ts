import type { ServiceContext } from "#server/context.ts";
import { forbidden } from "#server/errors.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import { can } from "#shared/permissions.ts";
import {
  breakdownKeys,
  onlyStaffSeeReports,
  type ReportQuery,
  type ReportRange,
  type ResponseTimesReport,
  reportRecentCommentsMax,
  type SatisfactionReport,
  type TeamReport,
  type TicketBreakdownReport,
  type TicketVolumeReport,
  type WorkloadReport,
} from "#shared/reports/report.schemas.ts";
import {
  countBacklogAtEnd,
  countTicketBreakdown,
  countTicketVolume,
  countWorkload,
  type DurationRow,
  findRecentFeedbackComments,
  type ReportWindow,
  readWithoutJit,
  summariseResponseTimes,
  summariseSatisfaction,
  summariseSatisfactionPerTechnician,
} from "./report.queries.ts";
import {
  countTicketBreakdownFromRollup,
  countTicketVolumeFromRollup,
  rollupsCountIn,
  summariseResponseTimesFromRollup,
  summariseSatisfactionFromRollup,
  summariseSatisfactionPerTechnicianFromRollup,
} from "./report-rollup.queries.ts";
import { countByTeam } from "./team-report.queries.ts";

export function requireReportsViewer(ctx: ServiceContext) {
  if (!can.seeReports(ctx.actor)) throw forbidden(onlyStaffSeeReports);
}

/** Staff only; the days are counted in the business calendar's time zone (Admin settings). */
async function windowFor(ctx: ServiceContext, query: ReportQuery): Promise<ReportWindow & ReportRange> {
  requireReportsViewer(ctx);
  const { timeZone } = await readSetting(ctx.db, "business-calendar");
  return { from: query.from, to: query.to, group: query.group, timeZone };
}

const rangeOf = ({ from, to, group, timeZone }: ReportRange): ReportRange => ({ from, to, group, timeZone });

const dayMs = 86_400_000;
const dateAt = (time: number) => new Date(time).toISOString().slice(0, 10);

/** Every bucket's first day from the one holding `from` to the one holding `to` (weeks start on Monday). */
export function bucketStarts(from: string, to: string, group: ReportQuery["group"]): string[] {
  let time = Date.parse(`${from}T00:00:00Z`);
  if (group === "week") time -= ((new Date(time).getUTCDay() + 6) % 7) * dayMs;
  const end = Date.parse(`${to}T00:00:00Z`);
  const step = group === "week" ? 7 * dayMs : dayMs;
  const starts: string[] = [];
  for (; time <= end; time += step) starts.push(dateAt(time));
  return starts;
}

export async function reportTicketVolume(
  ctx: ServiceContext,
  query: ReportQuery,
): Promise<TicketVolumeReport> {
  const w = await windowFor(ctx, query);
  const [rows, backlogAtEnd] = await readWithoutJit(
    ctx.db,
    async (tx) =>
      [
        (await rollupsCountIn(tx, w.timeZone))
          ? await countTicketVolumeFromRollup(tx, w)
          : await countTicketVolume(tx, w),
        await countBacklogAtEnd(tx, w),
      ] as const,
  );
  const counts = new Map(rows.map((row) => [`${row.kind} ${row.start}`, row.count]));
  const countOf = (kind: "opened" | "resolved", start: string) => counts.get(`${kind} ${start}`) ?? 0;
  const counted = bucketStarts(w.from, w.to, w.group).map((start) => ({
    start,
    opened: countOf("opened", start),
    resolved: countOf("resolved", start),
  }));
  // Backwards from the end: the bucket before ended with this one's backlog less what this one opened,
  // plus what it resolved.
  let backlog = backlogAtEnd;
  const buckets = counted
    .reverse()
    .map((bucket) => {
      const atEnd = Math.max(0, backlog);
      backlog += bucket.resolved - bucket.opened;
      return { ...bucket, backlog: atEnd };
    })
    .reverse();
  return { range: rangeOf(w), buckets };
}

export async function reportTicketBreakdown(
  ctx: ServiceContext,
  query: ReportQuery,
): Promise<TicketBreakdownReport> {
  const w = await windowFor(ctx, query);
  const rows = await readWithoutJit(ctx.db, async (tx) =>
    (await rollupsCountIn(tx, w.timeZone))
      ? countTicketBreakdownFromRollup(tx, w)
      : countTicketBreakdown(tx, w),
  );
  const counted = (dimension: "category" | "priority", keys: readonly string[]) =>
    keys.map((key) => ({
      key,
      count: rows.find((row) => row.dimension === dimension && row.key === key)?.count ?? 0,
    }));
  return {
    range: rangeOf(w),
    byCategory: counted("category", breakdownKeys.category),
    byPriority: counted("priority", breakdownKeys.priority),
    byDepartment: rows
      .filter((row) => row.dimension === "department")
      .map(({ key, count }) => ({ key, count })),
  };
}

const toSummary = (row: DurationRow) => ({
  count: row.count,
  medianSeconds: row.median === null ? null : Math.round(row.median),
  p90Seconds: row.p90 === null ? null : Math.round(row.p90),
});

export async function reportResponseTimes(
  ctx: ServiceContext,
  query: ReportQuery,
): Promise<ResponseTimesReport> {
  const w = await windowFor(ctx, query);
  const { firstResponse, resolution } = await readWithoutJit(ctx.db, async (tx) =>
    (await rollupsCountIn(tx, w.timeZone))
      ? summariseResponseTimesFromRollup(tx, w)
      : summariseResponseTimes(tx, w),
  );
  return { range: rangeOf(w), firstResponse: toSummary(firstResponse), resolution: toSummary(resolution) };
}

const roundTo2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Satisfaction overall for staff; per technician only for administrators, who answer for their team
 * (a technician never sees how colleagues were rated).
 */
export async function reportSatisfaction(
  ctx: ServiceContext,
  query: ReportQuery,
): Promise<SatisfactionReport> {
  const w = await windowFor(ctx, query);
  const perPerson = can.seeTechnicianSatisfaction(ctx.actor);
  const [ratings, comments, perTechnician] = await readWithoutJit(ctx.db, async (tx) => {
    const rolledUp = await rollupsCountIn(tx, w.timeZone);
    return [
      rolledUp ? await summariseSatisfactionFromRollup(tx, w) : await summariseSatisfaction(tx, w),
      await findRecentFeedbackComments(tx, w, reportRecentCommentsMax),
      perPerson
        ? rolledUp
          ? await summariseSatisfactionPerTechnicianFromRollup(tx, w)
          : await summariseSatisfactionPerTechnician(tx, w)
        : null,
    ] as const;
  });
  const distribution = [1, 2, 3, 4, 5].map((rating) => ({
    rating,
    count: ratings.find((row) => row.rating === rating)?.count ?? 0,
  }));
  const count = distribution.reduce((sum, row) => sum + row.count, 0);
  const total = distribution.reduce((sum, row) => sum + row.rating * row.count, 0);
  return {
    range: rangeOf(w),
    count,
    average: count === 0 ? null : roundTo2(total / count),
    distribution,
    recentComments: comments.map((row) => ({
      rating: row.rating,
      comment: row.comment,
      submittedAt: new Date(row.submittedAt).toISOString(),
    })),
    perTechnician: perTechnician?.map((row) => ({ ...row, average: roundTo2(row.average) })) ?? null,
  };
}

/** Decision 073: the tickets of each team, and of none, in the range (and open now). */
export async function reportByTeam(ctx: ServiceContext, query: ReportQuery): Promise<TeamReport> {
  const w = await windowFor(ctx, query);
  const rows = await readWithoutJit(ctx.db, (tx) => countByTeam(tx, w));
  return {
    range: rangeOf(w),
    rows: rows.map((row) => {
      const [median, p90] = row.p ?? [];
      return {
        teamId: row.teamId,
        name: row.name,
        opened: Math.max(0, Number(row.opened)),
        resolved: Number(row.resolved),
        open: Math.max(0, Number(row.open)),
        resolution: toSummary({
          count: Number(row.resolutionCount),
          median: median === undefined || median === null ? null : Number(median),
          p90: p90 === undefined || p90 === null ? null : Number(p90),
        }),
      };
    }),
  };
}

export async function reportWorkload(ctx: ServiceContext): Promise<WorkloadReport> {
  requireReportsViewer(ctx);
  const rows = await readWithoutJit(ctx.db, countWorkload);
  const unassigned = rows.find((row) => row.technicianId === null);
  return {
    rows: rows.flatMap((row) =>
      row.technicianId === null
        ? []
        : [
            {
              technicianId: row.technicianId,
              name: row.name ?? "",
              open: row.open,
              inProgress: row.inProgress,
            },
          ],
    ),
    unassigned: (unassigned?.open ?? 0) + (unassigned?.inProgress ?? 0),
  };
}
