import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import { bulkTicketLimit } from "#shared/tickets/ticket-bulk.ts";

let t: TestApp;
let user: { user: UserRow; cookie: string };
let tech: { user: UserRow; cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  user = await signedInAs(t.app, t.database.db, "user");
  tech = await signedInAs(t.app, t.database.db, "technician");
});
afterAll(() => t.close());

describe("PATCH /api/tickets/:ticketId", () => {
  let ticketId: string;
  beforeEach(async () => {
    ticketId = (await insertTicket(t.database.db, { createdBy: user.user.id })).id;
  });
  const patch = (payload: unknown, cookie = tech.cookie) =>
    request(t.app, { method: "PATCH", url: `/api/tickets/${ticketId}`, cookie, payload: payload as object });

  it("trims like the create form and answers the ticket", async () => {
    const response = await patch({ title: "  Scanner offline  ", priority: "High" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ ticketId, title: "Scanner offline", priority: "High" });
  });

  it.each([
    [
      {},
      "Nothing to change: send at least one of title, description, category, priority, department, floor, officeNumber",
    ],
    [{ status: "Closed" }, "Nothing to change"],
    [{ title: "   " }, "Title is required"],
    [{ title: "x".repeat(201) }, "Title must be at most 200 characters"],
    [{ priority: "Urgent" }, "Priority must be Low, Medium or High"],
    [{ category: "Plumbing" }, "Category must be Hardware, Software, Network or Other"],
    [{ floor: "1\u0000" }, "Floor must not contain control characters"],
    [{ officeNumber: 12 }, "Office number must be text"],
  ])("refuses %j with 400 and a message a person can act on", async (payload, message) => {
    const response = await patch(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });
});

describe("POST /api/tickets/bulk", () => {
  const bulk = (payload: unknown, cookie: string | null = tech.cookie) =>
    request(t.app, { method: "POST", url: "/api/tickets/bulk", cookie, payload: payload as object });

  it("answers which changed and why the others did not", async () => {
    const open = await insertTicket(t.database.db, { createdBy: user.user.id });
    const closed = await insertTicket(t.database.db, { createdBy: user.user.id, status: "Closed" });
    const response = await bulk({
      ticketIds: [open.id, closed.id],
      action: { kind: "status", status: "Resolved" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      changed: [open.id],
      refused: [{ ticketId: closed.id, message: "This ticket is closed; its status can no longer change." }],
    });
  });

  it.each([
    [{ ticketIds: [], action: { kind: "assignToMe" } }, "Choose at least one ticket"],
    [
      {
        ticketIds: Array.from(
          { length: bulkTicketLimit + 1 },
          (_, i) => `TKT000000${String(i).padStart(3, "0")}00000000`,
        ),
        action: { kind: "assignToMe" },
      },
      `Choose at most ${bulkTicketLimit} tickets at once`,
    ],
    [
      { ticketIds: ["TKT0000000000000000", "TKT0000000000000000"], action: { kind: "assignToMe" } },
      "Each ticket may be listed only once",
    ],
    [{ ticketIds: ["not-a-ticket"], action: { kind: "assignToMe" } }, "Not a ticket id"],
    [{ ticketIds: ["TKT0000000000000000"], action: { kind: "delete" } }, "Action must be one of"],
    [
      { ticketIds: ["TKT0000000000000000"], action: { kind: "status", status: "Open" } },
      "Status must be In Progress, Resolved or Closed",
    ],
  ])("refuses %j with 400", async (payload, message) => {
    const response = await bulk(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it("refuses users (403) and anonymous callers (401)", async () => {
    const payload = { ticketIds: ["TKT0000000000000000"], action: { kind: "status", status: "Closed" } };
    expect((await bulk(payload, user.cookie)).statusCode).toBe(403);
    expect((await bulk(payload, null)).statusCode).toBe(401);
  });
});
