import { describe, expect, it } from "vitest";
import type { TicketFacts } from "#shared/permissions.ts";
import { createPresenceStore, type PageNews } from "./presence-store.ts";

const unassigned: TicketFacts = { createdBy: "usr_u", assignedTo: null, status: "Open" };
const ada = { userId: "usr_ada", name: "Ada Admin", role: "admin" } as const;
const theo = { userId: "usr_theo", name: "Theo Tech", role: "technician" } as const;
const tara = { userId: "usr_tara", name: "Tara Tech", role: "technician" } as const;

const news = (
  person: { userId: string; name: string; role: "admin" | "technician" },
  pageId: string,
  state: PageNews["state"],
  ticket: TicketFacts = unassigned,
): PageNews => ({ ticketId: "TKT1", pageId, state, ...person, ticket });

describe("the presence store", () => {
  it("lists each person once, in the order they came, typing when any of their pages types", () => {
    const store = createPresenceStore({ ttlMs: 30_000 });
    expect(store.apply(news(theo, "theo-tab-1", "viewing"), 1_000)).toBe(true);
    expect(store.apply(news(ada, "ada-tab-1", "viewing"), 2_000)).toBe(true);
    // A second tab of Theo's, typing: Theo is typing, still listed first.
    expect(store.apply(news(theo, "theo-tab-2", "typing"), 3_000)).toBe(true);
    expect(store.peopleOn("TKT1")).toEqual([
      { userId: "usr_theo", name: "Theo Tech", state: "typing" },
      { userId: "usr_ada", name: "Ada Admin", state: "viewing" },
    ]);
    // A heartbeat that changes nothing anyone sees is no news.
    expect(store.apply(news(ada, "ada-tab-1", "viewing"), 4_000)).toBe(false);
    // Theo's typing tab closes: his other tab still views.
    expect(store.apply(news(theo, "theo-tab-2", null), 5_000)).toBe(true);
    expect(store.peopleOn("TKT1").map((p) => [p.name, p.state])).toEqual([
      ["Theo Tech", "viewing"],
      ["Ada Admin", "viewing"],
    ]);
    expect(store.peopleOn("TKT2")).toEqual([]);
  });

  it("forgets a page not heard from for the time to live, and says which tickets changed", () => {
    const store = createPresenceStore({ ttlMs: 30_000 });
    store.apply(news(theo, "theo-tab-1", "viewing"), 0);
    store.apply(news(ada, "ada-tab-1", "viewing"), 20_000);
    expect(store.expire(29_999)).toEqual([]);
    expect(store.expire(30_000)).toEqual(["TKT1"]);
    expect(store.peopleOn("TKT1").map((p) => p.name)).toEqual(["Ada Admin"]);
    expect(store.expire(50_000)).toEqual(["TKT1"]);
    expect(store.size).toBe(0);
  });

  it("keeps a closed page closed: its last heartbeat arriving late does not bring it back", () => {
    const store = createPresenceStore({ ttlMs: 30_000 });
    store.apply(news(theo, "theo-tab-1", "viewing"), 0);
    store.apply(news(theo, "theo-tab-1", null), 1_000);
    expect(store.apply(news(theo, "theo-tab-1", "viewing"), 1_100)).toBe(false);
    expect(store.peopleOn("TKT1")).toEqual([]);
    // Another page of the same person is another page; another person's page with the same id too.
    expect(store.apply(news(theo, "theo-tab-2", "viewing"), 1_200)).toBe(true);
    expect(store.apply(news(tara, "theo-tab-1", "viewing"), 1_300)).toBe(true);
    expect(store.peopleOn("TKT1").map((p) => p.name)).toEqual(["Theo Tech", "Tara Tech"]);
  });

  it("drops those who may no longer see the ticket when it goes to someone else", () => {
    const store = createPresenceStore({ ttlMs: 30_000 });
    store.apply(news(theo, "theo-tab-1", "viewing"), 0);
    store.apply(news(tara, "tara-tab-1", "typing"), 1);
    store.apply(news(ada, "ada-tab-1", "viewing"), 2);
    // Tara took it: Theo, another technician, no longer sees it; the admin still does.
    expect(store.updateFacts("TKT1", { ...unassigned, assignedTo: "usr_tara", status: "In Progress" })).toBe(
      true,
    );
    expect(store.peopleOn("TKT1").map((p) => p.name)).toEqual(["Tara Tech", "Ada Admin"]);
    expect(store.updateFacts("TKT1", { ...unassigned, assignedTo: "usr_tara", status: "Resolved" })).toBe(
      false,
    );
    // Facts carried by a heartbeat count the same way.
    store.apply(news(theo, "theo-tab-9", "viewing", { ...unassigned, assignedTo: "usr_tara" }), 3);
    expect(store.peopleOn("TKT1").map((p) => p.name)).toEqual(["Tara Tech", "Ada Admin"]);
    expect(store.updateFacts("TKT9", unassigned)).toBe(false);
  });

  it("ignores a page's news without the name, role or facts the others need", () => {
    const store = createPresenceStore({ ttlMs: 30_000 });
    const { name: _name, ...nameless } = news(theo, "theo-tab-1", "viewing");
    expect(store.apply(nameless, 0)).toBe(false);
    expect(store.size).toBe(0);
  });

  it("forgets every page of a person whose sessions ended, without closing them for good", () => {
    const store = createPresenceStore({ ttlMs: 30_000 });
    store.apply(news(theo, "theo-tab-1", "viewing"), 0);
    store.apply({ ...news(theo, "theo-tab-2", "typing"), ticketId: "TKT2" }, 0);
    store.apply(news(ada, "ada-tab-1", "viewing"), 0);
    expect(store.dropPerson("usr_theo")).toEqual(["TKT1", "TKT2"]);
    expect(store.peopleOn("TKT1").map((p) => p.name)).toEqual(["Ada Admin"]);
    expect(store.peopleOn("TKT2")).toEqual([]);
    expect(store.dropPerson("usr_theo")).toEqual([]);
    // A page of his still open (another browser, still signed in) comes back with its next heartbeat.
    expect(store.apply(news(theo, "theo-tab-1", "viewing"), 1_000)).toBe(true);
  });
});
