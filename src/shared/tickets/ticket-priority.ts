/** The priorities a ticket may have, in a module without zod so that the browser's first screens can use it. */
export const ticketPriorities = ["Low", "Medium", "High"] as const;
export type TicketPriority = (typeof ticketPriorities)[number];
