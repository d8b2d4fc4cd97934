import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminChanges, routingRules } from "#server/db/schema/index.ts";
import { insertTeam, insertUser, signedInAs } from "#server/test/factories.ts";
import { tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";
import type { Routing, RoutingRule } from "#shared/teams/routing-rule.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

// Decision 069: admin-defined routing rules put a new ticket in a team when it is created, in the app and
// through the API (e-mail: inbound-mail.test.ts), the first matching rule winning, else the default team.

let t: TestApp;
type Person = Awaited<ReturnType<typeof signedInAs>>;
let user: Person;
let technician: Person;
let admin: Person;
let network: { id: string };
let desk: { id: string };

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.reset();
  await t.database.db.delete(adminChanges);
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
  network = await insertTeam(t.database.db, { name: "Network", memberIds: [technician.user.id] });
  desk = await insertTeam(t.database.db, { name: "Service desk" });
});

const send = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, cookie: string, payload?: object) =>
  request(t.app, { method, url, cookie, ...(payload ? { payload } : {}) });

async function addRule(payload: object): Promise<RoutingRule> {
  const response = await send("POST", "/api/routing/rules", admin.cookie, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
const routing = async () => (await send("GET", "/api/routing", admin.cookie)).json<Routing>();

const newTicket = {
  title: "Laptop will not boot",
  description: "Black screen",
  category: "Hardware",
  priority: "Low",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
};

/** Raises a ticket (as the user, or with `authorization`) and answers its team as an admin reads it. */
async function teamOf(overrides: object = {}, credentials: { cookie?: string; authorization?: string } = {}) {
  const created = await request(t.app, {
    method: "POST",
    url: "/api/tickets",
    cookie: credentials.authorization ? null : (credentials.cookie ?? user.cookie),
    headers: credentials.authorization ? { authorization: credentials.authorization } : {},
    payload: { ...newTicket, ...overrides },
  });
  expect(created.statusCode, created.body).toBe(201);
  const ticket = created.json<Ticket>();
  // A requester is not shown the team (decision 069).
  expect([ticket.teamId, ticket.teamName]).toEqual([null, null]);
  const read = (await send("GET", `/api/tickets/${ticket.ticketId}`, admin.cookie)).json<Ticket>();
  return read.teamName;
}

describe("managing routing rules", () => {
  it("refuses everyone but admins, changing nothing", async () => {
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    for (const person of [user, technician]) {
      expect((await send("GET", "/api/routing", person.cookie)).statusCode).toBe(403);
      const add = await send("POST", "/api/routing/rules", person.cookie, {
        category: "Network",
        teamId: network.id,
      });
      expect(add.statusCode).toBe(403);
      const fallback = await send("PUT", "/api/routing/default-team", person.cookie, { teamId: desk.id });
      expect(fallback.statusCode).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("says clearly what a rule lacks or gets wrong, and writes nothing", async () => {
    const device = (
      await send("POST", "/api/admin/settings/custom-fields", admin.cookie, {
        label: "Device",
        type: "single_choice",
        options: [{ label: "Laptop" }, { label: "Printer" }],
      })
    ).json<CustomField>();
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    const refusals: Array<[object, string]> = [
      [
        { teamId: network.id },
        "A rule needs at least one condition: a category, a department, a custom field or words of the title",
      ],
      [{ category: "Network", titleWords: [] }, "Choose the team the rule sends tickets to"],
      [{ category: "Network", teamId: "team_doesnotexist" }, "Team: there is no team 'team_doesnotexist'"],
      [
        { customField: { fieldId: device.id, value: "Scanner" }, teamId: network.id },
        "Custom field value: 'Scanner' is not one of the choices of Device",
      ],
      [
        { customField: { fieldId: "cf_0000000000", value: "x" }, teamId: network.id },
        "Custom field: there is no field 'cf_0000000000'",
      ],
      [{ titleWords: [" "], teamId: network.id }, "Title words: a word cannot be empty"],
      [
        { category: "Printers", teamId: network.id },
        "Category must be Hardware, Software, Network, Other or empty",
      ],
    ];
    for (const [payload, message] of refusals) {
      const response = await send("POST", "/api/routing/rules", admin.cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toContain(message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("adds rules in order, moves them, changes and deletes them, and sets or clears the default team", async () => {
    const device = (
      await send("POST", "/api/admin/settings/custom-fields", admin.cookie, {
        label: "Device",
        type: "single_choice",
        options: [{ label: "Laptop" }, { label: "Printer" }],
      })
    ).json<CustomField>();
    const first = await addRule({ category: "Network", department: "Finance", teamId: network.id });
    const second = await addRule({ customField: { fieldId: device.id, value: "Printer" }, teamId: desk.id });
    expect(second).toMatchObject({
      position: 1,
      customField: { fieldId: device.id, fieldLabel: "Device", value: "printer", valueLabel: "Printer" },
      teamName: "Service desk",
    });
    const reordered = await send("PUT", "/api/routing/rules/order", admin.cookie, {
      ruleIds: [second.id, first.id],
    });
    expect(reordered.json<Routing>().rules.map((rule) => rule.id)).toEqual([second.id, first.id]);
    const missing = await send("PUT", "/api/routing/rules/order", admin.cookie, { ruleIds: [second.id] });
    expect(missing.statusCode).toBe(400);

    const changed = await send("PUT", `/api/routing/rules/${first.id}`, admin.cookie, {
      titleWords: ["VPN", "wi-fi", "vpn"],
      teamId: desk.id,
    });
    expect(changed.json<RoutingRule>()).toMatchObject({
      category: null,
      department: null,
      titleWords: ["VPN", "wi-fi"],
      teamName: "Service desk",
    });
    expect((await send("DELETE", `/api/routing/rules/${second.id}`, admin.cookie)).statusCode).toBe(204);
    expect((await send("DELETE", `/api/routing/rules/${second.id}`, admin.cookie)).statusCode).toBe(404);

    const withDefault = await send("PUT", "/api/routing/default-team", admin.cookie, { teamId: network.id });
    expect(withDefault.json<Routing>()).toMatchObject({
      defaultTeamId: network.id,
      rules: [{ id: first.id }],
    });
    await send("PUT", "/api/routing/default-team", admin.cookie, { teamId: desk.id });
    expect((await routing()).defaultTeamId).toBe(desk.id);
    await send("PUT", "/api/routing/default-team", admin.cookie, { teamId: null });
    expect((await routing()).defaultTeamId).toBeNull();
    const history = await t.database.db.select({ summary: adminChanges.summary }).from(adminChanges);
    expect(history.map((line) => line.summary).sort()).toEqual(
      [
        "Added the custom field “Device”",
        "Added a routing rule",
        "Added a routing rule",
        "Reordered the routing rules",
        "Changed a routing rule",
        "Deleted a routing rule",
        "Made “Network” the default team",
        "Made “Service desk” the default team",
        "Removed the default team",
      ].sort(),
    );
  });
});

describe("routing a new ticket", () => {
  it("puts no ticket in a team while there are no rules and no default team", async () => {
    expect(await teamOf()).toBeNull();
    expect(await t.database.db.select().from(routingRules)).toEqual([]);
  });

  it("matches on each kind of condition: category, department, a custom field's value, words of the title", async () => {
    const device = (
      await send("POST", "/api/admin/settings/custom-fields", admin.cookie, {
        label: "Device",
        type: "multiple_choice",
        category: "Hardware",
        options: [{ label: "Laptop" }, { label: "Printer" }],
      })
    ).json<CustomField>();
    await addRule({ category: "Software", teamId: desk.id });
    await addRule({ department: "legal", teamId: network.id });
    await addRule({ customField: { fieldId: device.id, value: "Laptop" }, teamId: network.id });
    await addRule({ titleWords: ["wi-fi"], teamId: desk.id });
    expect(await teamOf({ category: "Software" })).toBe("Service desk");
    expect(await teamOf({ department: "Legal" })).toBe("Network");
    expect(await teamOf({ customFields: { [device.id]: ["printer", "laptop"] } })).toBe("Network");
    expect(await teamOf({ customFields: { [device.id]: ["printer"] } })).toBeNull();
    expect(await teamOf({ category: "Other", title: "No WI-FI on floor 3" })).toBe("Service desk");
    expect(await teamOf({ category: "Other", title: "Wifi gone" })).toBeNull();
  });

  it("takes the first matching rule in their order, then the default team", async () => {
    const byCategory = await addRule({ category: "Network", teamId: network.id });
    const byDepartment = await addRule({ department: "Finance", teamId: desk.id });
    expect(await teamOf({ category: "Network" })).toBe("Network");
    await send("PUT", "/api/routing/rules/order", admin.cookie, {
      ruleIds: [byDepartment.id, byCategory.id],
    });
    expect(await teamOf({ category: "Network" })).toBe("Service desk");
    expect(await teamOf({ category: "Other", department: "Sales" })).toBeNull();
    await send("PUT", "/api/routing/default-team", admin.cookie, { teamId: network.id });
    expect(await teamOf({ category: "Other", department: "Sales" })).toBe("Network");
  });

  it("routes a ticket raised through the API with a personal token, and one an admin raises", async () => {
    await addRule({ titleWords: ["vpn"], teamId: network.id });
    const token = await send("POST", "/api/me/tokens", user.cookie, { name: "script", scope: "write" });
    expect(token.statusCode, token.body).toBe(201);
    const authorization = `Bearer ${token.json<{ token: string }>().token}`;
    expect(await teamOf({ title: "VPN drops" }, { authorization })).toBe("Network");
    const created = await send("POST", "/api/tickets", admin.cookie, { ...newTicket, title: "VPN drops" });
    // Staff are shown the team.
    expect(created.json<Ticket>()).toMatchObject({ teamId: network.id, teamName: "Network" });
  });

  it("drops a rule with its team: the ticket it would have routed goes to no team", async () => {
    const other = await insertUser(t.database.db, { role: "technician" });
    const gone = await insertTeam(t.database.db, { name: "Gone", memberIds: [other.id] });
    await addRule({ category: "Network", teamId: gone.id });
    await send("DELETE", `/api/teams/${gone.id}`, admin.cookie);
    expect(await teamOf({ category: "Network" })).toBeNull();
  });
});
