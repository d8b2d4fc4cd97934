import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminChanges, automationRules } from "#server/db/schema/index.ts";
import { insertTeam, insertTicket, signedInAs } from "#server/test/factories.ts";
import { tableSnapshotter } from "#server/test/table-snapshot.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type {
  AutomationRule,
  AutomationRuleList,
  AutomationRuleTry,
} from "#shared/automation/automation-rule.schemas.ts";

// Decision 076: administrators write automation rules, order them, try them on the open tickets and switch
// them on; nobody else may read or change them.

let t: TestApp;
type Person = Awaited<ReturnType<typeof signedInAs>>;
let user: Person;
let technician: Person;
let admin: Person;
let network: { id: string };

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
});

const send = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, cookie: string, payload?: object) =>
  request(t.app, { method, url, cookie, ...(payload ? { payload } : {}) });

const vpnToNetwork = () => ({
  name: "VPN to Network",
  trigger: "created",
  conditions: [{ field: "words", in: "title", value: ["vpn"] }],
  actions: { teamId: network.id, addTags: ["vpn"] },
});

async function addRule(payload: object): Promise<AutomationRule> {
  const response = await send("POST", "/api/automation/rules", admin.cookie, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
const rules = async () =>
  (await send("GET", "/api/automation/rules", admin.cookie)).json<AutomationRuleList>();

describe("managing automation rules", () => {
  it("refuses users and technicians on every route, changing nothing", async () => {
    const rule = await addRule(vpnToNetwork());
    const snapshot = await tableSnapshotter(t.database.db);
    const before = await snapshot();
    for (const person of [user, technician]) {
      const attempts = [
        send("GET", "/api/automation/rules", person.cookie),
        send("POST", "/api/automation/rules", person.cookie, vpnToNetwork()),
        send("POST", "/api/automation/rules/try", person.cookie, { trigger: "created", conditions: [] }),
        send("PUT", "/api/automation/rules/order", person.cookie, { ruleIds: [rule.id] }),
        send("PUT", `/api/automation/rules/${rule.id}`, person.cookie, vpnToNetwork()),
        send("PUT", `/api/automation/rules/${rule.id}/enabled`, person.cookie, { enabled: true }),
        send("DELETE", `/api/automation/rules/${rule.id}`, person.cookie),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode, response.body).toBe(403);
        expect(response.json().message).toBe("Only administrators can manage automation rules.");
      }
    }
    const signedOut = await request(t.app, { method: "GET", url: "/api/automation/rules", cookie: null });
    expect(signedOut.statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it("adds a rule switched off at the end of the order, and records who did it", async () => {
    const first = await addRule(vpnToNetwork());
    const second = await addRule({
      name: "Printers are low",
      trigger: "changed",
      conditions: [
        { field: "category", op: "is", value: "Hardware" },
        { field: "changed_by", value: "requester" },
      ],
      actions: { priority: "Low", note: "Printers wait for the weekly round." },
    });
    expect(first).toMatchObject({ name: "VPN to Network", enabled: false, position: 0, trigger: "created" });
    expect(second).toMatchObject({ position: 1, enabled: false });
    expect((await rules()).rules.map((rule) => rule.name)).toEqual(["VPN to Network", "Printers are low"]);
    const history = await t.database.db.select().from(adminChanges);
    expect(history.map((change) => [change.area, change.summary, change.actorId])).toEqual([
      ["automation", "Added the automation rule “VPN to Network”", admin.user.id],
      ["automation", "Added the automation rule “Printers are low”", admin.user.id],
    ]);
  });

  it("says what is wrong with a rule, and stores nothing", async () => {
    const cases: Array<[object, number, string]> = [
      [{ ...vpnToNetwork(), actions: {} }, 400, "A rule needs at least one action"],
      [
        { ...vpnToNetwork(), conditions: [{ field: "changed_by", value: "staff" }] },
        400,
        "Changed by applies only to rules run when a ticket changes",
      ],
      [
        { ...vpnToNetwork(), trigger: "time", conditions: [] },
        400,
        "A time-based rule needs a “time since” condition",
      ],
      [
        { ...vpnToNetwork(), actions: { teamId: "team_0000000000000000" } },
        400,
        "Team: choose one of the teams",
      ],
      [
        { ...vpnToNetwork(), actions: { assigneeId: user.user.id } },
        400,
        "Assign to: choose an active technician",
      ],
      [
        { ...vpnToNetwork(), actions: { replyCannedResponseId: "cr_nothing" } },
        400,
        "Reply: choose a shared canned response",
      ],
    ];
    for (const [payload, status, message] of cases) {
      const response = await send("POST", "/api/automation/rules", admin.cookie, payload);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toContain(message);
    }
    expect(await t.database.db.select().from(automationRules)).toEqual([]);
  });

  it("refuses a second rule of the same name whatever its case", async () => {
    await addRule(vpnToNetwork());
    const again = await send("POST", "/api/automation/rules", admin.cookie, {
      ...vpnToNetwork(),
      name: "vpn TO network",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("There is already a rule named “vpn TO network”. Choose another name.");
  });

  it("changes, switches on and off, reorders and deletes a rule", async () => {
    const vpn = await addRule(vpnToNetwork());
    const other = await addRule({ ...vpnToNetwork(), name: "Urgent first", actions: { priority: "High" } });
    const changed = await send("PUT", `/api/automation/rules/${vpn.id}`, admin.cookie, {
      ...vpnToNetwork(),
      name: "VPN and Wi-Fi to Network",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: "VPN and Wi-Fi to Network", enabled: false });

    const on = await send("PUT", `/api/automation/rules/${vpn.id}/enabled`, admin.cookie, { enabled: true });
    expect(on.json()).toMatchObject({ enabled: true });

    const order = await send("PUT", "/api/automation/rules/order", admin.cookie, {
      ruleIds: [other.id, vpn.id],
    });
    expect(order.json<AutomationRuleList>().rules.map((rule) => rule.id)).toEqual([other.id, vpn.id]);
    const partial = await send("PUT", "/api/automation/rules/order", admin.cookie, { ruleIds: [vpn.id] });
    expect(partial.statusCode).toBe(400);

    expect((await send("DELETE", `/api/automation/rules/${other.id}`, admin.cookie)).statusCode).toBe(204);
    expect((await send("DELETE", `/api/automation/rules/${other.id}`, admin.cookie)).statusCode).toBe(404);
    const [row] = await t.database.db.select().from(automationRules).where(eq(automationRules.id, vpn.id));
    expect(row).toMatchObject({ enabled: true, name: "VPN and Wi-Fi to Network" });
    expect((await t.database.db.select().from(adminChanges)).map((change) => change.summary)).toEqual([
      "Added the automation rule “VPN to Network”",
      "Added the automation rule “Urgent first”",
      "Changed the automation rule “VPN and Wi-Fi to Network”",
      "Switched on the automation rule “VPN and Wi-Fi to Network”",
      "Reordered the automation rules",
      "Deleted the automation rule “Urgent first”",
    ]);
  });
});

describe("trying a rule", () => {
  it("counts the open tickets its conditions hold for now, and names the newest", async () => {
    const { db } = t.database;
    const at = (minutes: number) => new Date(Date.UTC(2030, 0, 7, 9, minutes));
    await insertTicket(db, { createdBy: user.user.id, title: "VPN drops every hour", createdAt: at(1) });
    await insertTicket(db, { createdBy: user.user.id, title: "No VPN at home", createdAt: at(2) });
    await insertTicket(db, {
      createdBy: user.user.id,
      title: "VPN slow",
      status: "Resolved",
      createdAt: at(3),
    });
    await insertTicket(db, { createdBy: user.user.id, title: "Printer jam", createdAt: at(4) });
    const tried = await send("POST", "/api/automation/rules/try", admin.cookie, {
      trigger: "changed",
      conditions: [
        { field: "words", in: "title", value: ["vpn"] },
        { field: "changed_by", value: "requester" },
      ],
    });
    expect(tried.statusCode, tried.body).toBe(200);
    const result = tried.json<AutomationRuleTry>();
    expect(result).toMatchObject({ matched: 2, checked: 3 });
    expect(result.tickets.map((ticket) => ticket.title)).toEqual(["No VPN at home", "VPN drops every hour"]);

    const bad = await send("POST", "/api/automation/rules/try", admin.cookie, {
      trigger: "time",
      conditions: [],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("A time-based rule needs a “time since” condition");
  });
});
