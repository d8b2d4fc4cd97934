// Write throughput (decision 040): tickets created (by users), comments (by their creators) and status
// changes (a technician takes each ticket: In Progress), through the real server, first with every side
// effect on (the new-ticket broadcast to every active technician, e-mail copies queued in the outbox by
// everyone's default e-mail settings, push to connected technician streams), then with them off, on the
// same database. "Off" is set through data, not code: every technician but the one who works is made
// Inactive (no broadcast rows), everyone's e-mail settings are emptied (no outbox rows) and no stream is
// connected; both are put back afterwards.
//
// New-ticket e-mails are off by default (defaultEmailNotificationTypes), so a creation queues no e-mail
// unless technicians chose them: --mail-new-tickets makes every technician choose them too (the worst case:
// one e-mail per technician per new ticket, composed and sent by the server's own mail dispatcher).
//
//   npm run bench:writes                       # PostgreSQL, 20,000 tickets and 100 technicians, throw-away
//   npm run bench:writes -- --pglite           # embedded PGlite
//   BENCH_REUSE_URL=… npm run bench:writes     # on a seeded database of yours (it adds tickets to it)
//   --duration S (10 per phase), --concurrency N (16), --streams N (50 technician streams), --tickets N,
//   --mail-new-tickets
//
// Each phase also gives the CPU one operation cost the server, its PostgreSQL backends and this process
// (the writers and the stream readers), from /proc: steadier than the rates on a shared machine.
// Note: the report rollups are kept by triggers (migration 0025); every ticket created the same day in the
// same category, priority and department updates the same report_opened_days row, so concurrent creations
// queue on that row's lock until each transaction commits.
import pg from "pg";
import { defaultEmailNotificationTypes } from "#shared/notifications/notification.schemas.ts";
import {
  benchArgs,
  cpuMeter,
  cpuPerRequest,
  machine,
  openSeededDatabase,
  origin,
  type Role,
  seedEmailOf,
  signInAs,
  startServer,
  waitForReady,
  writeResults,
} from "./server-bench.ts";

process.env.BENCH_TECHNICIANS ??= "100";
const args = benchArgs({
  concurrency: { type: "string" },
  streams: { type: "string" },
  "mail-new-tickets": { type: "boolean", default: false },
});
const mailNewTickets = Boolean(args.values["mail-new-tickets"]);
if (!args.values.tickets && !process.env.BENCH_TICKETS) args.tickets = 20_000;
const concurrency = Number(args.values.concurrency ?? 16);
const streamCount = Number(args.values.streams ?? 50);
const database = await openSeededDatabase(args);
const server = await startServer(database, {}, { profile: Boolean(args.values.profile) });
const cpu = cpuMeter(server, database);

interface Phase {
  name: string;
  sideEffects: boolean;
  ops: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  pushEventsReceived?: number;
  /** Milliseconds of CPU per operation: the server, its PostgreSQL backends, this process, and in all. */
  cpuMsPerOp?: ReturnType<typeof cpuPerRequest>;
}

/** `concurrency` loops calling `op` until `seconds` have passed or `op` returns false. */
async function closedLoop(seconds: number, op: (i: number) => Promise<boolean>) {
  const cpuBefore = await cpu.sample();
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  let done = false;
  const start = performance.now();
  const until = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!done && performance.now() < until) {
        const i = next++;
        const t0 = performance.now();
        try {
          if (!(await op(i))) {
            done = true;
            break;
          }
          latencies.push(performance.now() - t0);
        } catch (error) {
          errors++;
          if (errors === 1) console.error(String(error), (error as { cause?: unknown }).cause ?? "");
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpuMsPerOp = cpuPerRequest(cpuBefore, await cpu.sample(), latencies.length);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0);
  return {
    ops: latencies.length,
    perSecond: Math.round(latencies.length / elapsed),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    errors,
    cpuMsPerOp,
  };
}

