import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestClock } from "#server/test/clock.ts";
import { insertTicket, insertUser, signIn } from "#server/test/factories.ts";
import { openStream, type SseStream } from "#server/test/sse.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TicketPresence } from "#shared/presence/presence.schemas.ts";

// Decision 072 across instances: a page's requests reach one instance, the people on the ticket have their
// streams on another, and the bus (LISTEN/NOTIFY) carries presence between them. Only on a PostgreSQL
// server: run with TEST_DATABASE_URL (CI does).
describe.skipIf(!process.env.TEST_DATABASE_URL)("ticket presence across two app instances", () => {
  const clock = createTestClock();
  const presence = { ttlMs: 30_000, sweepMs: 60 * 60_000 };
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  beforeAll(async () => {
    a = await createTestApp({ clock, presence });
    b = await createTestApp({ database: a.database, clock, presence });
    urlA = await a.app.listen({ port: 0, host: "127.0.0.1" });
    urlB = await b.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });
  const opened: SseStream[] = [];
  afterEach(() => {
    for (const stream of opened.splice(0)) stream.close();
  });

  async function stream(url: string, cookie: string) {
    const s = await openStream(url, { cookie });
    opened.push(s);
    await s.waitFor((e) => e.event === "ready");
    return s;
  }
  const shown = (data: string) =>
    (JSON.parse(data) as TicketPresence).people.map((p) => `${p.name}: ${p.state}`).join(", ");
  const frameShowing = (s: SseStream, expected: string) =>
    s.waitFor((e) => e.event === "presence" && shown(e.data) === expected);
  const share = (app: TestApp, cookie: string, ticketId: string, state: string, pageId: string) =>
    request(app.app, {
      method: "PUT",
      url: `/api/tickets/${ticketId}/presence`,
      cookie,
      payload: { state, pageId },
    });

  it("tells a technician's stream on A who views and types through B, and who left through A", async () => {
    const { db } = a.database;
    const owner = await insertUser(db, { role: "user" });
    const ada = await insertUser(db, { role: "admin", name: "Ada Admin" });
    const theo = await insertUser(db, { role: "technician", name: "Theo Tech" });
    const ticketId = (await insertTicket(db, { createdBy: owner.id, status: "Open" })).id;
    const adaCookie = await signIn(a.app, ada.email);
    const theoCookie = await signIn(b.app, theo.email);
    const ownerCookie = await signIn(a.app, owner.email);
    const adaOnA = await stream(urlA, adaCookie);
    const theoOnB = await stream(urlB, theoCookie);
    const ownerOnA = await stream(urlA, ownerCookie);

    // Ada has a second tab whose stream reached B: its frame says when B heard of her page over the bus.
    const adaOnB = await stream(urlB, adaCookie);
    expect((await share(a, adaCookie, ticketId, "viewing", "ada-page-0001")).statusCode).toBe(200);
    await frameShowing(adaOnB, "Ada Admin: viewing");
    // B learned Ada's page from the bus: Theo's answer, through B, lists her.
    const theoJoins = await share(b, theoCookie, ticketId, "viewing", "theo-page-0001");
    expect(shown(theoJoins.body)).toBe("Ada Admin: viewing, Theo Tech: viewing");
    await frameShowing(adaOnA, "Ada Admin: viewing, Theo Tech: viewing");

    await share(b, theoCookie, ticketId, "typing", "theo-page-0001");
    await frameShowing(adaOnA, "Ada Admin: viewing, Theo Tech: typing");
    await frameShowing(theoOnB, "Ada Admin: viewing, Theo Tech: typing");

    // Theo's page closes; its request reaches A this time.
    const left = await request(a.app, {
      method: "DELETE",
      url: `/api/tickets/${ticketId}/presence?pageId=theo-page-0001`,
      cookie: theoCookie,
    });
    expect(left.statusCode).toBe(204);
    await frameShowing(adaOnA, "Ada Admin: viewing");
    expect(ownerOnA.events.filter((e) => e.event === "presence")).toEqual([]);
  });

  it("forgets on A a page heard only through B once it is silent for 30 s, and one whose ticket went to someone else", async () => {
    const { db } = a.database;
    const owner = await insertUser(db, { role: "user" });
    const ada = await insertUser(db, { role: "admin", name: "Ada Admin" });
    const theo = await insertUser(db, { role: "technician", name: "Theo Tech" });
    const tara = await insertUser(db, { role: "technician", name: "Tara Tech" });
    const ticketId = (await insertTicket(db, { createdBy: owner.id, status: "Open" })).id;
    const adaCookie = await signIn(a.app, ada.email);
    const theoCookie = await signIn(b.app, theo.email);
    const taraCookie = await signIn(b.app, tara.email);
    const adaOnA = await stream(urlA, adaCookie);

    await share(a, adaCookie, ticketId, "viewing", "ada-page-0002");
    await share(b, theoCookie, ticketId, "viewing", "theo-page-0002");
    // Each instance lists people in the order it heard of them, and two publishes may overtake each other.
    await frameShowing(adaOnA, "Ada Admin: viewing, Theo Tech: viewing");
    await share(b, taraCookie, ticketId, "viewing", "tara-page-0002");
    await frameShowing(adaOnA, "Ada Admin: viewing, Theo Tech: viewing, Tara Tech: viewing");

    // Tara takes the ticket through B: Theo may no longer see it, and A drops him from the event's facts.
    const taken = await request(b.app, {
      method: "POST",
      url: `/api/tickets/${ticketId}/assign`,
      cookie: taraCookie,
    });
    expect(taken.statusCode).toBe(200);
    await frameShowing(adaOnA, "Ada Admin: viewing, Tara Tech: viewing");

    clock.advance(20_000);
    await share(a, adaCookie, ticketId, "viewing", "ada-page-0002");
    clock.advance(10_000);
    await frameShowing(adaOnA, "Ada Admin: viewing");
  });
});
