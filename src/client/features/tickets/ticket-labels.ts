import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { TicketPriority, TicketStatus } from "#shared/tickets/ticket.schemas.ts";

/**
 * How a status or priority reads in the active language (decision 038). The API's values stay English:
 * these are only what the interface shows.
 */
export const statusLabels: Record<TicketStatus, MessageDescriptor> = {
  Open: msg`Open`,
  "In Progress": msg`In Progress`,
  Resolved: msg`Resolved`,
  Closed: msg`Closed`,
};

export const priorityLabels: Record<TicketPriority, MessageDescriptor> = {
  Low: msg`Low`,
  Medium: msg`Medium`,
  High: msg`High`,
};
