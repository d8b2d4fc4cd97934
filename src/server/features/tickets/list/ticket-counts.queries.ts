import { and, inArray, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { ticketCounts, tickets } from "#server/db/schema/index.ts";
import { bound, runShaped } from "#server/db/statement-shapes.ts";
import { type DueWindow, dueFilterWhere } from "#server/features/ticket-records/ticket-visibility.ts";
import type { Actor } from "#shared/permissions.ts";
import type {
  SummaryScope,
  TicketScope,
  TicketStatus,
  TicketSummary,
} from "#shared/tickets/ticket.schemas.ts";
/**
 * How many tickets the list matches, counting no further than `cap` + 1 in each branch (the branches are
 * disjoint, so their counts add up): at most cap + 1 index entries a branch, whatever the table's size.
 */
export async function countTicketsUpTo(
  db: Db,
  { branches, filters, cap }: { branches: SQL[]; filters?: SQL; cap: number },
): Promise<{ count: number; capped: boolean }> {
  if (branches.length === 0) return { count: 0, capped: false };
  const counts = branches.map(
    (branch) =>
      sql`(select count(*)::int as n from (select 1 from ${tickets} where ${and(branch, filters)} limit ${cap + 1}) matched)`,
  );
  const result = await db.execute<{ total: number }>(
    sql`select coalesce(sum(n), 0)::int as total from (${sql.join(counts, sql` union all `)}) counts`,
  );
  const total = Number((result as unknown as { rows: Array<{ total: number }> }).rows[0]?.total ?? 0);
  return total > cap ? { count: cap, capped: true } : { count: total, capped: false };
}

/**
 * The dashboard counts straight from the tickets: one aggregate over every ticket in `where`. The
 * dashboard reads the trigger-kept counters instead (countTicketsFromCounters); this stays as the
 * definition they are checked against (ticket-counts.test.ts).
 */
export async function countTickets(db: Db, where: SQL, actorId: string, due: DueWindow | null) {
  const counted = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const countedDue = (filter: "overdue" | "due_soon") =>
    due ? counted(dueFilterWhere(filter, due)) : sql<null>`null`;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      open: counted(sql`${tickets.status} = 'Open'`),
      inProgress: counted(sql`${tickets.status} = 'In Progress'`),
      resolved: counted(sql`${tickets.status} = 'Resolved'`),
      closed: counted(sql`${tickets.status} = 'Closed'`),
      assignedToMe: counted(sql`${tickets.assignedTo} = ${actorId}`),
      unassigned: counted(sql`${tickets.assignedTo} is null`),
      // Every ticket the actor resolved, wherever it is now, through the partial tickets_resolved_by_idx.
      resolvedByMe: sql<number>`(select count(*)::int from ${tickets} where ${tickets.resolvedBy} = ${actorId})`,
      overdue: countedDue("overdue"),
      dueSoon: countedDue("due_soon"),
    })
    .from(tickets)
    .where(where);
  return row!;
}

type CountsByStatus = Record<TicketStatus, number>;
const noTickets = (): CountsByStatus => ({ Open: 0, "In Progress": 0, Resolved: 0, Closed: 0 });
const sumOf = (counts: CountsByStatus) => Object.values(counts).reduce((a, b) => a + b, 0);

/**
 * The dashboard counts from the counters the triggers keep (migration 0029, decision 039): a few dozen
 * rows by primary key, whatever the table's size. Visibility is put together from disjoint sets exactly as
 * visibilityBranches draws it: a technician sees assigned-to-me + unassigned + created-by-me-assigned-
 * elsewhere (c − ca − cu), a user created-by-me + assigned-to-me-created-elsewhere (c + a − ca).
 */
const counterKeysOf = (me: string) =>
  ({
    all: "all",
    unassigned: "unassigned",
    a: `a:${me}`,
    c: `c:${me}`,
    ca: `ca:${me}`,
    cu: `cu:${me}`,
    r: `r:${me}`,
  }) as const;
type Counters = Record<keyof ReturnType<typeof counterKeysOf>, CountsByStatus>;

/** Who counts, on which database, and what was read for them lately (decision 066). */
type CountingContext = Pick<ServiceContext, "db" | "actor" | "ticketReads">;

/**
 * Every counter the actor's counts are made of, by status: remembered until a ticket changes
 * (ctx.ticketReads, a few seconds at most), otherwise read.
 */
function countersOf({ db, actor, ticketReads }: CountingContext): Promise<Counters> {
  return ticketReads
    ? ticketReads.read(`counters|${actor.id}`, () => readCounters(db, actor))
    : readCounters(db, actor);
}

