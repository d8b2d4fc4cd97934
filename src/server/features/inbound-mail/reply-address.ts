import { createHmac, timingSafeEqual } from "node:crypto";
import { ticketIdPattern } from "#shared/tickets/ticket.schemas.ts";

/**
 * Signed reply addresses (decision 028): `reply+<ticketId>.<userId>.<hmac>@<domain>`, or
 * `reply+<ticketId>.<userId>.note.<hmac>@<domain>` on mail about staff-only events, whose reply becomes
 * an internal note rather than a comment the requester reads. The HMAC (SHA-256, 96 bits in hex, so that
 * a mail system that lower-cases it changes nothing) proves that we wrote the address for that person
 * about that ticket: nobody can reply as someone else, or onto another ticket, by editing it.
 */
export interface ReplyTarget {
  ticketId: string;
  userId: string;
  /** A reply becomes an internal note (the mail was about an internal note or a service-level alert). */
  isInternal: boolean;
}

export const replyLocalPrefix = "reply+";
const version = "1";
const signatureHexLength = 24;
// Characters a local part may hold without quoting, and never a dot: dots separate the fields.
const userIdPattern = /^[A-Za-z0-9_-]{1,100}$/;

// A key of its own, derived from the auth secret with a label, like the unsubscribe tokens' (their
// signatures can never stand in for one another).
const keyFrom = (secret: string) =>
  createHmac("sha256", secret).update(`helpdesk reply address v${version}`).digest();

const sign = (secret: string, { ticketId, userId, isInternal }: ReplyTarget) =>
  createHmac("sha256", keyFrom(secret))
    .update(`${ticketId}|${userId}|${isInternal ? "note" : "reply"}`)
    .digest()
    .subarray(0, signatureHexLength / 2);

/** The local part (before the @) of the reply address, or null for an id that cannot stand in one. */
export function replyLocalPart(secret: string, target: ReplyTarget): string | null {
  if (!ticketIdPattern.test(target.ticketId) || !userIdPattern.test(target.userId)) return null;
  const scope = target.isInternal ? ".note" : "";
  return `${replyLocalPrefix}${target.ticketId}.${target.userId}${scope}.${sign(secret, target).toString("hex")}`;
}

export function replyAddress(secret: string, domain: string, target: ReplyTarget): string | null {
  const local = replyLocalPart(secret, target);
  return local ? `${local}@${domain}` : null;
}

/** Whether a local part is meant as a reply address (signed or not): anything else is the helpdesk's. */
export const isReplyLocalPart = (local: string) => local.toLowerCase().startsWith(replyLocalPrefix);

/** The ticket and person a reply address names, or null when it is malformed or its signature is wrong. */
export function verifyReplyLocalPart(secret: string, local: string): ReplyTarget | null {
  if (!isReplyLocalPart(local)) return null;
  const parts = local.slice(replyLocalPrefix.length).split(".");
  const [rawTicketId = "", userId = ""] = parts;
  const isInternal = parts.length === 4 && parts[2] === "note";
  if (parts.length !== 3 && !isInternal) return null;
  const given = parts.at(-1)!.toLowerCase();
  // Ticket ids are upper-case only: a mail system that lower-cased the address loses nothing there.
  const target = { ticketId: rawTicketId.toUpperCase(), userId, isInternal };
  if (!ticketIdPattern.test(target.ticketId) || !userIdPattern.test(userId)) return null;
  if (!/^[0-9a-f]+$/.test(given) || given.length !== signatureHexLength) return null;
  const expected = sign(secret, target);
  // Constant time: how much of a forged signature matched must not show in the timing.
  return timingSafeEqual(Buffer.from(given, "hex"), expected) ? target : null;
}
