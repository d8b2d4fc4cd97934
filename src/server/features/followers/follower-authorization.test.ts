import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { notifications, ticketFollowers, tickets } from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

// docs/security.md, in the style of ticket-authorization.test.ts: the follow routes and the staff directory
// × every kind of caller. A refused cell leaves the database exactly as it was.

type ActorKind =
  | "anonymous"
  | "creator"
  | "otherUser"
  | "technician"
  | "assignee"
  | "otherTechnician"
  | "admin";
type Action = "followState" | "follow" | "unfollow" | "staffDirectory";

const seesTicket = {
  anonymous: 401,
  creator: 200,
  otherUser: 404,
  technician: 200,
  assignee: 200,
  otherTechnician: 404,
  admin: 200,
};

const expected: Record<Action, Record<ActorKind, number>> = {
  followState: seesTicket,
  follow: seesTicket,
  unfollow: seesTicket,
  // The @-autocomplete's directory: staff only.
  staffDirectory: {
    anonymous: 401,
    creator: 403,
    otherUser: 403,
    technician: 200,
    assignee: 200,
    otherTechnician: 200,
    admin: 200,
  },
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
    followers: await db.select().from(ticketFollowers),
    notifications: await db.select().from(notifications),
  };
}

/** Unassigned for "technician" (who sees only the queue), assigned to "assignee" otherwise. */
async function ticketFor(actor: ActorKind) {
  const unassigned = actor === "technician";
  const ticket = await insertTicket(t.database.db, {
    createdBy: people.creator.user.id,
    assignedTo: unassigned ? null : people.assignee.user.id,
    status: unassigned ? "Open" : "In Progress",
  });
  // Someone already follows, so a refused unfollow has a row it must not touch.
  if (actor !== "anonymous") {
    await t.database.db
      .insert(ticketFollowers)
      .values({ ticketId: ticket.id, userId: people[actor].user.id });
  }
  return ticket;
}

function perform(action: Action, ticketId: string, cookie: string | null) {
  const url = `/api/tickets/${ticketId}/follow`;
  switch (action) {
    case "followState":
      return request(t.app, { method: "GET", url, cookie });
    case "follow":
      return request(t.app, { method: "PUT", url, cookie });
    case "unfollow":
      return request(t.app, { method: "DELETE", url, cookie });
    case "staffDirectory":
      return request(t.app, { method: "GET", url: "/api/staff?q=a", cookie });
  }
}

const cells = (Object.keys(expected) as Action[]).flatMap((action) =>
  (Object.keys(expected[action]) as ActorKind[]).map((actor) => ({
    action,
    actor,
    status: expected[action][actor],
  })),
);

describe("follow routes and the staff directory × callers", () => {
  beforeEach(() => t.database.db.delete(tickets));

  it.each(cells)("$actor × $action → $status", async ({ action, actor, status }) => {
    const ticket = await ticketFor(actor);
    const before = await snapshot();
    const cookie = actor === "anonymous" ? null : people[actor].cookie;
    const response = await perform(action, ticket.id, cookie);
    expect(response.statusCode, response.body).toBe(status);
    if (status >= 400) {
      expect(response.json().message).toEqual(expect.any(String));
      expect(await snapshot()).toEqual(before);
    }
  });
});
