import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "./client.ts";
import { migrationsFolder } from "./migrations.ts";

// Several instances of the app starting at once against one fresh PostgreSQL database (a deploy of N
// replicas): each runs the migrations on start, and they must be applied once, not fail or run twice.

const templateUrl = inject("pgTemplateUrl");
const name = `helpdesk_concurrent_migrate_${Date.now().toString(36)}`;
let admin: pg.Client;
let url: string;

beforeAll(async () => {
  if (!templateUrl) return;
  const serverUrl = new URL(templateUrl);
  serverUrl.pathname = "/postgres";
  admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const databaseUrl = new URL(templateUrl);
  databaseUrl.pathname = `/${name}`;
  url = databaseUrl.toString();
});
afterAll(async () => {
  if (!templateUrl) return;
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
});

describe.skipIf(!templateUrl)("migrations started by several instances at once (PostgreSQL)", () => {
  it("applies each migration once and leaves the full schema", async () => {
    const instances = [1, 2, 3].map(() => createDatabase({ databaseUrl: url }));
    try {
      await Promise.all(instances.map((instance) => instance.migrate()));
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }

    const journal = JSON.parse(
      readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
    ) as {
      entries: { tag: string }[];
    };
    const columns = async (client: pg.Client) => {
      const result = await client.query<{ column: string }>(
        `select table_name || '.' || column_name || ' ' || data_type as column
           from information_schema.columns where table_schema = 'public' order by 1`,
      );
      return result.rows.map((row) => row.column);
    };
    const template = new pg.Client({ connectionString: templateUrl });
    await template.connect();
    const expected = await columns(template).finally(() => template.end());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const applied = await client.query<{ hash: string }>(
        "select hash from drizzle.__drizzle_migrations order by id",
      );
      expect(applied.rows).toHaveLength(journal.entries.length);
      expect(new Set(applied.rows.map((row) => row.hash)).size).toBe(journal.entries.length);
      // The same tables and columns as the suite's template, migrated once on its own.
      expect(expected.length).toBeGreaterThan(100);
      expect(await columns(client)).toEqual(expected);
    } finally {
      await client.end();
    }
  });
});
