import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tickets, type UserRow } from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

// Decision 078: a ticket's ETag, and If-Match on its details edit, status, assignee and hold.
// The clock stands still: two changes within one millisecond must still give two tags.
const clock = createTestClock(new Date());
let t: TestApp;
let user: { user: UserRow; cookie: string };
let admin: { user: UserRow; cookie: string };
let ticketId: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  user = await signedInAs(t.app, t.database.db, "user");
  admin = await signedInAs(t.app, t.database.db, "admin");
});
afterAll(() => t.close());
beforeEach(async () => {
  ticketId = (await insertTicket(t.database.db, { createdBy: user.user.id, createdAt: clock.now() })).id;
});

const read = (cookie = admin.cookie) =>
  request(t.app, { method: "GET", url: `/api/tickets/${ticketId}`, cookie });
const edit = (payload: object, ifMatch?: string) =>
  request(t.app, {
    method: "PATCH",
    url: `/api/tickets/${ticketId}`,
    cookie: admin.cookie,
    payload,
    headers: ifMatch === undefined ? {} : { "if-match": ifMatch },
  });
const changeStatus = (status: string, ifMatch?: string) =>
  request(t.app, {
    method: "PATCH",
    url: `/api/tickets/${ticketId}/status`,
    cookie: admin.cookie,
    payload: { status },
    headers: ifMatch === undefined ? {} : { "if-match": ifMatch },
  });
const stored = async () => (await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]!;

describe("a ticket's ETag and If-Match", () => {
  it("answers GET with a strong ETag that the requester and staff both see", async () => {
    const { headers } = await read();
    expect(headers.etag).toMatch(/^"[\w-]+"$/);
    expect((await read(user.cookie)).headers.etag).toBe(headers.etag);
  });

  it("edits with the current ETag and answers the new one, as a fresh read gives it", async () => {
    const before = (await read()).headers.etag!;
    const edited = await edit({ title: "Scanner offline" }, before);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.headers.etag).not.toBe(before);
    expect(edited.headers.etag).toBe((await read()).headers.etag);
  });

  it("refuses an edit with a stale ETag with 412 and changes nothing", async () => {
    const stale = (await read()).headers.etag!;
    expect((await edit({ priority: "High" })).statusCode).toBe(200);
    const refused = await edit({ title: "Overwritten unseen" }, stale);
    expect(refused.statusCode).toBe(412);
    expect(refused.json()).toMatchObject({ code: "precondition_failed" });
    expect(refused.json().message).toMatch(/Read the ticket again/);
    expect((await stored()).title).toBe("Printer on floor 2 jams");
  });

  it("refuses a status change with a stale ETag and takes the current one", async () => {
    const stale = (await read()).headers.etag!;
    expect((await edit({ department: "Finance" })).statusCode).toBe(200);
    expect((await changeStatus("Resolved", stale)).statusCode).toBe(412);
    expect((await stored()).status).toBe("Open");
    const changed = await changeStatus("Resolved", (await read()).headers.etag!);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.headers.etag).toBe((await read()).headers.etag);
  });

  it("lets one of two edits sent at once with the same ETag through, and refuses the other", async () => {
    const tag = (await read()).headers.etag!;
    const answers = await Promise.all([edit({ title: "First" }, tag), edit({ title: "Second" }, tag)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
    const winner = answers.find((answer) => answer.statusCode === 200)!;
    expect((await stored()).title).toBe(winner.json().title);
  });

  it("takes *, a list, and a weakened copy of the current tag", async () => {
    expect((await edit({ floor: "4" }, "*")).statusCode).toBe(200);
    const tag = (await read()).headers.etag!;
    expect((await edit({ floor: "5" }, `"stale", ${tag}`)).statusCode).toBe(200);
    expect((await edit({ floor: "6" }, `W/${(await read()).headers.etag}`)).statusCode).toBe(200);
  });

  it.each([["unquoted"], ['"a", b'], [""]])(
    "refuses the If-Match %j with 400 and a sentence",
    async (value) => {
      const response = await edit({ floor: "7" }, value);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/If-Match must be "\*" or the ETag of the ticket/);
      expect((await stored()).floor).toBe("2");
    },
  );

  it("refuses a reassignment with a stale ETag, and assigns with the current one", async () => {
    const technician = await signedInAs(t.app, t.database.db, "technician");
    const assign = (ifMatch: string) =>
      request(t.app, {
        method: "PUT",
        url: `/api/tickets/${ticketId}/assignee`,
        cookie: admin.cookie,
        payload: { assigneeId: technician.user.id },
        headers: { "if-match": ifMatch },
      });
    const stale = (await read()).headers.etag!;
    expect((await edit({ priority: "High" })).statusCode).toBe(200);
    expect((await assign(stale)).statusCode).toBe(412);
    expect((await stored()).assignedTo).toBeNull();
    const assigned = await assign((await read()).headers.etag!);
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.headers.etag).toBe((await read()).headers.etag);
  });

  it("puts on hold, moves the lift date and takes off hold only on the version read", async () => {
    const technician = await signedInAs(t.app, t.database.db, "technician");
    await t.database.db
      .update(tickets)
      .set({ status: "In Progress", assignedTo: technician.user.id })
      .where(eq(tickets.id, ticketId));
    const hold = (method: "PUT" | "PATCH" | "DELETE", ifMatch: string, payload?: object) =>
      request(t.app, {
        method,
        url: `/api/tickets/${ticketId}/hold`,
        cookie: technician.cookie,
        payload,
        headers: { "if-match": ifMatch },
      });
    const until = new Date(clock.now().getTime() + 3 * 86_400_000).toISOString();
    const later = new Date(clock.now().getTime() + 5 * 86_400_000).toISOString();

    const first = (await read()).headers.etag!;
    const held = await hold("PUT", first, { comment: "Waiting for your laptop's serial number.", until });
    expect(held.statusCode, held.body).toBe(200);
    // The hold itself changes the version: the tag read before it is stale now.
    expect((await hold("PATCH", first, { until: later })).statusCode).toBe(412);
    const moved = await hold("PATCH", held.headers.etag!, { until: later });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.headers.etag).not.toBe(held.headers.etag);
    expect((await hold("DELETE", held.headers.etag!)).statusCode).toBe(412);
    expect((await stored()).onHoldSince).not.toBeNull();
    expect((await hold("DELETE", moved.headers.etag!)).statusCode).toBe(200);
    expect((await stored()).onHoldSince).toBeNull();
  });

  it("answers 404 before 412 for a ticket the caller may not see", async () => {
    const other = await signedInAs(t.app, t.database.db, "user");
    const response = await request(t.app, {
      method: "PATCH",
      url: `/api/tickets/${ticketId}`,
      cookie: other.cookie,
      payload: { description: "Not mine" },
      headers: { "if-match": '"stale"' },
    });
    expect(response.statusCode).toBe(404);
  });
});
