import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ServiceContext } from "#server/context.ts";
import { notifications, sessions } from "#server/db/schema/index.ts";
import { createDispatcher } from "#server/events/dispatcher.ts";
import { endSessionsOf } from "#server/events/end-sessions.ts";
import { findTicketById } from "#server/features/ticket-records/ticket.queries.ts";
import { assignTicketToMe } from "#server/features/tickets/assign-ticket.service.ts";
import { createTicket } from "#server/features/tickets/ticket.service.ts";
import { addComment, giveFeedback } from "#server/features/tickets/ticket-activity.service.ts";
import { changeTicketStatus } from "#server/features/tickets/ticket-status.service.ts";
import { createInProcessBus } from "#server/realtime/bus.ts";
import { insertUser } from "#server/test/factories.ts";
import { createTestDatabase, type TestDatabase } from "#server/test/test-database.ts";
import type { Notification } from "#shared/notifications/notification.schemas.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { toNotificationDto } from "./notification.presenter.ts";
import { createNotification, listNotificationsFor } from "./notification.service.ts";
import { createStreamHub, type StreamClient, type StreamHub } from "./stream-hub.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());
beforeEach(() => database.reset());

interface Frame {
  id?: string;
  event: string;
  data: string;
}

/** A stream that records what the hub wrote to it, parsed back into events. */
function recordingClient(actor: Actor, sessionId: string) {
  let text = "";
  let ended = false;
  const writes: string[] = [];
  const client: StreamClient = {
    actor,
    sessionId,
    write: (chunk) => {
      text += chunk;
      writes.push(chunk);
    },
    end: () => {
      ended = true;
    },
  };
  const frames = (): Frame[] =>
    text
      .split("\n\n")
      .filter((block) => block.includes("data: "))
      .map((block) => {
        const frame: Frame = { event: "message", data: "" };
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) frame.id = line.slice(4);
          if (line.startsWith("event: ")) frame.event = line.slice(7);
          if (line.startsWith("data: ")) frame.data = line.slice(6);
        }
        return frame;
      });
  return { client, frames, writes, isEnded: () => ended, text: () => text };
}

function setup(options: { sessionSweepMs?: number } = {}) {
  const bus = createInProcessBus();
  const logError = (error: unknown) => {
    throw error;
  };
  const hub = createStreamHub({
    db: database.db,
    bus,
    logError,
    sessionSweepMs: options.sessionSweepMs ?? 60_000,
  });
  const dispatcher = createDispatcher({ bus, logError });
  const as = (actor: Actor): ServiceContext => ({ db: database.db, actor, dispatcher });
  return { hub, as, dispatcher };
}

/** Every bus message published so far has been delivered. */
async function delivered(hub: StreamHub) {
  await new Promise((resolve) => setImmediate(resolve));
  await hub.settled();
}

const ticketInput = {
  title: "Laptop",
  description: "Slow",
  category: "Hardware",
  priority: "Low",
  department: "General",
  floor: "1",
  officeNumber: "",
} as const;

const actionArb = fc.record({
  kind: fc.constantFrom("create", "comment", "status", "assign", "feedback", "test"),
  actor: fc.nat(),
  other: fc.nat(),
  ticket: fc.nat(),
  status: fc.constantFrom("In Progress", "Resolved", "Closed"),
  rating: fc.integer({ min: 1, max: 5 }),
});

