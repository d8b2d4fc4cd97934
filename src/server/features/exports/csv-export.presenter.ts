import type { UserRow } from "#server/db/schema/index.ts";
import type { TicketWithNames } from "#server/features/ticket-records/ticket.queries.ts";

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export const ticketCsvHeader = [
  "Ticket ID",
  "Title",
  "Status",
  "Priority",
  "Category",
  "Department",
  "Floor",
  "Office Number",
  "Created by",
  "Assigned to",
  "Created",
  "Updated",
  // Decision 070: empty when the ticket does not wait on its requester.
  "On hold since",
] as const;

/**
 * Staff see service levels (decision 019): the stored due times, empty where the policy sets none; and the
 * tags (decision 071), separated by ", " (a tag holds no comma).
 */
export const ticketDueCsvHeader = ["First response due", "Resolution due", "Tags"] as const;

export function toTicketCsvCells(row: TicketWithNames, withDueTimes: boolean): Array<string | null> {
  const cells = [
    row.id,
    row.title,
    row.status,
    row.priority,
    row.category,
    row.department,
    row.floor,
    row.officeNumber,
    row.createdByName,
    row.assignedToName,
    iso(row.createdAt),
    iso(row.updatedAt),
    iso(row.onHoldSince),
  ];
  return withDueTimes
    ? [...cells, iso(row.firstResponseDueAt), iso(row.resolutionDueAt), row.tags.join(", ")]
    : cells;
}

export const userCsvHeader = [
  "Name",
  "Email",
  "Role",
  "Department",
  "Status",
  "Created",
  "Last login",
] as const;

export function toUserCsvCells(row: UserRow): Array<string | null> {
  return [row.name, row.email, row.role, row.department, row.status, iso(row.createdAt), iso(row.lastLogin)];
}
