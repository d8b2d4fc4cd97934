// User management at 10,000 people: seeds a fresh database, then times the list (both orders, first and a
// later page), searches, role filters and the counts through the real service, median of N runs.
//
//   npm run bench:users                          # embedded PGlite (in a temporary folder)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:users
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createDatabase, type Database } from "#server/db/client.ts";
import { users } from "#server/db/schema/index.ts";
import { listUsers, summarizeUsers } from "#server/features/users/user-management.service.ts";
import { type ListUsersQuery, listUsersQuerySchema } from "#shared/users/user-management.schemas.ts";

const peopleCount = Number(process.env.BENCH_USERS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 15);

async function openDatabase(): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) {
    const name = `helpdesk_bench_users_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = createDatabase({ databaseUrl: url.toString() });
    return {
      database,
      cleanup: async () => {
        await database.close();
        await admin.query(`drop database "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-bench-users-"));
  const database = createDatabase({ dataDir: dir });
  return {
    database,
    cleanup: async () => {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const { database, cleanup } = await openDatabase();
const { db } = database;
console.log(`Database: ${database.kind}; seeding ${peopleCount.toLocaleString("en")} people…`);
await database.migrate();

const first = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"];
const last = ["Smith", "Okafor", "Nguyen", "Garcia", "Müller", "Rossi", "Kowalski", "Tanaka", "Silva"];
const departments = ["General", "Finance", "Sales", "IT", "Operations", "Legal", "Marketing", "HR"];
const start = Date.parse("2024-01-01T00:00:00Z");
const seedStart = performance.now();
for (let offset = 0; offset < peopleCount; offset += 1000) {
  const batch = Array.from({ length: Math.min(1000, peopleCount - offset) }, (_, k) => {
    const i = offset + k;
    return {
      id: `bench-${i.toString().padStart(6, "0")}`,
      name: `${first[i % first.length]} ${last[(i * 7) % last.length]} ${i}`,
      email: `person${i}@corp.example`,
      role: i % 50 === 0 ? "admin" : i % 8 === 0 ? "technician" : "user",
      department: departments[i % departments.length]!,
      status: i % 20 === 0 ? "Inactive" : "Active",
      createdAt: new Date(start + i * 60_000),
    };
  });
  await db.insert(users).values(batch);
}
await db.execute(sql`analyze users`);
console.log(`Seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const ctx = { db, actor: { id: "bench-000000", role: "admin" as const } };
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time(label: string, work: () => Promise<unknown>) {
  await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await work();
    samples.push(performance.now() - t0);
  }
  console.log(`${label.padEnd(48)} ${median(samples).toFixed(2).padStart(7)} ms`);
}

const query = (input: Partial<Record<keyof ListUsersQuery, string>>) => listUsersQuerySchema.parse(input);

/** The cursor of the 20th page, to show a later page costs what the first does. */
async function cursorAt(input: Partial<Record<keyof ListUsersQuery, string>>, pages: number) {
  let cursor: string | undefined;
  for (let i = 0; i < pages; i++) {
    cursor = (await listUsers(ctx, query({ ...input, cursor }))).nextCursor ?? undefined;
  }
  return cursor;
}

await time("counts (one aggregate)", () => summarizeUsers(ctx));
await time("list newest, page 1", () => listUsers(ctx, query({})));
const newest20 = await cursorAt({}, 19);
await time("list newest, page 20", () => listUsers(ctx, query({ cursor: newest20 })));
await time("list by name, page 1", () => listUsers(ctx, query({ sort: "name" })));
const name20 = await cursorAt({ sort: "name" }, 19);
await time("list by name, page 20", () => listUsers(ctx, query({ sort: "name", cursor: name20 })));
await time("role = technician, page 1", () => listUsers(ctx, query({ role: "technician" })));
await time("role = admin (200 people), page 1", () => listUsers(ctx, query({ role: "admin" })));
await time('search "okafor" (many matches)', () => listUsers(ctx, query({ q: "okafor" })));
await time('search "person9876@" (one match)', () => listUsers(ctx, query({ q: "person9876@" })));
await time('search "nobody-at-all" (no match)', () => listUsers(ctx, query({ q: "nobody-at-all" })));
await time('search "finance" + role technician', () =>
  listUsers(ctx, query({ q: "finance", role: "technician" })),
);

await cleanup();
