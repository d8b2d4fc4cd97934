import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowOf } from "#server/context.ts";
import { attachments, idempotencyKeys, scheduledJobs } from "#server/db/schema/index.ts";
import { contextFor } from "#server/http/session.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertUser } from "#server/test/factories.ts";
import { createTestApp, type TestApp } from "#server/test/test-app.ts";

// The app's own scheduled jobs run on the runner: retention and the cleanup of abandoned uploads, with the
// time read from the clock the app is given (a test clock here; the system clock in production).

const dayMs = 24 * 60 * 60_000;
const clock = createTestClock(new Date("2030-06-01T12:00:00Z"));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, notificationRetentionDays: 90 });
});
afterAll(() => t.close());

const ago = (days: number) => new Date(clock.now().getTime() - days * dayMs);

describe("the app's scheduled jobs", () => {
  it("prune old read notifications, abandoned uploads and expired idempotency keys when due, and record the run", async () => {
    const { db } = t.database;
    const user = await insertUser(db);
    await db.execute(sql`
      insert into notifications (user_id, type, message, created_at, read_at) values
        (${user.id}, 'ticket_status', 'old read', ${ago(120).toISOString()}, ${ago(100).toISOString()}),
        (${user.id}, 'ticket_status', 'old unread', ${ago(120).toISOString()}, null)`);
    await db.insert(attachments).values([
      {
        id: "abandoned",
        uploadedBy: user.id,
        fileName: "a.txt",
        contentType: "text/plain",
        createdAt: ago(2),
      },
      { id: "fresh", uploadedBy: user.id, fileName: "b.txt", contentType: "text/plain", createdAt: ago(0.5) },
    ]);
    // Decision 078: a key lives 24 hours; its row is then deleted by the hourly retention job.
    await db.insert(idempotencyKeys).values([
      {
        caller: `user:${user.id}`,
        route: "POST /api/tickets",
        key: "old",
        requestHash: "h",
        createdAt: ago(1.1),
      },
      {
        caller: `user:${user.id}`,
        route: "POST /api/tickets",
        key: "new",
        requestHash: "h",
        createdAt: ago(0.9),
      },
    ]);

    expect((await t.app.jobs.tick()).sort()).toEqual([
      "attachment-cleanup",
      "auto-close",
      "automation-time-rules",
      "idempotency-key-retention",
      "notification-retention",
      "on-hold",
      "sla-escalation",
      "webhook-deliveries",
      "webhook-retention",
    ]);

    const messages = await db.execute(sql`select message from notifications`);
    expect((messages as unknown as { rows: Array<{ message: string }> }).rows).toEqual([
      { message: "old unread" },
    ]);
    expect((await db.select({ id: attachments.id }).from(attachments)).map((a) => a.id)).toEqual(["fresh"]);
    expect((await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((k) => k.key)).toEqual([
      "new",
    ]);
    const runs = await db.select().from(scheduledJobs).orderBy(scheduledJobs.name);
    expect(runs.map((r) => [r.name, r.lastDone, r.lastRunAt])).toEqual([
      ["attachment-cleanup", 1, clock.now()],
      ["auto-close", 0, clock.now()],
      ["automation-time-rules", 0, clock.now()],
      ["idempotency-key-retention", 1, clock.now()],
      ["notification-retention", 1, clock.now()],
      ["on-hold", 0, clock.now()],
      ["sla-escalation", 0, clock.now()],
      ["webhook-deliveries", 0, clock.now()],
      ["webhook-retention", 0, clock.now()],
    ]);

    // Not due again within the hour; due an hour later.
    expect(await t.app.jobs.tick()).toEqual([]);
    clock.advance(60 * 60_000);
    // Webhook retention runs every 6 hours.
    expect((await t.app.jobs.tick()).sort()).toEqual([
      "attachment-cleanup",
      "auto-close",
      "automation-time-rules",
      "idempotency-key-retention",
      "notification-retention",
      "on-hold",
      "sla-escalation",
      "webhook-deliveries",
    ]);
  });

  it("gives each request's service context the app's clock; a context without one reads the system clock", () => {
    const ctx = contextFor(
      t.database.db,
      undefined,
      clock,
    )({ actor: { id: "u", role: "user" } } as FastifyRequest);
    expect(nowOf(ctx)).toEqual(clock.now());
    expect(Math.abs(nowOf({}).getTime() - Date.now())).toBeLessThan(1_000);
  });
});
