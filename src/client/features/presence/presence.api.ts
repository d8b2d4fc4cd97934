import { apiFetch } from "#client/lib/api-client.ts";
import type { SharePresenceInput, TicketPresence } from "#shared/presence/presence.schemas.ts";

const presencePath = (ticketId: string) => `/api/tickets/${encodeURIComponent(ticketId)}/presence`;

/** The page is on the ticket, viewing or typing: answers everyone on it now. */
export const sharePresence = (ticketId: string, input: SharePresenceInput) =>
  apiFetch<TicketPresence>(presencePath(ticketId), { method: "PUT", body: input });

/** The page closed or left the ticket; sent with keepalive, so that it outlives a closing tab. */
export const leavePresence = (ticketId: string, pageId: string) =>
  apiFetch<void>(`${presencePath(ticketId)}?pageId=${encodeURIComponent(pageId)}`, {
    method: "DELETE",
    keepalive: true,
  });

/** A page's id: random, told apart from the person's other tabs (decision 072). */
export function newPageId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
