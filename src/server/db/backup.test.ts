import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { insertTicket, insertUser } from "#server/test/factories.ts";
import { withDatabase } from "#server/test/global-setup.ts";
import { type BackupTarget, backupDatabase, restoreDatabase } from "./backup.ts";
import { createDatabase, type Database } from "./client.ts";
import { attachmentChunks, attachments, ticketComments } from "./schema/index.ts";

// `npm run backup` then `npm run restore` on the database this suite runs on (PGlite with npm test,
// PostgreSQL with npm run test:pg): what was there when the backup was taken is there again, byte for byte.

const templateUrl = inject("pgTemplateUrl");
const workDir = mkdtempSync(path.join(os.tmpdir(), "helpdesk-backup-"));
const backupFile = path.join(workDir, "backups", "helpdesk.backup");
let cleanup = async () => {};
afterAll(async () => {
  await cleanup();
  rmSync(workDir, { recursive: true, force: true });
});

async function makeTarget(): Promise<{ target: BackupTarget; open: () => Promise<Database> }> {
  if (!templateUrl) {
    const target = { dataDir: path.join(workDir, "data") };
    return { target, open: async () => createDatabase(target) };
  }
  const name = `helpdesk_backup_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: withDatabase(templateUrl, "postgres") });
  await admin.connect();
  await admin.query(`create database "${name}" template "${new URL(templateUrl).pathname.slice(1)}"`);
  cleanup = async () => {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
  const target = { databaseUrl: withDatabase(templateUrl, name) };
  return { target, open: async () => createDatabase(target) };
}

const compared = ["users", "tickets", "ticket_comments", "attachments", "attachment_chunks"] as const;

/** Every row of the compared tables, in a stable order, as JSON (bytes as hex). */
async function contents({ db }: Database) {
  const out: Record<string, unknown[]> = {};
  for (const table of compared) {
    const key = table === "attachment_chunks" ? "attachment_id, seq" : "id";
    const result = await db.execute(sql.raw(`select * from ${table} order by ${key}`));
    out[table] = (result as unknown as { rows: Record<string, unknown>[] }).rows.map((row) =>
      JSON.parse(
        JSON.stringify(row, (_key, value) =>
          value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value,
        ),
      ),
    );
  }
  return out;
}

describe(`backup and restore (${templateUrl ? "PostgreSQL: pg_dump / pg_restore" : "PGlite: data directory"})`, () => {
  it("brings back users, tickets, comments and attachments exactly as they were", async () => {
    const { target, open } = await makeTarget();
    let database = await open();
    await database.migrate();
    const { db } = database;
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await insertUser(db, { role: i === 0 ? "technician" : "user" }));
    for (let i = 0; i < 12; i++) {
      const author = people[i % 3]!;
      const ticket = await insertTicket(db, { createdBy: author.id, title: `Ticket ${i} — ünïcode ✓` });
      const commentId = `cmt_backup_${i}`;
      await db
        .insert(ticketComments)
        .values({ id: commentId, ticketId: ticket.id, authorId: author.id, message: `Reply ${i}` });
      const attachmentId = `att_backup_${i}`;
      await db.insert(attachments).values({
        id: attachmentId,
        ticketId: ticket.id,
        commentId,
        uploadedBy: author.id,
        fileName: `log-${i}.bin`,
        contentType: "application/octet-stream",
        size: 256,
        status: "linked",
      });
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, b) => (b * (i + 1)) % 256));
      await db.insert(attachmentChunks).values({ attachmentId, seq: 0, data: bytes });
    }
    const before = await contents(database);
    expect(before.tickets).toHaveLength(12);
    expect(before.attachment_chunks).toHaveLength(12);
    await database.close();

    await backupDatabase(target, backupFile);

    // Things change after the backup: a ticket and its thread are deleted, another one is added.
    database = await open();
    const [first] = before.tickets as { id: string }[];
    await database.db.execute(sql`delete from tickets where id = ${first!.id}`);
    await insertTicket(database.db, { createdBy: people[0]!.id, title: "After the backup" });
    expect(await contents(database)).not.toEqual(before);
    await database.close();

    const { keptAs } = await restoreDatabase(target, backupFile);

    database = await open();
    try {
      expect(await contents(database)).toEqual(before);
    } finally {
      await database.close();
    }
    if ("dataDir" in target) {
      // The database that was replaced is kept beside it, not deleted.
      expect(keptAs).toBeDefined();
      expect(readdirSync(target.dataDir)).toContain(path.basename(keptAs!));
    }
  }, 120_000);
});
