import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { i18n } from "#client/lib/i18n.ts";
import type { TicketCategory, TicketPriority, TicketStatus } from "#shared/tickets/ticket.schemas.ts";

// A ticket's fixed values as the interface shows them in the active language (decision 038); the stored
// and sent values stay English. One place for every feature that names them (tickets, macros, automation
// rules, notifications, the command palette, help articles), so the catalogues hold each text once.

/** The four fixed categories (tickets and help articles share them). */
export const categoryLabels: Record<TicketCategory, MessageDescriptor> = {
  Hardware: msg`Hardware`,
  Software: msg`Software`,
  Network: msg`Network`,
  Other: msg`Other`,
};

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

export const statusLabel = (status: TicketStatus) => i18n._(statusLabels[status]);
export const priorityLabel = (priority: TicketPriority) => i18n._(priorityLabels[priority]);

/** Options of a select whose values are the API's and whose labels are in the active language. */
export const labelledOptions = <T extends string>(
  values: readonly T[],
  labels: Record<T, MessageDescriptor>,
) => values.map((value) => ({ value, label: i18n._(labels[value]) }));
