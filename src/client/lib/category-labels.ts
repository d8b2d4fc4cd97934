import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { i18n } from "#client/lib/i18n.ts";
import type { TicketCategory } from "#shared/tickets/ticket.schemas.ts";

/**
 * The four fixed categories as the interface shows them (tickets and help articles share them, decision
 * 038); the stored and sent value stays English.
 */
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
