import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import {
  attachmentChunks,
  attachments,
  notifications,
  ticketComments,
  ticketEvents,
  tickets,
} from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { makePng } from "#server/test/files.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

// docs/security.md and decision 011, in the style of ticket-authorization.test.ts: every attachment
// route × every kind of caller, with the status each must get; a refused call leaves the database
// exactly as it was.

type ActorKind =
  | "anonymous"
  | "creator"
  | "otherUser"
  | "technician"
  | "assignee"
  | "otherTechnician"
  | "admin";
type Action =
  | "upload"
  | "download"
  | "preview"
  | "downloadNoteFile"
  | "commentWithFile"
  | "noteWithFile"
  | "createWithFile"
  | "linkSomeoneElsesFile";

const expected: Record<Action, Record<ActorKind, number>> = {
  // Anyone with a role may upload; the file reaches no one until they link it to something they may write.
  upload: {
    anonymous: 401,
    creator: 201,
    otherUser: 201,
    technician: 201,
    assignee: 201,
    otherTechnician: 201,
    admin: 201,
  },
  // A file on the ticket (or a comment): exactly who may see the ticket.
  download: {
    anonymous: 401,
    creator: 200,
    otherUser: 404,
    technician: 200,
    assignee: 200,
    otherTechnician: 404,
    admin: 200,
  },
  preview: {
    anonymous: 401,
    creator: 200,
    otherUser: 404,
    technician: 200,
    assignee: 200,
    otherTechnician: 404,
    admin: 200,
  },
  // A file on an internal note: staff who may see the ticket; the creator gets 404 as for a hidden ticket.
  downloadNoteFile: {
    anonymous: 401,
    creator: 404,
    otherUser: 404,
    technician: 200,
    assignee: 200,
    otherTechnician: 404,
    admin: 200,
  },
  commentWithFile: {
    anonymous: 401,
    creator: 201,
    otherUser: 404,
    technician: 201,
    assignee: 201,
    otherTechnician: 404,
    admin: 201,
  },
  noteWithFile: {
    anonymous: 401,
    creator: 403,
    otherUser: 404,
    technician: 201,
    assignee: 201,
    otherTechnician: 404,
    admin: 201,
  },
  createWithFile: {
    anonymous: 401,
    creator: 201,
    otherUser: 201,
    technician: 403,
    assignee: 403,
    otherTechnician: 403,
    admin: 201,
  },
  // A pending upload of someone else's: no one may attach it, whoever they are.
  linkSomeoneElsesFile: {
    anonymous: 401,
    creator: 400,
    otherUser: 404,
    technician: 400,
    assignee: 400,
    otherTechnician: 404,
    admin: 400,
  },
};

let t: TestApp;
type Person = { user: UserRow; cookie: string };
const people = {} as Record<Exclude<ActorKind, "anonymous">, Person>;
let stranger: Person;

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
    people[kind as keyof typeof roles] = await signedInAs(t.app, t.database.db, role);
  }
  stranger = await signedInAs(t.app, t.database.db, "user");
});
afterAll(() => t.close());

async function snapshot() {
  const { db } = t.database;
  return {
    tickets: await db.select().from(tickets),
    comments: await db.select().from(ticketComments),
    events: await db.select().from(ticketEvents),
    notifications: await db.select().from(notifications),
    attachments: await db.select().from(attachments),
    chunks: (await db.select().from(attachmentChunks)).length,
  };
}

const png = makePng(8, 8);
const upload = (cookie: string | null) =>
  request(t.app, {
    method: "POST",
    url: "/api/attachments?fileName=screen.png",
    cookie,
    headers: { "content-type": "image/png" },
    payload: png,
  });

/** A file linked to the ticket through a comment (or an admin's internal note). */
async function linkedFile(ticketId: string, isInternal: boolean) {
  const author = isInternal ? people.admin : people.creator;
  const uploaded = await upload(author.cookie);
  const comment = await request(t.app, {
    method: "POST",
    url: `/api/tickets/${ticketId}/comments`,
    cookie: author.cookie,
    payload: { message: "File", isInternal, attachmentIds: [uploaded.json().id] },
  });
  return comment.json().attachments[0].id as string;
}

/** Unassigned for "technician", assigned to "assignee" otherwise (as in ticket-authorization.test.ts). */
const ticketFor = (actor: ActorKind) =>
  insertTicket(t.database.db, {
    createdBy: people.creator.user.id,
    assignedTo: actor === "technician" ? null : people.assignee.user.id,
    status: actor === "technician" ? "Open" : "In Progress",
  });

const newTicket = {
  title: "Scanner offline",
  description: "The scanner on floor 4 does not show up.",
  category: "Hardware",
  priority: "Medium",
  department: "Legal",
  floor: "4",
  officeNumber: "410",
};

/** Prepares what the cell needs (before the snapshot), then returns the call itself. */
async function prepare(action: Action, actor: ActorKind, ticketId: string) {
  const cookie = actor === "anonymous" ? null : people[actor].cookie;
  // The caller's own pending upload (an anonymous caller has none: they try a stranger's).
  const ownUpload = async () =>
    (await upload(actor === "anonymous" ? stranger.cookie : (cookie as string))).json().id as string;
  const comment =
    (attachmentIds: string[], isInternal = false) =>
    () =>
      request(t.app, {
        method: "POST",
        url: `/api/tickets/${ticketId}/comments`,
        cookie,
        payload: { message: "With a file", isInternal, attachmentIds },
      });
  switch (action) {
    case "upload":
      return () => upload(cookie);
    case "download": {
      const id = await linkedFile(ticketId, false);
      return () => request(t.app, { method: "GET", url: `/api/attachments/${id}`, cookie });
    }
    case "preview": {
      const id = await linkedFile(ticketId, false);
      return () => request(t.app, { method: "GET", url: `/api/attachments/${id}/preview`, cookie });
    }
    case "downloadNoteFile": {
      const id = await linkedFile(ticketId, true);
      return () => request(t.app, { method: "GET", url: `/api/attachments/${id}`, cookie });
    }
    case "commentWithFile":
      return comment([await ownUpload()]);
    case "noteWithFile":
      return comment([await ownUpload()], true);
    case "createWithFile": {
      const attachmentIds = [await ownUpload()];
      return () =>
        request(t.app, {
          method: "POST",
          url: "/api/tickets",
          cookie,
          payload: { ...newTicket, attachmentIds },
        });
    }
    case "linkSomeoneElsesFile":
      return comment([(await upload(stranger.cookie)).json().id]);
  }
}

const cells = (Object.keys(expected) as Action[]).flatMap((action) =>
  (Object.keys(expected[action]) as ActorKind[]).map((actor) => ({
    action,
    actor,
    status: expected[action][actor],
  })),
);

describe("attachment routes × callers", () => {
  beforeEach(() =>
    t.database.db.transaction(async (tx) => {
      await tx.delete(attachments);
      await tx.delete(notifications);
      await tx.delete(ticketEvents);
      await tx.delete(ticketComments);
      await tx.delete(tickets);
    }),
  );

  it.each(cells)("$actor × $action → $status", async ({ action, actor, status }) => {
    const ticket = await ticketFor(actor);
    const call = await prepare(action, actor, ticket.id);
    const before = await snapshot();
    const response = await call();
    expect(response.statusCode, response.body).toBe(status);
    if (status >= 400) {
      expect(response.json().message).toEqual(expect.any(String));
      expect(await snapshot()).toEqual(before);
    }
    if (status === 200) expect(response.rawPayload.equals(png)).toBe(true);
  });
});
