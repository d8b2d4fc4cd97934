import { and, eq, inArray, ne } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { mailOutbox, notifications, ticketComments, ticketEvents, tickets } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { makePng } from "#server/test/files.ts";
import { openStream, type SseStream } from "#server/test/sse.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Role } from "#shared/users/roles.ts";

// Decision 011: an internal note never reaches a user, through any route, and notifies
// the ticket's assignee only.

let t: TestApp;
let baseUrl: string;
type Person = { user: UserRow; cookie: string; role: Role };
const cast: Person[] = [];
const usersOf = () => cast.filter((p) => p.role === "user");

beforeAll(async () => {
  t = await createTestApp({ streams: { heartbeatMs: 60_000, sessionSweepMs: 60_000 } });
  baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  const roles: Role[] = ["user", "user", "user", "technician", "technician", "technician", "admin", "admin"];
  for (const role of roles) cast.push({ ...(await signedInAs(t.app, t.database.db, role)), role });
});
afterAll(() => t.close());

async function clearTickets() {
  const { db } = t.database;
  await db.delete(mailOutbox);
  await db.delete(notifications);
  await db.delete(tickets);
}

const ticketInput = {
  title: "Docking station",
  description: "Screens stay black after lunch",
  category: "Hardware",
  priority: "Medium",
  department: "Finance",
  floor: "2",
  officeNumber: "204",
};

const get = (url: string, cookie: string) => request(t.app, { method: "GET", url, cookie });
const post = (url: string, cookie: string, payload?: object) =>
  request(t.app, { method: "POST", url, cookie, ...(payload ? { payload } : {}) });

