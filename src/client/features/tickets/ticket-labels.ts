import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { TicketCategory, TicketPriority, TicketStatus } from "#shared/tickets/ticket.schemas.ts";
import { i18n } from "../../lib/i18n.ts";

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

/** The four fixed categories as the interface shows them; the stored and sent value stays English. */
export const categoryLabels: Record<TicketCategory, MessageDescriptor> = {
  Hardware: msg`Hardware`,
  Software: msg`Software`,
  Network: msg`Network`,
  Other: msg`Other`,
};

/** Options of a select whose values are the API's and whose labels are in the active language. */
export const labelledOptions = <T extends string>(
  values: readonly T[],
  labels: Record<T, MessageDescriptor>,
) => values.map((value) => ({ value, label: i18n._(labels[value]) }));
