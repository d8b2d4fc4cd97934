import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { tickets } from "#server/db/schema/index.ts";
import { insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { SearchResults } from "#shared/search/search.schemas.ts";
import { normalizeTicketIdPrefix } from "./search.service.ts";

// The command palette's search: tickets by id or words with the list's visibility rule, people for staff.

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let creator: Person;
let otherUser: Person;
let technician: Person;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp();
  creator = await signedInAs(t.app, t.database.db, "user");
  otherUser = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(tickets);
});

async function search(q: string, cookie: string | null) {
  const response = await request(t.app, {
    method: "GET",
    url: `/api/search?${new URLSearchParams({ q })}`,
    cookie,
  });
  return { status: response.statusCode, body: response.json() as SearchResults & { message?: string } };
}
const idsOf = (results: SearchResults) => results.tickets.map((ticket) => ticket.ticketId);

describe("GET /api/search", () => {
  it("finds a ticket by its exact id, by the beginning of its id and with a hyphen after TKT", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id });
    await insertTicket(t.database.db, { createdBy: creator.user.id });
    for (const q of [
      ticket.id,
      ticket.id.slice(0, 12),
      `TKT-${ticket.id.slice(3)}`,
      ticket.id.toLowerCase(),
    ]) {
      const { status, body } = await search(q, technician.cookie);
      expect(status).toBe(200);
      expect(idsOf(body)).toContain(ticket.id);
    }
    expect(idsOf((await search(ticket.id, technician.cookie)).body)).toEqual([ticket.id]);
  });

  it("finds tickets by words of the title or description, at most eight, newest first", async () => {
    const start = Date.now();
    for (let index = 0; index < 10; index++) {
      await insertTicket(t.database.db, {
        createdBy: creator.user.id,
        title: `VPN drops ${index}`,
        createdAt: new Date(start + index * 1000),
      });
    }
    await insertTicket(t.database.db, { createdBy: creator.user.id, description: "The keyboard sticks" });
    const { body } = await search("vpn", technician.cookie);
    expect(body.tickets.map((ticket) => ticket.title)).toEqual(
      [9, 8, 7, 6, 5, 4, 3, 2].map((index) => `VPN drops ${index}`),
    );
    expect((await search("keyb", technician.cookie)).body.tickets).toHaveLength(1);
  });

  it("never finds another user's ticket, even by its exact id", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id, title: "Payroll export" });
    expect(idsOf((await search(ticket.id, otherUser.cookie)).body)).toEqual([]);
    expect(idsOf((await search("payroll", otherUser.cookie)).body)).toEqual([]);
    expect(idsOf((await search("payroll", creator.cookie)).body)).toEqual([ticket.id]);
  });

  it("never finds a ticket another technician has", async () => {
    const other = await insertUser(t.database.db, { role: "technician" });
    const ticket = await insertTicket(t.database.db, {
      createdBy: creator.user.id,
      assignedTo: other.id,
      status: "In Progress",
      title: "Badge reader",
    });
    expect(idsOf((await search(ticket.id, technician.cookie)).body)).toEqual([]);
    expect(idsOf((await search(ticket.id, admin.cookie)).body)).toEqual([ticket.id]);
  });

  it("never searches internal notes: a word only in a note finds nothing, for the user or for staff", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id });
    const note = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie: technician.cookie,
      payload: { message: "Suspect zanzibarcable in the patch panel", isInternal: true },
    });
    expect(note.statusCode).toBe(201);
    for (const person of [creator, technician, admin]) {
      expect(idsOf((await search("zanzibarcable", person.cookie)).body)).toEqual([]);
    }
  });

  it("finds active people by part of their name for staff, name and role only", async () => {
    const kim = await insertUser(t.database.db, { name: "Kimberly Quasar", role: "technician" });
    await insertUser(t.database.db, { name: "Kim Quasarini", role: "user", status: "Inactive" });
    await insertUser(t.database.db, { name: "Nobody Quasar", role: null });
    for (const person of [technician, admin]) {
      const { body } = await search("quasar", person.cookie);
      expect(body.people).toEqual([{ id: kim.id, name: "Kimberly Quasar", role: "technician" }]);
    }
  });

  it("finds no people for users", async () => {
    await insertUser(t.database.db, { name: "Marguerite Staffer", role: "technician" });
    const { status, body } = await search("marguerite", creator.cookie);
    expect(status).toBe(200);
    expect(body.people).toEqual([]);
  });

  it("treats % and _ in a name search as letters", async () => {
    await insertUser(t.database.db, { name: "Percy Underscore", role: "technician" });
    expect((await search("%", admin.cookie)).body.people).toEqual([]);
    expect((await search("_", admin.cookie)).body.people).toEqual([]);
  });

  it("asks for something to search for, and refuses a search that is too long or not storable", async () => {
    const empty = await search("   ", technician.cookie);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("Type something to search for");
    expect((await search("x".repeat(201), technician.cookie)).body.message).toContain(
      "Search must be at most 200 characters",
    );
    expect((await search("a\u0000b", technician.cookie)).status).toBe(400);
  });

  it("asks an anonymous caller to sign in", async () => {
    expect((await search("printer", null)).status).toBe(401);
  });
});

describe("normalizeTicketIdPrefix", () => {
  it("drops the separator people type after TKT and leaves other searches alone", () => {
    expect(normalizeTicketIdPrefix("TKT-4F2A")).toBe("TKT4F2A");
    expect(normalizeTicketIdPrefix("tkt 4f2a")).toBe("tkt4f2a");
    expect(normalizeTicketIdPrefix("printer jam")).toBe("printer jam");
  });
});