const ticketFramesOf = (s: SseStream) => s.events.filter((e) => e.event === "ticket").length;

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("internal notes", () => {
  beforeEach(clearTickets);

  it("are refused to users with 403, and a user's isInternal: false is an ordinary comment", async () => {
    const [creator] = usersOf();
    const created = await post("/api/tickets", creator!.cookie, ticketInput);
    const ticketId = created.json().ticketId;
    const refused = await post(`/api/tickets/${ticketId}/comments`, creator!.cookie, {
      message: "Let me see the notes",
      isInternal: true,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: "forbidden",
      message: "Only technicians and administrators can add internal notes",
    });
    const plain = await post(`/api/tickets/${ticketId}/comments`, creator!.cookie, {
      message: "Still black",
      isInternal: false,
    });
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toMatchObject({ message: "Still black", isInternal: false });
  });

  it("refuses a non-boolean isInternal with 400", async () => {
    const [creator] = usersOf();
    const admin = cast.find((p) => p.role === "admin")!;
    const ticketId = (await post("/api/tickets", creator!.cookie, ticketInput)).json().ticketId;
    const response = await post(`/api/tickets/${ticketId}/comments`, admin.cookie, {
      message: "x",
      isInternal: "yes",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toEqual(expect.any(String));
  });

  it("are shown to staff as internal, in the comments and the timeline; the user sees neither", async () => {
    const [creator] = usersOf();
    const tech = cast.find((p) => p.role === "technician")!;
    const ticketId = (await post("/api/tickets", creator!.cookie, ticketInput)).json().ticketId;
    await post(`/api/tickets/${ticketId}/assign`, tech.cookie);
    const note = await post(`/api/tickets/${ticketId}/comments`, tech.cookie, {
      message: "Dock firmware 1.2 is broken",
      isInternal: true,
    });
    expect(note.statusCode).toBe(201);
    expect(note.json()).toMatchObject({ isInternal: true });

    const staffView = (await get(`/api/tickets/${ticketId}/activity`, tech.cookie)).json();
    expect(staffView.comments).toMatchObject([{ message: "Dock firmware 1.2 is broken", isInternal: true }]);
    expect(staffView.events.map((e: { type: string }) => e.type)).toEqual([
      "created",
      "assigned",
      "internal_note",
    ]);
    expect(staffView.events[2].message).toBe("Dock firmware 1.2 is broken");

    const userView = (await get(`/api/tickets/${ticketId}/activity`, creator!.cookie)).json();
    expect(userView.comments).toEqual([]);
    expect(userView.events.map((e: { type: string }) => e.type)).toEqual(["created", "assigned"]);
  });

  it("notify the assignee (not the author, not the creator) and wake only staff streams", async () => {
    const [creator] = usersOf();
    const assignee = cast.find((p) => p.role === "technician");
    const admin = cast.find((p) => p.role === "admin")!;
    const ticketId = (await post("/api/tickets", creator!.cookie, ticketInput)).json().ticketId;
    await post(`/api/tickets/${ticketId}/assign`, assignee!.cookie);
    const userStream = await openStream(baseUrl, { cookie: creator!.cookie });
    const assigneeStream = await openStream(baseUrl, { cookie: assignee!.cookie });
    try {
      await userStream.waitFor((e) => e.event === "ready");
      await assigneeStream.waitFor((e) => e.event === "ready");
      await post(`/api/tickets/${ticketId}/comments`, admin.cookie, {
        message: "Call vendor",
        isInternal: true,
      });
      await assigneeStream.waitFor((e) => e.event === "notification");
      await assigneeStream.waitFor((e) => e.event === "ticket");
      // A public comment afterwards reaches the user: had the note woken them, they would have two frames.
      await post(`/api/tickets/${ticketId}/comments`, admin.cookie, { message: "On it" });
      await userStream.waitFor((e) => e.event === "ticket");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(ticketFramesOf(userStream)).toBe(1);

      const rows = await t.database.db
        .select()
        .from(notifications)
        .where(eq(notifications.type, "internal_note"));
      expect(rows.map((r) => r.userId)).toEqual([assignee!.user.id]);
      expect(rows[0]!.message).toBe(
        `${admin.user.name} added an internal note on ticket "Docking station": Call vendor`,
      );
      expect(rows[0]!.params).toEqual({
        kind: "internal_note",
        title: "Docking station",
        actor: admin.user.name,
        preview: "Call vendor",
      });
      // The assignee writing a note notifies nobody.
      await post(`/api/tickets/${ticketId}/comments`, assignee!.cookie, {
        message: "Done",
        isInternal: true,
      });
      expect(
        await t.database.db.select().from(notifications).where(eq(notifications.type, "internal_note")),
      ).toHaveLength(1);
    } finally {
      userStream.close();
      assigneeStream.close();
    }
  });

  const actionArb = fc.record({
    kind: fc.constantFrom("create", "comment", "note", "note", "assign", "resolve", "follow"),
    actor: fc.nat(),
    ticket: fc.nat(),
  });

  // Every run starts with a user's ticket and ends with an administrator's note on it, so the checks that no
  // note reaches a user always have at least one stored note to look for.
  const runArb = fc
    .array(actionArb, { minLength: 1, maxLength: 10 })
    .map((actions) => [
      { kind: "create" as const, actor: cast.findIndex((p) => p.role === "user"), ticket: 0 },
      ...actions,
      { kind: "note" as const, actor: cast.findIndex((p) => p.role === "admin"), ticket: 0 },
    ]);

  const notePng = makePng(3, 3);

  it("never reach a user (nor their files) through activity, notifications, counts, search, downloads, the live stream or e-mail", async () => {
    await fc.assert(
      fc.asyncProperty(runArb, async (actions) => {
        await clearTickets();
        const streams = await Promise.all(usersOf().map((p) => openStream(baseUrl, { cookie: p.cookie })));
        try {
          await Promise.all(streams.map((s) => s.waitFor((e) => e.event === "ready")));
          const ticketIds: string[] = [];
          const notes: Array<{
            ticketId: string;
            text: string;
            word: string;
            id: string;
            attachmentId: string;
            expected: string[];
          }> = [];
          let n = 0;
          for (const action of actions) {
            const actor = cast[action.actor % cast.length]!;
            const ticketId = ticketIds[action.ticket % Math.max(ticketIds.length, 1)];
            if (action.kind === "create") {
              const created = await post("/api/tickets", actor.cookie, ticketInput);
              if (created.statusCode === 201) ticketIds.push(created.json().ticketId);
              continue;
            }
            if (!ticketId) continue;
            if (action.kind === "comment") {
              await post(`/api/tickets/${ticketId}/comments`, actor.cookie, { message: `Public ${n++}` });
            } else if (action.kind === "note") {
              const word = `kumquat${n++}x`;
              const text = `Internal ${word} hush`;
              const [ticket] = await t.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
              // Every note carries a file whose name holds the secret word too (decision 012).
              const file = await request(t.app, {
                method: "POST",
                url: `/api/attachments?fileName=${word}.png`,
                cookie: actor.cookie,
                headers: { "content-type": "image/png" },
                payload: notePng,
              });
              expect(file.statusCode).toBe(201);
              const response = await post(`/api/tickets/${ticketId}/comments`, actor.cookie, {
                message: text,
                isInternal: true,
                attachmentIds: [file.json().id],
              });
              if (response.statusCode === 201) {
                const assignee = ticket!.assignedTo;
                notes.push({
                  ticketId,
                  text,
                  word,
                  id: response.json().commentId,
                  attachmentId: response.json().attachments[0].id,
                  expected: assignee && assignee !== actor.user.id ? [assignee] : [],
                });
              } else {
                expect(actor.role === "user" ? [403, 404] : [404]).toContain(response.statusCode);
              }
            } else if (action.kind === "follow") {
              // Only people without staff rights follow here: a user following a ticket still never hears of
              // its notes (and the expected recipients of a note stay its assignee alone).
              if (actor.role === "user") {
                await request(t.app, {
                  method: "PUT",
                  url: `/api/tickets/${ticketId}/follow`,
                  cookie: actor.cookie,
                });
              }
            } else if (action.kind === "assign") {
              await post(`/api/tickets/${ticketId}/assign`, actor.cookie);
            } else {
              await request(t.app, {
                method: "PATCH",
                url: `/api/tickets/${ticketId}/status`,
                cookie: actor.cookie,
                payload: { status: "Resolved" },
              });
            }
          }

          const { db } = t.database;
          // The notes were written, and staff read each one and its file: what a user is refused below exists.
          expect(notes.length).toBeGreaterThan(0);
          const admin = cast.find((p) => p.role === "admin")!;
          for (const note of notes) {
            const [row] = await db.select().from(ticketComments).where(eq(ticketComments.id, note.id));
            expect(row).toMatchObject({ ticketId: note.ticketId, message: note.text, isInternal: true });
            const staffView = (await get(`/api/tickets/${note.ticketId}/activity`, admin.cookie)).json();
            expect(staffView.comments).toContainEqual(
              expect.objectContaining({ commentId: note.id, message: note.text, isInternal: true }),
            );
            const file = await get(`/api/attachments/${note.attachmentId}`, admin.cookie);
            expect(file.statusCode).toBe(200);
            expect(file.rawPayload.equals(notePng)).toBe(true);
          }
          const noteEvents = await db
            .select({ id: ticketEvents.id })
            .from(ticketEvents)
            .where(eq(ticketEvents.type, "internal_note"));
          const secrets = [
            ...notes.flatMap((note) => [note.text, note.word, note.id, note.attachmentId]),
            ...noteEvents.map((e) => e.id),
          ];
          const leaks = (body: string) => secrets.filter((secret) => body.includes(secret));

          // Each note notified exactly its ticket's assignee at the time, unless they wrote it.
          for (const note of notes) {
            const rows = await db.select().from(notifications).where(eq(notifications.type, "internal_note"));
            expect(rows.filter((r) => r.message.endsWith(note.text)).map((r) => r.userId)).toEqual(
              note.expected,
            );
          }

          for (const [i, person] of usersOf().entries()) {
            for (const ticketId of ticketIds) {
              for (const url of [
                `/api/tickets/${ticketId}`,
                `/api/tickets/${ticketId}/activity`,
                `/api/tickets/${ticketId}/follow`,
              ]) {
                const answer = await get(url, person.cookie);
                expect(leaks(answer.body)).toEqual([]);
              }
            }
            const list = await get("/api/notifications?limit=100", person.cookie);
            expect(leaks(list.body)).toEqual([]);
            const counts = (await get("/api/notifications/counts", person.cookie)).json();
            expect(counts.all).toBe(list.json().items.length);
            for (const note of notes) {
              const found = await get(`/api/tickets?q=${note.word}`, person.cookie);
              expect(found.statusCode).toBe(200);
              expect(found.json().items).toEqual([]);
              const palette = await get(`/api/search?q=${note.word}`, person.cookie);
              expect(palette.statusCode).toBe(200);
              expect(palette.json().tickets).toEqual([]);
              // The note's file is not there for a user, even with its id in hand.
              for (const url of [
                `/api/attachments/${note.attachmentId}`,
                `/api/attachments/${note.attachmentId}/preview`,
              ]) {
                const file = await get(url, person.cookie);
                expect(file.statusCode).toBe(404);
                expect(file.rawPayload.includes(notePng)).toBe(false);
              }
            }
            // A user's stream gets one "ticket" wake-up per visible event on their tickets, none for a note.
            const mine = await db
              .select({ id: tickets.id })
              .from(tickets)
              .where(eq(tickets.createdBy, person.user.id));
            const visibleEvents =
              mine.length === 0
                ? 0
                : (
                    await db
                      .select({ id: ticketEvents.id })
                      .from(ticketEvents)
                      .where(
                        and(
                          inArray(
                            ticketEvents.ticketId,
                            mine.map((m) => m.id),
                          ),
                          ne(ticketEvents.type, "internal_note"),
                        ),
                      )
                  ).length;
            const stream = streams[i]!;
            await waitUntil(async () => ticketFramesOf(stream) >= visibleEvents);
            await new Promise((resolve) => setTimeout(resolve, 100));
            expect(ticketFramesOf(stream)).toBe(visibleEvents);
            expect(leaks(JSON.stringify(stream.events))).toEqual([]);

            const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.userId, person.user.id));
            const mailText = mails.map((m) => [m.subject, m.text, m.html, m.link].join("\n")).join("\n");
            expect(leaks(mailText)).toEqual([]);
          }
        } finally {
          for (const s of streams) s.close();
        }
      }),
      { numRuns: 12 },
    );
    // Twelve runs of up to ten HTTP actions each, with live streams: generous for a loaded machine.
  }, 120_000);
});
