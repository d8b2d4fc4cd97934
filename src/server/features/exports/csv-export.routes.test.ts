import { gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { tickets, users } from "#server/db/schema/index.ts";
import { newTicketId } from "#server/ids.ts";
import { insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { Role } from "#shared/users/roles.ts";

let t: TestApp;
type Person = { user: UserRow; cookie: string };
const people = {} as Record<"creator" | "otherUser" | "technician" | "otherTechnician" | "admin", Person>;

beforeAll(async () => {
  t = await createTestApp();
  const roles: Record<keyof typeof people, Role> = {
    creator: "user",
    otherUser: "user",
    technician: "technician",
    otherTechnician: "technician",
    admin: "admin",
  };
  for (const [kind, role] of Object.entries(roles)) {
    people[kind as keyof typeof people] = await signedInAs(t.app, t.database.db, role);
  }
});
afterAll(() => t.close());
beforeEach(() => t.database.db.delete(tickets));

/** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += char;
  }
  expect(cell, "the file ends with CRLF").toBe("");
  expect(row).toEqual([]);
  return rows;
}

/** The export's records as objects keyed by the header row (BOM checked and removed). */
function recordsOf(body: string) {
  expect(body.startsWith("\uFEFF")).toBe(true);
  const [header, ...rows] = parseCsv(body.slice(1));
  return {
    header: header!,
    records: rows.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]]))),
  };
}

const exportTickets = (cookie: string | null, query = "") =>
  request(t.app, { method: "GET", url: `/api/tickets/export.csv${query}`, cookie });

const idsIn = (body: string) => recordsOf(body).records.map((record) => record["Ticket ID"]);

