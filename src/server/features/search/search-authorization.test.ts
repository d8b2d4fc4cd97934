import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { notifications, ticketComments, ticketEvents, tickets, users } from "#server/db/schema/index.ts";
import { insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { SearchResults } from "#shared/search/search.schemas.ts";

// The authorization matrix of GET /api/search (style of ticket-authorization.test.ts): every kind of
// caller, the status each gets, whether the ticket is among the results and whether people are. A refused
// call leaves the database exactly as it was.

type ActorKind =
  | "anonymous"
  | "creator"
  | "otherUser"
  | "technician"
  | "assignee"
  | "otherTechnician"
  | "admin";
type SignedIn = Exclude<ActorKind, "anonymous">;

const status: Record<ActorKind, number> = {
  anonymous: 401,
  creator: 200,
  otherUser: 200,
  technician: 200,
  assignee: 200,
  otherTechnician: 200,
  admin: 200,
};
// The ticket is assigned to "assignee", except for "technician", who searches an unassigned one.
const findsTicket: Record<SignedIn, boolean> = {
  creator: true,
  otherUser: false,
  technician: true,
  assignee: true,
  otherTechnician: false,
  admin: true,
};
const findsPeople: Record<SignedIn, boolean> = {
  creator: false,
  otherUser: false,
  technician: true,
  assignee: true,
  otherTechnician: true,
  admin: true,
};

let t: TestApp;
const people = {} as Record<SignedIn, { user: UserRow; cookie: string }>;
let colleague: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  const roles = {
    creator: "user",
    otherUser: "user",
    technician: "technician",
    assignee: "technician",
    otherTechnician: "technician",
    admin: "admin",
  } as const;
  for (const [kind, role] of Object.entries(roles)) {
    people[kind as SignedIn] = await signedInAs(t.app, t.database.db, role);
  }
  colleague = await insertUser(t.database.db, { name: "Ottoline Matrixperson", role: "technician" });
});
afterAll(() => t.close());

async function snapshot() {
  const { db } = t.database;
  return {
    tickets: await db.select().from(tickets),
    comments: await db.select().from(ticketComments),
    events: await db.select().from(ticketEvents),
    notifications: await db.select().from(notifications),
    users: await db.select().from(users),
  };
}

const kinds: ActorKind[] = [
  "anonymous",
  "creator",
  "otherUser",
  "technician",
  "assignee",
  "otherTechnician",
  "admin",
];

describe("GET /api/search authorization", () => {
  for (const kind of kinds) {
    it(`answers ${status[kind]} to ${kind}${kind === "anonymous" ? "" : `, ${findsTicket[kind] ? "with" : "without"} the ticket, ${findsPeople[kind] ? "with" : "without"} people`}`, async () => {
      const ticket = await insertTicket(t.database.db, {
        createdBy: people.creator.user.id,
        assignedTo: kind === "technician" ? null : people.assignee.user.id,
        status: kind === "technician" ? "Open" : "In Progress",
        title: "Matrixperson cannot print",
      });
      const before = await snapshot();
      const cookie = kind === "anonymous" ? null : people[kind].cookie;
      const byId = await request(t.app, { method: "GET", url: `/api/search?q=${ticket.id}`, cookie });
      const byWords = await request(t.app, { method: "GET", url: "/api/search?q=matrixperson", cookie });
      expect(byId.statusCode).toBe(status[kind]);
      expect(byWords.statusCode).toBe(status[kind]);
      expect(await snapshot()).toEqual(before);
      if (kind === "anonymous") return;
      const idResults = byId.json() as SearchResults;
      const wordResults = byWords.json() as SearchResults;
      expect(idResults.tickets.map((found) => found.ticketId)).toEqual(findsTicket[kind] ? [ticket.id] : []);
      expect(wordResults.tickets.some((found) => found.ticketId === ticket.id)).toBe(findsTicket[kind]);
      expect(wordResults.people.map((person) => person.id)).toEqual(findsPeople[kind] ? [colleague.id] : []);
    });
  }
});
