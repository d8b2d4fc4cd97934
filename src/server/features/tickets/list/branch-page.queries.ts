import { type AnyColumn, and, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { tickets } from "#server/db/schema/index.ts";
import { allTickets } from "#server/features/ticket-records/ticket-visibility.ts";

/**
 * How many pages' worth of the newest tickets (in the list's order) an admin's search reads before it may
 * ask the search index (decision 067): a word in at least one ticket in 40 fills its page from them.
 */
export const searchWindowPages = 40;

/** One selected column: the expression and the name the merged page reads it by. */
export type PageColumn = readonly [column: AnyColumn | SQL, alias: string];

export interface BranchPageQuery {
  /** The branch, the list's filters but the search, the cursor: what the page reads, in order. */
  where: SQL | undefined;
  /**
   * The branch is every ticket (an admin's list), not one person's tickets or the unassigned queue: only
   * there can a rare word leave a whole table to read (ticket-visibility.ts's allTickets).
   */
  wholeTable: boolean;
  /** The columns each row carries to the merge, in the same order for every branch and part. */
  selected: readonly PageColumn[];
  /** The order: the aliases of `selected`, most significant first, all in `dir`. */
  keyset: readonly string[];
  dir: "asc" | "desc";
  limit: number;
  /** The search's match (ticketSearchWhere), when the list has one. */
  search?: SQL;
}

/**
 * At most `limit` rows of one visibility branch, in order. Without a search, one read through the
 * branch's index in that order (decision 034). With one (decision 067), no plan is left to guess from the
 * word how common it is:
 * - a person's branch (their tickets, the unassigned queue) is read in order through its index, the search
 *   checked on each row, until `limit` match: a common word costs a few dozen rows, a rare one at most the
 *   branch. Never the search index, whose every match of a common word (a tenth of a million tickets) costs
 *   more than any one person's tickets.
 * - every ticket (an admin's list): the next `searchWindowPages × limit` tickets (the window) are read that
 *   way; when they hold `limit` matches the page is done. When they hold at least a fifth of it, the rest
 *   of the page is at most about four windows away at that density: read on the same way, for at most four
 *   windows more. When they hold fewer, or those do not finish the page, the search index finds the
 *   matches past the last ticket read, and only those are sorted: a rare word costs the window and its few
 *   matches.
 * Each part is exact, so together they are the branch's first `limit` matches; the merge sorts them.
 */
export function branchPage({
  where,
  wholeTable,
  selected,
  keyset,
  dir,
  limit,
  search,
}: BranchPageQuery): SQL {
  const columnOf = (alias: string) => selected.find(([, name]) => name === alias)![0];
  const select = sql.join(
    selected.map(([column, alias]) => sql`${column} as ${sql.identifier(alias)}`),
    sql`, `,
  );
  const direction = sql.raw(dir);
  const order = sql.join(
    keyset.map((alias) => sql`${columnOf(alias)} ${direction}`),
    sql`, `,
  );
  const rows = where ?? sql`true`;
  if (!search) {
    return sql`(select ${select} from ${tickets} where ${rows} order by ${order} limit ${limit})`;
  }
  const names = (aliases: readonly string[]) =>
    sql.join(
      aliases.map((alias) => sql.identifier(alias)),
      sql`, `,
    );
  const all = names(selected.map(([, alias]) => alias));
  // The search is a column of the rows read in order, not a condition the planner could take to the
  // search index (offset 0 keeps the subquery whole).
  if (!wholeTable) {
    return sql`(select ${all} from (select ${select}, ${search} as matched from ${tickets} where ${rows} order by ${order} offset 0) branch where matched limit ${limit})`;
  }
  const window = searchWindowPages * limit;
  const further = 4 * window;
  const dense = Math.ceil(limit / 5);
  const namedOrder = sql.join(
    keyset.map((alias) => sql`${sql.identifier(alias)} ${direction}`),
    sql`, `,
  );
  const keysetColumns = sql.join(
    keyset.map((alias) => columnOf(alias)),
    sql`, `,
  );
  const past = sql.raw(dir === "desc" ? "<" : ">");
  // Each CTE is read only as far as a part needs it, and a part whose gate is false reads nothing.
  const found = (cte: string) =>
    sql`(select count(*) from (select 1 from ${sql.identifier(cte)} where matched limit ${limit}) found)`;
  const lastOf = (cte: string, size: number) =>
    sql`(select ${names(keyset)} from ${sql.identifier(cte)} offset ${sql.raw(String(size - 1))} limit 1)`;
  const inOrder = (more: SQL) =>
    sql`select ${select}, ${search} as matched from ${tickets} where ${rows} and ${more} order by ${order}`;
  const matchesPast = (gate: SQL, boundary: SQL) =>
    sql`(select ${all} from (select ${select} from ${tickets} where ${and(where, search)} and ${gate} and (${keysetColumns}) ${past} ${boundary} offset 0) matches order by ${namedOrder} limit ${limit})`;
  const denseEnough = sql`${found("w")} between ${dense} and ${limit - 1}`;
  return sql`(with w as (${inOrder(sql`true`)} limit ${sql.raw(String(window))}),
      w2 as (${inOrder(sql`(${keysetColumns}) ${past} ${lastOf("w", window)}`)} limit ${sql.raw(String(further))})
    (select ${all} from w where matched limit ${limit})
    union all
    (select ${all} from w2 where matched and ${denseEnough} limit ${limit})
    union all
    ${matchesPast(sql`${found("w")} < ${dense}`, lastOf("w", window))}
    union all
    ${matchesPast(sql`${denseEnough} and ${found("w")} + ${found("w2")} < ${limit}`, lastOf("w2", further))})`;
}

/**
 * How many tickets a searched list matches, exact up to `cap` (decision 067). An exact count of a common
 * word reads its matches one by one whichever way it goes, so a search counts to a lower cap than the
 * other filters. A person's branch is counted as its page is read (branchPage, at most the branch). Every
 * ticket: the newest `searchWindowPages × (cap + 1)` are read in order; when they hold more than `cap`
 * matches the count is capped. Otherwise the word is rarer than that, and the search index counts its
 * matches (the count needs no order: it stops at `cap` + 1 without sorting them).
 */
export async function countSearchMatchesUpTo(
  db: Db,
  { branches, filters, search, cap }: { branches: SQL[]; filters?: SQL; search: SQL; cap: number },
): Promise<{ count: number; capped: boolean }> {
  if (branches.length === 0) return { count: 0, capped: false };
  const limit = cap + 1;
  const counts = branches.map((branch) => {
    if (branch === allTickets) {
      const where = and(branch, filters);
      return sql`(with w as (select ${search} as matched from ${tickets} where ${where} order by ${tickets.createdAt} desc, ${tickets.id} desc limit ${sql.raw(String(searchWindowPages * limit))})
        select case when (select count(*) from (select 1 from w where matched limit ${limit}) found) = ${limit} then ${limit}
          else (select count(*) from (select 1 from ${tickets} where ${and(where, search)} limit ${limit}) found) end::int as n)`;
    }
    return sql`(select count(*)::int as n from ${branchPage({
      where: and(branch, filters),
      wholeTable: false,
      selected: [
        [tickets.createdAt, "sort_at"],
        [tickets.id, "id"],
      ],
      keyset: ["sort_at", "id"],
      dir: "desc",
      limit,
      search,
    })} matched)`;
  });
  const result = await db.execute<{ total: number }>(
    sql`select coalesce(sum(n), 0)::int as total from (${sql.join(counts, sql` union all `)}) counts`,
  );
  const total = Number((result as unknown as { rows: Array<{ total: number }> }).rows[0]?.total ?? 0);
  return total > cap ? { count: cap, capped: true } : { count: total, capped: false };
}
