import type { TicketFacts } from "#shared/permissions.ts";
import { type PresenceState, presenceStates } from "#shared/presence/presence.schemas.ts";
import { type TicketStatus, ticketStatuses } from "#shared/tickets/ticket.schemas.ts";
import { type Role, roles } from "#shared/users/roles.ts";

/**
 * What one app instance tells every instance (itself included) after a commit. Ids only: the receiver
 * loads the rows it needs, and a pg_notify payload stays far below PostgreSQL's 8000-byte limit even when
 * an event fanned out to 1,000 technicians.
 */
export type BusMessage =
  /**
   * A ticket event committed: its notifications (by event id) and a "ticket changed" for its viewers
   * (only those who are staff when `staffOnly`: an internal note). `recipients`, when given, are all the
   * people the event notified (none, often), so that an instance none of them is connected to reads
   * nothing; a broadcast, or a longer list, leaves it out. `ticket` is what decides who may see the ticket
   * (its creator's and assignee's ids, its status) as the event left it: no instance reads the ticket to
   * know whom to tell it changed.
   */
  | {
      kind: "ticket-event";
      eventId: string;
      ticketId: string;
      staffOnly?: true;
      recipients?: readonly string[];
      ticket?: TicketFacts;
    }
  /** Notifications written outside a ticket event (the debug page's test notifications). */
  | { kind: "notifications"; ids: number[] }
  /**
   * Some of this person's sessions ended (sign-out, deactivation) or their role changed: their streams
   * re-check their session and role, and those no longer valid close (the browser reconnects as who they are now).
   */
  | { kind: "session-ended"; userId: string }
  /**
   * What a session may do changed for many people at once (the two-factor requirement for staff): every
   * instance looks every session up again at its next request. Streams are not concerned.
   */
  | { kind: "sessions-changed" }
  /** An administrator saved a settings area: what instances remember of the settings is read again. */
  | { kind: "settings-changed" }
  /**
   * A staff member's ticket page says it is there (viewing, typing) or closed (`state` null): every
   * instance keeps it in memory and tells the staff on that ticket (decision 072). Nothing is stored, so
   * the message carries what the receivers show (the person's name), their role and the ticket's facts,
   * which decide who may be told; a page that closed carries none of them.
   */
  | {
      kind: "presence";
      ticketId: string;
      userId: string;
      pageId: string;
      state: PresenceState | null;
      name?: string;
      role?: Role;
      ticket?: TicketFacts;
    };

export type BusListener = (message: BusMessage) => void;

export interface Bus {
  publish(message: BusMessage): Promise<void>;
  subscribe(listener: BusListener): () => void;
  /** Called when messages may have been lost (a listener reconnected): streams must replay by id. */
  onGap(listener: () => void): () => void;
  close(): Promise<void>;
}

/** At most this many recipients travel with a ticket event (ids of ~35 bytes: far below NOTIFY's 8000). */
export const maxAnnouncedRecipients = 50;

type Wire =
  | {
      e: string;
      t: string;
      i?: 1;
      r?: readonly string[];
      /** The ticket's facts: creator, assignee, status. */
      f?: [string, string | null, TicketStatus];
    }
  | { n: number[] }
  | { s: string }
  | { ss: 1 }
  | { sc: 1 }
  /** Presence: ticket, person, page, state (v, t, or 0 for gone), then name, role and facts. */
  | {
      p: [string, string, string, "v" | "t" | 0];
      pn?: string;
      pr?: Role;
      f?: [string, string | null, TicketStatus];
    };

const isTicketFacts = (value: unknown): value is [string, string | null, TicketStatus] =>
  Array.isArray(value) &&
  value.length === 3 &&
  typeof value[0] === "string" &&
  (typeof value[1] === "string" || value[1] === null) &&
  ticketStatuses.includes(value[2]);

const presenceCodes = { viewing: "v", typing: "t" } as const satisfies Record<PresenceState, string>;
const factsOf = (ticket: TicketFacts | undefined) =>
  ticket
    ? { f: [ticket.createdBy, ticket.assignedTo, ticket.status] as [string, string | null, TicketStatus] }
    : {};

