import { spawn } from "node:child_process";
import { existsSync, renameSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

/**
 * Backup and restore of either database (`npm run backup -- <file>`, `npm run restore -- <file>`).
 * PostgreSQL: pg_dump's custom format and pg_restore, while the app runs. PGlite: its data directory as a
 * gzipped tarball (PGlite's dumpDataDir / loadDataDir); the app must be stopped, since one process owns it.
 * Attachments live in the database, so the file holds everything but DATA_DIR's secrets (auth-secret,
 * admin-signup-key), which are kept separately (docs/operations.md).
 */
export type BackupTarget = { databaseUrl: string } | { dataDir: string };

/** The PGlite folder inside DATA_DIR, as createDatabase opens it. */
export const pgliteDirOf = (dataDir: string) => path.resolve(dataDir, "pglite");

export async function backupDatabase(target: BackupTarget, file: string): Promise<void> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  if ("databaseUrl" in target) {
    await run("pg_dump", ["--format=custom", "--no-owner", "--file", file, "--dbname", target.databaseUrl]);
    return;
  }
  const dir = pgliteDirOf(target.dataDir);
  if (!existsSync(dir)) throw new Error(`No PGlite database in ${dir} (DATA_DIR=${target.dataDir})`);
  const client = await PGlite.create(dir);
  try {
    const dump = await client.dumpDataDir("gzip");
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/**
 * Replaces the database's contents with the backup's. PGlite: the current folder is kept beside the new
 * one (pglite.before-restore-<time>), never deleted. PostgreSQL: every object in the backup is dropped
 * and recreated in one transaction, so a failed restore leaves the database as it was.
 */
export async function restoreDatabase(target: BackupTarget, file: string): Promise<{ keptAs?: string }> {
  if (!existsSync(file)) throw new Error(`No backup file at ${path.resolve(file)}`);
  if ("databaseUrl" in target) {
    await run("pg_restore", [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--single-transaction",
      "--exit-on-error",
      "--dbname",
      target.databaseUrl,
      file,
    ]);
    return {};
  }
  const dump = new Blob([await readFile(file)]);
  const dir = pgliteDirOf(target.dataDir);
  let keptAs: string | undefined;
  if (existsSync(dir)) {
    keptAs = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(dir, keptAs);
  }
  await mkdir(path.dirname(dir), { recursive: true });
  try {
    const client = await PGlite.create(dir, { loadDataDir: dump });
    await client.query("select 1");
    await client.close();
  } catch (error) {
    if (keptAs) renameSync(keptAs, dir);
    throw error;
  }
  return { keptAs };
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", (error) =>
      reject(new Error(`Could not run ${command} (is the PostgreSQL client installed?): ${error.message}`)),
    );
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}
