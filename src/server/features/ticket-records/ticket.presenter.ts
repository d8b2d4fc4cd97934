import type { TicketWithNames } from "#server/features/ticket-records/ticket.queries.ts";
import { type AutoCloseSettings, autoCloseAtOf } from "#shared/service-levels/auto-close.schemas.ts";
import type { TicketSla } from "#shared/service-levels/ticket-sla.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

/** What a ticket's DTO depends on besides its row: read once per request (ticketDtoContext). */
export interface TicketDtoContext {
  autoClose: AutoCloseSettings;
  now: Date;
  /** Whether the caller is shown the ticket's team (can.seeTeams: staff, decision 069). */
  showsTeam: boolean;
  /** Whether the caller is shown the ticket's tags (can.seeTags: staff, decision 071). */
  showsTags: boolean;
}

/** `sla` comes from ticketSlaFor (null for those who do not see service levels). */
export function toTicketDto(
  row: TicketWithNames,
  { autoClose, now, showsTeam, showsTags }: TicketDtoContext,
  sla: TicketSla | null,
): Ticket {
  const autoCloseAt = autoCloseAtOf({ status: row.status, lastActivityAt: row.updatedAt }, autoClose, now);
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
    autoCloseAt: autoCloseAt?.toISOString() ?? null,
    sla,
    onHoldSince: row.onHoldSince?.toISOString() ?? null,
    holdUntil: row.holdUntil?.toISOString() ?? null,
    teamId: showsTeam ? row.teamId : null,
    teamName: showsTeam ? row.teamName : null,
    tags: showsTags ? row.tags : null,
    mergedIntoId: row.mergedIntoId,
    externalRef: row.externalRef,
  };
}
