import { createHash } from "node:crypto";

type Preparable<R> = { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<R> } };

/**
 * Runs a drizzle query as a named prepared statement (decision 044). PostgreSQL then parses it once per
 * connection and, after a few runs, reuses a generic plan instead of planning every request: planning the
 * list's page costs about three times executing it on a table with thirty indexes. The name is a hash of
 * the SQL text, so one name never stands for two texts (node-postgres refuses that). PGlite ignores it.
 */
export function runPrepared<R>(query: Preparable<R>): Promise<R> {
  const name = `q_${createHash("sha1").update(query.toSQL().sql).digest("base64url").slice(0, 24)}`;
  return query.prepare(name).execute();
}