describe("GET /api/tickets/export.csv", () => {
  it("refuses an anonymous caller with 401 and a JSON error", async () => {
    const response = await exportTickets(null);
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe("unauthenticated");
  });

  it("sends a UTF-8 CSV attachment named after the day, BOM first, header row, CRLF lines", async () => {
    const createdAt = new Date("2026-03-04T05:06:07.000Z");
    const ticket = await insertTicket(t.database.db, {
      createdBy: people.creator.user.id,
      assignedTo: people.technician.user.id,
      status: "In Progress",
      createdAt,
      updatedAt: new Date("2026-03-05T00:00:00.000Z"),
      onHoldSince: new Date("2026-03-05T00:00:00.000Z"),
    });
    const response = await exportTickets(people.creator.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="tickets-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers["cache-control"]).toBe("no-store");
    const { header, records } = recordsOf(response.body);
    expect(header).toEqual([
      "Ticket ID",
      "Title",
      "Status",
      "Priority",
      "Category",
      "Department",
      "Floor",
      "Office Number",
      "Created by",
      "Assigned to",
      "Created",
      "Updated",
      "On hold since",
    ]);
    expect(records).toEqual([
      {
        "Ticket ID": ticket.id,
        Title: "Printer on floor 2 jams",
        Status: "In Progress",
        Priority: "Low",
        Category: "Hardware",
        Department: "General",
        Floor: "2",
        "Office Number": "201",
        "Created by": people.creator.user.name,
        "Assigned to": people.technician.user.name,
        Created: "2026-03-04T05:06:07.000Z",
        Updated: "2026-03-05T00:00:00.000Z",
        "On hold since": "2026-03-05T00:00:00.000Z",
      },
    ]);
  });

  it("adds the due times and the tags for staff, not for users", async () => {
    const due = new Date("2026-05-01T12:00:00.000Z");
    await insertTicket(t.database.db, {
      createdBy: people.creator.user.id,
      firstResponseDueAt: due,
      resolutionDueAt: null,
    });
    const staff = recordsOf((await exportTickets(people.technician.cookie)).body);
    expect(staff.header.slice(-3)).toEqual(["First response due", "Resolution due", "Tags"]);
    expect(staff.records[0]).toMatchObject({
      "First response due": "2026-05-01T12:00:00.000Z",
      "Resolution due": "",
    });
    const user = recordsOf((await exportTickets(people.creator.cookie)).body);
    expect(user.header).not.toContain("First response due");
    expect(user.header).not.toContain("Tags");
  });

  it("exports for each caller exactly the tickets the list shows them", async () => {
    const db = t.database.db;
    const mineUnassigned = await insertTicket(db, { createdBy: people.creator.user.id });
    const mineWithTech = await insertTicket(db, {
      createdBy: people.creator.user.id,
      assignedTo: people.technician.user.id,
      status: "In Progress",
    });
    const othersWithOtherTech = await insertTicket(db, {
      createdBy: people.otherUser.user.id,
      assignedTo: people.otherTechnician.user.id,
      status: "In Progress",
    });
    const expected: Record<keyof typeof people, string[]> = {
      creator: [mineUnassigned.id, mineWithTech.id],
      otherUser: [othersWithOtherTech.id],
      technician: [mineUnassigned.id, mineWithTech.id],
      otherTechnician: [mineUnassigned.id, othersWithOtherTech.id],
      admin: [mineUnassigned.id, mineWithTech.id, othersWithOtherTech.id],
    };
    for (const [kind, ids] of Object.entries(expected)) {
      const { cookie } = people[kind as keyof typeof people];
      const exported = idsIn((await exportTickets(cookie)).body);
      expect([...exported].sort(), kind).toEqual([...ids].sort());
      const listed = (await request(t.app, { method: "GET", url: "/api/tickets?limit=100", cookie }))
        .json()
        .items.map((item: { ticketId: string }) => item.ticketId);
      expect(exported, `${kind}: same order as the list`).toEqual(listed);
    }
  });

  it("respects the list's filters and search", async () => {
    const db = t.database.db;
    const high = await insertTicket(db, {
      createdBy: people.creator.user.id,
      priority: "High",
      title: "VPN drops every hour",
    });
    await insertTicket(db, { createdBy: people.creator.user.id, priority: "Low", title: "VPN is slow" });
    await insertTicket(db, { createdBy: people.creator.user.id, priority: "High", title: "Mouse broken" });
    const response = await exportTickets(people.admin.cookie, "?priority=High&q=vpn");
    expect(idsIn(response.body)).toEqual([high.id]);
  });

  it("refuses a user's due filter and a bad value with a 4xx naming the problem, before any CSV", async () => {
    const dueByUser = await exportTickets(people.creator.cookie, "?due=overdue");
    expect(dueByUser.statusCode).toBe(403);
    expect(dueByUser.json().message).toBe(
      "Only technicians and administrators can filter or sort by due time",
    );
    const badPriority = await exportTickets(people.admin.cookie, "?priority=Urgent");
    expect(badPriority.statusCode).toBe(400);
    expect(badPriority.json().message).toMatch(/^querystring priority: /);
    const unknownField = await exportTickets(people.admin.cookie, "?cf=nope:1");
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().message).toContain("cf:");
  });

  it("keeps a title with a formula, quotes, commas and line breaks as one safe cell", async () => {
    const title = '=HYPERLINK("http://evil.test","Click"), then\nsecond line';
    await insertTicket(t.database.db, { createdBy: people.creator.user.id, title, department: "-Ops" });
    const { records } = recordsOf((await exportTickets(people.admin.cookie)).body);
    expect(records[0]!.Title).toBe(`'${title}`);
    expect(records[0]!.Department).toBe("'-Ops");
  });

  it("compresses the download for a client that accepts gzip, and it unpacks to the same CSV", async () => {
    for (let i = 0; i < 30; i++) await insertTicket(t.database.db, { createdBy: people.creator.user.id });
    const plain = await exportTickets(people.admin.cookie);
    const gzipped = await request(t.app, {
      method: "GET",
      url: "/api/tickets/export.csv",
      cookie: people.admin.cookie,
      headers: { "accept-encoding": "gzip" },
    });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.rawPayload).toString("utf8")).toBe(plain.body);
  });

  it("exports every ticket of a large list, read in several pages, each once and newest first", async () => {
    const count = 2_500;
    const start = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: count }, (_, i) => {
      const createdAt = new Date(start + Math.floor(i / 2) * 1000); // pairs share a time: the id breaks ties
      return {
        id: newTicketId(createdAt.getTime()),
        title: `Ticket number ${i}`,
        description: "Bulk",
        category: "Software" as const,
        priority: "Medium" as const,
        department: "IT",
        floor: "1",
        officeNumber: "100",
        createdBy: people.creator.user.id,
        createdAt,
        updatedAt: createdAt,
      };
    });
    for (let i = 0; i < count; i += 500) await t.database.db.insert(tickets).values(rows.slice(i, i + 500));
    const response = await exportTickets(people.admin.cookie);
    const ids = idsIn(response.body);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    const newestFirst = [...rows]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((row) => row.id);
    expect(ids).toEqual(newestFirst);
  });

  it("exports a large list in due-time order across pages: due tickets first, then those owing nothing", async () => {
    const count = 2_500;
    const start = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: count }, (_, i) => {
      const createdAt = new Date(start + i * 1000);
      return {
        id: newTicketId(createdAt.getTime()),
        title: `Ticket number ${i}`,
        description: "Bulk",
        category: "Network" as const,
        priority: "High" as const,
        department: "IT",
        floor: "1",
        officeNumber: "100",
        createdBy: people.creator.user.id,
        createdAt,
        updatedAt: createdAt,
        // 1,200 with a running target (some sharing a due time), 1,300 owing nothing.
        slaDueAt: i < 1_200 ? new Date(start + 86_400_000 + Math.floor(i / 3) * 60_000) : null,
      };
    });
    for (let i = 0; i < count; i += 500) await t.database.db.insert(tickets).values(rows.slice(i, i + 500));
    const response = await exportTickets(people.admin.cookie, "?sort=due");
    const ids = idsIn(response.body);
    const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const dueFirst = [
      ...rows
        .filter((row) => row.slaDueAt)
        .sort((a, b) => a.slaDueAt!.getTime() - b.slaDueAt!.getTime() || byId(a.id, b.id)),
      ...rows.filter((row) => !row.slaDueAt).sort((a, b) => byId(a.id, b.id)),
    ].map((row) => row.id);
    expect(ids).toHaveLength(count);
    expect(ids).toEqual(dueFirst);
  });
});

