import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  attachments,
  mailOutbox,
  notifications,
  ticketFollowers,
  ticketLinks,
  tickets,
  webhookDeliveries,
  webhookEndpoints,
} from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { MergeResult, TicketLink, TicketLinks } from "#shared/ticket-links/ticket-link.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Decision 074: staff link tickets (related, duplicate, parent and child) and merge a duplicate into another;
// a requester sees only what they could see before, and the one pointer to where their ticket went.

let t: TestApp;
type Person = Awaited<ReturnType<typeof signedInAs>>;
let requester: Person;
let otherUser: Person;
let technician: Person;
let otherTechnician: Person;
let admin: Person;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  requester = await signedInAs(t.app, t.database.db, "user");
  otherUser = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  otherTechnician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
});

const send = (
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  cookie: string | null,
  payload?: object,
) => request(t.app, { method, url, cookie, ...(payload ? { payload } : {}) });

/** A ticket of `by`, assigned to the technician (In Progress) unless `assignedTo` says otherwise. */
const ticketOf = (by: Person, values: { assignedTo?: string | null; title?: string } = {}) =>
  insertTicket(t.database.db, {
    createdBy: by.user.id,
    assignedTo: values.assignedTo === undefined ? technician.user.id : values.assignedTo,
    status: values.assignedTo === null ? "Open" : "In Progress",
    ...(values.title ? { title: values.title } : {}),
  });

const linksOf = (ticketId: string, who: Person) => send("GET", `/api/tickets/${ticketId}/links`, who.cookie);
const link = (ticketId: string, who: Person, body: { ticketId: string; kind: string }) =>
  send("POST", `/api/tickets/${ticketId}/links`, who.cookie, body);
const unlink = (ticketId: string, who: Person, linkId: string) =>
  send("DELETE", `/api/tickets/${ticketId}/links/${linkId}`, who.cookie);
const merge = (ticketId: string, who: Person, targetId: string) =>
  send("POST", `/api/tickets/${ticketId}/merge`, who.cookie, { targetId });

