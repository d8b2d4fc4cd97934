import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";

// "A refused call changes nothing" (decision 045): every table's row count and an
// md5 of its content, read in one query the same way on PGlite and PostgreSQL; tables are read from
// pg_tables, so tables added later are covered without touching the tests.

/**
 * Tables that change whatever the outcome of a call, and why: rate_limits counts every API-token request
 * (the per-token limit) and every sign-in attempt; app_instances is each instance's heartbeat, written
 * every 2 s on its own timer (decision 041).
 */
const changingOnTheirOwn = ["rate_limits", "app_instances"];

export type TableSnapshot = Record<string, string>;

/**
 * Prepares the query once (after the schema is migrated) and answers a function that takes a snapshot:
 * table name → "count hash". `ignoredColumns` leaves columns out of a table's content (e.g. api_tokens'
 * last_used_at, which a refused call with a token still sets).
 */
export async function tableSnapshotter(
  db: Db,
  { ignoredColumns = {} }: { ignoredColumns?: Record<string, string[]> } = {},
): Promise<() => Promise<TableSnapshot>> {
  const result = (await db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as unknown as { rows: { tablename: string }[] };
  const query = result.rows
    .map((row) => row.tablename)
    .filter((name) => !changingOnTheirOwn.includes(name))
    .map((name) => {
      const content = (ignoredColumns[name] ?? []).reduce(
        (row, column) => `(${row} - '${column}')`,
        "to_jsonb(t)",
      );
      return `select '${name}' as name, count(*)::int as count, md5(coalesce(string_agg((${content})::text, '|' order by (${content})::text), '')) as hash from "${name}" t`;
    })
    .join(" union all ");
  return async () => {
    const rows = (await db.execute(sql.raw(query))) as unknown as {
      rows: { name: string; count: number; hash: string }[];
    };
    return Object.fromEntries(rows.rows.map((row) => [row.name, `${row.count} ${row.hash}`]));
  };
}

/** The tables whose content differs between two snapshots. */
export const changedTables = (before: TableSnapshot, after: TableSnapshot) =>
  Object.keys(after).filter((name) => after[name] !== before[name]);

/**
 * Waits until the mail and webhook senders have sent what the last call queued: they write as they send,
 * which must not be blamed on the next call.
 */
export async function settleOutboxes(db: Db) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const result = (await db.execute(
      sql`select (select count(*) from mail_outbox where status = 'pending')
               + (select count(*) from webhook_deliveries where status = 'pending') as pending`,
    )) as unknown as { rows: { pending: number | string }[] };
    if (Number(result.rows[0]?.pending) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("mail or webhook deliveries still pending after 5 s");
}
