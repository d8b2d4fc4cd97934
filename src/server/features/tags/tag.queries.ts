import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { tickets } from "#server/db/schema/index.ts";

/** How many suggestions the tag control is offered at most. */
export const tagSuggestionLimit = 100;

/**
 * The tags in use, most used first (then by name), with how many tickets carry each: read from the tagged
 * tickets only (tickets_tagged_idx), whoever may see them (decision 071). `prefix` narrows to the tags
 * that start with it; `only` to the tags of a fixed list.
 */
export async function findTagCounts(
  db: Db,
  { prefix, only, limit }: { prefix?: string; only?: readonly string[]; limit: number },
): Promise<Array<{ tag: string; count: number }>> {
  const escaped = prefix?.replace(/[\\%_]/g, (character) => `\\${character}`);
  const result = await db.execute(sql`
    select t.tag as tag, count(*)::int as count
      from ${tickets} cross join lateral unnest(${tickets.tags}) as t(tag)
     where ${tickets.tags} <> '{}'::text[]
       ${escaped ? sql`and t.tag like ${`${escaped}%`}` : sql``}
       ${only ? sql`and t.tag = any(${sql.param([...only])}::text[])` : sql``}
     group by t.tag
     order by count(*) desc, t.tag
     limit ${limit}`);
  return (result as unknown as { rows: Array<{ tag: string; count: number | string }> }).rows.map((row) => ({
    tag: row.tag,
    count: Number(row.count),
  }));
}
