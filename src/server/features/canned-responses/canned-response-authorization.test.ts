import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { cannedResponses } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";

// The saved-response routes × every kind of caller, in the style of ticket-authorization.test.ts. These
// routes are not per ticket, so "creator" and "assignee" are simply a user and a technician; the personal
// response acted on belongs to "technician", the shared one to "admin". A refused cell must leave the
// table exactly as it was.

type ActorKind =
  | "anonymous"
  | "creator"
  | "otherUser"
  | "technician"
  | "assignee"
  | "otherTechnician"
  | "admin";
type Action =
  | "list"
  | "createPersonal"
  | "createShared"
  | "updatePersonal"
  | "updateShared"
  | "deletePersonal"
  | "deleteShared";

const refusedToUsers = { anonymous: 401, creator: 403, otherUser: 403 } as const;

const expected: Record<Action, Record<ActorKind, number>> = {
  list: { ...refusedToUsers, technician: 200, assignee: 200, otherTechnician: 200, admin: 200 },
  createPersonal: { ...refusedToUsers, technician: 201, assignee: 201, otherTechnician: 201, admin: 201 },
  createShared: { ...refusedToUsers, technician: 403, assignee: 403, otherTechnician: 403, admin: 201 },
  // Another person's personal response does not exist for the caller, admins included.
  updatePersonal: { ...refusedToUsers, technician: 200, assignee: 404, otherTechnician: 404, admin: 404 },
  updateShared: { ...refusedToUsers, technician: 403, assignee: 403, otherTechnician: 403, admin: 200 },
  deletePersonal: { ...refusedToUsers, technician: 204, assignee: 404, otherTechnician: 404, admin: 404 },
  deleteShared: { ...refusedToUsers, technician: 403, assignee: 403, otherTechnician: 403, admin: 204 },
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

const snapshot = () => t.database.db.select().from(cannedResponses).orderBy(cannedResponses.id);

async function fixtures() {
  const [personal, shared] = await t.database.db
    .insert(cannedResponses)
    .values([
      {
        id: "crs_00000000-0000-4000-8000-000000000001",
        title: "Reboot first",
        body: "Hi {{creator.firstName}}, please restart and tell me on {{ticket.id}}.",
        scope: "personal",
        ownerId: people.technician.user.id,
      },
      {
        id: "crs_00000000-0000-4000-8000-000000000002",
        title: "Closing",
        body: "Closing {{ticket.id}} now.",
        scope: "shared",
        ownerId: people.admin.user.id,
      },
    ])
    .returning();
  return { personal: personal!, shared: shared! };
}

function perform(action: Action, ids: { personal: string; shared: string }, cookie: string | null) {
  const url = "/api/canned-responses";
  switch (action) {
    case "list":
      return request(t.app, { method: "GET", url, cookie });
    case "createPersonal":
      return request(t.app, {
        method: "POST",
        url,
        cookie,
        payload: { title: "Need a photo", body: "Could you send a photo?", scope: "personal" },
      });
    case "createShared":
      return request(t.app, {
        method: "POST",
        url,
        cookie,
        payload: { title: "Need a photo", body: "Could you send a photo?", scope: "shared" },
      });
    case "updatePersonal":
      return request(t.app, {
        method: "PATCH",
        url: `${url}/${ids.personal}`,
        cookie,
        payload: { title: "X" },
      });
    case "updateShared":
      return request(t.app, {
        method: "PATCH",
        url: `${url}/${ids.shared}`,
        cookie,
        payload: { title: "X" },
      });
    case "deletePersonal":
      return request(t.app, { method: "DELETE", url: `${url}/${ids.personal}`, cookie });
    case "deleteShared":
      return request(t.app, { method: "DELETE", url: `${url}/${ids.shared}`, cookie });
  }
}

const cells = (Object.keys(expected) as Action[]).flatMap((action) =>
  (Object.keys(expected[action]) as ActorKind[]).map((actor) => ({
    action,
    actor,
    status: expected[action][actor],
  })),
);

describe("saved-response routes × callers", () => {
  beforeEach(() => t.database.db.delete(cannedResponses));

  it.each(cells)("$actor × $action → $status", async ({ action, actor, status }) => {
    const { personal, shared } = await fixtures();
    const before = await snapshot();
    const cookie = actor === "anonymous" ? null : people[actor].cookie;
    const response = await perform(action, { personal: personal.id, shared: shared.id }, cookie);
    expect(response.statusCode, response.body).toBe(status);
    if (status >= 400) {
      expect(response.json().message).toEqual(expect.any(String));
      expect(await snapshot()).toEqual(before);
    }
    if (action === "list" && status === 200) {
      const ids = response.json().items.map((item: { id: string }) => item.id);
      // The shared one for every staff member; the personal one for its owner alone.
      expect(ids).toContain(shared.id);
      expect(ids.includes(personal.id)).toBe(actor === "technician");
    }
  });
});
