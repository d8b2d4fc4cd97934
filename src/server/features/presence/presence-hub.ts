import type { Clock } from "#server/clock.ts";
import { frame } from "#server/features/notifications/stream-frames.ts";
import type { StreamHub } from "#server/features/notifications/stream-hub.ts";
import type { LogError } from "#server/log-error.ts";
import type { Bus } from "#server/realtime/bus.ts";
import { can } from "#shared/permissions.ts";
import { type PresenceState, presenceTtlMs, type TicketPresence } from "#shared/presence/presence.schemas.ts";
import { createPresenceRate } from "./presence-rate.ts";
import { createPresenceStore, type PageNews } from "./presence-store.ts";

export interface PresenceHub {
  /**
   * A page is on the ticket: this instance knows at once (the answer lists the caller) and every instance
   * hears it over the bus. Returns everyone on the ticket now.
   */
  share(news: PageNews & { state: PresenceState }): TicketPresence;
  /** A page closed: gone at once here, and on the others when the bus brings it. */
  leave(news: Pick<PageNews, "ticketId" | "userId" | "pageId">): void;
  /** Seconds to wait when this person sent too many presence requests to this instance, else 0. */
  retryAfter(userId: string): number;
  readonly size: number;
  close(): void;
}

interface PresenceHubOptions {
  bus: Bus;
  streams: Pick<StreamHub, "sendTo">;
  clock: Clock;
  logError: LogError;
  ttlMs?: number;
  /** How often pages not heard from are looked for (and after each jump of a test clock). */
  sweepMs?: number;
  /** Presence requests a person may make to one instance per window (heartbeats, typing, leaving). */
  rate?: { windowMs: number; max: number };
}

/**
 * Who is on which ticket's page (decision 072): kept in each instance's memory, fed by the pages' requests
 * (here or, through the bus, on another instance), by ticket events (a ticket that went to someone else
 * drops those who may no longer see it) and by ended sessions (a person who signed out goes at once). When what a ticket's people see changes, each instance writes a
 * `presence` frame to the streams open here of the staff on that ticket who may still see it. No database
 * read or write: the bus carries what the frames show.
 */
export function createPresenceHub({
  bus,
  streams,
  clock,
  logError,
  ttlMs = presenceTtlMs,
  sweepMs = 5_000,
  rate = { windowMs: 10_000, max: 20 },
}: PresenceHubOptions): PresenceHub {
  const store = createPresenceStore({ ttlMs });
  const rates = createPresenceRate(rate);
  const now = () => clock.now().getTime();

  function tell(ticketId: string) {
    const facts = store.factsOf(ticketId);
    const people = store.peopleOn(ticketId);
    if (!facts || people.length === 0) return;
    const chunk = frame("presence", { ticketId, people } satisfies TicketPresence);
    for (const person of people)
      streams.sendTo(person.userId, chunk, (actor) => can.sharePresence(actor, facts));
  }

  const unsubscribe = bus.subscribe((message) => {
    try {
      if (message.kind === "presence") {
        if (store.apply(message, now())) tell(message.ticketId);
      } else if (message.kind === "ticket-event" && message.ticket) {
        if (store.updateFacts(message.ticketId, message.ticket)) tell(message.ticketId);
      } else if (message.kind === "session-ended") {
        // Signed out, deactivated or given another role: their pages go now, not 30 s later.
        for (const ticketId of store.dropPerson(message.userId)) tell(ticketId);
      }
    } catch (error) {
      logError(error, "could not apply a presence message");
    }
  });
  // Messages lost in a gap are made good by the next heartbeats and by expiry.
  const sweep = () => {
    for (const ticketId of store.expire(now())) tell(ticketId);
    rates.sweep(now());
  };
  const timer = setInterval(sweep, sweepMs);
  timer.unref();
  const stopListening = clock.onJump?.(sweep);

  function publish(news: PageNews) {
    bus
      .publish({ kind: "presence", ...news })
      .catch((error) => logError(error, "could not publish presence to the push bus"));
  }

  return {
    share(news) {
      if (store.apply(news, now())) tell(news.ticketId);
      publish(news);
      return { ticketId: news.ticketId, people: store.peopleOn(news.ticketId) };
    },
    leave({ ticketId, userId, pageId }) {
      const news: PageNews = { ticketId, userId, pageId, state: null };
      if (store.apply(news, now())) tell(ticketId);
      publish(news);
    },
    retryAfter: (userId) => rates.retryAfter(userId, now()),
    get size() {
      return store.size;
    },
    close() {
      unsubscribe();
      clearInterval(timer);
      stopListening?.();
    },
  };
}