describe("GET /api/admin/users/export.csv", () => {
  const exportUsers = (cookie: string | null, query = "") =>
    request(t.app, { method: "GET", url: `/api/admin/users/export.csv${query}`, cookie });

  it("refuses anonymous callers (401), users and technicians (403), with no one's e-mail", async () => {
    await insertUser(t.database.db, { email: "someone@hidden.test" });
    for (const [cookie, status] of [
      [null, 401],
      [people.creator.cookie, 403],
      [people.technician.cookie, 403],
    ] as const) {
      const response = await exportUsers(cookie);
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toEqual(expect.any(String));
      expect(response.body).not.toContain("@hidden.test");
    }
  });

  it("refuses a deactivated admin's session with 401", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "admin");
    await t.database.db.update(users).set({ status: "Inactive" }).where(eq(users.id, user.id));
    expect((await exportUsers(cookie)).statusCode).toBe(401);
  });

  it("gives an admin the user list as filtered, every match, with a header row", async () => {
    const tag = `exp${Date.now().toString(36)}`;
    const matching = [];
    for (let i = 0; i < 3; i++) {
      matching.push(
        await insertUser(t.database.db, { name: `=Tech ${tag} ${i}`, role: "technician", department: "IT" }),
      );
    }
    await insertUser(t.database.db, { name: `User ${tag}`, role: "user" });
    const response = await exportUsers(people.admin.cookie, `?q=${tag}&role=technician&sort=name`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const { header, records } = recordsOf(response.body);
    expect(header).toEqual(["Name", "Email", "Role", "Department", "Status", "Created", "Last login"]);
    expect(records).toEqual(
      matching.map((user) => ({
        Name: `'${user.name}`,
        Email: user.email,
        Role: "technician",
        Department: "IT",
        Status: "Active",
        Created: user.createdAt.toISOString(),
        "Last login": "",
      })),
    );
  });

  it("answers a bad filter with 400 naming the field", async () => {
    const response = await exportUsers(people.admin.cookie, "?role=boss");
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain("Role must be user, technician or admin");
  });
});
