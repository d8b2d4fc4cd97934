/** The four statuses a ticket may have, in a module of its own so that any module can name them without a circle. */
export const ticketStatuses = ["Open", "In Progress", "Resolved", "Closed"] as const;
export type TicketStatus = (typeof ticketStatuses)[number];