describe("the stream hub", () => {
  it("never writes a person another person's notification, delivers each of theirs exactly once, and tells only viewers about a ticket", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("user", "technician", "admin"), { minLength: 2, maxLength: 5 }),
        fc.array(actionArb, { minLength: 1, maxLength: 8 }),
        async (roles, actions) => {
          await database.reset();
          const { hub, as } = setup();
          try {
            const people: Actor[] = [];
            for (const role of roles) {
              const row = await insertUser(database.db, { role: role as Actor["role"] });
              people.push({ id: row.id, role: row.role as Actor["role"] });
            }
            // Everyone has a stream; the first person has two tabs.
            const streams = people.map((actor, i) => ({ actor, ...recordingClient(actor, `s${i}`) }));
            streams.push({ actor: people[0]!, ...recordingClient(people[0]!, "s0") });
            for (const s of streams) await hub.open(s.client, null);
            const ticketIds: string[] = [];
            const checkedTicketFrames = new Map<(typeof streams)[number], number>();

            for (const action of actions) {
              const actor = people[action.actor % people.length]!;
              const other = people[action.other % people.length]!;
              const ticketId = ticketIds[action.ticket % Math.max(ticketIds.length, 1)];
              const run = async () => {
                if (action.kind === "create")
                  ticketIds.push((await createTicket(as(actor), ticketInput)).ticketId);
                else if (action.kind === "test")
                  await createNotification(as(actor), { uid: other.id, message: "Test", type: "test" });
                else if (!ticketId) return;
                else if (action.kind === "comment")
                  await addComment(as(actor), ticketId, { message: "Note" });
                else if (action.kind === "status")
                  await changeTicketStatus(as(actor), ticketId, { status: action.status });
                else if (action.kind === "assign") await assignTicketToMe(as(actor), ticketId);
                else await giveFeedback(as(actor), ticketId, { rating: action.rating, comment: "" });
              };
              // Refused actions (403, 404, 409, 422) are part of the game: they must push nothing.
              await run().catch((error) => {
                if (!error?.code) throw error;
              });
              await delivered(hub);
              for (const s of streams) {
                const ticketFrames = s.frames().filter((f) => f.event === "ticket");
                for (const frame of ticketFrames.slice(checkedTicketFrames.get(s) ?? 0)) {
                  const ticket = await findTicketById(database.db, JSON.parse(frame.data).ticketId);
                  expect(ticket && can.viewTicket(s.actor, ticket)).toBe(true);
                }
                checkedTicketFrames.set(s, ticketFrames.length);
              }
            }

            for (const s of streams) {
              const received = s
                .frames()
                .filter((f) => f.event === "notification")
                .map((f) => JSON.parse(f.data) as Notification);
              for (const n of received) expect(n.uid).toBe(s.actor.id);
              // Exactly what their list holds: addressed to them, or to an audience they belong to.
              const listed = await listNotificationsFor(as(s.actor), { filter: "all", limit: 100 });
              expect(received.map((n) => n.notificationId)).toEqual(
                listed.items.map((n) => n.notificationId).reverse(),
              );
            }
          } finally {
            hub.close();
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it("writes a new ticket to each technician's stream once: their own notification, then the ticket change", async () => {
    const { hub, as } = setup();
    const user = await insertUser(database.db, { role: "user" });
    const technicians = await Promise.all(
      [1, 2, 3].map(() => insertUser(database.db, { role: "technician" })),
    );
    const streams = technicians.map((tech, i) =>
      recordingClient({ id: tech.id, role: "technician" }, `s${i}`),
    );
    for (const stream of streams) await hub.open(stream.client, null);
    const before = streams.map((stream) => stream.writes.length);
    const { ticketId } = await createTicket(as({ id: user.id, role: "user" }), ticketInput);
    await delivered(hub);
    // One notification to the technicians (decision 068), shown to each as their own.
    const [row] = await database.db.select().from(notifications);
    for (const [i, stream] of streams.entries()) {
      const own = { ...row!, userId: technicians[i]!.id };
      // One write, one system call: the bytes of the two frames the browser reads.
      expect(stream.writes.slice(before[i])).toEqual([
        `id: ${row!.id}\nevent: notification\ndata: ${JSON.stringify(toNotificationDto(own))}\n\n` +
          `event: ticket\ndata: ${JSON.stringify({ ticketId })}\n\n`,
      ]);
    }
    hub.close();
  });

  it("reads and sends no notification to a connected person a ticket event does not name as notified", async () => {
    const { hub, as } = setup();
    const bus = createInProcessBus();
    const named = createStreamHub({
      db: database.db,
      bus,
      logError: (error) => {
        throw error;
      },
    });
    const user = await insertUser(database.db, { role: "user" });
    const tech = await insertUser(database.db, { role: "technician" });
    const stream = recordingClient({ id: tech.id, role: "technician" }, "s1");
    await named.open(stream.client, null);
    const { ticketId } = await createTicket(as({ id: user.id, role: "user" }), ticketInput);
    const [row] = await database.db.select().from(notifications);
    // The bus says who the event notified; an instance none of them is connected to reads no rows.
    await bus.publish({ kind: "ticket-event", eventId: row!.eventId!, ticketId, recipients: [user.id] });
    await delivered(named);
    expect(stream.frames().map((f) => f.event)).toEqual(["ready", "ticket"]);
    await bus.publish({ kind: "ticket-event", eventId: row!.eventId!, ticketId });
    await delivered(named);
    expect(stream.frames().map((f) => f.event)).toEqual(["ready", "ticket", "notification", "ticket"]);
    named.close();
    hub.close();
  });

  it("forgets a stream whose browser went away", async () => {
    const { hub } = setup();
    const user = await insertUser(database.db);
    const { client } = recordingClient({ id: user.id, role: "user" }, "s1");
    await hub.open(client, null);
    expect(hub.size).toBe(1);
    hub.remove(client);
    expect(hub.size).toBe(0);
    hub.close();
  });

  it("closes a stream whose session expired, on its periodic sweep", async () => {
    const { hub } = setup({ sessionSweepMs: 100 });
    const user = await insertUser(database.db);
    await database.db.insert(sessions).values({
      id: "sess-expiring",
      token: "tok-expiring",
      userId: user.id,
      expiresAt: new Date(Date.now() + 150),
    });
    const stream = recordingClient({ id: user.id, role: "user" }, "sess-expiring");
    await hub.open(stream.client, null);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stream.isEnded()).toBe(false);
    await expect.poll(stream.isEnded, { timeout: 1_000, interval: 50 }).toBe(true);
    expect(hub.size).toBe(0);
    hub.close();
  });

  it("closes every stream of a person at once when their sessions are ended", async () => {
    const { hub, dispatcher } = setup();
    const user = await insertUser(database.db);
    const other = await insertUser(database.db);
    for (const [id, userId] of [
      ["sess-a", user.id],
      ["sess-b", user.id],
      ["sess-c", other.id],
    ] as const)
      await database.db
        .insert(sessions)
        .values({ id, token: `tok-${id}`, userId, expiresAt: new Date(Date.now() + 3_600_000) });
    const a = recordingClient({ id: user.id, role: "user" }, "sess-a");
    const b = recordingClient({ id: user.id, role: "user" }, "sess-b");
    const c = recordingClient({ id: other.id, role: "user" }, "sess-c");
    for (const s of [a, b, c]) await hub.open(s.client, null);
    await endSessionsOf({ db: database.db, dispatcher }, user.id);
    await delivered(hub);
    expect([a.isEnded(), b.isEnded(), c.isEnded()]).toEqual([true, true, false]);
    hub.close();
  });

  it("ends every stream on shutdown with a short retry hint, so browsers reconnect to another instance", async () => {
    const { hub } = setup();
    const streams = [1, 2, 3].map((i) => recordingClient({ id: `u${i}`, role: "user" }, `s${i}`));
    for (const stream of streams) await hub.open(stream.client, null);
    hub.close();
    expect(hub.size).toBe(0);
    for (const stream of streams) {
      expect(stream.isEnded()).toBe(true);
      // The last thing written before the end: EventSource waits this long, then reconnects.
      const retry = Number(/retry: (\d+)\n\n$/.exec(stream.text())?.[1]);
      expect(retry).toBeGreaterThanOrEqual(500);
      expect(retry).toBeLessThan(2_000);
    }
  });
});
