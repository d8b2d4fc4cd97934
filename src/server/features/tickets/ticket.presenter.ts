import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { TicketWithNames } from "./ticket.queries.ts";

export function toTicketDto(row: TicketWithNames): Ticket {
  return {
    ticketId: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    priority: row.priority,
    status: row.status,
    createdBy: row.createdBy,
    createdByName: row.createdByName,
    assignedTo: row.assignedTo,
    assignedToName: row.assignedToName,
    department: row.department,
    floor: row.floor,
    officeNumber: row.officeNumber,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
