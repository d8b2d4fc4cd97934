import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ticketComments, ticketFeedback, tickets, users } from "./db/schema/index.ts";
import { insertTicket, signedInAs } from "./test/factories.ts";
import { createTestApp, request, type TestApp, testAdminKey } from "./test/test-app.ts";

// Odd input is a 4xx, never a 500: a character PostgreSQL text cannot store, or a page cursor that does
// not decode, is refused at the edge with a message naming the field, and nothing is written.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const nul = "before\u0000after";

const validTicket = {
  title: "Laptop will not boot",
  description: "Black screen after the logo.",
  category: "Hardware",
  priority: "High",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
};

const expectRefused = (response: { statusCode: number; json: () => { code: string; message: string } }) => {
  expect(response.statusCode).toBe(400);
  expect(response.json().code).toBe("validation_failed");
  return response.json().message;
};

describe("a NUL character in a text field", () => {
  it.each([
    ["title", "Title"],
    ["description", "Description"],
    ["department", "Department"],
    ["floor", "Floor"],
    ["officeNumber", "Office number"],
  ])("in the ticket's %s → 400 naming it, no ticket", async (field, label) => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, {
      method: "POST",
      url: "/api/tickets",
      cookie,
      payload: { ...validTicket, [field]: nul },
    });
    expect(expectRefused(response)).toBe(`${field}: ${label} must not contain control characters`);
    expect(await t.database.db.select().from(tickets)).toHaveLength(0);
  });

  it("in a comment → 400, no comment", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const response = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie,
      payload: { message: nul },
    });
    expect(expectRefused(response)).toBe("message: Comment must not contain control characters");
    expect(await t.database.db.select().from(ticketComments)).toHaveLength(0);
  });

  it("in a feedback comment → 400, no feedback", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id, status: "Resolved" });
    const response = await request(t.app, {
      method: "PUT",
      url: `/api/tickets/${ticket.id}/feedback`,
      cookie,
      payload: { rating: 4, comment: nul },
    });
    expect(expectRefused(response)).toBe("comment: Feedback must not contain control characters");
    expect(await t.database.db.select().from(ticketFeedback)).toHaveLength(0);
  });

  it("in the profile name → 400, name unchanged", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, {
      method: "PATCH",
      url: "/api/me",
      cookie,
      payload: { name: nul },
    });
    expect(expectRefused(response)).toBe("name: Name must not contain control characters");
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.name).toBe(user.name);
  });

  it("in the sign-up name → 400, no account", async () => {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-up/email",
      payload: { name: nul, email: "nul@example.test", password: "long enough" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("name: Name must not contain control characters");
    expect(await t.database.db.select().from(users).where(eq(users.email, "nul@example.test"))).toHaveLength(
      0,
    );
  });

  it.each([
    ["name", "Name"],
    ["adminKey", "Admin secret key"],
  ])("in the admin sign-up's %s → 400, no account", async (field, label) => {
    const response = await request(t.app, {
      method: "POST",
      url: "/api/admin-signup",
      payload: {
        name: "Ada",
        email: "ada@example.test",
        password: "long enough",
        adminKey: testAdminKey,
        [field]: nul,
      },
    });
    expect(expectRefused(response)).toBe(`${field}: ${label} must not contain control characters`);
    expect(await t.database.db.select().from(users)).toHaveLength(0);
  });

  it("in a search → 400 naming q", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, { method: "GET", url: "/api/tickets?q=printer%00jam", cookie });
    expect(expectRefused(response)).toBe("querystring q: Search must not contain control characters");
  });
});

describe("a page cursor that does not decode", () => {
  const b64 = (text: string) => Buffer.from(text).toString("base64url");

  it.each([
    ["a year past JavaScript's range", b64("275760-09-13T00:00:00.001Z|TKT0M5ABCDEF1234567")],
    ["an expanded year", b64("+275760-09-13T00:00:00.000Z|TKT0M5ABCDEF1234567")],
    ["a year PostgreSQL cannot parse", b64("99999|TKT0M5ABCDEF1234567")],
    ["milliseconds past the end of time", b64(`${8.64e15 + 1}|TKT0M5ABCDEF1234567`)],
    ["a day that does not exist", b64("2024-02-31T00:00:00.000Z|TKT0M5ABCDEF1234567")],
    ["no ticket id", b64("2024-01-01T00:00:00.000Z|")],
    ["a NUL in the id", b64("2024-01-01T00:00:00.000Z|TKT\u0000")],
    ["random bytes", Buffer.from([0xff, 0xfe, 0x00, 0x7c, 0x80, 0x81]).toString("base64url")],
    ["not base64 at all", "%%%"],
  ])("→ 400 for %s", async (_case, cursor) => {
    const { cookie } = await signedInAs(t.app, t.database.db, "admin");
    const response = await request(t.app, {
      method: "GET",
      url: `/api/tickets?cursor=${encodeURIComponent(cursor)}`,
      cookie,
    });
    expect(expectRefused(response)).toBe("cursor: Not a valid page cursor");
  });
});

// Found by bench/fuzz-write-endpoints.ts once it covered user management (decision 009).
describe("unstorable text in user management", () => {
  it("refuses a NUL in the user search with 400 naming it", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "admin");
    const response = await request(t.app, { method: "GET", url: "/api/admin/users?q=a%00b", cookie });
    expect(expectRefused(response)).toBe("querystring q: Search must not contain control characters");
  });

  it("refuses a lone surrogate in a department with 400 naming it, and changes nobody", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "admin");
    const { user } = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, {
      method: "PATCH",
      url: `/api/admin/users/${user.id}`,
      cookie,
      headers: { "content-type": "application/json" },
      payload: '{"name":"Ann","role":"user","department":"\\ud800","status":"Active"}',
    });
    expect(expectRefused(response)).toBe("department: Department must be valid Unicode text");
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.department).toBe("General");
  });
});
