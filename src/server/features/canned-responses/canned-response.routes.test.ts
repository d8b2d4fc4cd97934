import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cannedResponses, type UserRow } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { CannedResponse } from "#shared/canned-responses/canned-response.schemas.ts";

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let tech: Person;
let otherTech: Person;
let admin: Person;
let otherAdmin: Person;
let user: Person;

beforeAll(async () => {
  t = await createTestApp();
  const { app, database } = t;
  tech = await signedInAs(app, database.db, "technician");
  otherTech = await signedInAs(app, database.db, "technician");
  admin = await signedInAs(app, database.db, "admin");
  otherAdmin = await signedInAs(app, database.db, "admin");
  user = await signedInAs(app, database.db, "user");
});
afterAll(() => t.close());
beforeEach(() => t.database.db.delete(cannedResponses));

const url = "/api/canned-responses";
const rows = () => t.database.db.select().from(cannedResponses).orderBy(cannedResponses.id);

async function create(person: Person, payload: Record<string, unknown>) {
  const response = await request(t.app, { method: "POST", url, cookie: person.cookie, payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CannedResponse>();
}

async function titlesFor(person: Person, query = "") {
  const response = await request(t.app, { method: "GET", url: `${url}${query}`, cookie: person.cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: CannedResponse[] }>().items.map((item) => item.title);
}

describe("personal responses", () => {
  it("are seen, edited and deleted by their owner alone", async () => {
    const mine = await create(tech, { title: "Reboot first", body: "Please restart {{ticket.id}}." });
    expect(mine).toMatchObject({ scope: "personal", ownerId: tech.user.id, ownerName: tech.user.name });

    expect(await titlesFor(tech)).toEqual(["Reboot first"]);
    expect(await titlesFor(otherTech)).toEqual([]);
    expect(await titlesFor(admin)).toEqual([]);

    for (const other of [otherTech, admin]) {
      const edit = await request(t.app, {
        method: "PATCH",
        url: `${url}/${mine.id}`,
        cookie: other.cookie,
        payload: { body: "Hijacked" },
      });
      expect(edit.statusCode).toBe(404);
      expect(edit.json().message).toBe(`Response ${mine.id} not found`);
    }

    const edit = await request(t.app, {
      method: "PATCH",
      url: `${url}/${mine.id}`,
      cookie: tech.cookie,
      payload: { body: "Please restart, then reply on {{ticket.id}}." },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({
      title: "Reboot first",
      body: "Please restart, then reply on {{ticket.id}}.",
    });

    const remove = await request(t.app, { method: "DELETE", url: `${url}/${mine.id}`, cookie: tech.cookie });
    expect(remove.statusCode).toBe(204);
    expect(await rows()).toEqual([]);
  });

  it("stay personal when an edit sends another scope", async () => {
    const mine = await create(tech, { title: "Drivers", body: "Update the driver." });
    const edit = await request(t.app, {
      method: "PATCH",
      url: `${url}/${mine.id}`,
      cookie: tech.cookie,
      payload: { title: "Driver update", scope: "shared" },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ title: "Driver update", scope: "personal" });
    expect(await titlesFor(otherTech)).toEqual([]);
  });
});

describe("shared responses", () => {
  it("are seen by every technician and admin, and changed by admins only", async () => {
    const shared = await create(admin, {
      title: "Closing note",
      body: "Closing {{ticket.id}}.",
      scope: "shared",
    });
    for (const staff of [tech, otherTech, admin, otherAdmin]) {
      expect(await titlesFor(staff)).toEqual(["Closing note"]);
    }

    const before = await rows();
    const edit = await request(t.app, {
      method: "PATCH",
      url: `${url}/${shared.id}`,
      cookie: tech.cookie,
      payload: { body: "Changed" },
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().message).toBe("Only administrators can create, edit or delete shared responses.");
    const remove = await request(t.app, {
      method: "DELETE",
      url: `${url}/${shared.id}`,
      cookie: tech.cookie,
    });
    expect(remove.statusCode).toBe(403);
    expect(await rows()).toEqual(before);

    // Any admin, not only the one who wrote it.
    const adminEdit = await request(t.app, {
      method: "PATCH",
      url: `${url}/${shared.id}`,
      cookie: otherAdmin.cookie,
      payload: { title: "Closing" },
    });
    expect(adminEdit.statusCode, adminEdit.body).toBe(200);
    expect(await titlesFor(tech)).toEqual(["Closing"]);
  });

  it("refuses a technician who tries to create one and writes nothing", async () => {
    const response = await request(t.app, {
      method: "POST",
      url,
      cookie: tech.cookie,
      payload: { title: "Team note", body: "Hello", scope: "shared" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("Only administrators can create, edit or delete shared responses.");
    expect(await rows()).toEqual([]);
  });

  it("are listed with the caller's own, sorted by title, filtered by scope and by words", async () => {
    await create(admin, { title: "b shared", body: "Printer toner", scope: "shared" });
    await create(tech, { title: "A mine", body: "Reset the router" });
    await create(tech, { title: "C mine", body: "100% sure" });
    expect(await titlesFor(tech)).toEqual(["A mine", "b shared", "C mine"]);
    expect(await titlesFor(tech, "?scope=shared")).toEqual(["b shared"]);
    expect(await titlesFor(tech, "?scope=personal")).toEqual(["A mine", "C mine"]);
    expect(await titlesFor(tech, "?q=TONER")).toEqual(["b shared"]);
    expect(await titlesFor(tech, "?q=mine")).toEqual(["A mine", "C mine"]);
    // The person's % is a character, not a wildcard.
    expect(await titlesFor(tech, `?q=${encodeURIComponent("0%")}`)).toEqual(["C mine"]);
    expect(await titlesFor(tech, `?q=${encodeURIComponent("%r")}`)).toEqual([]);
  });
});

describe("users", () => {
  it("are refused on every route with a message, and nothing is written", async () => {
    const shared = await create(admin, { title: "Closing", body: "Closing.", scope: "shared" });
    const before = await rows();
    const calls = [
      { method: "GET", url },
      { method: "POST", url, payload: { title: "Mine", body: "Text" } },
      { method: "PATCH", url: `${url}/${shared.id}`, payload: { title: "Mine" } },
      { method: "DELETE", url: `${url}/${shared.id}` },
    ] as const;
    for (const call of calls) {
      const response = await request(t.app, { ...call, cookie: user.cookie });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(response.json().message).toBe("Only technicians and administrators can use canned responses.");
    }
    expect(await rows()).toEqual(before);
  });
});

describe("titles", () => {
  it("are unique per person, whatever the case, and a clash answers 409 with a clear message", async () => {
    await create(tech, { title: "Reboot first", body: "One" });
    const clash = await request(t.app, {
      method: "POST",
      url,
      cookie: tech.cookie,
      payload: { title: "REBOOT FIRST", body: "Two" },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(
      'You already have a response called "REBOOT FIRST". Choose another title.',
    );
    // Another technician, and the shared list, may use the same title.
    await create(otherTech, { title: "Reboot first", body: "Theirs" });
    await create(admin, { title: "Reboot first", body: "Everyone's", scope: "shared" });
    const sharedClash = await request(t.app, {
      method: "POST",
      url,
      cookie: otherAdmin.cookie,
      payload: { title: "reboot first", body: "Again", scope: "shared" },
    });
    expect(sharedClash.statusCode).toBe(409);
    expect(sharedClash.json().message).toBe(
      'A shared response called "reboot first" already exists. Choose another title.',
    );
    expect(await rows()).toHaveLength(3);
  });

  it("refuses renaming into a title already taken and keeps the response as it was", async () => {
    await create(tech, { title: "First", body: "One" });
    const second = await create(tech, { title: "Second", body: "Two" });
    const before = await rows();
    const rename = await request(t.app, {
      method: "PATCH",
      url: `${url}/${second.id}`,
      cookie: tech.cookie,
      payload: { title: "first" },
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().message).toBe('You already have a response called "first". Choose another title.');
    expect(await rows()).toEqual(before);
  });
});

describe("validation", () => {
  it.each([
    ["no title", { body: "Text" }, "title: Title is required"],
    ["a blank title", { title: "   ", body: "Text" }, "title: Title is required"],
    ["a long title", { title: "t".repeat(101), body: "Text" }, "title: Title must be at most 100 characters"],
    ["no text", { title: "T" }, "body: Text is required"],
    [
      "text longer than a comment",
      { title: "T", body: "b".repeat(5001) },
      "body: Text must be at most 5000 characters",
    ],
    [
      "control characters",
      { title: "T", body: "a\u0000b" },
      "body: Text must not contain control characters",
    ],
    [
      "an unknown scope",
      { title: "T", body: "Text", scope: "team" },
      "scope: Scope must be personal or shared",
    ],
  ])(
    "answers %s with 400, a message a person can act on, and writes nothing",
    async (_case, payload, message) => {
      const response = await request(t.app, { method: "POST", url, cookie: tech.cookie, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed", message });
      expect(await rows()).toEqual([]);
    },
  );

  it("keeps the text's line breaks and trims only its ends", async () => {
    const saved = await create(tech, { title: " Steps ", body: "  1. Restart\n2. Log in\n\nThanks  " });
    expect(saved).toMatchObject({ title: "Steps", body: "1. Restart\n2. Log in\n\nThanks" });
  });

  it("answers an edit that changes nothing, or a malformed id, with 400", async () => {
    const mine = await create(tech, { title: "T", body: "Text" });
    const empty = await request(t.app, {
      method: "PATCH",
      url: `${url}/${mine.id}`,
      cookie: tech.cookie,
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe("Change the title or the text");
    const badId = await request(t.app, { method: "DELETE", url: `${url}/nope`, cookie: tech.cookie });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe("params responseId: Not a response id");
  });

  it("answers an unknown id with 404", async () => {
    const response = await request(t.app, {
      method: "DELETE",
      url: `${url}/crs_00000000-0000-4000-8000-00000000000f`,
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(404);
  });
});
