import { validationFailed } from "#server/errors.ts";
import { ticketIdPattern, ticketPriorities, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import type { DueKeyset, KeysetSort, SortDirection, SortedKeyset } from "./ticket-pages.queries.ts";

/**
 * The list's page cursors: opaque to callers (base64url), each naming its order so that a cursor of one
 * order is refused by another (decisions 004, 034), and a sync's (decision 079).
 */

// Newest first keeps the cursor it always had (`<created>|<id>`); every other order names itself first
// (`priority.desc|High|<created>|<id>`), so that a cursor of one order is refused by another.
export function encodeSortedCursor(
  { rank, at, id }: SortedKeyset,
  order: { sort: KeysetSort; dir: SortDirection },
) {
  const isNewest = order.sort === "created" && order.dir === "desc";
  const parts = [
    ...(isNewest ? [] : [`${order.sort}.${order.dir}`]),
    ...(rank ? [rank] : []),
    at.toISOString(),
    id,
  ];
  return Buffer.from(parts.join("|")).toString("base64url");
}

// A due-time cursor names its sort ("due|…"), so a cursor of the newest-first list is refused here and
// the other way round; "-" stands for the tickets without a due time, read last.
export function encodeDueCursor({ slaDueAt, id }: DueKeyset): string {
  return Buffer.from(`due|${slaDueAt ? slaDueAt.toISOString() : "-"}|${id}`).toString("base64url");
}

// Exactly what encodeCursor writes: a four-digit year keeps the date inside both JavaScript's and
// PostgreSQL's range, and the round trip refuses dates like 2024-02-31 that Date would roll over.
const cursorDatePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const invalidCursor = () => validationFailed("cursor: Not a valid page cursor");

function dateOfCursor(iso: string | undefined): Date {
  if (!iso || !cursorDatePattern.test(iso)) throw invalidCursor();
  const at = new Date(iso);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== iso) throw invalidCursor();
  return at;
}

const ranksOf: Record<KeysetSort, readonly string[] | null> = {
  created: null,
  updated: null,
  priority: ticketPriorities,
  status: ticketStatuses,
};

export function decodeSortedCursor(
  cursor: string,
  order: { sort: KeysetSort; dir: SortDirection },
): SortedKeyset {
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const isNewest = order.sort === "created" && order.dir === "desc";
  if (!isNewest && parts.shift() !== `${order.sort}.${order.dir}`) throw invalidCursor();
  const ranks = ranksOf[order.sort];
  const rank = ranks ? parts.shift() : undefined;
  if (ranks && (rank === undefined || !ranks.includes(rank))) throw invalidCursor();
  const [iso, id] = parts;
  if (parts.length !== 2 || !id || !ticketIdPattern.test(id)) throw invalidCursor();
  return { ...(rank ? { rank } : {}), at: dateOfCursor(iso), id };
}

export function decodeDueCursor(cursor: string): DueKeyset {
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const [kind, iso, id] = parts;
  if (parts.length !== 3 || kind !== "due" || !id || !ticketIdPattern.test(id)) throw invalidCursor();
  return { slaDueAt: iso === "-" ? null : dateOfCursor(iso), id };
}

/**
 * How far back a sync's next start reaches (decision 079): a change is stamped with its writer's clock when
 * it starts and becomes visible when it commits, so one that committed after the sync had read past its time
 * is read by the next sync instead of missed. A minute is far longer than any write takes here.
 */
export const syncOverlapMs = 60_000;

/** Where a sync stopped: when its first page was read (kept for its last), and the last ticket's keyset. */
export interface SyncPosition {
  startedAt: Date;
  after: SortedKeyset;
}

// `sync|<first page's time>|<updated>|<id>`: a list's cursor is refused by a sync and the other way round.
export function encodeSyncCursor({ startedAt, after }: SyncPosition): string {
  return Buffer.from(`sync|${startedAt.toISOString()}|${after.at.toISOString()}|${after.id}`).toString(
    "base64url",
  );
}

export function decodeSyncCursor(cursor: string): SyncPosition {
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const [kind, started, iso, id] = parts;
  if (parts.length !== 4 || kind !== "sync" || !id || !ticketIdPattern.test(id)) throw invalidCursor();
  return { startedAt: dateOfCursor(started), after: { at: dateOfCursor(iso), id } };
}

/**
 * The updatedSince of the next sync: the time the first page was read, less the overlap — a change that
 * commits after that page with an earlier time was stamped at most syncOverlapMs before it — but never
 * before where this sync started (what came before it was not asked for).
 */
export function nextUpdatedSinceOf(updatedSince: string, startedAt: Date): string {
  const reachBack = startedAt.getTime() - syncOverlapMs;
  return new Date(Math.max(new Date(updatedSince).getTime(), reachBack)).toISOString();
}
