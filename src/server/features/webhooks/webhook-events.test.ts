import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "#server/db/schema/index.ts";
import { createOffsetClock } from "#server/test/clock.ts";
import { insertTeam, insertTicket, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "#server/test/webhook-receiver.ts";
import type { WebhookPayload, WebhookWithSecret } from "#shared/webhooks/webhook.schemas.ts";
import { webhookSignature } from "./webhook-post.ts";

// Decision 080: every change a person sees on the timeline reaches the endpoints that chose its type, signed,
// with the ticket's address; the others hear nothing of it.

const clock = createOffsetClock();
let t: TestApp;
let receiver: WebhookReceiver;
let admin: { cookie: string; user: { id: string; name: string } };
let creator: { cookie: string; user: { id: string; name: string } };
let technician: { cookie: string; user: { id: string; name: string } };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ clock, webhooks: { allowPrivate: true, timeoutMs: 3_000 } });
  admin = await signedInAs(t.app, t.database.db, "admin");
  creator = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(async () => {
  await t.database.db.delete(webhookEndpoints);
  receiver.reset();
});

/** Registers an endpoint for `events` at its own path of the receiver, so each endpoint's mail is its own. */
async function register(events: string[], path: string) {
  const response = await request(t.app, {
    method: "POST",
    url: "/api/admin/webhooks",
    cookie: admin.cookie,
    payload: { url: receiver.url(path), events },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WebhookWithSecret>();
}

const ticketOfCreator = () =>
  insertTicket(t.database.db, {
    createdBy: creator.user.id,
    assignedTo: technician.user.id,
    status: "In Progress",
  });

async function call(
  method: "PATCH" | "PUT" | "POST",
  url: string,
  payload: object,
  cookie = technician.cookie,
) {
  const response = await request(t.app, { method, url, cookie, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
}

/** The payloads that reached `path`, each after checking its signature with `secret`. */
function payloadsAt(path: string, secret: string): WebhookPayload[] {
  return receiver.received
    .filter((got) => got.path === path)
    .map((got) => {
      const timestamp = Number(got.headers["helpdesk-webhook-timestamp"]);
      expect(got.headers["helpdesk-webhook-signature"]).toBe(webhookSignature(secret, timestamp, got.body));
      return JSON.parse(got.body) as WebhookPayload;
    });
}

describe("changes on the timeline reach the endpoints that chose them", () => {
  it("sends an edit with each field from → to and the ticket's address, and nothing to an endpoint that did not choose edits", async () => {
    const edits = await register(["ticket.edited"], "/edits");
    await register(["ticket.created", "ticket.status_changed"], "/other");
    const ticket = await ticketOfCreator();
    await call("PATCH", `/api/tickets/${ticket.id}`, { priority: "High", title: "Printer jams on floor 3" });
    await receiver.waitFor(1);
    const [payload] = payloadsAt("/edits", edits.secret);
    expect(payload).toMatchObject({
      type: "ticket.edited",
      actor: { id: technician.user.id },
      changes: expect.arrayContaining([
        { field: "priority", from: ticket.priority, to: "High" },
        { field: "title", from: ticket.title, to: "Printer jams on floor 3" },
      ]),
      ticket: {
        ticketId: ticket.id,
        priority: "High",
        url: `${testBaseURL}/tickets/${ticket.id}`,
      },
    });
    const rows = await t.database.db.select().from(webhookDeliveries);
    expect(rows.map((row) => [row.endpointId, row.eventType])).toEqual([[edits.webhook.id, "ticket.edited"]]);
  });

  it("sends a custom field's change as an edit, with the field's label", async () => {
    const edits = await register(["ticket.edited"], "/edits");
    const field = await call(
      "POST",
      "/api/admin/settings/custom-fields",
      { label: "Serial number", type: "text" },
      admin.cookie,
    );
    const fieldId = field.json<{ id: string }>().id;
    const ticket = await ticketOfCreator();
    await call("PUT", `/api/tickets/${ticket.id}/custom-fields`, { values: { [fieldId]: "SN-42" } });
    await receiver.waitFor(1);
    expect(payloadsAt("/edits", edits.secret)).toEqual([
      expect.objectContaining({
        type: "ticket.edited",
        changes: [expect.objectContaining({ field: `cf:${fieldId}`, label: "Serial number", to: "SN-42" })],
      }),
    ]);
  });

  it("sends a team move with the teams' names and a tag change with what was added and removed", async () => {
    const hook = await register(["ticket.team_changed", "ticket.tags_changed"], "/staff");
    await register(["ticket.edited"], "/edits");
    const team = await insertTeam(t.database.db, { name: "Network", memberIds: [technician.user.id] });
    const ticket = await ticketOfCreator();
    await call("PUT", `/api/tickets/${ticket.id}/team`, { teamId: team.id }, admin.cookie);
    await receiver.waitFor(1);
    await call("PATCH", `/api/tickets/${ticket.id}/tags`, { add: ["printer", "floor-3"] });
    await receiver.waitFor(2);
    expect(payloadsAt("/staff", hook.secret)).toEqual([
      expect.objectContaining({
        type: "ticket.team_changed",
        team: { from: null, to: "Network" },
        ticket: expect.objectContaining({ teamId: team.id, url: `${testBaseURL}/tickets/${ticket.id}` }),
      }),
      expect.objectContaining({
        type: "ticket.tags_changed",
        tags: { added: ["floor-3", "printer"], removed: [] },
      }),
    ]);
    expect(receiver.received.filter((got) => got.path === "/edits")).toEqual([]);
  });

  it("sends a link once for each of its tickets, each reading it from its own side", async () => {
    const hook = await register(["ticket.linked", "ticket.unlinked"], "/links");
    const parent = await ticketOfCreator();
    const child = await ticketOfCreator();
    await call("POST", `/api/tickets/${parent.id}/links`, { ticketId: child.id, kind: "child" });
    await receiver.waitFor(2);
    const payloads = payloadsAt("/links", hook.secret);
    expect(payloads.map((payload) => [payload.type, payload.ticket.ticketId, payload.link])).toEqual(
      expect.arrayContaining([
        ["ticket.linked", parent.id, { ticketId: child.id, relation: "child" }],
        ["ticket.linked", child.id, { ticketId: parent.id, relation: "parent" }],
      ]),
    );
  });

  it("sends an internal note only to an endpoint that chose internal notes", async () => {
    const notes = await register(["ticket.internal_note"], "/notes");
    await register(["ticket.commented"], "/comments");
    const ticket = await ticketOfCreator();
    await call("POST", `/api/tickets/${ticket.id}/comments`, {
      message: "The user broke it again",
      isInternal: true,
    });
    await receiver.waitFor(1);
    expect(payloadsAt("/notes", notes.secret)).toEqual([
      expect.objectContaining({
        type: "ticket.internal_note",
        comment: expect.objectContaining({ text: "The user broke it again", isInternal: true }),
      }),
    ]);
    expect(receiver.received.filter((got) => got.path === "/comments")).toEqual([]);
  });

  it("puts the ticket's address in every payload, the older types' too", async () => {
    const hook = await register(["ticket.status_changed"], "/status");
    const ticket = await ticketOfCreator();
    await call("PATCH", `/api/tickets/${ticket.id}/status`, { status: "Resolved" });
    await receiver.waitFor(1);
    expect(payloadsAt("/status", hook.secret)[0]?.ticket.url).toBe(`${testBaseURL}/tickets/${ticket.id}`);
  });
});
