import { can, type TicketFacts } from "#shared/permissions.ts";
import type { PresenceState, PresentPerson } from "#shared/presence/presence.schemas.ts";
import type { Role } from "#shared/users/roles.ts";

/** One page's news, as the bus carries it (decision 072): there (viewing, typing) or closed (null). */
export interface PageNews {
  ticketId: string;
  userId: string;
  pageId: string;
  state: PresenceState | null;
  name?: string;
  role?: Role;
  ticket?: TicketFacts;
}

interface Page {
  userId: string;
  name: string;
  role: Role;
  state: PresenceState;
  /** When it was first heard of, as a count of pages heard of here: people are listed in the order they came. */
  since: number;
  expiresAt: number;
}

interface TicketPages {
  facts: TicketFacts;
  /** By person and page ("userId pageId"): one person's page id never touches another's. */
  pages: Map<string, Page>;
}

/**
 * Who is on which ticket's page, in this instance's memory: every instance holds the same from the bus.
 * A page not heard from for `ttlMs` is gone; a page that said it closed stays closed for as long, so that
 * its last heartbeat arriving after the close (another instance, another connection) does not bring it
 * back. Pure: the caller gives the time.
 */
export function createPresenceStore({ ttlMs }: { ttlMs: number }) {
  const tickets = new Map<string, TicketPages>();
  const closed = new Map<string, number>();
  let arrivals = 0;
  const keyOf = (news: { userId: string; pageId: string }) => `${news.userId} ${news.pageId}`;

  function peopleOn(ticketId: string): PresentPerson[] {
    const entry = tickets.get(ticketId);
    if (!entry) return [];
    const byPerson = new Map<string, PresentPerson & { since: number }>();
    for (const page of entry.pages.values()) {
      const person = byPerson.get(page.userId);
      if (!person) {
        byPerson.set(page.userId, {
          userId: page.userId,
          name: page.name,
          state: page.state,
          since: page.since,
        });
        continue;
      }
      if (page.state === "typing") person.state = "typing";
      person.since = Math.min(person.since, page.since);
    }
    return [...byPerson.values()]
      .sort((a, b) => a.since - b.since)
      .map(({ userId, name, state }) => ({ userId, name, state }));
  }

  /** What the ticket's people see, as one string: a change of it is worth a frame. */
  const shownOn = (ticketId: string) => JSON.stringify(peopleOn(ticketId));

  /** Forgets the pages of people the facts no longer let see the ticket (it went to someone else). */
  function dropUnseeing(entry: TicketPages) {
    for (const [key, page] of entry.pages)
      if (!can.sharePresence({ id: page.userId, role: page.role }, entry.facts)) entry.pages.delete(key);
  }

  return {
    peopleOn,
    factsOf: (ticketId: string) => tickets.get(ticketId)?.facts,
    /** Applies one page's news at `now`; true when what the ticket's people see changed. */
    apply(news: PageNews, now: number): boolean {
      const key = keyOf(news);
      const before = shownOn(news.ticketId);
      const entry = tickets.get(news.ticketId);
      if (news.state === null) {
        closed.set(key, now + ttlMs);
        entry?.pages.delete(key);
        if (entry?.pages.size === 0) tickets.delete(news.ticketId);
        return shownOn(news.ticketId) !== before;
      }
      const { name, role, ticket } = news;
      if ((closed.get(key) ?? 0) > now || name === undefined || role === undefined || ticket === undefined)
        return false;
      const current = entry ?? { facts: ticket, pages: new Map<string, Page>() };
      current.facts = ticket;
      const page = current.pages.get(key);
      current.pages.set(key, {
        userId: news.userId,
        name,
        role,
        state: news.state,
        since: page?.since ?? ++arrivals,
        expiresAt: now + ttlMs,
      });
      dropUnseeing(current);
      if (current.pages.size === 0) tickets.delete(news.ticketId);
      else tickets.set(news.ticketId, current);
      return shownOn(news.ticketId) !== before;
    },
    /** The ticket changed (an event's facts): forgets who may no longer see it; true when someone went. */
    updateFacts(ticketId: string, facts: TicketFacts): boolean {
      const entry = tickets.get(ticketId);
      if (!entry) return false;
      const before = shownOn(ticketId);
      entry.facts = facts;
      dropUnseeing(entry);
      if (entry.pages.size === 0) tickets.delete(ticketId);
      return shownOn(ticketId) !== before;
    },
    /**
     * Forgets every page of a person whose sessions ended or whose role changed: gone at once, not after the
     * time to live. Not closed for good: a page of theirs still open elsewhere says so again at its next
     * heartbeat, if the server still lets it. The tickets whose people changed.
     */
    dropPerson(userId: string): string[] {
      const changed: string[] = [];
      for (const [ticketId, entry] of tickets) {
        const before = entry.pages.size;
        for (const [key, page] of entry.pages) if (page.userId === userId) entry.pages.delete(key);
        if (entry.pages.size === before) continue;
        if (entry.pages.size === 0) tickets.delete(ticketId);
        changed.push(ticketId);
      }
      return changed;
    },
    /** Drops the pages not heard from by `now`; the tickets whose people changed. */
    expire(now: number): string[] {
      for (const [key, until] of closed) if (until <= now) closed.delete(key);
      const changed: string[] = [];
      for (const [ticketId, entry] of tickets) {
        const before = shownOn(ticketId);
        for (const [key, page] of entry.pages) if (page.expiresAt <= now) entry.pages.delete(key);
        if (entry.pages.size === 0) tickets.delete(ticketId);
        if (shownOn(ticketId) !== before) changed.push(ticketId);
      }
      return changed;
    },
    /** Pages held (all tickets): for tests and the metrics. */
    get size() {
      let size = 0;
      for (const entry of tickets.values()) size += entry.pages.size;
      return size;
    },
  };
}

export type PresenceStore = ReturnType<typeof createPresenceStore>;
