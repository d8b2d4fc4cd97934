import { writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDatabase } from "#server/db/client.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A tarball of a freshly migrated PGlite data folder: loading it is ~10× faster than migrating. */
    pgliteSnapshot: string;
    /** With TEST_DATABASE_URL: a migrated template database each test file clones. */
    pgTemplateUrl: string;
  }
}

/**
 * Migrates once per run. On PGlite it saves a snapshot every test file loads; with TEST_DATABASE_URL
 * it creates a template database on that server, which each test file clones and drops (test-database.ts).
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const templateName = `helpdesk_tpl_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${templateName}"`);
    const templateUrl = withDatabase(serverUrl, templateName);
    const template = createDatabase({ databaseUrl: templateUrl });
    await template.migrate();
    await template.close();
    project.provide("pgTemplateUrl", templateUrl);
    project.provide("pgliteSnapshot", "");
    return async () => {
      await admin.query(`drop database if exists "${templateName}" with (force)`);
      await admin.end();
    };
  }

  const client = new PGlite();
  await createDatabase({ pglite: client }).migrate();
  const snapshot = await client.dumpDataDir("none");
  await client.close();
  const file = path.join(os.tmpdir(), `helpdesk-pglite-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  project.provide("pgliteSnapshot", file);
  project.provide("pgTemplateUrl", "");
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
