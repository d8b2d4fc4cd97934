import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { LinkableRelation, TicketLinkRelation } from "#shared/ticket-links/ticket-link.schemas.ts";
import type { TicketStatus } from "#shared/tickets/ticket.schemas.ts";

/** What the other ticket is, as the "Linked tickets" list names it (decision 074). */
export const relationLabels: Record<TicketLinkRelation, MessageDescriptor> = {
  related: msg`Related`,
  duplicate_of: msg`Duplicate of`,
  has_duplicate: msg`Has duplicate`,
  parent: msg`Parent`,
  child: msg`Child`,
  // Decision 077: this ticket is affected by the other, a major incident; or it is the incident.
  affected_by: msg`Affected by major incident`,
  affects: msg`Affects`,
};

/** The same relation as the add form asks it: "This ticket is … TKT…". */
export const relationChoices: Record<LinkableRelation, MessageDescriptor> = {
  related: msg`related to`,
  duplicate_of: msg`a duplicate of`,
  has_duplicate: msg`duplicated by`,
  parent: msg`a child of`,
  child: msg`the parent of`,
};

/** A status as the screens name it (the tickets feature's own texts: one translation each). */
export const statusNames: Record<TicketStatus, MessageDescriptor> = {
  Open: msg`Open`,
  "In Progress": msg`In Progress`,
  Resolved: msg`Resolved`,
  Closed: msg`Closed`,
};
