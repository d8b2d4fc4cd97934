import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import {
  notifications,
  ticketComments,
  ticketEvents,
  ticketFeedback,
  tickets,
} from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TicketStatus } from "#shared/tickets/ticket.schemas.ts";

// docs/security.md: every ticket route × every kind of caller, with the status each must get.
// A forbidden cell must also leave the database exactly as it was.

type ActorKind =
  | "anonymous"
  | "creator"
  | "otherUser"
  | "technician"
  | "assignee"
  | "otherTechnician"
  | "admin";
type Action =
  | "view"
  | "list"
  | "exportCsv"
  | "create"
  | "comment"
  | "addNote"
  | "changeStatus"
  | "assignToMe"
  | "assignTo"
  | "listTechnicians"
  | "giveFeedback"
  | "editDetails"
  | "editDescription"
  | "bulkStatus";

const expected: Record<Action, Record<ActorKind, number>> = {
  view: {
    anonymous: 401,
    creator: 200,
    otherUser: 404,
    technician: 200,
    assignee: 200,
    otherTechnician: 404,
    admin: 200,
  },
  // list: 200 for everyone signed in; whether the ticket is *in* the list is checked below.
  list: {
    anonymous: 401,
    creator: 200,
    otherUser: 200,
    technician: 200,
    assignee: 200,
    otherTechnician: 200,
    admin: 200,
  },
  // The CSV export of the list: the same callers, the same tickets (checked below with `listed`).
  exportCsv: {
    anonymous: 401,
    creator: 200,
    otherUser: 200,
    technician: 200,
    assignee: 200,
    otherTechnician: 200,
    admin: 200,
  },
  create: {
    anonymous: 401,
    creator: 201,
    otherUser: 201,
    technician: 403,
    assignee: 403,
    otherTechnician: 403,
    admin: 201,
  },
  comment: {
    anonymous: 401,
    creator: 201,
    otherUser: 404,
    technician: 201,
    assignee: 201,
    otherTechnician: 404,
    admin: 201,
  },
  // An internal note (comment with isInternal): staff who may see the ticket; users are refused outright.
  addNote: {
    anonymous: 401,
    creator: 403,
    otherUser: 404,
    technician: 201,
    assignee: 201,
    otherTechnician: 404,
    admin: 201,
  },
  changeStatus: {
    anonymous: 401,
    creator: 403,
    otherUser: 404,
    technician: 200,
    assignee: 200,
    otherTechnician: 404,
    admin: 200,
  },
  // A ticket another technician already has is invisible to otherTechnician: 404, as viewing it. Only the
  // loser of a race on a ticket they could see gets 409 (ticket-status.service.test.ts).
  assignToMe: {
    anonymous: 401,
    creator: 403,
    otherUser: 404,
    technician: 200,
    assignee: 409,
    otherTechnician: 404,
    admin: 403,
  },
  // Give the ticket to otherTechnician: its assignee or an admin may; "technician" sees the ticket
  // unassigned, so it is not theirs to hand on.
  assignTo: {
    anonymous: 401,
    creator: 403,
    otherUser: 404,
    technician: 403,
    assignee: 200,
    otherTechnician: 404,
    admin: 200,
  },
  listTechnicians: {
    anonymous: 401,
    creator: 403,
    otherUser: 403,
    technician: 200,
    assignee: 200,
    otherTechnician: 200,
    admin: 200,
  },
  giveFeedback: {
    anonymous: 401,
    creator: 200,
    otherUser: 404,
    technician: 403,
    assignee: 403,
    otherTechnician: 404,
    admin: 403,
  },
  // Staff who may see the ticket correct its details; the creator may not.
  editDetails: {
    anonymous: 401,
    creator: 403,
    otherUser: 404,
    technician: 200,
    assignee: 200,
    otherTechnician: 404,
    admin: 200,
  },
  // Only the creator, while the ticket is Open (the cell's ticket is Open).
  editDescription: {
    anonymous: 401,
    creator: 200,
    otherUser: 404,
    technician: 403,
    assignee: 403,
    otherTechnician: 404,
    admin: 403,
  },
  // Staff get 200 and a per-ticket answer (bulkChanges says whether the ticket changed); users get 403.
  bulkStatus: {
    anonymous: 401,
    creator: 403,
    otherUser: 403,
    technician: 200,
    assignee: 200,
    otherTechnician: 200,
    admin: 200,
  },
};

/** Whether a bulk "Resolved" changed the cell's ticket: otherTechnician is told "not found" and changes nothing. */
const bulkChanges: Record<"technician" | "assignee" | "otherTechnician" | "admin", boolean> = {
  technician: true,
  assignee: true,
  otherTechnician: false,
  admin: true,
};

const listed: Record<Exclude<ActorKind, "anonymous">, boolean> = {
  creator: true,
  otherUser: false,
  technician: true,
  assignee: true,
  otherTechnician: false,
  admin: true,
};

let t: TestApp;
const people = {} as Record<Exclude<ActorKind, "anonymous">, { user: UserRow; cookie: string }>;

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
});
afterAll(() => t.close());

