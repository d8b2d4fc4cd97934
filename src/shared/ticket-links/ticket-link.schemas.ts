/**
 * What a ticket is to the one it is linked to (decision 074): related to it, a duplicate of it, or a child
 * of it (the other is its parent).
 */
export const ticketLinkKinds = ["related", "duplicate", "child"] as const;
export type TicketLinkKind = (typeof ticketLinkKinds)[number];
