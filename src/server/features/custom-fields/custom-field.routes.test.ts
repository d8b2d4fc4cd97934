import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminChanges, ticketFieldValues, tickets, type UserRow } from "#server/db/schema/index.ts";
import { signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type {
  CustomField,
  CustomFieldList,
  TicketCustomFields,
} from "#shared/custom-fields/custom-field.schemas.ts";
import type { TicketPage } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let user: Person;
let technician: Person;
let admin: Person;

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
});

const base = "/api/admin/settings/custom-fields";

async function define(payload: object): Promise<CustomField> {
  const response = await request(t.app, { method: "POST", url: base, cookie: admin.cookie, payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const assetTag = {
  label: "Asset tag",
  type: "text",
  category: "Hardware",
  required: true,
  helpText: "On the sticker",
};
const deviceKind = {
  label: "Device",
  type: "single_choice",
  category: "Hardware",
  options: [{ label: "Laptop" }, { label: "Desktop" }, { label: "Printer" }],
};

const ticket = (customFields?: object, category = "Hardware") => ({
  title: "Laptop will not boot",
  description: "Black screen after the logo.",
  category,
  priority: "High",
  department: "Finance",
  floor: "3",
  officeNumber: "301",
  ...(customFields ? { customFields } : {}),
});

async function createTicket(payload: object, cookie = user.cookie) {
  return request(t.app, { method: "POST", url: "/api/tickets", cookie, payload });
}

describe("defining custom fields (Admin settings)", () => {
  it("adds fields in order, gives choices stable values and writes one history line per change", async () => {
    const tag = await define(assetTag);
    const device = await define(deviceKind);
    expect(tag).toMatchObject({
      label: "Asset tag",
      type: "text",
      required: true,
      retired: false,
      position: 0,
    });
    expect(device.options).toEqual([
      { value: "laptop", label: "Laptop" },
      { value: "desktop", label: "Desktop" },
      { value: "printer", label: "Printer" },
    ]);
    expect(device.position).toBe(1);

    // Renaming a choice keeps its value; a new choice is added.
    const renamed = await request(t.app, {
      method: "PUT",
      url: `${base}/${device.id}`,
      cookie: admin.cookie,
      payload: {
        ...deviceKind,
        options: [
          ...device.options.slice(0, 2),
          { value: "printer", label: "Printer or scanner" },
          { label: "Phone" },
        ],
      },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().options.map((o: { value: string }) => o.value)).toEqual([
      "laptop",
      "desktop",
      "printer",
      "phone",
    ]);

    const reordered = await request(t.app, {
      method: "PUT",
      url: `${base}/order`,
      cookie: admin.cookie,
      payload: { fieldIds: [device.id, tag.id] },
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(reordered.json<CustomFieldList>().items.map((field) => field.label)).toEqual([
      "Device",
      "Asset tag",
    ]);

    const history = await t.database.db.select().from(adminChanges);
    expect(history.map((change) => change.summary).sort()).toEqual(
      [
        "Added the custom field “Asset tag”",
        "Added the custom field “Device”",
        "Changed the custom field “Device”",
        "Reordered the custom fields",
      ].sort(),
    );
    expect(
      history.every((change) => change.area === "custom-fields" && change.actorId === admin.user.id),
    ).toBe(true);
  });

  it("refuses invalid definitions with a 400 naming the field, and stores nothing", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ ...assetTag, label: "  " }, /Label is required/],
      [{ ...deviceKind, options: [{ label: "Laptop" }] }, /Options: at least two choices/],
      [
        { ...deviceKind, options: [{ label: "Laptop" }, { label: "laptop" }] },
        /Options: duplicate choice 'laptop'/,
      ],
      [{ ...assetTag, type: "colour" }, /Type must be one of/],
      [{ ...assetTag, category: "Kitchen" }, /Category must be/],
      [
        { ...assetTag, options: [{ label: "A" }, { label: "B" }] },
        /Options: only choice fields have options/,
      ],
      [{ ...assetTag, label: "Tag\u0000" }, /Label must not contain control characters/],
    ];
    for (const [payload, message] of cases) {
      const response = await request(t.app, { method: "POST", url: base, cookie: admin.cookie, payload });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    const list = await request(t.app, { method: "GET", url: base, cookie: admin.cookie });
    expect(list.json<CustomFieldList>().items).toEqual([]);
    expect(await t.database.db.select().from(adminChanges)).toEqual([]);
  });

  it("refuses users and technicians (403) and anonymous people (401)", async () => {
    for (const [cookie, status] of [
      [user.cookie, 403],
      [technician.cookie, 403],
      [undefined, 401],
    ] as const) {
      const response = await request(t.app, { method: "POST", url: base, cookie, payload: assetTag });
      expect(response.statusCode).toBe(status);
    }
  });

  it("keeps a field's type once tickets hold values, and never drops a choice", async () => {
    const tag = await define(assetTag);
    const device = await define(deviceKind);
    expect((await createTicket(ticket({ [tag.id]: "A-1", [device.id]: "laptop" }))).statusCode).toBe(201);
    const retyped = await request(t.app, {
      method: "PUT",
      url: `${base}/${tag.id}`,
      cookie: admin.cookie,
      payload: { ...assetTag, type: "number" },
    });
    expect(retyped.statusCode).toBe(422);
    expect(retyped.json().message).toMatch(/Type: “Asset tag” already has values/);
    const dropped = await request(t.app, {
      method: "PUT",
      url: `${base}/${device.id}`,
      cookie: admin.cookie,
      payload: { ...deviceKind, options: device.options.slice(0, 2) },
    });
    expect(dropped.statusCode).toBe(400);
    expect(dropped.json().message).toMatch(/the choice 'Printer' cannot be removed/);
  });
});

describe("values on tickets", () => {
  it("shows the create form a category's active fields; a required one missing is a 400 naming it", async () => {
    const tag = await define(assetTag);
    const everywhere = await define({ label: "Urgent for a meeting", type: "checkbox" });
    await define({ label: "Licence key", type: "text", category: "Software" });

    const form = await request(t.app, {
      method: "GET",
      url: "/api/custom-fields?category=Hardware",
      cookie: user.cookie,
    });
    expect(form.statusCode).toBe(200);
    expect(form.json<CustomFieldList>().items.map((field) => field.label)).toEqual([
      "Asset tag",
      "Urgent for a meeting",
    ]);

    const missing = await createTicket(ticket({ [everywhere.id]: true }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      message: "Asset tag is required",
      details: [{ path: ["customFields", tag.id], message: "Asset tag is required" }],
    });
    expect(await t.database.db.select().from(tickets)).toEqual([]);

    // Not asked for Software: a Software ticket needs no asset tag.
    expect((await createTicket(ticket(undefined, "Software"))).statusCode).toBe(201);
  });

  it("refuses unknown fields, wrong types and unknown choices, naming the field", async () => {
    const device = await define(deviceKind);
    const count = await define({ label: "Screens", type: "number", category: "Hardware" });
    const bought = await define({ label: "Bought on", type: "date" });
    const cases: Array<[object, RegExp]> = [
      [{ cf_0000000000000000: "x" }, /Custom fields: there is no field 'cf_0000000000000000'/],
      [{ [device.id]: "toaster" }, /Device: 'toaster' is not one of the choices/],
      [{ [count.id]: "many" }, /Screens must be a number/],
      [{ [bought.id]: "2026-02-30" }, /Bought on must be a date/],
    ];
    for (const [values, message] of cases) {
      const response = await createTicket(ticket(values));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it("stores the values, shows them on the ticket, lets staff edit them (timeline) and keeps retired ones readable", async () => {
    const tag = await define(assetTag);
    const device = await define(deviceKind);
    const accessories = await define({
      label: "Accessories",
      type: "multiple_choice",
      options: [{ label: "Mouse" }, { label: "Dock" }, { label: "Headset" }],
    });
    const created = await createTicket(
      ticket({ [tag.id]: " A-1 ", [device.id]: "laptop", [accessories.id]: ["headset", "mouse"] }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const ticketId = created.json().ticketId as string;
    const url = `/api/tickets/${ticketId}/custom-fields`;

    const details = await request(t.app, { method: "GET", url, cookie: user.cookie });
    expect(details.statusCode).toBe(200);
    expect(details.json<TicketCustomFields>().items.map((item) => [item.field.label, item.value])).toEqual([
      ["Asset tag", "A-1"],
      ["Device", "laptop"],
      ["Accessories", ["mouse", "headset"]],
    ]);

    // The creator (a user) may not edit them; the technician may.
    const byUser = await request(t.app, { method: "PUT", url, cookie: user.cookie, payload: { values: {} } });
    expect(byUser.statusCode).toBe(403);
    const edited = await request(t.app, {
      method: "PUT",
      url,
      cookie: technician.cookie,
      payload: { values: { [tag.id]: "A-2", [device.id]: "desktop", [accessories.id]: [] } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const activity = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${ticketId}/activity`,
      cookie: user.cookie,
    });
    const editedEvent = activity.json<TicketActivity>().events.find((event) => event.type === "edited");
    expect(editedEvent?.changes).toEqual([
      { field: `cf:${tag.id}`, label: "Asset tag", from: "A-1", to: "A-2" },
      { field: `cf:${device.id}`, label: "Device", from: "Laptop", to: "Desktop" },
      { field: `cf:${accessories.id}`, label: "Accessories", from: "Mouse, Headset", to: "—" },
    ]);

    const clearRequired = await request(t.app, {
      method: "PUT",
      url,
      cookie: technician.cookie,
      payload: { values: { [device.id]: "desktop" } },
    });
    expect(clearRequired.statusCode).toBe(400);
    expect(clearRequired.json().message).toBe("Asset tag is required");

    const retired = await request(t.app, {
      method: "PUT",
      url: `${base}/${device.id}/retired`,
      cookie: admin.cookie,
      payload: { retired: true },
    });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json()).toMatchObject({ retired: true, hasValues: true });

    const form = await request(t.app, {
      method: "GET",
      url: "/api/custom-fields?category=Hardware",
      cookie: user.cookie,
    });
    expect(form.json<CustomFieldList>().items.map((field) => field.label)).toEqual([
      "Asset tag",
      "Accessories",
    ]);
    const after = await request(t.app, { method: "GET", url, cookie: user.cookie });
    expect(
      after
        .json<TicketCustomFields>()
        .items.map((item) => [item.field.label, item.field.retired, item.value]),
    ).toEqual([
      ["Asset tag", false, "A-2"],
      ["Device", true, "desktop"],
      ["Accessories", false, null],
    ]);
    const retiredValue = await createTicket(ticket({ [tag.id]: "B-1", [device.id]: "laptop" }));
    expect(retiredValue.statusCode).toBe(400);
    expect(retiredValue.json().message).toBe("Device is no longer asked for");
  });
});

describe("filtering the list on a custom field", () => {
  it("returns the tickets holding the value (choice, multiple choice, checkbox), and 400 for an unknown field", async () => {
    const device = await define(deviceKind);
    const accessories = await define({
      label: "Accessories",
      type: "multiple_choice",
      options: [{ label: "Mouse" }, { label: "Dock" }],
    });
    const vip = await define({ label: "VIP", type: "checkbox" });
    const ids: Record<string, string> = {};
    for (const [name, values] of [
      ["laptop-dock", { [device.id]: "laptop", [accessories.id]: ["dock", "mouse"], [vip.id]: true }],
      ["laptop", { [device.id]: "laptop", [vip.id]: false }],
      ["printer-mouse", { [device.id]: "printer", [accessories.id]: ["mouse"] }],
    ] as const) {
      const response = await createTicket(ticket(values));
      expect(response.statusCode, response.body).toBe(201);
      ids[name] = response.json().ticketId;
    }
    const list = async (query: string, cookie = admin.cookie) => {
      const response = await request(t.app, { method: "GET", url: `/api/tickets?${query}`, cookie });
      expect(response.statusCode, response.body).toBe(200);
      return response
        .json<TicketPage>()
        .items.map((item) => item.ticketId)
        .sort();
    };
    expect(await list(`cf=${device.id}:laptop`)).toEqual([ids["laptop-dock"], ids.laptop].sort());
    expect(await list(`cf=${accessories.id}:mouse`)).toEqual(
      [ids["laptop-dock"], ids["printer-mouse"]].sort(),
    );
    expect(await list(`cf=${device.id}:laptop&cf=${accessories.id}:dock`)).toEqual([ids["laptop-dock"]]);
    expect(await list(`cf=${vip.id}:true`)).toEqual([ids["laptop-dock"]]);
    expect(await list(`cf=${vip.id}:false`)).toEqual([ids.laptop]);
    // The filter narrows what the person may see, never widens it.
    expect(await list(`cf=${device.id}:laptop`, user.cookie)).toEqual(
      [ids["laptop-dock"], ids.laptop].sort(),
    );
    const other = await signedInAs(t.app, t.database.db, "user");
    expect(await list(`cf=${device.id}:laptop`, other.cookie)).toEqual([]);

    const unknown = await request(t.app, {
      method: "GET",
      url: "/api/tickets?cf=cf_0000000000000000:x",
      cookie: admin.cookie,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/cf: no custom field/);
    expect((await t.database.db.select().from(ticketFieldValues)).length).toBe(8);
  });
});