async function snapshot() {
  const { db } = t.database;
  return {
    tickets: await db.select().from(tickets),
    comments: await db.select().from(ticketComments),
    feedback: await db.select().from(ticketFeedback),
    events: await db.select().from(ticketEvents),
    notifications: await db.select().from(notifications),
  };
}

/** The ticket the cell acts on: unassigned for "technician", assigned to "assignee" otherwise. */
async function ticketFor(actor: ActorKind, action: Action) {
  const unassigned =
    actor === "technician" ||
    (action === "assignToMe" && actor !== "assignee" && actor !== "otherTechnician");
  const status: TicketStatus =
    action === "giveFeedback"
      ? "Resolved"
      : unassigned || action === "editDescription"
        ? "Open"
        : "In Progress";
  return insertTicket(t.database.db, {
    createdBy: people.creator.user.id,
    assignedTo: unassigned ? null : people.assignee.user.id,
    status,
  });
}

const newTicket = {
  title: "Scanner offline",
  description: "The scanner on floor 4 does not show up.",
  category: "Hardware",
  priority: "Medium",
  department: "Legal",
  floor: "4",
  officeNumber: "410",
};

function perform(action: Action, ticketId: string, cookie: string | null) {
  const url = `/api/tickets/${ticketId}`;
  switch (action) {
    case "view":
      return request(t.app, { method: "GET", url, cookie });
    case "list":
      return request(t.app, { method: "GET", url: "/api/tickets", cookie });
    case "exportCsv":
      return request(t.app, { method: "GET", url: "/api/tickets/export.csv", cookie });
    case "create":
      return request(t.app, { method: "POST", url: "/api/tickets", cookie, payload: newTicket });
    case "comment":
      return request(t.app, {
        method: "POST",
        url: `${url}/comments`,
        cookie,
        payload: { message: "Any news?" },
      });
    case "addNote":
      return request(t.app, {
        method: "POST",
        url: `${url}/comments`,
        cookie,
        payload: { message: "Printer model is a P-2000", isInternal: true },
      });
    case "changeStatus":
      return request(t.app, {
        method: "PATCH",
        url: `${url}/status`,
        cookie,
        payload: { status: "Resolved" },
      });
    case "assignToMe":
      return request(t.app, { method: "POST", url: `${url}/assign`, cookie });
    case "assignTo":
      return request(t.app, {
        method: "PUT",
        url: `${url}/assignee`,
        cookie,
        payload: { assigneeId: people.otherTechnician.user.id },
      });
    case "listTechnicians":
      return request(t.app, { method: "GET", url: "/api/technicians", cookie });
    case "giveFeedback":
      return request(t.app, {
        method: "PUT",
        url: `${url}/feedback`,
        cookie,
        payload: { rating: 4, comment: "Quick" },
      });
    case "editDetails":
      return request(t.app, { method: "PATCH", url, cookie, payload: { priority: "High" } });
    case "editDescription":
      return request(t.app, { method: "PATCH", url, cookie, payload: { description: "It also beeps." } });
    case "bulkStatus":
      return request(t.app, {
        method: "POST",
        url: "/api/tickets/bulk",
        cookie,
        payload: { ticketIds: [ticketId], action: { kind: "status", status: "Resolved" } },
      });
  }
}

const cells = (Object.keys(expected) as Action[]).flatMap((action) =>
  (Object.keys(expected[action]) as ActorKind[]).map((actor) => ({
    action,
    actor,
    status: expected[action][actor],
  })),
);

describe("ticket routes × callers", () => {
  beforeEach(() =>
    t.database.db.transaction(async (tx) => {
      await tx.delete(notifications);
      await tx.delete(ticketEvents);
      await tx.delete(ticketComments);
      await tx.delete(ticketFeedback);
      await tx.delete(tickets);
    }),
  );

  it.each(cells)("$actor × $action → $status", async ({ action, actor, status }) => {
    const ticket = await ticketFor(actor, action);
    const before = await snapshot();
    const cookie = actor === "anonymous" ? null : people[actor].cookie;
    const response = await perform(action, ticket.id, cookie);
    expect(response.statusCode, response.body).toBe(status);
    if (status >= 400) {
      expect(response.json().message).toEqual(expect.any(String));
      expect(await snapshot()).toEqual(before);
    }
    if (action === "bulkStatus" && status === 200) {
      const changes = bulkChanges[actor as keyof typeof bulkChanges];
      expect(response.json().changed).toEqual(changes ? [ticket.id] : []);
      if (!changes) {
        expect(response.json().refused).toEqual([
          { ticketId: ticket.id, message: `Ticket ${ticket.id} not found` },
        ]);
        expect(await snapshot()).toEqual(before);
      }
    }
    if (action === "list" && actor !== "anonymous") {
      const ids = response.json().items.map((i: { ticketId: string }) => i.ticketId);
      expect(ids.includes(ticket.id)).toBe(listed[actor]);
    }
    if (action === "exportCsv" && actor !== "anonymous") {
      expect(response.body.includes(ticket.id)).toBe(listed[actor]);
    }
  });
});
