import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appInstances, mailOutbox, scheduledJobs } from "#server/db/schema/index.ts";
import { claimDueJob } from "#server/jobs/job-lease.queries.ts";
import { createMailDispatcher } from "#server/mail/mail-dispatcher.ts";
import { claimDueMails } from "#server/mail/mail-outbox.queries.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { insertUser } from "#server/test/factories.ts";
import { startSmtpServer } from "#server/test/smtp.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import { createInstanceLiveness, type InstanceLiveness } from "./instance-liveness.ts";

// Decision 041: the work a dead instance had claimed is taken over by a live one; a live instance's claims
// never are. Instances here are liveness objects on one database whose heartbeats the test writes by hand
// (an instance that is "killed" simply beats no more); deadAfterMs is short so that the test is quick.

const deadAfterMs = 1_000;
let database: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const quiet = { info: () => {}, warn: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await database.destroy();
  await smtp.close();
});
beforeEach(async () => {
  await database.reset();
  await database.db.delete(mailOutbox);
  await database.db.delete(appInstances);
  await database.db.delete(scheduledJobs);
  smtp.received.length = 0;
});

const instance = (released: string[] = []) =>
  createInstanceLiveness({
    db: database.db,
    log: quiet,
    deadAfterMs,
    onClaimsReleased: (counts) => released.push(JSON.stringify(counts)),
  });

/** Beats the given instances together for `ms` (every 50 ms), as their timers would. */
async function beatFor(ms: number, ...instances: InstanceLiveness[]) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    await Promise.all(instances.map((i) => i.beat()));
    await sleep(50);
  }
}

async function queueMails(count: number) {
  const user = await insertUser(database.db);
  await database.db.insert(mailOutbox).values(
    Array.from({ length: count }, (_, i) => ({
      userId: user.id,
      toAddress: user.email,
      subject: `Mail number ${i + 1}`,
      text: `Body ${i + 1}`,
      kind: "notification",
    })),
  );
}

const claimFor = (a: InstanceLiveness, limit: number) => {
  const now = new Date();
  return claimDueMails(database.db, {
    now,
    leaseUntil: new Date(now.getTime() + 5 * 60_000),
    limit,
    claimedBy: a.id,
  });
};

describe("instance liveness", () => {
  it("leaves a live instance's claimed mail alone, and once it stops beating another sends it exactly once", async () => {
    await queueMails(3);
    const a = instance();
    const released: string[] = [];
    const b = instance(released);
    await Promise.all([a.beat(), b.beat()]);
    // A claims every mail and is "sending" them (its sends are not done here).
    expect(await claimFor(a, 10)).toHaveLength(3);
    const dispatcher = createMailDispatcher({
      db: database.db,
      mailer: createMailer({
        smtpUrl: smtp.url,
        outboxDir: path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-outbox-")), "outbox"),
        from: "Helpdesk <helpdesk@test.local>",
        log: () => {},
      }),
      log: { info: () => {}, warn: () => {}, error: () => {} },
      instance: b,
    });

    // Both beat for longer than deadAfterMs: B may judge, and A is alive, so B takes nothing.
    await beatFor(2 * deadAfterMs, a, b);
    await dispatcher.drain();
    expect(smtp.received).toHaveLength(0);
    expect(released).toEqual([]);
    const held = await database.db.select().from(mailOutbox);
    expect(held.every((mail) => mail.claimedBy === a.id && mail.status === "pending")).toBe(true);

    // A is killed: it beats no more. B gives A's mail back and sends each once.
    await beatFor(2 * deadAfterMs, b);
    expect(released).toHaveLength(1);
    await dispatcher.drain();
    const subjects = smtp.received.map((mail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1]);
    expect(subjects.sort()).toEqual(["Mail number 1", "Mail number 2", "Mail number 3"]);
    const sent = await database.db.select().from(mailOutbox);
    expect(sent.every((mail) => mail.status === "sent" && mail.claimedBy === null)).toBe(true);
    // Nothing more to take over: the next beats release nothing again.
    await beatFor(2 * deadAfterMs, b);
    expect(released).toHaveLength(1);
  });

  it("frees a dead instance's job lease, so the job runs again on a live one, never while the holder lives", async () => {
    const a = instance();
    const b = instance();
    await Promise.all([a.beat(), b.beat()]);
    const lease = { name: "auto-close", now: new Date(), intervalMs: 60_000, leaseMs: 10 * 60_000 };
    expect(await claimDueJob(database.db, { ...lease, instanceId: a.id })).not.toBeNull();

    await beatFor(2 * deadAfterMs, a, b);
    expect(await claimDueJob(database.db, { ...lease, instanceId: b.id })).toBeNull();

    await beatFor(2 * deadAfterMs, b);
    expect(await claimDueJob(database.db, { ...lease, instanceId: b.id })).not.toBeNull();
  });

  it("judges nobody dead until its own heartbeat has got through without a gap for deadAfterMs", async () => {
    await queueMails(1);
    const a = instance();
    await a.beat();
    await claimFor(a, 1);
    // A database outage (nobody beats), then B's first heartbeat after it: A looks dead, but B waits.
    await sleep(2 * deadAfterMs);
    const released: string[] = [];
    const b = instance(released);
    await b.beat();
    expect(released).toEqual([]);
    // A beats again within deadAfterMs of B's first heartbeat: it keeps its claim.
    await beatFor(2 * deadAfterMs, a, b);
    expect(released).toEqual([]);
    const [mail] = await database.db.select().from(mailOutbox);
    expect(mail?.claimedBy).toBe(a.id);
  });

  it("stops an instance using claims it took before a gap in its own heartbeat", async () => {
    const a = instance();
    await a.beat();
    const mark = a.mark();
    expect(a.stillHolds(mark)).toBe(true);
    await sleep(deadAfterMs);
    expect(a.isAlive()).toBe(false);
    await a.beat();
    expect(a.isAlive()).toBe(true);
    // Claims taken before the gap may have been taken over meanwhile; new ones are its own.
    expect(a.stillHolds(mark)).toBe(false);
    expect(a.stillHolds(a.mark())).toBe(true);
  });

  it("on an embedded database, takes over at start whatever a previous run of the process had claimed", async () => {
    await queueMails(2);
    const before = instance();
    await before.beat();
    await claimFor(before, 10);
    // The process was killed and starts again at once: its previous run's heartbeat is still fresh.
    const restarted = createInstanceLiveness({ db: database.db, log: quiet, exclusive: true });
    await restarted.start();
    const mails = await database.db.select().from(mailOutbox);
    expect(mails.every((mail) => mail.claimedBy === null && mail.nextAttemptAt <= new Date())).toBe(true);
    const instances = await database.db.select().from(appInstances);
    expect(instances.map((row) => row.id)).toEqual([restarted.id]);
    await restarted.stop();
  });
});