export function encodeBusMessage(message: BusMessage): string {
  if (message.kind === "presence") {
    const { ticketId, userId, pageId, state, name, role, ticket } = message;
    const wire: Wire = {
      p: [ticketId, userId, pageId, state === null ? 0 : presenceCodes[state]],
      ...(name === undefined ? {} : { pn: name }),
      ...(role ? { pr: role } : {}),
      ...factsOf(ticket),
    };
    return JSON.stringify(wire);
  }
  const wire: Wire =
    message.kind === "ticket-event"
      ? {
          e: message.eventId,
          t: message.ticketId,
          ...(message.staffOnly ? { i: 1 as const } : {}),
          ...(message.recipients && message.recipients.length <= maxAnnouncedRecipients
            ? { r: message.recipients }
            : {}),
          ...factsOf(message.ticket),
        }
      : message.kind === "notifications"
        ? { n: message.ids }
        : message.kind === "session-ended"
          ? { s: message.userId }
          : message.kind === "sessions-changed"
            ? { ss: 1 as const }
            : { sc: 1 as const };
  return JSON.stringify(wire);
}

/** Null for anything that is not one of ours (another app on the channel, a truncated payload). */
export function decodeBusMessage(payload: string): BusMessage | null {
  let wire: unknown;
  try {
    wire = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof wire !== "object" || wire === null) return null;
  const w = wire as Record<string, unknown>;
  if (typeof w.e === "string" && typeof w.t === "string") {
    // A message from an instance that sends neither yet names no recipients (every stream may be concerned)
    // and no facts (the ticket is read).
    const recipients =
      Array.isArray(w.r) && w.r.every((id) => typeof id === "string") ? { recipients: w.r as string[] } : {};
    const ticket = isTicketFacts(w.f)
      ? { ticket: { createdBy: w.f[0], assignedTo: w.f[1], status: w.f[2] } }
      : {};
    return w.i === 1
      ? { kind: "ticket-event", eventId: w.e, ticketId: w.t, staffOnly: true, ...recipients, ...ticket }
      : { kind: "ticket-event", eventId: w.e, ticketId: w.t, ...recipients, ...ticket };
  }
  if (Array.isArray(w.n) && w.n.every((id) => Number.isSafeInteger(id)))
    return { kind: "notifications", ids: w.n as number[] };
  if (Array.isArray(w.p)) return decodePresence(w.p, w);
  if (typeof w.s === "string") return { kind: "session-ended", userId: w.s };
  if (w.ss === 1) return { kind: "sessions-changed" };
  if (w.sc === 1) return { kind: "settings-changed" };
  return null;
}

function decodePresence(p: unknown[], w: Record<string, unknown>): BusMessage | null {
  const [ticketId, userId, pageId, code] = p;
  if (typeof ticketId !== "string" || typeof userId !== "string" || typeof pageId !== "string") return null;
  const state = code === 0 ? null : presenceStates.find((candidate) => presenceCodes[candidate] === code);
  if (state === undefined) return null;
  return {
    kind: "presence",
    ticketId,
    userId,
    pageId,
    state,
    ...(typeof w.pn === "string" ? { name: w.pn } : {}),
    ...(roles.includes(w.pr as Role) ? { role: w.pr as Role } : {}),
    ...(isTicketFacts(w.f) ? { ticket: { createdBy: w.f[0], assignedTo: w.f[1], status: w.f[2] } } : {}),
  };
}

/** One process (PGlite): publishing calls the listeners on the next tick, as a remote instance would. */
export function createInProcessBus(): Bus {
  const listeners = new Set<BusListener>();
  return {
    publish: async (message) => {
      // Through the wire format, so that the in-process bus behaves exactly like LISTEN/NOTIFY.
      const decoded = decodeBusMessage(encodeBusMessage(message))!;
      setImmediate(() => {
        for (const listener of listeners) listener(decoded);
      });
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // One process never loses a message.
    onGap: () => () => {},
    close: async () => listeners.clear(),
  };
}
