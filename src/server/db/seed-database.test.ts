import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "#server/auth/password.ts";
import { signIn } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { notificationParamsSchema } from "#shared/notifications/notification.schemas.ts";
import { type SeedSummary, seedDatabase, seedEmail } from "./seed-database.ts";

const password = "seed-test-password";
let t: TestApp;
let summary: SeedSummary;
let progress: number[] = [];

const rows = async <T>(query: ReturnType<typeof sql>) =>
  (t.database.db.execute(query) as unknown as Promise<{ rows: T[] }>).then((result) => result.rows);
const one = async (query: ReturnType<typeof sql>) => Number(Object.values((await rows(query))[0]!)[0]);

beforeAll(async () => {
  t = await createTestApp();
  progress = [];
  summary = await seedDatabase(t.database.db, {
    tickets: 600,
    users: 40,
    technicians: 5,
    admins: 2,
    passwordHash: await hashPassword(password),
    batchSize: 250,
    onProgress: ({ ticketsDone }) => progress.push(ticketsDone),
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("seedDatabase", () => {
  it("adds the people and tickets asked for, in batches, reporting progress", () => {
    expect(progress).toEqual([250, 500, 600]);
    expect(summary.counts.users).toBe(47);
    expect(summary.counts.tickets).toBe(600);
  });

  it("hangs comments, events, notifications, files and feedback off the tickets in realistic proportions", async () => {
    const { counts } = summary;
    // 0–4 comments a ticket, 2 on average.
    expect(counts.ticket_comments / counts.tickets).toBeGreaterThan(1.5);
    expect(counts.ticket_comments / counts.tickets).toBeLessThan(2.5);
    // Every ticket's "created", and a comment's event per comment.
    expect(await one(sql`select count(*) from ticket_events where type = 'created'`)).toBe(600);
    expect(
      await one(sql`select count(*) from ticket_events where type in ('commented', 'internal_note')`),
    ).toBe(counts.ticket_comments);
    // Notifications of the last 90 days (retention's default): several for each ticket of that time.
    const recentTickets = await one(
      sql`select count(*) from tickets where created_at > now() - interval '90 days'`,
    );
    expect(counts.notifications / recentTickets).toBeGreaterThan(2);
    expect(counts.attachments / counts.tickets).toBeGreaterThan(0.03);
    expect(counts.attachments / counts.tickets).toBeLessThan(0.2);
    // A third of the resolved tickets rated; ratings only on resolved tickets.
    const resolved = await one(sql`select count(*) from tickets where resolved_at is not null`);
    expect(counts.ticket_feedback / resolved).toBeGreaterThan(0.2);
    expect(counts.ticket_feedback / resolved).toBeLessThan(0.46);
    expect(
      await one(sql`select count(*) from ticket_feedback f join tickets t on t.id = f.ticket_id
                    where t.resolved_at is null`),
    ).toBe(0);
    // Mostly closed (two years of history), some still open.
    const byStatus = Object.fromEntries(
      (
        await rows<{ status: string; n: number }>(
          sql`select status, count(*)::int as n from tickets group by status`,
        )
      ).map((r) => [r.status, r.n]),
    );
    expect(byStatus.Closed).toBeGreaterThan(400);
    // As the scheduled jobs would have left it: nothing resolved for longer than auto-close's 7 days, no
    // notification older than retention's 90 days.
    expect(
      await one(sql`select count(*) from tickets
                    where status = 'Resolved' and updated_at < now() - interval '7 days'`),
    ).toBe(0);
    expect(
      await one(sql`select count(*) from notifications where created_at < now() - interval '90 days'`),
    ).toBe(0);
  });

  it("words its notifications as the app does: each with params of a known kind naming the ticket's title", async () => {
    const notifications = await rows<{ type: string; message: string; params: unknown; title: string }>(sql`
      select n.type, n.message, n.params, t.title from notifications n join tickets t on t.id = n.ticket_id`);
    // New-ticket broadcasts exist for the last 3 days' tickets only: a run may have none of those.
    const recent = await one(sql`select count(*) from tickets where created_at > now() - interval '3 days'`);
    expect(new Set(notifications.map((n) => n.type))).toEqual(
      new Set([
        "ticket_comment",
        "ticket_assigned",
        "ticket_status",
        "ticket_feedback",
        ...(recent > 0 ? ["new_ticket"] : []),
      ]),
    );
    for (const n of notifications) {
      const params = notificationParamsSchema.parse(n.params);
      expect("title" in params ? params.title : undefined).toBe(n.title);
      expect(n.message).toContain(n.type === "new_ticket" ? n.title : `ticket "${n.title}"`);
    }
  });

  it("leaves every reference whole (the batches skip the foreign keys' checks when they can)", async () => {
    const dangling = await rows<{ what: string; n: number }>(sql`
      select 'ticket creator' as what, count(*)::int as n from tickets t left join users u on u.id = t.created_by where u.id is null
      union all select 'ticket assignee', count(*)::int from tickets t left join users u on u.id = t.assigned_to where t.assigned_to is not null and u.id is null
      union all select 'ticket resolver', count(*)::int from tickets t left join users u on u.id = t.resolved_by where t.resolved_by is not null and u.id is null
      union all select 'comment ticket', count(*)::int from ticket_comments c left join tickets t on t.id = c.ticket_id where t.id is null
      union all select 'comment author', count(*)::int from ticket_comments c left join users u on u.id = c.author_id where u.id is null
      union all select 'event ticket', count(*)::int from ticket_events e left join tickets t on t.id = e.ticket_id where t.id is null
      union all select 'event actor', count(*)::int from ticket_events e left join users u on u.id = e.actor_id where e.actor_id is not null and u.id is null
      union all select 'event comment', count(*)::int from ticket_events e left join ticket_comments c on c.id = e.comment_id where e.comment_id is not null and c.id is null
      union all select 'notification user', count(*)::int from notifications n left join users u on u.id = n.user_id where u.id is null and n.audience is null
      union all select 'notification event', count(*)::int from notifications n left join ticket_events e on e.id = n.event_id where n.event_id is not null and e.id is null
      union all select 'attachment ticket', count(*)::int from attachments a left join tickets t on t.id = a.ticket_id where t.id is null
      union all select 'feedback ticket', count(*)::int from ticket_feedback f left join tickets t on t.id = f.ticket_id where t.id is null
      union all select 'account user', count(*)::int from accounts a left join users u on u.id = a.user_id where u.id is null`);
    expect(dangling.filter((row) => row.n > 0)).toEqual([]);
    // Nobody is notified of their own act.
    expect(
      await one(sql`select count(*) from notifications n join ticket_events e on e.id = n.event_id
                    where n.user_id = e.actor_id`),
    ).toBe(0);
  });

  it("keeps the report rollups exact: they equal a recount of every ticket and rating", async () => {
    const snapshot = async () =>
      rows<{ t: string; k: string; count: number }>(sql`
        select 'opened' as t, day::text || category || priority || department as k, count from report_opened_days
        union all select 'done', day::text, count from report_done_days
        union all select 'duration', measure || day::text || bucket, count from report_duration_days
        union all select 'feedback', day::text || technician_id || rating, count from report_feedback_days
        order by 1, 2`);
    const seeded = await snapshot();
    expect(seeded.filter((r) => r.t === "opened").reduce((sum, r) => sum + r.count, 0)).toBe(600);
    expect(seeded.filter((r) => r.t === "feedback").reduce((sum, r) => sum + r.count, 0)).toBe(
      summary.counts.ticket_feedback,
    );
    await t.database.db.execute(sql`select report_rollup_rebuild('UTC')`);
    expect(await snapshot()).toEqual(seeded);
  });

  it("keeps the dashboard's counters exact: they equal a recount, so a list's total counts every ticket", async () => {
    const counted = await rows<{ scope: string; status: string; n: number }>(sql`
      select scope, status::text, sum(n)::int as n from ticket_counts group by 1, 2 having sum(n) <> 0 order by 1, 2`);
    const recount = await rows<{ scope: string; status: string; n: number }>(sql`
      select k.scope, k.status::text, sum(k.n)::int as n
      from tickets t cross join lateral ticket_count_keys(t, 1) k group by 1, 2 order by 1, 2`);
    expect(counted).toEqual(recount);
    expect(counted.filter((row) => row.scope === "all").reduce((sum, row) => sum + row.n, 0)).toBe(600);

    const cookie = await signIn(t.app, seedEmail("admin", 1), password);
    const list = await request(t.app, { method: "GET", url: "/api/tickets", cookie });
    expect(list.json().total).toEqual({ count: 600, capped: false });
  });

  it("lets a seeded person of every role sign in and use the app's lists, counts and reports", async () => {
    for (const role of ["user", "technician", "admin"] as const) {
      const cookie = await signIn(t.app, seedEmail(role, 1), password);
      const list = await request(t.app, { method: "GET", url: "/api/tickets", cookie });
      expect(list.statusCode, list.body).toBe(200);
      const summaryResponse = await request(t.app, { method: "GET", url: "/api/tickets/summary", cookie });
      expect(summaryResponse.statusCode, summaryResponse.body).toBe(200);
      if (role === "admin") {
        expect(list.json().items).toHaveLength(25);
        const to = new Date().toISOString().slice(0, 10);
        const from = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
        const volume = await request(t.app, {
          method: "GET",
          url: `/api/reports/ticket-volume?from=${from}&to=${to}`,
          cookie,
        });
        expect(volume.statusCode, volume.body).toBe(200);
        const ticketId = list.json().items[0].ticketId as string;
        const ticket = await request(t.app, { method: "GET", url: `/api/tickets/${ticketId}`, cookie });
        expect(ticket.statusCode, `${ticketId}: ${ticket.body}`).toBe(200);
      }
    }
  });

  it("adds a second run's tickets beside the first's without touching its people", async () => {
    const again = await seedDatabase(t.database.db, {
      tickets: 10,
      users: 40,
      technicians: 5,
      admins: 2,
      passwordHash: "unused: the accounts exist",
    });
    expect(again.ticketPrefix).not.toBe(summary.ticketPrefix);
    expect(again.counts.users).toBe(47);
    expect(again.counts.tickets).toBe(610);
    await signIn(t.app, seedEmail("user", 2), password);
  });
});
