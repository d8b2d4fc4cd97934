import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createDatabase, type Database } from "#server/db/client.ts";
import { mailOutbox } from "#server/db/schema/index.ts";
import { insertUser } from "#server/test/factories.ts";
import { startSmtpServer } from "#server/test/smtp.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { createMailDispatcher } from "./mail-dispatcher.ts";
import { createMailer } from "./mailer.ts";

let database: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let mailer: ReturnType<typeof createMailer>;
beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  mailer = createMailer({
    smtpUrl: smtp.url,
    outboxDir: path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-outbox-")), "outbox"),
    from: "Helpdesk <helpdesk@test.local>",
    log: () => {},
  });
});
afterAll(async () => {
  await database.destroy();
  await smtp.close();
});
beforeEach(async () => {
  await database.reset();
  await database.db.delete(mailOutbox);
  smtp.received.length = 0;
  smtp.rejectNext(0);
});

function recordingLog() {
  const lines: string[] = [];
  const push = (message: string) => lines.push(message);
  return { lines, info: push, warn: push, error: push };
}

async function queueMails(count: number, now = new Date()) {
  const user = await insertUser(database.db);
  await database.db.insert(mailOutbox).values(
    Array.from({ length: count }, (_, i) => ({
      userId: user.id,
      toAddress: user.email,
      subject: `Mail number ${i + 1}`,
      text: `Body ${i + 1}`,
      kind: "notification",
      nextAttemptAt: now,
    })),
  );
}

const outbox = () => database.db.select().from(mailOutbox).orderBy(mailOutbox.id);

describe("the mail dispatcher", () => {
  it("sends every due mail once and records it as sent", async () => {
    await queueMails(12);
    const dispatcher = createMailDispatcher({ db: database.db, mailer, log: recordingLog(), batchSize: 5 });
    await dispatcher.drain();
    await dispatcher.drain();
    expect(smtp.received).toHaveLength(12);
    const rows = await outbox();
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1 && r.sentAt !== null)).toBe(true);
  });

  it("retries a mail the SMTP server refused, after a growing delay, then sends it", async () => {
    let now = new Date("2030-01-01T10:00:00Z");
    await queueMails(1, now);
    smtp.rejectNext(2);
    const log = recordingLog();
    const dispatcher = createMailDispatcher({
      db: database.db,
      mailer,
      log,
      clock: () => now,
      retryDelayMs: 30_000,
    });

    await dispatcher.drain();
    let [row] = await outbox();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row!.lastError).toContain("Mailbox busy");
    expect(row!.nextAttemptAt.toISOString()).toBe("2030-01-01T10:00:30.000Z");

    // Not due yet: nothing happens.
    now = new Date("2030-01-01T10:00:29Z");
    await dispatcher.drain();
    expect((await outbox())[0]!.attempts).toBe(1);

    now = new Date("2030-01-01T10:00:30Z");
    await dispatcher.drain();
    [row] = await outbox();
    expect(row).toMatchObject({ status: "pending", attempts: 2 });
    // The second delay is twice the first.
    expect(row!.nextAttemptAt.toISOString()).toBe("2030-01-01T10:01:30.000Z");

    now = new Date("2030-01-01T10:01:30Z");
    await dispatcher.drain();
    [row] = await outbox();
    expect(row).toMatchObject({ status: "sent", attempts: 3 });
    expect(smtp.received).toHaveLength(1);
    expect(log.lines.filter((line) => line.includes("retrying"))).toHaveLength(2);
  });

  it("gives a mail up as failed after the last attempt, and says so in the log", async () => {
    let now = new Date("2030-01-01T10:00:00Z");
    await queueMails(1, now);
    smtp.rejectNext(10);
    const log = recordingLog();
    const dispatcher = createMailDispatcher({
      db: database.db,
      mailer,
      log,
      clock: () => now,
      maxAttempts: 2,
    });
    await dispatcher.drain();
    now = new Date("2030-01-01T11:00:00Z");
    await dispatcher.drain();
    now = new Date("2030-01-02T11:00:00Z");
    await dispatcher.drain();
    const [row] = await outbox();
    expect(row).toMatchObject({ status: "failed", attempts: 2 });
    expect(smtp.received).toHaveLength(0);
    expect(log.lines.at(-1)).toMatch(/failed 2 times, giving up: .*Mailbox busy/);
  });

  it("leaves a claimed mail alone until its sender's lease has passed", async () => {
    let now = new Date("2030-01-01T10:00:00Z");
    await queueMails(1, now);
    // A sender claimed it and stopped before recording anything (the process died).
    await database.db.execute(
      sql`update mail_outbox set attempts = 1, next_attempt_at = ${new Date("2030-01-01T10:05:00Z").toISOString()}`,
    );
    const dispatcher = createMailDispatcher({
      db: database.db,
      mailer,
      log: recordingLog(),
      clock: () => now,
    });
    await dispatcher.drain();
    expect(smtp.received).toHaveLength(0);
    now = new Date("2030-01-01T10:05:00Z");
    await dispatcher.drain();
    expect(smtp.received).toHaveLength(1);
    expect((await outbox())[0]).toMatchObject({ status: "sent", attempts: 2 });
  });
});

// Two app instances on one PostgreSQL database; PGlite is one process, so only PostgreSQL can show it.
describe.skipIf(!inject("pgTemplateUrl"))("two dispatchers on one PostgreSQL database", () => {
  let second: Database;
  beforeAll(async () => {
    const result = await database.db.execute(sql`select current_database() as name`);
    const [{ name }] = (result as unknown as { rows: Array<{ name: string }> }).rows as [{ name: string }];
    const url = new URL(inject("pgTemplateUrl"));
    url.pathname = `/${name}`;
    second = createDatabase({ databaseUrl: url.toString() });
  });
  afterAll(() => second.close());

  it("sends each mail exactly once", async () => {
    await queueMails(60);
    const a = createMailDispatcher({ db: database.db, mailer, log: recordingLog(), batchSize: 4 });
    const b = createMailDispatcher({ db: second.db, mailer, log: recordingLog(), batchSize: 4 });
    await Promise.all([a.drain(), b.drain(), a.drain(), b.drain()]);
    const subjects = smtp.received.map((m) => m.raw.match(/^Subject: (.*)$/m)?.[1]);
    expect(subjects).toHaveLength(60);
    expect(new Set(subjects).size).toBe(60);
    const rows = await outbox();
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });
});
