import { useSyncExternalStore } from "react";
// Type-only: the app shell hands frames to this store, and must stay free of zod.
import type { PresentPerson, TicketPresence } from "#shared/presence/presence.schemas.ts";

/**
 * Who is on each ticket, as the server last said: the live stream's `presence` frames (handed in by the app
 * shell) and the answers to the page's own heartbeats both land here (decision 072).
 */
const byTicket = new Map<string, readonly PresentPerson[]>();
const listeners = new Set<() => void>();
const nobody: readonly PresentPerson[] = [];

export function receivePresence({ ticketId, people }: TicketPresence) {
  byTicket.set(ticketId, people);
  for (const listener of listeners) listener();
}

/** The page left the ticket: what it knew goes, so that coming back never shows who was there then. */
export function forgetPresence(ticketId: string) {
  if (!byTicket.delete(ticketId)) return;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Everyone on the ticket but `selfId`, in the order they came. */
export function useOthersOnTicket(ticketId: string, selfId: string | undefined): readonly PresentPerson[] {
  const people = useSyncExternalStore(
    subscribe,
    () => byTicket.get(ticketId) ?? nobody,
    () => nobody,
  );
  const others = people.filter((person) => person.userId !== selfId);
  // The same array while nothing changed, so that effects keyed on it do not run for nothing.
  return others.length === people.length ? people : others;
}
