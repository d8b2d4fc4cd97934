// `npm run seed -- --tickets 1000000 --users 5000 --technicians 200` fills the configured database
// (DATABASE_URL, else the embedded one in DATA_DIR, as `npm start` uses) with people and tickets for benches
// and demos (decision 040). Everyone signs in with the same password: --password, SEED_PASSWORD, or
// "seed-password" (printed at the end). Run it with the app stopped: each batch locks the tickets table.
//
//   --tickets N       tickets to add (default 10000)
//   --users N         people with the user role (default 500); --technicians N (25); --admins N (3)
//   --batch N         tickets per transaction (default 20000)
//   --no-vacuum       skip the final VACUUM ANALYZE (statistics and the visibility map for index-only scans)
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { hashPassword } from "#server/auth/password.ts";
import { createDatabase } from "#server/db/client.ts";
import { seedDatabase, seedEmail } from "#server/db/seed-database.ts";
import { loadDotEnvFile, loadEnv } from "#server/env.ts";

const { values } = parseArgs({
  options: {
    tickets: { type: "string", default: "10000" },
    users: { type: "string", default: "500" },
    technicians: { type: "string", default: "25" },
    admins: { type: "string", default: "3" },
    batch: { type: "string", default: "20000" },
    password: { type: "string" },
    "no-vacuum": { type: "boolean", default: false },
  },
});
const number = (name: keyof typeof values, min: number) => {
  const value = Number(String(values[name]).replaceAll("_", ""));
  if (!Number.isInteger(value) || value < min) {
    console.error(`--${name} must be a whole number of at least ${min}`);
    process.exit(2);
  }
  return value;
};
const options = {
  tickets: number("tickets", 0),
  users: number("users", 1),
  technicians: number("technicians", 1),
  admins: number("admins", 0),
  batchSize: number("batch", 1),
};
const password = values.password ?? process.env.SEED_PASSWORD ?? "seed-password";
if (password.length < 8) {
  console.error("The password must be at least 8 characters");
  process.exit(2);
}

loadDotEnvFile();
const env = loadEnv();
// No statement limit: one batch's statements take seconds, and the final VACUUM minutes at a million.
const database = createDatabase(
  env.DATABASE_URL
    ? { databaseUrl: env.DATABASE_URL, pool: { statementTimeoutMs: 3_600_000 } }
    : { dataDir: env.DATA_DIR },
);

function progressLine(done: number, total: number, startedAt: number) {
  const seconds = (performance.now() - startedAt) / 1000;
  const rate = done / Math.max(seconds, 0.001);
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const eta = rate > 0 ? (total - done) / rate : 0;
  const clock = (s: number) => `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done.toLocaleString("en")}/${total.toLocaleString("en")} tickets  ${Math.round(rate).toLocaleString("en")}/s  elapsed ${clock(seconds)}  eta ${clock(eta)}`;
}

try {
  console.log(`Seeding ${database.location}: ${JSON.stringify(options)}`);
  await database.migrate();
  const passwordHash = await hashPassword(password);
  const startedAt = performance.now();
  const interactive = process.stderr.isTTY;
  let lastPrinted = 0;
  const summary = await seedDatabase(database.db, {
    ...options,
    passwordHash,
    onProgress: ({ ticketsDone, ticketsTotal }) => {
      const line = progressLine(ticketsDone, ticketsTotal, startedAt);
      if (interactive) process.stderr.write(`\r${line}`);
      else if (performance.now() - lastPrinted > 5000 || ticketsDone === ticketsTotal) {
        lastPrinted = performance.now();
        process.stderr.write(`${line}\n`);
      }
    },
  });
  if (interactive) process.stderr.write("\n");
  const seededIn = (performance.now() - startedAt) / 1000;
  if (!values["no-vacuum"]) {
    const vacuumStart = performance.now();
    await database.db.execute(sql`vacuum analyze`);
    console.log(`VACUUM ANALYZE in ${((performance.now() - vacuumStart) / 1000).toFixed(1)} s`);
  }
  console.log(
    `Seeded ${options.tickets.toLocaleString("en")} tickets (ids TKT${summary.ticketPrefix}…) in ${seededIn.toFixed(1)} s; the database now holds:`,
  );
  for (const [table, count] of Object.entries(summary.counts))
    console.log(`  ${table.padEnd(16)} ${count.toLocaleString("en").padStart(12)}`);
  console.log(
    `Sign in as ${seedEmail("user", 1)}, ${seedEmail("technician", 1)} or ${seedEmail("admin", 1)} (and so on) with the password "${password}".`,
  );
} finally {
  await database.close();
}
