import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { openStream, type SseEvent, type SseStream } from "#server/test/sse.ts";
import { changedTables, tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { PresentPerson, TicketPresence } from "#shared/presence/presence.schemas.ts";

// Decision 072: who else is on a ticket, told live to the staff on it, never to anyone who may not see it.

const clock = createTestClock();
let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  // Pages are forgotten only when the test clock moves (a jump sweeps at once); 20 requests per minute.
  t = await createTestApp({
    clock,
    presence: { ttlMs: 30_000, sweepMs: 60 * 60_000, rate: { windowMs: 60_000, max: 20 } },
  });
  baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());
beforeEach(() => t.database.reset());

const opened: SseStream[] = [];
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

type Person = { user: UserRow; cookie: string; stream: SseStream };
async function person(role: "user" | "technician" | "admin"): Promise<Person> {
  const { user, cookie } = await signedInAs(t.app, t.database.db, role);
  const stream = await openStream(baseUrl, { cookie });
  opened.push(stream);
  await stream.waitFor((e) => e.event === "ready");
  return { user, cookie, stream };
}

let pages = 0;
const newPage = () => `page-${++pages}-0123456789`;
const share = (who: Person, ticketId: string, state: string, pageId: string) =>
  request(t.app, {
    method: "PUT",
    url: `/api/tickets/${ticketId}/presence`,
    cookie: who.cookie,
    payload: { state, pageId },
  });
const leave = (who: Person, ticketId: string, pageId: string) =>
  request(t.app, {
    method: "DELETE",
    url: `/api/tickets/${ticketId}/presence?pageId=${pageId}`,
    cookie: who.cookie,
  });

const presenceFrames = (s: SseStream) =>
  s.events.filter((e) => e.event === "presence").map((e) => JSON.parse(e.data) as TicketPresence);
const shown = (people: PresentPerson[]) => people.map((p) => `${p.name}: ${p.state}`);
/** The next presence frame on the stream that shows exactly `expected` (name: state). */
const frameShowing = (s: SseStream, expected: string[]) =>
  s.waitFor(
    (e: SseEvent) =>
      e.event === "presence" &&
      JSON.stringify(shown((JSON.parse(e.data) as TicketPresence).people)) === JSON.stringify(expected),
  );
