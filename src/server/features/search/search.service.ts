import type { ServiceContext } from "#server/context.ts";
import { listTicketsFor } from "#server/features/tickets/ticket.service.ts";
import { can } from "#shared/permissions.ts";
import {
  type PersonResult,
  type SearchQuery,
  type SearchResults,
  searchPeopleLimit,
  searchTicketLimit,
} from "#shared/search/search.schemas.ts";
import type { Role } from "#shared/users/roles.ts";
import { findActivePeopleByName } from "./search.queries.ts";

/** "TKT-4F2…" or "tkt 4f2…" → "TKT4F2…": people write ids with a separator the id does not have. */
export function normalizeTicketIdPrefix(q: string): string {
  return /^tkt[-\s]+[0-9a-z]+$/i.test(q) ? q.replace(/[-\s]+/, "") : q;
}

/**
 * The command palette: the tickets the caller may see (the ticket list's own search and visibility
 * rule, so internal notes are never searched), and for staff the active people whose name matches.
 */
export async function searchFor(ctx: ServiceContext, { q }: SearchQuery): Promise<SearchResults> {
  const [page, people] = await Promise.all([
    listTicketsFor(ctx, { scope: "visible", q: normalizeTicketIdPrefix(q), limit: searchTicketLimit }),
    findPeopleFor(ctx, q),
  ]);
  return { tickets: page.items, people };
}

async function findPeopleFor(ctx: ServiceContext, q: string): Promise<PersonResult[]> {
  if (!can.findPeople(ctx.actor)) return [];
  const rows = await findActivePeopleByName(ctx.db, q, searchPeopleLimit);
  return rows.map((row) => ({ id: row.id, name: row.name, role: row.role as Role }));
}
