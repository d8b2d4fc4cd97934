import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { assignTicketToMe } from "#server/features/tickets/assign-ticket.service.ts";
import { createDatabase, type Database } from "./client.ts";
import { migrationsFolder } from "./migrations.ts";

// 0003 repairs rows written before its rules existed: an unassigned ticket stuck In Progress goes back to
// Open (so Assign to Me works on it), and resolved_by is filled in from the timeline.

/** The migrations folder as it was before `tag`: a journal that stops just before it. */
function migrationsBefore(tag: string): string {
  const folder = path.join(mkdtempSync(path.join(os.tmpdir(), "helpdesk-migrations-")), "drizzle");
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

let database: Database;
let migrateTo: (folder: string) => Promise<void>;
let dropDatabase = async () => {};
const olderFolder = migrationsBefore("0003_resolved_by_and_no_stuck_tickets");

beforeAll(async () => {
  const templateUrl = inject("pgTemplateUrl");
  if (!templateUrl) {
    const client = new PGlite();
    database = createDatabase({ pglite: client });
    migrateTo = (folder) => migratePglite(drizzlePglite(client), { migrationsFolder: folder });
    return;
  }
  // An empty database of its own on the test server (the template is already fully migrated).
  const name = `helpdesk_migration_${Date.now().toString(36)}`;
  const serverUrl = new URL(templateUrl);
  serverUrl.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  database = createDatabase({ databaseUrl: url.toString() });
  // The app's own pool: a second one would see its connections ended by the drop below.
  const db = database.db as unknown as NodePgDatabase;
  migrateTo = (folder) => migratePg(db, { migrationsFolder: folder });
  dropDatabase = async () => {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
});
afterAll(async () => {
  await database.close();
  await dropDatabase();
  rmSync(path.dirname(olderFolder), { recursive: true, force: true });
});

const ids = {
  stuck: "TKT0M5AAAAAA0000001",
  resolvedThenClosed: "TKT0M5AAAAAA0000002",
  reopened: "TKT0M5AAAAAA0000003",
  resolvedByAdmin: "TKT0M5AAAAAA0000004",
};

describe("migration 0003", () => {
  it("puts stuck tickets back to Open and fills in who resolved each ticket", async () => {
    await migrateTo(olderFolder);
    const { db } = database;
    await db.execute(sql`insert into users (id, name, email, role) values
      ('u1', 'Uma', 'u1@example.test', 'user'), ('t1', 'Theo', 't1@example.test', 'technician'),
      ('a1', 'Ada', 'a1@example.test', 'admin')`);
    const ticket = (id: string, status: string, assignedTo: string | null) =>
      db.execute(sql`insert into tickets (id, title, description, status, created_by, assigned_to)
        values (${id}, 'Printer', 'Jams', ${status}, 'u1', ${assignedTo})`);
    const event = (id: string, ticketId: string, actor: string, from: string, to: string, at: string) =>
      db.execute(sql`insert into ticket_events (id, ticket_id, type, actor_id, from_status, to_status, created_at)
        values (${id}, ${ticketId}, 'status_changed', ${actor}, ${from}, ${to}, ${at}::timestamptz)`);
    await ticket(ids.stuck, "In Progress", null);
    await event("EVT1", ids.stuck, "a1", "Open", "In Progress", "2024-01-01T10:00:00Z");
    await ticket(ids.resolvedThenClosed, "Closed", "t1");
    await event("EVT2", ids.resolvedThenClosed, "t1", "In Progress", "Resolved", "2024-01-01T10:00:00Z");
    await event("EVT3", ids.resolvedThenClosed, "a1", "Resolved", "Closed", "2024-01-01T11:00:00Z");
    await ticket(ids.reopened, "In Progress", "t1");
    await event("EVT4", ids.reopened, "t1", "In Progress", "Resolved", "2024-01-01T10:00:00Z");
    await event("EVT5", ids.reopened, "t1", "Resolved", "In Progress", "2024-01-01T11:00:00Z");
    await ticket(ids.resolvedByAdmin, "Resolved", "t1");
    await event("EVT6", ids.resolvedByAdmin, "a1", "In Progress", "Resolved", "2024-01-01T10:00:00Z");

    await migrateTo(migrationsFolder);

    const result = await db.execute<{ id: string; status: string; resolved_by: string | null }>(
      sql`select id, status, resolved_by from tickets order by id`,
    );
    const rows = (result as unknown as { rows: { id: string; status: string; resolved_by: string | null }[] })
      .rows;
    expect(rows).toEqual([
      { id: ids.stuck, status: "Open", resolved_by: null },
      { id: ids.resolvedThenClosed, status: "Closed", resolved_by: "t1" },
      { id: ids.reopened, status: "In Progress", resolved_by: null },
      { id: ids.resolvedByAdmin, status: "Resolved", resolved_by: "a1" },
    ]);

    // The repaired ticket can be taken again, and its timeline says it went back to Open.
    const assigned = await assignTicketToMe({ db, actor: { id: "t1", role: "technician" } }, ids.stuck);
    expect(assigned).toMatchObject({ status: "In Progress", assignedTo: "t1" });
    const events = await db.execute(
      sql`select from_status, to_status from ticket_events where ticket_id = ${ids.stuck} order by created_at`,
    );
    expect((events as unknown as { rows: unknown[] }).rows).toEqual([
      { from_status: "Open", to_status: "In Progress" },
      { from_status: "In Progress", to_status: "Open" },
      { from_status: "Open", to_status: "In Progress" },
    ]);
  });
});
