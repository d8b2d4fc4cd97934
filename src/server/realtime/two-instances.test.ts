import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, signIn } from "#server/test/factories.ts";
import { openStream } from "#server/test/sse.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Notification } from "#shared/notifications/notification.schemas.ts";
import { busChannel } from "./pg-bus.ts";

// LISTEN/NOTIFY exists only on a PostgreSQL server: run with TEST_DATABASE_URL (CI does).
describe.skipIf(!process.env.TEST_DATABASE_URL)("two app instances on one PostgreSQL database", () => {
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ database: a.database });
    urlA = await a.app.listen({ port: 0, host: "127.0.0.1" });
    urlB = await b.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const ticketInput = {
    title: "Badge reader broken",
    description: "Door 3",
    category: "Hardware",
    priority: "Medium",
    department: "Facilities",
    floor: "0",
    officeNumber: "Lobby",
  };

  it("pushes a ticket created through A to a technician's stream on B, and a comment through B to the creator's stream on A", async () => {
    const user = await insertUser(a.database.db, { role: "user", name: "Uma" });
    const tech = await insertUser(a.database.db, { role: "technician", name: "Theo" });
    const userCookie = await signIn(a.app, user.email);
    const techCookie = await signIn(b.app, tech.email);
    const techOnB = await openStream(urlB, { cookie: techCookie });
    const userOnA = await openStream(urlA, { cookie: userCookie });
    try {
      await Promise.all([techOnB, userOnA].map((s) => s.waitFor((e) => e.event === "ready")));

      const created = await request(a.app, {
        method: "POST",
        url: "/api/tickets",
        cookie: userCookie,
        payload: ticketInput,
      });
      expect(created.statusCode).toBe(201);
      const { ticketId } = created.json<{ ticketId: string }>();
      const onB = JSON.parse((await techOnB.waitFor((e) => e.event === "notification")).data) as Notification;
      expect(onB).toMatchObject({ uid: tech.id, type: "new_ticket", ticketId });

      const commented = await request(b.app, {
        method: "POST",
        url: `/api/tickets/${ticketId}/comments`,
        cookie: techCookie,
        payload: { message: "On my way" },
      });
      expect(commented.statusCode).toBe(201);
      const onA = JSON.parse((await userOnA.waitFor((e) => e.event === "notification")).data) as Notification;
      expect(onA).toMatchObject({
        uid: user.id,
        type: "ticket_comment",
        message: `Theo commented on ticket "Badge reader broken": On my way`,
        params: { kind: "commented", title: "Badge reader broken", actor: "Theo", preview: "On my way" },
      });
      await userOnA.waitFor((e) => e.event === "ticket");
    } finally {
      techOnB.close();
      userOnA.close();
    }
  });

  it("keeps the push payload to ids and the broadcast to one row, even to 1,000 technicians", async () => {
    const { db } = a.database;
    await db.execute(sql`
      insert into users (id, name, email, role)
      select 'bulk_' || n, 'Tech ' || n, 'bulk_' || n || '@example.test', 'technician' from generate_series(1, 1000) n`);
    const payloads: string[] = [];
    const listener = new pg.Client({ connectionString: a.database.url });
    await listener.connect();
    listener.on("notification", (message) => payloads.push(message.payload ?? ""));
    await listener.query(`listen ${busChannel}`);
    try {
      const user = await insertUser(db, { role: "user" });
      const cookie = await signIn(a.app, user.email);
      const created = await request(a.app, {
        method: "POST",
        url: "/api/tickets",
        cookie,
        payload: ticketInput,
      });
      expect(created.statusCode).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(payloads).toHaveLength(1);
      expect(payloads[0]!.length).toBeLessThan(100);
      // One row addressed to the technicians (decision 068), whom the database counts 1,000 and more.
      const result = await db.execute(sql`
        select (select count(*)::int from notifications where ticket_id = ${created.json().ticketId}) as rows,
               (select count(*)::int from notification_audience_members where audience = 'technicians') as members`);
      const [count] = (result as unknown as { rows: Array<{ rows: number; members: number }> }).rows;
      expect(count).toEqual({ rows: 1, members: expect.any(Number) });
      expect(count!.members).toBeGreaterThanOrEqual(1000);
    } finally {
      await listener.end();
    }
  });

  it("refuses on B, well within B's session cache lifetime, a person deactivated through A", async () => {
    const admin = await insertUser(a.database.db, { role: "admin" });
    const tech = await insertUser(a.database.db, { role: "technician" });
    const adminCookie = await signIn(a.app, admin.email);
    const techCookie = await signIn(b.app, tech.email);
    const listOnB = () => request(b.app, { method: "GET", url: "/api/tickets", cookie: techCookie });
    // B now remembers the session (decision 039: 5 s by default).
    for (let i = 0; i < 2; i++) expect((await listOnB()).statusCode).toBe(200);

    const started = Date.now();
    const deactivated = await request(a.app, {
      method: "PUT",
      url: `/api/admin/users/${tech.id}/status`,
      cookie: adminCookie,
      payload: { status: "Inactive" },
    });
    expect(deactivated.statusCode).toBe(200);
    // B learns it through LISTEN/NOTIFY, in milliseconds; the first request after that is refused.
    let status = (await listOnB()).statusCode;
    while (status === 200 && Date.now() - started < 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = (await listOnB()).statusCode;
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("reconnects a lost listener and closes its streams so that browsers replay what the gap swallowed", async () => {
    const user = await insertUser(a.database.db, { role: "user" });
    const cookie = await signIn(a.app, user.email);
    const before = await openStream(urlA, { cookie });
    await before.waitFor((e) => e.event === "ready");
    await a.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and query = ${`listen ${busChannel}`} and pid <> pg_backend_pid()`,
    );
    await before.closed;
    const after = await openStream(urlA, { cookie });
    try {
      await after.waitFor((e) => e.event === "ready");
      // Both instances' listeners were cut; give them their first backoff to come back.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const created = await request(a.app, {
        method: "POST",
        url: "/api/notifications",
        cookie,
        payload: { uid: user.id, message: "After the gap" },
      });
      expect(created.statusCode).toBe(201);
      await after.waitFor((e) => e.event === "notification" && e.data.includes("After the gap"));
    } finally {
      after.close();
    }
  });
});
