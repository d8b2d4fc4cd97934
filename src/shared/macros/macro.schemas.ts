import type { TicketPriority, TicketStatus } from "#shared/tickets/ticket.schemas.ts";

/**
 * What a macro changes besides its reply (decision 075); a field left out is left alone. `assigneeId`
 * "me" is whoever applies it; null returns the ticket to the queue. `teamId` null takes it out of any team.
 */
export interface MacroActions {
  status?: TicketStatus;
  priority?: TicketPriority;
  teamId?: string | null;
  assigneeId?: string | null;
  addTags?: string[];
  removeTags?: string[];
  /** Put the ticket on hold (the reply is the public comment a hold needs), or take it off. */
  hold?: "on" | "off";
}