async function send(cookie: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { cookie, origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as { ticketId?: string };
}

const admin = new pg.Client({ connectionString: database.env.DATABASE_URL });
// The rows and changes the bench makes carry updated_at = 2000-01-01, so that it puts back only its own.
const benchMark = "2000-01-01";
const benchStart = new Date();
async function setSideEffects(on: boolean) {
  // PGlite: only the server holds the folder; the switch is made through the admin API instead.
  if (!database.env.DATABASE_URL) throw new Error("bench:writes needs PostgreSQL for its side-effect switch");
  if (on) {
    await admin.query(
      `update users set status = 'Active' where id like 'seed-tech-%' and status = 'Inactive' and updated_at = '${benchMark}'`,
    );
    await admin.query(`delete from notification_settings where updated_at = '${benchMark}'`);
    if (mailNewTickets) {
      await admin.query(
        `insert into notification_settings (user_id, email_types, updated_at)
         select id, array['new_ticket'] || $1::text[], '${benchMark}' from users where role = 'technician'
         on conflict (user_id) do nothing`,
        [defaultEmailNotificationTypes],
      );
    }
  } else {
    await admin.query(
      `update users set status = 'Inactive', updated_at = '${benchMark}' where role = 'technician' and id <> 'seed-tech-1' and status = 'Active'`,
    );
    await admin.query(`delete from notification_settings where updated_at = '${benchMark}'`);
    await admin.query(
      `insert into notification_settings (user_id, email_types, sounds_muted, updated_at)
       select id, '{}', true, '${benchMark}' from users on conflict (user_id) do nothing`,
    );
  }
}

try {
  await waitForReady(server.url);
  if (database.env.DATABASE_URL) await admin.connect();
  const results: Phase[] = [];
  for (const sideEffects of [true, false]) {
    await setSideEffects(sideEffects);
    const cookies: Record<Role, string> = {
      user: await signInAs(server.url, seedEmailOf("user", 1)),
      technician: await signInAs(server.url, seedEmailOf("technician", 1)),
      admin: "",
    };
    // Technician streams (other technicians than the one working): events counted as they arrive.
    const streams: AbortController[] = [];
    let pushEvents = 0;
    if (sideEffects) {
      for (let n = 2; n < 2 + streamCount; n++) {
        const cookie = await signInAs(server.url, seedEmailOf("technician", n)).catch(() => null);
        if (!cookie) break;
        const abort = new AbortController();
        streams.push(abort);
        void fetch(`${server.url}/api/notifications/stream`, { headers: { cookie }, signal: abort.signal })
          .then(async (response) => {
            const reader = response.body!.getReader();
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              pushEvents += (Buffer.from(value).toString().match(/^id:/gm) ?? []).length;
            }
          })
          .catch(() => {});
      }
    }
    const label = sideEffects ? "on" : "off";
    const created: string[] = [];
    const before = pushEvents;
    const create = await closedLoop(args.duration, async (i) => {
      const ticket = await send(cookies.user, "POST", "/api/tickets", {
        title: `Bench ticket ${i}`,
        description: "Created by bench:writes",
        category: "Hardware",
        priority: "Medium",
        department: "IT",
        floor: "2",
        officeNumber: "201",
      });
      created.push(ticket.ticketId!);
      return true;
    });
    results.push({ name: "create ticket", sideEffects, ...create, pushEventsReceived: pushEvents - before });
    const comment = await closedLoop(args.duration, async (i) => {
      await send(cookies.user, "POST", `/api/tickets/${created[i % created.length]}/comments`, {
        message: `Comment ${i} from bench:writes`,
      });
      return true;
    });
    results.push({ name: "comment", sideEffects, ...comment });
    const status = await closedLoop(args.duration, async (i) => {
      if (i >= created.length) return false;
      await send(cookies.technician, "PATCH", `/api/tickets/${created[i]}/status`, { status: "In Progress" });
      return true;
    });
    results.push({ name: "status change (take)", sideEffects, ...status });
    for (const r of results.slice(-3))
      console.log(
        `${r.name.padEnd(22)} side effects ${label}: ${r.perSecond}/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  errors ${r.errors}  CPU ms/op: server ${r.cpuMsPerOp?.server}, PostgreSQL ${r.cpuMsPerOp?.postgres}, bench ${r.cpuMsPerOp?.loadGenerator}`,
      );
    for (const stream of streams) stream.abort();
  }
  await setSideEffects(true);
  if (mailNewTickets) {
    await admin.query(`delete from notification_settings where updated_at = '${benchMark}'`);
    // Thousands of new-ticket e-mails are still queued: the next server on this database would send them.
    await admin.query("delete from mail_outbox where status = 'pending' and created_at >= $1", [benchStart]);
  }
  console.log(
    `\n${database.description}; ${args.duration} s per phase, ${concurrency} concurrent, ${streamCount} streams${mailNewTickets ? ", every technician mailed new tickets" : ""}\n`,
  );
  console.table(
    results.map((r) => ({
      write: r.name,
      "side effects": r.sideEffects ? "on" : "off",
      "ops/s": r.perSecond,
      "p50 ms": r.p50Ms,
      "p99 ms": r.p99Ms,
      ops: r.ops,
      errors: r.errors,
      "CPU ms/op server": r.cpuMsPerOp?.server,
      PostgreSQL: r.cpuMsPerOp?.postgres,
      bench: r.cpuMsPerOp?.loadGenerator,
    })),
  );
  writeResults(`writes-${database.kind}${mailNewTickets ? "-mail-new-tickets" : ""}`, {
    bench: "writes",
    database: database.description,
    concurrency,
    streams: streamCount,
    mailNewTickets,
    durationSeconds: args.duration,
    machine: machine(),
    results,
  });
} finally {
  await admin.end().catch(() => {});
  await server.stop();
  await database.cleanup();
  if (server.profileDir)
    console.log(`CPU profile in ${server.profileDir}: npm run bench:profile -- ${server.profileDir}`);
}
