// PGlite in a worker thread, tried (docs/performance.md, "PGlite in a worker thread"): the ticket list's
// page statement (as the server sends it for an admin's first page, decision 066) run against a seeded
// PGlite data directory, 16 at a time, first on this thread as the server runs PGlite today, then through a
// `worker_threads` worker that holds the database and answers each statement's rows by message (a copy, as
// any such proxy would). Printed: statements a second, and how busy this thread was (its event loop's
// utilisation) and the process's CPU a statement. What this thread keeps in the worker case is what the
// HTTP side of a real server would have left to serve pages with.
//
//   DATA_DIR=/tmp/pgw npm run seed -- --tickets 100000     # once: a data directory to read
//   npx tsx bench/pglite-worker.ts --dir /tmp/pgw [--duration 10] [--concurrency 16]
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { PGlite, types } from "@electric-sql/pglite";

/** The admin's first page as the server sends it (its log, 2026-11-29): 26 rows with two names. */
const pageStatement = `select "tickets"."id", "tickets"."title", "tickets"."description", "tickets"."category", "tickets"."priority", "tickets"."status", "tickets"."created_by", "tickets"."assigned_to", "tickets"."resolved_by", "tickets"."department", "tickets"."floor", "tickets"."office_number", "tickets"."created_at", "tickets"."first_response_due_at", "tickets"."first_responded_at", "tickets"."resolution_due_at", "tickets"."resolved_at", "tickets"."sla_due_at", "tickets"."first_response_warn_at", "tickets"."resolution_warn_at", "tickets"."first_response_warned_at", "tickets"."first_response_breached_at", "tickets"."resolution_warned_at", "tickets"."resolution_breached_at", "tickets"."updated_at", "tickets"."done_at", "tickets"."first_response_bucket", "tickets"."resolution_bucket", "creator"."name", "assignee"."name" from "tickets" left join "users" "creator" on "creator"."id" = "tickets"."created_by" left join "users" "assignee" on "assignee"."id" = "tickets"."assigned_to" inner join unnest(array(select id from ((select "tickets"."created_at" as "sort_at", "tickets"."id" as "id" from "tickets" where true order by "tickets"."created_at" desc, "tickets"."id" desc limit $1)) page order by "sort_at" desc, "id" desc limit $2)) with ordinality as page(id, n) on page.id = "tickets"."id" order by page.n`;
const pageParams = [26, 26];

/** As drizzle's PGlite driver asks: rows as arrays, dates left as text. */
const queryOptions = {
  rowMode: "array" as const,
  parsers: {
    [types.TIMESTAMP]: (value: string) => value,
    [types.TIMESTAMPTZ]: (value: string) => value,
    [types.INTERVAL]: (value: string) => value,
    [types.DATE]: (value: string) => value,
  },
};

const openDatabase = (dir: string) => new PGlite(`${dir}/pglite`);

/**
 * The worker: the database, answering each statement with its rows. Plain JavaScript, so that it runs
 * without this script's TypeScript loader (which a worker thread does not inherit).
 */
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const load = createRequire(workerData.root + "/package.json");
(async () => {
  const { PGlite, types } = await import(load.resolve("@electric-sql/pglite"));
  const db = new PGlite(workerData.dir + "/pglite");
  await db.waitReady;
  const keep = (value) => value;
  const options = { rowMode: "array", parsers: { [types.TIMESTAMP]: keep, [types.TIMESTAMPTZ]: keep, [types.INTERVAL]: keep, [types.DATE]: keep } };
  parentPort.on("message", async ({ id, sql, params }) => {
    const result = await db.query(sql, params, options);
    parentPort.postMessage({ id, rows: result.rows });
  });
  parentPort.postMessage({ ready: true });
})();
`;

{
  const { values } = parseArgs({
    options: {
      dir: { type: "string" },
      duration: { type: "string", default: "10" },
      concurrency: { type: "string", default: "16" },
    },
  });
  if (!values.dir) throw new Error("--dir: a PGlite data directory (DATA_DIR of a seeded database)");
  const dir = values.dir;
  const durationMs = Number(values.duration) * 1000;
  const concurrency = Number(values.concurrency);

  /** CPU ms of this process's main thread and of all its other threads (the worker's, V8's, libuv's), from /proc. */
  const threadCpu = () => {
    const ticks = 1000 / 100; // USER_HZ
    let main = 0;
    let others = 0;
    for (const tid of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ms = (Number(fields[11]) + Number(fields[12])) * ticks;
      if (Number(tid) === process.pid) main += ms;
      else others += ms;
    }
    return { main, others };
  };

  type Run = (sql: string, params: unknown[]) => Promise<unknown[]>;
  async function measure(label: string, run: Run) {
    for (let i = 0; i < 200; i++) await run(pageStatement, pageParams); // warm up
    const utilisationBefore = performance.eventLoopUtilization();
    const cpuBefore = process.cpuUsage();
    const threadsBefore = threadCpu();
    const started = performance.now();
    let done = 0;
    let rows = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() - started < durationMs) {
          const answer = await run(pageStatement, pageParams);
          rows += answer.length;
          done++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const threadsAfter = threadCpu();
    const mainMs = (threadsAfter.main - threadsBefore.main) / done;
    const othersMs = (threadsAfter.others - threadsBefore.others) / done;
    const utilisation = performance.eventLoopUtilization(utilisationBefore).utilization;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(
      `${label}: ${Math.round(done / seconds)} statements a second (${rows / done} rows each); this thread ` +
        `busy ${(utilisation * 100).toFixed(0)} % = ${((utilisation * seconds * 1000) / done).toFixed(2)} ms a ` +
        `statement; CPU a statement: ${(cpuMs / done).toFixed(2)} ms in all, this thread ${mainMs.toFixed(2)}, ` +
        `the others (the worker's, V8's, libuv's) ${othersMs.toFixed(2)}`,
    );
  }

  // On this thread, as the server runs PGlite today.
  const inline = openDatabase(dir);
  await inline.waitReady;
  await measure(
    "on the server's thread",
    async (sql, params) => (await inline.query(sql, params, queryOptions)).rows,
  );
  await inline.close();

  // In a worker: this thread only sends the statement and receives the rows.
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { dir, root: new URL("..", import.meta.url).pathname },
  });
  const waiting = new Map<number, (rows: unknown[]) => void>();
  let nextId = 0;
  await new Promise<void>((resolve) =>
    worker.on("message", (message: { ready?: boolean; id: number; rows: unknown[] }) => {
      if (message.ready) return resolve();
      waiting.get(message.id)?.(message.rows);
      waiting.delete(message.id);
    }),
  );
  await measure(
    "in a worker thread",
    (sql, params) =>
      new Promise<unknown[]>((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        worker.postMessage({ id, sql, params });
      }),
  );
  await worker.terminate();
}