/** Long enough for anything already sent to have arrived. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function assignedTicket() {
  const owner = await person("user");
  const assignee = await person("technician");
  const ticket = await insertTicket(t.database.db, {
    createdBy: owner.user.id,
    assignedTo: assignee.user.id,
    status: "In Progress",
  });
  return { owner, assignee, ticketId: ticket.id };
}

describe("ticket presence", () => {
  it("tells the staff on a ticket who else is viewing it and who is typing, live on their stream", async () => {
    const { assignee, ticketId } = await assignedTicket();
    const admin = await person("admin");

    const first = await share(admin, ticketId, "viewing", newPage());
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      ticketId,
      people: [{ userId: admin.user.id, name: admin.user.name, state: "viewing" }],
    });

    const second = await share(assignee, ticketId, "viewing", newPage());
    const both = [`${admin.user.name}: viewing`, `${assignee.user.name}: viewing`];
    expect(shown(second.json<TicketPresence>().people)).toEqual(both);
    await frameShowing(admin.stream, both);

    const typingPage = newPage();
    expect((await share(assignee, ticketId, "typing", typingPage)).statusCode).toBe(200);
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`, `${assignee.user.name}: typing`]);
    // The one typing hears it too (their other tabs show the same).
    await frameShowing(assignee.stream, [`${admin.user.name}: viewing`, `${assignee.user.name}: typing`]);
  });

  it("never tells a requester, nor a technician who may not see the ticket, and refuses them", async () => {
    const { owner, assignee, ticketId } = await assignedTicket();
    const admin = await person("admin");
    const otherTechnician = await person("technician");
    const otherUser = await person("user");

    const byOwner = await share(owner, ticketId, "viewing", newPage());
    expect(byOwner.statusCode).toBe(403);
    expect(byOwner.json()).toMatchObject({
      code: "forbidden",
      message: "Only technicians and administrators share their presence on a ticket",
    });
    expect((await share(otherTechnician, ticketId, "viewing", newPage())).statusCode).toBe(404);
    expect((await share(otherUser, ticketId, "viewing", newPage())).statusCode).toBe(404);
    expect((await leave(owner, ticketId, newPage())).statusCode).toBe(403);
    expect((await leave(otherTechnician, ticketId, newPage())).statusCode).toBe(404);

    await share(admin, ticketId, "viewing", newPage());
    await share(assignee, ticketId, "typing", newPage());
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`, `${assignee.user.name}: typing`]);
    await settle();
    for (const outsider of [owner, otherTechnician, otherUser])
      expect(presenceFrames(outsider.stream)).toEqual([]);
    // Nobody refused was listed.
    expect(presenceFrames(admin.stream).flatMap((f) => f.people.map((p) => p.userId))).not.toContain(
      owner.user.id,
    );
  });

  it("drops a technician from a ticket that another takes, and tells them nothing more", async () => {
    const owner = await person("user");
    const theo = await person("technician");
    const tara = await person("technician");
    const ticketId = (await insertTicket(t.database.db, { createdBy: owner.user.id, status: "Open" })).id;
    await share(theo, ticketId, "viewing", newPage());
    await share(tara, ticketId, "viewing", newPage());
    await frameShowing(theo.stream, [`${theo.user.name}: viewing`, `${tara.user.name}: viewing`]);

    const taken = await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticketId}/assign`,
      cookie: tara.cookie,
    });
    expect(taken.statusCode).toBe(200);
    await frameShowing(tara.stream, [`${tara.user.name}: viewing`]);
    const theoFrames = presenceFrames(theo.stream).length;
    await share(tara, ticketId, "typing", newPage());
    await frameShowing(tara.stream, [`${tara.user.name}: typing`]);
    await settle();
    expect(presenceFrames(theo.stream)).toHaveLength(theoFrames);
    expect((await share(theo, ticketId, "viewing", newPage())).statusCode).toBe(404);
  });

  it("shows a closed page gone at once, and a page not heard from for 30 s gone then", async () => {
    const { assignee, ticketId } = await assignedTicket();
    const admin = await person("admin");
    const adminPage = newPage();
    const assigneePage = newPage();
    await share(admin, ticketId, "viewing", adminPage);
    await share(assignee, ticketId, "viewing", assigneePage);
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`, `${assignee.user.name}: viewing`]);

    const left = await leave(assignee, ticketId, assigneePage);
    expect(left.statusCode).toBe(204);
    expect(left.body).toBe("");
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`]);
    // Its heartbeat, late, does not bring the closed page back.
    await share(assignee, ticketId, "viewing", assigneePage);
    await settle();
    expect(shown(presenceFrames(admin.stream).at(-1)!.people)).toEqual([`${admin.user.name}: viewing`]);

    const secondTab = newPage();
    await share(assignee, ticketId, "viewing", secondTab);
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`, `${assignee.user.name}: viewing`]);
    clock.advance(20_000);
    await share(admin, ticketId, "viewing", adminPage);
    clock.advance(10_000);
    // The assignee's page was last heard 30 s ago; the admin's 10 s ago.
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`]);
  });

  it("shows someone who signed out gone at once", async () => {
    const { assignee, ticketId } = await assignedTicket();
    const admin = await person("admin");
    await share(admin, ticketId, "viewing", newPage());
    await share(assignee, ticketId, "typing", newPage());
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`, `${assignee.user.name}: typing`]);
    const signedOut = await request(t.app, {
      method: "POST",
      url: "/api/auth/sign-out",
      cookie: assignee.cookie,
    });
    expect(signedOut.statusCode).toBe(200);
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`]);
  });

  it("refuses what is not a presence with a message naming the field", async () => {
    const { assignee, ticketId } = await assignedTicket();
    const badState = await share(assignee, ticketId, "away", newPage());
    expect(badState.statusCode).toBe(400);
    expect(badState.json()).toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("State must be viewing or typing"),
    });
    const badPage = await share(assignee, ticketId, "viewing", "x");
    expect(badPage.statusCode).toBe(400);
    expect(badPage.json().message).toContain("pageId must be 8 to 64 letters, digits, - or _");
    const noPage = await request(t.app, {
      method: "DELETE",
      url: `/api/tickets/${ticketId}/presence`,
      cookie: assignee.cookie,
    });
    expect(noPage.statusCode).toBe(400);
    const badTicket = await share(assignee, "not-a-ticket", "viewing", newPage());
    expect(badTicket.statusCode).toBe(400);
  });

  it("limits a runaway page: 429 with Retry-After past the requests a person may make per window", async () => {
    const { assignee, ticketId } = await assignedTicket();
    const page = newPage();
    for (let i = 0; i < 20; i++)
      expect((await share(assignee, ticketId, "viewing", page)).statusCode).toBe(200);
    const refused = await share(assignee, ticketId, "viewing", page);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "rate_limited" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // Another person is counted apart.
    const admin = await person("admin");
    expect((await share(admin, ticketId, "viewing", newPage())).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await share(assignee, ticketId, "viewing", page)).statusCode).toBe(200);
  });

  it("writes nothing to the database: a heartbeat, typing and leaving change no table", async () => {
    const { assignee, ticketId } = await assignedTicket();
    const admin = await person("admin");
    const snapshot = await tableSnapshotter(t.database.db);
    const page = newPage();
    await share(admin, ticketId, "viewing", newPage());
    const before = await snapshot();
    for (const state of ["viewing", "typing", "viewing"]) await share(assignee, ticketId, state, page);
    expect((await leave(assignee, ticketId, page)).statusCode).toBe(204);
    await frameShowing(admin.stream, [`${admin.user.name}: viewing`]);
    expect(changedTables(before, await snapshot())).toEqual([]);
  });
});