/** The counters in one query by primary key, through a statement built once (decision 066). */
async function readCounters(db: Db, actor: Actor): Promise<Counters> {
  const keys = counterKeysOf(actor.id);
  const names = Object.keys(keys);
  const rows = await runShaped(
    db,
    "ticket-counters",
    () =>
      db
        .select({
          scope: ticketCounts.scope,
          status: ticketCounts.status,
          n: sql<number>`sum(${ticketCounts.n})::int`,
        })
        .from(ticketCounts)
        .where(
          inArray(
            ticketCounts.scope,
            names.map((name) => bound(name)),
          ),
        )
        .groupBy(ticketCounts.scope, ticketCounts.status),
    keys,
  );
  const of = Object.fromEntries(names.map((key) => [key, noTickets()])) as Counters;
  const keyOf = new Map(Object.entries(keys).map(([key, value]) => [value as string, key as keyof Counters]));
  for (const row of rows) of[keyOf.get(row.scope)!][row.status] = Number(row.n);
  return of;
}

const combine = (parts: Array<[CountsByStatus, 1 | -1]>) => {
  const total = noTickets();
  for (const [counts, sign] of parts)
    for (const status of Object.keys(total) as TicketStatus[]) total[status] += sign * counts[status];
  return total;
};

/** The tickets the actor sees, by status, from disjoint counters exactly as visibilityBranches draws them. */
function visibleOf(actor: Actor, of: Counters): CountsByStatus {
  if (actor.role === null) return noTickets();
  if (actor.role === "admin") return of.all;
  if (actor.role === "technician")
    return combine([
      [of.a, 1],
      [of.unassigned, 1],
      [of.c, 1],
      [of.ca, -1],
      [of.cu, -1],
    ]);
  return combine([
    [of.c, 1],
    [of.a, 1],
    [of.ca, -1],
  ]);
}

/**
 * A list's count from the counters, when its only filters are a tab and a status (what the counters are
 * kept by): the same number countTicketsUpTo reads from the tickets, without reading up to cap + 1 index
 * entries a branch on every first page.
 */
export async function countListFromCounters(
  ctx: CountingContext,
  { scope, status, cap }: { scope: TicketScope; status?: TicketStatus; cap: number },
): Promise<{ count: number; capped: boolean }> {
  const { actor } = ctx;
  if (actor.role === null) return { count: 0, capped: false };
  const of = await countersOf(ctx);
  const byStatus =
    scope === "visible"
      ? visibleOf(actor, of)
      : scope === "created"
        ? of.c
        : scope === "mine"
          ? of.a
          : actor.role === "user"
            ? of.cu
            : of.unassigned;
  const total = status ? byStatus[status] : sumOf(byStatus);
  return total > cap ? { count: cap, capped: true } : { count: total, capped: false };
}

export async function countTicketsFromCounters(
  ctx: CountingContext,
  scope: SummaryScope,
): Promise<Omit<TicketSummary, "overdue" | "dueSoon">> {
  const { actor } = ctx;
  const of = await countersOf(ctx);
  let inScope: CountsByStatus;
  let assignedToMe: number;
  let unassigned: number;
  if (actor.role === null) {
    inScope = noTickets();
    assignedToMe = 0;
    unassigned = 0;
  } else if (scope === "created") {
    inScope = of.c;
    assignedToMe = sumOf(of.ca);
    unassigned = sumOf(of.cu);
  } else {
    inScope = visibleOf(actor, of);
    assignedToMe = sumOf(of.a);
    unassigned = actor.role === "user" ? sumOf(of.cu) : sumOf(of.unassigned);
  }
  return {
    total: sumOf(inScope),
    open: inScope.Open,
    inProgress: inScope["In Progress"],
    resolved: inScope.Resolved,
    closed: inScope.Closed,
    assignedToMe,
    unassigned,
    resolvedByMe: sumOf(of.r),
  };
}

/**
 * Overdue and due-soon depend on the time, so no counter can hold them: counted in `where` through
 * tickets_sla_due_idx, reading only running targets due before the end of the window.
 */
export async function countDueTickets(db: Db, where: SQL, due: DueWindow) {
  const soon = new Date(due.now.getTime() + due.dueSoonMinutes * 60_000).toISOString();
  const [row] = await db
    .select({
      overdue: sql<number>`(count(*) filter (where ${dueFilterWhere("overdue", due)}))::int`,
      dueSoon: sql<number>`(count(*) filter (where ${dueFilterWhere("due_soon", due)}))::int`,
    })
    .from(tickets)
    .where(and(where, sql`${tickets.slaDueAt} <= ${soon}::timestamptz`));
  return { overdue: Number(row?.overdue ?? 0), dueSoon: Number(row?.dueSoon ?? 0) };
}
