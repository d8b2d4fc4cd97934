import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database } from "#server/db/client.ts";
import { notificationSettings } from "#server/db/schema/index.ts";
import { type ChildServer, startChildServer, stopChildServers } from "#server/test/child-server.ts";
import { insertUser, sessionCookieOf, testPassword } from "#server/test/factories.ts";
import { withDatabase } from "#server/test/global-setup.ts";

// Decision 041: an instance killed outright (SIGKILL: no shutdown, no goodbye) right after a write loses none
// of the write's notifications or mails, and the surviving instance sends each queued mail exactly once.
// Real processes (src/server/main.ts) on one PostgreSQL database; CI runs it with npm run test:pg.
// Instance A is killed while it is sending the write's mails (its mail server never answers): the mails it
// claimed must be taken over by B within seconds (decision 041), not after their 5-minute lease.

const templateUrl = inject("pgTemplateUrl");
const baseURL = "http://localhost:3000";
const secret = "a-secret-shared-by-both-instances-0123456789";
const workDir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-killed-"));
const name = `helpdesk_killed_${Date.now().toString(36)}`;
let admin: pg.Client;
let database: Database;
let url: string;
// A mail server that accepts connections and never says a word: A's sends hang until A dies.
const silentSockets: net.Socket[] = [];
const silentSmtp = net.createServer((socket) => {
  silentSockets.push(socket);
  socket.on("error", () => {});
});

beforeAll(async () => {
  if (!templateUrl) return;
  admin = new pg.Client({ connectionString: withDatabase(templateUrl, "postgres") });
  await admin.connect();
  await admin.query(`create database "${name}" template "${new URL(templateUrl).pathname.slice(1)}"`);
  url = withDatabase(templateUrl, name);
  database = createDatabase({ databaseUrl: url });
  await new Promise<void>((resolve) => silentSmtp.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await stopChildServers();
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silentSmtp.close(resolve));
  if (templateUrl) {
    await database.close();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  rmSync(workDir, { recursive: true, force: true });
});

const start = (instance: string, settings: Record<string, string> = {}) =>
  startChildServer({
    DATABASE_URL: url,
    DATA_DIR: path.join(workDir, instance),
    BASE_URL: baseURL,
    BETTER_AUTH_SECRET: secret,
    ...settings,
  });

const call = (server: ChildServer, pathname: string, init: { cookie?: string; body?: unknown } = {}) =>
  fetch(`${server.url}${pathname}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      origin: baseURL,
      "content-type": "application/json",
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

const mailFiles = () =>
  ["a", "b"].flatMap((instance) => {
    const outbox = path.join(workDir, instance, "outbox");
    return existsSync(outbox) ? readdirSync(outbox) : [];
  });

describe.skipIf(!templateUrl)("an instance killed right after a write (PostgreSQL)", () => {
  it("loses no notification or mail: the other instance shows them and sends each mail once", async () => {
    const user = await insertUser(database.db, { role: "user" });
    const techs = [];
    for (let i = 0; i < 3; i++) {
      const tech = await insertUser(database.db, { role: "technician" });
      // New-ticket mail is off by default; these technicians asked for it.
      await database.db.insert(notificationSettings).values({ userId: tech.id, emailTypes: ["new_ticket"] });
      techs.push(tech);
    }
    const { port: smtpPort } = silentSmtp.address() as net.AddressInfo;
    const a = await start("a", { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });

    const signedIn = await call(a, "/api/auth/sign-in/email", {
      body: { email: user.email, password: testPassword },
    });
    expect(signedIn.status).toBe(200);
    const cookie = sessionCookieOf(signedIn.headers.getSetCookie());
    const created = await call(a, "/api/tickets", {
      cookie,
      body: {
        title: "Server room too warm",
        description: "Thermometer says 31 °C",
        category: "Hardware",
        priority: "High",
        department: "IT",
        floor: "-1",
        officeNumber: "B01",
      },
    });
    expect(created.status).toBe(201);
    const { ticketId } = (await created.json()) as { ticketId: string };
    const queued = await rows<{ id: string; to_address: string }>(
      sql`select id::text, to_address from mail_outbox`,
    );
    expect(queued.length).toBeGreaterThanOrEqual(techs.length);
    // A has claimed every mail and is talking to the mail server about each when it is killed outright:
    // whatever it had not yet sent, it never will.
    await expect.poll(() => silentSockets.length, { timeout: 30_000, interval: 100 }).toBe(queued.length);
    a.process.kill("SIGKILL");
    await a.exited;

    const b = await start("b");
    // Every technician sees the new ticket's notification through the surviving instance.
    for (const tech of techs) {
      const techSignIn = await call(b, "/api/auth/sign-in/email", {
        body: { email: tech.email, password: testPassword },
      });
      const techCookie = sessionCookieOf(techSignIn.headers.getSetCookie());
      const list = await call(b, "/api/notifications", { cookie: techCookie });
      expect(list.status).toBe(200);
      expect(JSON.stringify(await list.json())).toContain(ticketId);
    }
    // The user's session, made on the dead instance, still works on the other one.
    expect((await call(b, `/api/tickets/${ticketId}`, { cookie })).status).toBe(200);

    // B takes over the mails A had claimed once A's heartbeat is old (seconds; the poll's limit only stops a
    // hang), and every mail goes out exactly once.
    await expect
      .poll(
        async () =>
          (
            await rows<{ n: number }>(sql`select count(*)::int as n from mail_outbox where status <> 'sent'`)
          )[0]!.n,
        {
          timeout: 60_000,
          interval: 200,
        },
      )
      .toBe(0);
    expect(mailFiles().filter((file) => file.endsWith(".eml"))).toHaveLength(queued.length);
  }, 120_000);
});
