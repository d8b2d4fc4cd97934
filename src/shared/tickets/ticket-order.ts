// A list's order, in a module without zod so that the lists on the browser's first screens can use it
// (ticket.schemas.ts validates the query with these).

/**
 * A list's order (decision 034): `newest` (the default, the same as created descending), by when raised,
 * last activity, priority (High > Medium > Low) or status (Open, In Progress, Resolved, Closed), each in
 * either direction; or (staff) the earliest due time first with tickets that owe nothing last.
 */
export const ticketSorts = ["newest", "created", "updated", "priority", "status", "due"] as const;
export type TicketSort = (typeof ticketSorts)[number];
export const sortDirections = ["asc", "desc"] as const;
export type SortDirection = (typeof sortDirections)[number];
/** Without `dir`: newest, most recently updated, highest priority first; status from Open to Closed. */
export const defaultSortDirection = (sort: TicketSort): SortDirection =>
  sort === "status" || sort === "due" ? "asc" : "desc";

/** Lists count up to here and then say "10,000+": an exact count at a million tickets reads them all. */
export const ticketCountCap = 10_000;
/**
 * A searched list counts up to here ("100+"): its count checks the search on every ticket it counts, and a
 * common word's 10,000 would be 100,000 tickets read (decision 067).
 */
export const searchCountCap = 100;