async function linked(ticketId: string, body: { ticketId: string; kind: string }, who = admin) {
  const response = await link(ticketId, who, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<TicketLink>();
}

async function relationsFrom(ticketId: string, who = admin) {
  const response = await linksOf(ticketId, who);
  expect(response.statusCode, response.body).toBe(200);
  // Links made in the same millisecond have no order among them: compared by the other ticket's id.
  return bySide(response.json<TicketLinks>().items.map((item) => [item.ticketId, item.relation]));
}

const bySide = (pairs: string[][]) => [...pairs].sort((a, b) => (a[0]! < b[0]! ? -1 : 1));

async function activityOf(ticketId: string, who: Person) {
  const response = await send("GET", `/api/tickets/${ticketId}/activity`, who.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TicketActivity>();
}

async function comment(ticketId: string, who: Person, message: string, more: object = {}) {
  const response = await send("POST", `/api/tickets/${ticketId}/comments`, who.cookie, { message, ...more });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ commentId: string }>();
}

describe("who may read and change links and merge, for every role", () => {
  it("answers each route for signed out, user, technician, another technician and admin; a refusal changes nothing", async () => {
    // The technician's ticket (assigned to them) and a second one of theirs; the other technician sees neither.
    const one = await ticketOf(requester);
    const two = await ticketOf(requester);
    const existing = await linked(one.id, { ticketId: two.id, kind: "related" });
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    const refusals: Array<[string, () => Promise<{ statusCode: number; body: string }>, number]> = [
      ["GET as signed out", () => send("GET", `/api/tickets/${one.id}/links`, null), 401],
      ["GET as another user", () => linksOf(one.id, otherUser), 404],
      ["GET as another technician", () => linksOf(one.id, otherTechnician), 404],
      [
        "POST as signed out",
        () => send("POST", `/api/tickets/${one.id}/links`, null, { ticketId: two.id, kind: "child" }),
        401,
      ],
      ["POST as the requester", () => link(one.id, requester, { ticketId: two.id, kind: "child" }), 403],
      ["POST as another user", () => link(one.id, otherUser, { ticketId: two.id, kind: "child" }), 404],
      [
        "POST as another technician",
        () => link(one.id, otherTechnician, { ticketId: two.id, kind: "child" }),
        404,
      ],
      ["DELETE as the requester", () => unlink(one.id, requester, existing.linkId), 403],
      ["DELETE as another user", () => unlink(one.id, otherUser, existing.linkId), 404],
      ["DELETE as another technician", () => unlink(one.id, otherTechnician, existing.linkId), 404],
      ["merge as the requester", () => merge(two.id, requester, one.id), 403],
      ["merge as another user", () => merge(two.id, otherUser, one.id), 404],
      ["merge as another technician", () => merge(two.id, otherTechnician, one.id), 404],
      [
        "merge as signed out",
        () => send("POST", `/api/tickets/${two.id}/merge`, null, { targetId: one.id }),
        401,
      ],
    ];
    for (const [what, call, expected] of refusals) {
      const response = await call();
      expect(response.statusCode, `${what}: ${response.body}`).toBe(expected);
    }
    expect(await snapshot()).toEqual(before);
    expect((await link(one.id, requester, { ticketId: two.id, kind: "child" })).json()).toMatchObject({
      code: "forbidden",
      message: "Only technicians and administrators can link tickets",
    });

    // Who may: the requester reads (both tickets are theirs), the technician and the admin change.
    expect(await relationsFrom(one.id, requester)).toEqual([[two.id, "related"]]);
    expect(await relationsFrom(one.id, technician)).toEqual([[two.id, "related"]]);
    expect((await unlink(one.id, technician, existing.linkId)).statusCode).toBe(204);
    expect(await relationsFrom(one.id)).toEqual([]);
    const again = await linked(one.id, { ticketId: two.id, kind: "parent" }, technician);
    expect((await unlink(two.id, admin, again.linkId)).statusCode).toBe(204);
    expect((await link(two.id, admin, { ticketId: one.id, kind: "has_duplicate" })).statusCode).toBe(201);
    const merged = await merge(one.id, technician, two.id);
    expect(merged.statusCode, merged.body).toBe(200);
    const three = await ticketOf(otherUser, { assignedTo: otherTechnician.user.id });
    const four = await ticketOf(otherUser, { assignedTo: otherTechnician.user.id });
    expect((await merge(three.id, admin, four.id)).statusCode).toBe(200);
  });

  it("answers 404 when the other ticket is one the caller may not see, and changes nothing", async () => {
    const mine = await ticketOf(requester);
    const hidden = await ticketOf(otherUser, { assignedTo: otherTechnician.user.id });
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    const linking = await link(mine.id, technician, { ticketId: hidden.id, kind: "related" });
    expect(linking.statusCode).toBe(404);
    expect(linking.json()).toMatchObject({ code: "not_found" });
    expect((await merge(mine.id, technician, hidden.id)).statusCode).toBe(404);
    expect((await merge(hidden.id, technician, mine.id)).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("hides from a caller the links to tickets they may not see, and refuses to remove them (404)", async () => {
    const mine = await ticketOf(requester);
    const colleagues = await ticketOf(otherUser, { assignedTo: otherTechnician.user.id });
    const both = await linked(mine.id, { ticketId: colleagues.id, kind: "related" });
    expect(await relationsFrom(mine.id, technician)).toEqual([]);
    expect(await relationsFrom(mine.id, requester)).toEqual([]);
    expect(await relationsFrom(mine.id, admin)).toEqual([[colleagues.id, "related"]]);
    expect((await unlink(mine.id, technician, both.linkId)).statusCode).toBe(404);
    expect(await t.database.db.select().from(ticketLinks)).toHaveLength(1);
  });

  it("lets a technician link a ticket in the queue, and not change a Closed one's links; an admin may", async () => {
    const queued = await ticketOf(requester, { assignedTo: null });
    const alsoQueued = await ticketOf(otherUser, { assignedTo: null });
    const other = await ticketOf(requester);
    expect((await link(queued.id, otherTechnician, { ticketId: other.id, kind: "related" })).statusCode).toBe(
      404,
    );
    expect(
      (await link(queued.id, otherTechnician, { ticketId: alsoQueued.id, kind: "related" })).statusCode,
    ).toBe(201);
    const closed = await insertTicket(t.database.db, {
      createdBy: requester.user.id,
      assignedTo: technician.user.id,
      status: "Closed",
    });
    const refused = await link(closed.id, technician, { ticketId: other.id, kind: "related" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe("This ticket is closed; only an administrator can change its links.");
    // A Closed ticket may still be the other side (an old ticket named as related).
    expect((await link(other.id, technician, { ticketId: closed.id, kind: "related" })).statusCode).toBe(201);
    expect((await link(closed.id, admin, { ticketId: queued.id, kind: "related" })).statusCode).toBe(201);
    expect(
      (await link(queued.id, technician, { ticketId: closed.id, kind: "duplicate_of" })).statusCode,
    ).toBe(409);
  });
});

describe("links read from both sides", () => {
  it("shows each kind from this ticket and from the other, and records linked on both timelines", async () => {
    const main = await ticketOf(requester, { title: "Main" });
    const copy = await ticketOf(requester, { title: "Copy" });
    const parent = await ticketOf(requester, { title: "Parent" });
    const child = await ticketOf(requester, { title: "Child" });
    const near = await ticketOf(requester, { title: "Near" });
    const made = await linked(main.id, { ticketId: copy.id, kind: "has_duplicate" }, technician);
    expect(made).toMatchObject({
      ticketId: copy.id,
      title: "Copy",
      status: "In Progress",
      relation: "has_duplicate",
    });
    await linked(main.id, { ticketId: parent.id, kind: "parent" });
    await linked(child.id, { ticketId: main.id, kind: "parent" });
    await linked(near.id, { ticketId: main.id, kind: "related" });
    expect(await relationsFrom(main.id)).toEqual(
      bySide([
        [copy.id, "has_duplicate"],
        [parent.id, "parent"],
        [child.id, "child"],
        [near.id, "related"],
      ]),
    );
    expect(await relationsFrom(copy.id)).toEqual([[main.id, "duplicate_of"]]);
    expect(await relationsFrom(parent.id)).toEqual([[main.id, "child"]]);
    expect(await relationsFrom(child.id)).toEqual([[main.id, "parent"]]);
    expect(await relationsFrom(near.id)).toEqual([[main.id, "related"]]);
    // Stored once per pair.
    expect(await t.database.db.select().from(ticketLinks)).toHaveLength(4);

    const staffView = await activityOf(copy.id, technician);
    const entry = staffView.events.find((event) => event.type === "linked");
    expect(entry).toMatchObject({
      linkedTicketId: main.id,
      linkRelation: "duplicate_of",
      actorId: technician.user.id,
    });
    expect((await activityOf(main.id, admin)).events.filter((event) => event.type === "linked")).toHaveLength(
      4,
    );
    // Staff only: the requester's timeline has no link entries, and nobody was notified.
    expect((await activityOf(main.id, requester)).events.map((event) => event.type)).not.toContain("linked");
    expect(await t.database.db.select().from(notifications)).toEqual([]);
  });

  it("records unlinked on both tickets, each as it read the link", async () => {
    const one = await ticketOf(requester);
    const two = await ticketOf(requester);
    const made = await linked(one.id, { ticketId: two.id, kind: "child" });
    expect((await unlink(two.id, technician, made.linkId)).statusCode).toBe(204);
    const fromOne = (await activityOf(one.id, admin)).events.filter((event) => event.type === "unlinked");
    const fromTwo = (await activityOf(two.id, admin)).events.filter((event) => event.type === "unlinked");
    expect(fromOne.map((event) => [event.linkedTicketId, event.linkRelation])).toEqual([[two.id, "child"]]);
    expect(fromTwo.map((event) => [event.linkedTicketId, event.linkRelation])).toEqual([[one.id, "parent"]]);
    expect((await unlink(two.id, technician, made.linkId)).statusCode).toBe(404);
  });
});

describe("links refused", () => {
  it("refuses a ticket linked to itself, and a second link between the same pair from either side", async () => {
    const one = await ticketOf(requester);
    const two = await ticketOf(requester);
    const itself = await link(one.id, technician, { ticketId: one.id, kind: "related" });
    expect(itself.statusCode).toBe(422);
    expect(itself.json().message).toBe("A ticket cannot be linked to itself.");
    await linked(one.id, { ticketId: two.id, kind: "related" });
    const second = await link(two.id, technician, { ticketId: one.id, kind: "duplicate_of" });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(
      `${two.id} and ${one.id} are already linked (related); remove that link to link them another way.`,
    );
    const bad = await link(one.id, technician, { ticketId: two.id, kind: "sibling" });
    expect(bad.statusCode).toBe(400);
    expect(await t.database.db.select().from(ticketLinks)).toHaveLength(1);
  });

  it("refuses a second parent and a loop of parents", async () => {
    const top = await ticketOf(requester);
    const middle = await ticketOf(requester);
    const bottom = await ticketOf(requester);
    const stranger = await ticketOf(requester);
    await linked(middle.id, { ticketId: top.id, kind: "parent" });
    await linked(bottom.id, { ticketId: middle.id, kind: "parent" });
    const loop = await link(top.id, technician, { ticketId: bottom.id, kind: "parent" });
    expect(loop.statusCode).toBe(409);
    expect(loop.json().message).toBe(
      `${top.id} is already a parent of ${bottom.id} (or of one of its parents): that link would make a loop.`,
    );
    const secondParent = await link(stranger.id, technician, { ticketId: bottom.id, kind: "child" });
    expect(secondParent.statusCode).toBe(409);
    expect(secondParent.json().message).toBe(
      `${bottom.id} already has a parent, ${middle.id}; remove that link first.`,
    );
    // A ticket may have many children.
    expect((await link(top.id, technician, { ticketId: stranger.id, kind: "child" })).statusCode).toBe(201);
  });
});

describe("merging a duplicate", () => {
  async function uploaded(who: Person, name: string) {
    const response = await request(t.app, {
      method: "POST",
      url: `/api/attachments?fileName=${name}.txt`,
      cookie: who.cookie,
      headers: { "content-type": "application/octet-stream" },
      payload: `The log of ${name}\n`,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  }

  it("moves comments, notes, files and followers, closes the duplicate with its pointer and records both events", async () => {
    const target = await ticketOf(otherUser, { title: "Wi-Fi down on floor 3" });
    const duplicate = await ticketOf(requester, { title: "No internet" });
    await comment(target.id, otherUser, "Nothing loads");
    const file = await uploaded(requester, "trace");
    const publicComment = await comment(duplicate.id, requester, "Since 9 o'clock", {
      attachmentIds: [file],
    });
    const note = await comment(duplicate.id, technician, "Same access point as the other one", {
      isInternal: true,
    });
    expect((await send("PUT", `/api/tickets/${duplicate.id}/follow`, admin.cookie)).statusCode).toBe(200);

    const response = await merge(duplicate.id, technician, target.id);
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<MergeResult>();
    expect(result.moved).toEqual({ comments: 2, attachments: 1, followers: 1 });
    expect(result.ticket).toMatchObject({
      ticketId: duplicate.id,
      status: "Closed",
      mergedIntoId: target.id,
    });

    const [stored] = await t.database.db.select().from(tickets).where(eq(tickets.id, duplicate.id));
    expect(stored).toMatchObject({ status: "Closed", mergedIntoId: target.id });
    const staffTarget = await activityOf(target.id, technician);
    expect(staffTarget.comments).toHaveLength(3);
    expect(staffTarget.comments.map((c) => c.ticketId)).toEqual([target.id, target.id, target.id]);
    const movedComment = staffTarget.comments.find((c) => c.commentId === publicComment.commentId);
    expect(movedComment).toMatchObject({ isInternal: false, message: "Since 9 o'clock" });
    expect(movedComment?.attachments.map((a) => a.id)).toEqual([file]);
    const movedNote = staffTarget.comments.find((c) => c.commentId === note.commentId);
    expect(movedNote?.isInternal).toBe(true);
    expect(staffTarget.events.map((event) => event.type)).toEqual([
      "commented",
      "commented",
      "internal_note",
      "merged_in",
    ]);
    expect(staffTarget.events.at(-1)).toMatchObject({
      linkedTicketId: duplicate.id,
      actorId: technician.user.id,
    });
    const [moved] = await t.database.db.select().from(attachments).where(eq(attachments.id, file));
    expect(moved?.ticketId).toBe(target.id);
    const followers = await t.database.db.select().from(ticketFollowers);
    expect(followers.map((row) => [row.ticketId, row.userId])).toEqual([[target.id, admin.user.id]]);

    const staffDuplicate = await activityOf(duplicate.id, technician);
    expect(staffDuplicate.comments).toEqual([]);
    expect(staffDuplicate.events.map((event) => event.type)).toEqual(["merged"]);
    expect(staffDuplicate.events[0]).toMatchObject({
      linkedTicketId: target.id,
      fromStatus: "In Progress",
      toStatus: "Closed",
    });
  });

  it("tells the duplicate's requester where it went, by notification and e-mail, and gives them no sight of another's ticket", async () => {
    const target = await ticketOf(otherUser, { title: "Wi-Fi down on floor 3" });
    const duplicate = await ticketOf(requester, { title: "No internet" });
    await comment(duplicate.id, technician, "Looking at the access point", { isInternal: true });
    expect((await merge(duplicate.id, admin, target.id)).statusCode).toBe(200);

    const told = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, requester.user.id));
    expect(told.map((row) => [row.type, row.ticketId, row.message])).toEqual([
      [
        "ticket_status",
        duplicate.id,
        `${admin.user.name} merged ticket "No internet" into ticket ${target.id}; it is now Closed and the conversation continues there`,
      ],
    ]);
    expect(told[0]!.params).toEqual({
      kind: "merged",
      title: "No internet",
      actor: admin.user.name,
      target: target.id,
    });
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.userId, requester.user.id));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(target.id);
    // The target's requester and the assignee hear nothing of what was merged in (the assignee of the
    // duplicate is told it closed).
    expect(
      await t.database.db.select().from(notifications).where(eq(notifications.userId, otherUser.user.id)),
    ).toEqual([]);

    // The requester still sees their ticket, Closed, with the pointer and the "merged" entry; not the target.
    const own = (await send("GET", `/api/tickets/${duplicate.id}`, requester.cookie)).json<Ticket>();
    expect(own).toMatchObject({ status: "Closed", mergedIntoId: target.id });
    const timeline = await activityOf(duplicate.id, requester);
    expect(timeline.events.map((event) => [event.type, event.linkedTicketId])).toEqual([
      ["merged", target.id],
    ]);
    expect((await send("GET", `/api/tickets/${target.id}`, requester.cookie)).statusCode).toBe(404);
    expect((await linksOf(duplicate.id, requester)).json<TicketLinks>().items).toEqual([]);
    // Nor is the requester made a follower of a ticket they may not see.
    expect(await t.database.db.select().from(ticketFollowers)).toEqual([]);

    // The target's requester sees what was said publicly, never the internal note nor the merge entry.
    const theirs = await activityOf(target.id, otherUser);
    expect(theirs.comments.map((c) => c.isInternal)).toEqual([]);
    expect(theirs.events.map((event) => event.type)).toEqual([]);
  });

  it("keeps the requester's own tickets visible to them when both are theirs, and links them", async () => {
    const target = await ticketOf(requester, { title: "Laptop screen flickers" });
    const duplicate = await ticketOf(requester, { title: "Screen flickering" });
    await comment(duplicate.id, requester, "It started after the update");
    expect((await merge(duplicate.id, technician, target.id)).statusCode).toBe(200);
    const theirs = await activityOf(target.id, requester);
    expect(theirs.comments.map((c) => c.message)).toEqual(["It started after the update"]);
    expect(theirs.events.map((event) => event.type)).toEqual(["commented"]);
  });

  it("makes a staff requester of the duplicate a follower of the target they may see", async () => {
    const target = await ticketOf(otherUser);
    const duplicate = await insertTicket(t.database.db, {
      createdBy: admin.user.id,
      assignedTo: technician.user.id,
      status: "In Progress",
    });
    expect((await merge(duplicate.id, technician, target.id)).statusCode).toBe(200);
    const followers = await t.database.db.select().from(ticketFollowers);
    expect(followers.map((row) => [row.ticketId, row.userId])).toEqual([[target.id, admin.user.id]]);
  });

  it("stops the duplicate's service-level clock and leaves the target's first response as it was", async () => {
    const target = await ticketOf(otherUser, { assignedTo: null });
    const duplicate = await ticketOf(requester);
    await comment(duplicate.id, technician, "We are on it");
    expect((await merge(duplicate.id, technician, target.id)).statusCode).toBe(200);
    const [source] = await t.database.db.select().from(tickets).where(eq(tickets.id, duplicate.id));
    const [into] = await t.database.db.select().from(tickets).where(eq(tickets.id, target.id));
    expect(source?.resolvedAt).not.toBeNull();
    expect(source?.slaDueAt).toBeNull();
    expect(into?.firstRespondedAt).toBeNull();
    expect(into?.status).toBe("Open");
  });

  it("ends the duplicate's hold before closing it", async () => {
    const target = await ticketOf(requester);
    const duplicate = await ticketOf(requester);
    const held = await send("PUT", `/api/tickets/${duplicate.id}/hold`, technician.cookie, {
      comment: "Please send a photo",
    });
    expect(held.statusCode, held.body).toBe(200);
    expect((await merge(duplicate.id, technician, target.id)).statusCode).toBe(200);
    const [source] = await t.database.db.select().from(tickets).where(eq(tickets.id, duplicate.id));
    expect(source).toMatchObject({ status: "Closed", onHoldSince: null });
    const types = (await activityOf(duplicate.id, admin)).events.map((event) => event.type);
    expect(types.slice(-2)).toEqual(["taken_off_hold", "merged"]);
  });

  it("refuses a merge into itself, into a Closed or merged ticket, and of a merged one, with clear messages", async () => {
    const one = await ticketOf(requester);
    const two = await ticketOf(requester);
    const closed = await insertTicket(t.database.db, { createdBy: requester.user.id, status: "Closed" });
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    const itself = await merge(one.id, technician, one.id);
    expect([itself.statusCode, itself.json().message]).toEqual([
      422,
      "A ticket cannot be merged into itself.",
    ]);
    const intoClosed = await merge(one.id, admin, closed.id);
    expect([intoClosed.statusCode, intoClosed.json().message]).toEqual([
      409,
      `${closed.id} is closed; merge into a ticket that is not closed.`,
    ]);
    const ofClosed = await merge(closed.id, admin, one.id);
    expect([ofClosed.statusCode, ofClosed.json().message]).toEqual([
      409,
      "This ticket is closed; a closed ticket cannot be merged.",
    ]);
    expect(await snapshot()).toEqual(before);
    expect((await merge(one.id, technician, two.id)).statusCode).toBe(200);
    const three = await ticketOf(requester);
    const intoMerged = await merge(three.id, technician, one.id);
    expect([intoMerged.statusCode, intoMerged.json().message]).toEqual([
      409,
      `${one.id} was itself merged into ${two.id}; merge into that ticket instead.`,
    ]);
    const again = await merge(one.id, technician, three.id);
    expect([again.statusCode, again.json().message]).toEqual([
      409,
      `This ticket was already merged into ${two.id}.`,
    ]);
    const missing = await merge(three.id, technician, "TKT000000AAAAAAAA");
    expect(missing.statusCode).toBe(404);
  });
});

describe("at the same moment", () => {
  it("lets one of two crossed merges win and answers the other with a 409, never a 5xx", async () => {
    const one = await ticketOf(requester);
    const two = await ticketOf(requester);
    const answers = await Promise.all([merge(one.id, technician, two.id), merge(two.id, admin, one.id)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const rows = await t.database.db.select().from(tickets);
    const merged = rows.filter((row) => row.mergedIntoId !== null);
    expect(merged).toHaveLength(1);
    expect(rows.filter((row) => row.status === "Closed")).toHaveLength(1);
  });

  it("makes one link when the same pair is linked from both sides at once", async () => {
    const one = await ticketOf(requester);
    const two = await ticketOf(requester);
    const answers = await Promise.all([
      link(one.id, technician, { ticketId: two.id, kind: "related" }),
      link(two.id, admin, { ticketId: one.id, kind: "parent" }),
      link(one.id, admin, { ticketId: two.id, kind: "duplicate_of" }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await t.database.db.select().from(ticketLinks)).toHaveLength(1);
  });
});

describe("webhooks", () => {
  it("sends a merge as the duplicate's status change to Closed, and no link to an endpoint that chose only status changes", async () => {
    await t.database.db.insert(webhookEndpoints).values({
      id: "whk_links",
      url: "http://127.0.0.1:9/hook",
      events: ["ticket.status_changed"],
      secret: "whsec_links_test_secret_0123456789",
    });
    const target = await ticketOf(requester);
    const duplicate = await ticketOf(requester);
    await linked(duplicate.id, { ticketId: target.id, kind: "duplicate_of" });
    expect(await t.database.db.select().from(webhookDeliveries)).toEqual([]);
    expect((await merge(duplicate.id, technician, target.id)).statusCode).toBe(200);
    const deliveries = await t.database.db.select().from(webhookDeliveries);
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(["ticket.status_changed"]);
    const body = JSON.parse(deliveries[0]!.body) as {
      ticket: { ticketId: string; mergedIntoId: string };
      status: { from: string; to: string };
    };
    expect(body.ticket).toMatchObject({ ticketId: duplicate.id, mergedIntoId: target.id });
    expect(body.status).toEqual({ from: "In Progress", to: "Closed" });
  });
});

describe("what a requester sees of links", () => {
  it("lists a link between two of their own tickets, never one to another person's ticket", async () => {
    const mine = await ticketOf(requester);
    const alsoMine = await ticketOf(requester);
    const theirs = await ticketOf(otherUser);
    await linked(mine.id, { ticketId: alsoMine.id, kind: "related" });
    await linked(mine.id, { ticketId: theirs.id, kind: "has_duplicate" });
    expect(await relationsFrom(mine.id, requester)).toEqual([[alsoMine.id, "related"]]);
    expect(await relationsFrom(theirs.id, otherUser)).toEqual([]);
    expect(await relationsFrom(mine.id, technician)).toEqual(
      bySide([
        [alsoMine.id, "related"],
        [theirs.id, "has_duplicate"],
      ]),
    );
    const rows = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, requester.user.id));
    expect(rows).toEqual([]);
  });
});
