import { createHash } from "node:crypto";

type Preparable<R> = { prepare(name: string): { execute(): Promise<R> } };

/** What drizzle's node-postgres prepared query keeps (drizzle-orm 0.45); PGlite's has none of it. */
interface NodePgPrepared {
  queryString?: string;
  rawQueryConfig?: { name?: string };
  queryConfig?: { name?: string };
}

/**
 * Names a prepared query drizzle has built after its SQL text (decision 044), so that PostgreSQL parses it
 * once per connection and, after a few runs, reuses a generic plan instead of planning every request:
 * planning the list's page costs about three times executing it on a table with thirty indexes. The name
 * is a hash of the SQL text, so one name never stands for two texts (node-postgres refuses that). PGlite's
 * prepared query has no name to set and runs unnamed.
 */
export function nameAfterText<P>(prepared: P): P {
  const config = prepared as unknown as NodePgPrepared;
  if (config.queryString !== undefined && config.rawQueryConfig && config.queryConfig) {
    const name = `q_${createHash("sha1").update(config.queryString).digest("base64url").slice(0, 24)}`;
    config.rawQueryConfig.name = name;
    config.queryConfig.name = name;
  }
  return prepared;
}

/**
 * Runs a drizzle query as a named prepared statement (nameAfterText). The SQL is built for this call; a
 * query run on every request is better built once per shape (statement-shapes.ts, decision 066).
 */
export function runPrepared<R>(query: Preparable<R>): Promise<R> {
  return nameAfterText(query.prepare("")).execute();
}
