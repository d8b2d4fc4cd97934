import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { insertTeam, insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type { TeamReport, TicketVolumeReport } from "#shared/reports/report.schemas.ts";
import type { TeamQueues } from "#shared/teams/team-queues.schemas.ts";

// Decision 073: the reports by team, and the admin home's open tickets by team (GET /api/tickets/queues). The week is Monday 2 to Sunday 8 March 2026, UTC (the default
// business calendar's zone).

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let user: Person;
let technician: Person;
let admin: Person;
const ids: Record<string, string> = {};

const at = (iso: string) => new Date(iso);
const hour = 3600;

/**
 *   Network:      N1 opened Mon 10:00, Resolved Tue 10:00 (24 h); N2 opened Tue, In Progress;
 *                 N3 opened in February, Open
 *   applications: A1 opened Wed 10:00, Resolved Wed 16:00 (6 h)
 *   Zeta:         nothing
 *   no team:      X1 opened Thu, Open; X2 opened in February, Closed without a resolution on Friday
 */
async function seedWeek() {
  const { db } = t.database;
  const createdBy = user.user.id;
  const tech = await insertUser(db, { role: "technician", name: "Tess" });
  const network = await insertTeam(db, { name: "Network", memberIds: [tech.id] });
  const apps = await insertTeam(db, { name: "applications" });
  const zeta = await insertTeam(db, { name: "Zeta" });
  Object.assign(ids, { network: network.id, apps: apps.id, zeta: zeta.id });
  await insertTicket(db, {
    createdBy,
    teamId: network.id,
    createdAt: at("2026-03-02T10:00:00Z"),
    resolvedAt: at("2026-03-03T10:00:00Z"),
    updatedAt: at("2026-03-03T10:00:00Z"),
    status: "Resolved",
    assignedTo: tech.id,
    resolvedBy: tech.id,
  });
  await insertTicket(db, {
    createdBy,
    teamId: network.id,
    createdAt: at("2026-03-03T09:00:00Z"),
    status: "In Progress",
    assignedTo: tech.id,
  });
  await insertTicket(db, { createdBy, teamId: network.id, createdAt: at("2026-02-20T09:00:00Z") });
  await insertTicket(db, {
    createdBy,
    teamId: apps.id,
    createdAt: at("2026-03-04T10:00:00Z"),
    resolvedAt: at("2026-03-04T16:00:00Z"),
    updatedAt: at("2026-03-04T16:00:00Z"),
    status: "Resolved",
    assignedTo: tech.id,
    resolvedBy: tech.id,
  });
  await insertTicket(db, { createdBy, createdAt: at("2026-03-05T09:00:00Z") });
  await insertTicket(db, {
    createdBy,
    createdAt: at("2026-02-20T10:00:00Z"),
    updatedAt: at("2026-03-06T08:00:00Z"),
    status: "Closed",
  });
}

beforeAll(async () => {
  t = await createTestApp();
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
  await seedWeek();
});
afterAll(() => t.close());

const week = "from=2026-03-02&to=2026-03-08";
const get = (url: string, person?: Person) =>
  request(t.app, { method: "GET", url, ...(person ? { cookie: person.cookie } : {}) });
const none = { count: 0, medianSeconds: null, p90Seconds: null };

describe("GET /api/reports/teams", () => {
  it("answers each team by name, then the tickets in no team: opened and done in the range, open now, resolution times", async () => {
    const response = await get(`/api/reports/teams?${week}`, technician);
    expect(response.statusCode, response.body).toBe(200);
    const report = response.json<TeamReport>();
    expect(report.range).toMatchObject({ from: "2026-03-02", to: "2026-03-08", timeZone: "UTC" });
    expect(report.rows).toEqual([
      {
        teamId: ids.apps,
        name: "applications",
        opened: 1,
        resolved: 1,
        open: 0,
        resolution: { count: 1, medianSeconds: 6 * hour, p90Seconds: 6 * hour },
      },
      {
        teamId: ids.network,
        name: "Network",
        opened: 2,
        resolved: 1,
        open: 2,
        resolution: { count: 1, medianSeconds: 24 * hour, p90Seconds: 24 * hour },
      },
      { teamId: ids.zeta, name: "Zeta", opened: 0, resolved: 0, open: 0, resolution: none },
      { teamId: null, name: null, opened: 1, resolved: 1, open: 1, resolution: none },
    ]);
  });

  it("adds up to the volume report's opened and resolved over the same range", async () => {
    const teams = (await get(`/api/reports/teams?${week}`, admin)).json<TeamReport>();
    const volume = (await get(`/api/reports/ticket-volume?${week}`, admin)).json<TicketVolumeReport>();
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    expect(sum(teams.rows.map((row) => row.opened))).toBe(sum(volume.buckets.map((b) => b.opened)));
    expect(sum(teams.rows.map((row) => row.resolved))).toBe(sum(volume.buckets.map((b) => b.resolved)));
  });

  it("counts nothing in a range without tickets, but still the open ones", async () => {
    const report = (
      await get("/api/reports/teams?from=2025-01-01&to=2025-01-31", technician)
    ).json<TeamReport>();
    expect(report.rows.map((row) => [row.name, row.opened, row.resolved, row.open])).toEqual([
      ["applications", 0, 0, 0],
      ["Network", 0, 0, 2],
      ["Zeta", 0, 0, 0],
      [null, 0, 0, 1],
    ]);
  });

  it("is for technicians and administrators: 401 signed out, 403 for a user, 400 for a bad range", async () => {
    expect((await get(`/api/reports/teams?${week}`)).statusCode).toBe(401);
    const refused = await get(`/api/reports/teams?${week}`, user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "forbidden" });
    const bad = await get("/api/reports/teams?from=2026-03-08&to=2026-03-02", admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/From must be on or before To/);
  });
});

describe("GET /api/tickets/queues: open tickets by team, for administrators", () => {
  it("counts each team's Open and In Progress tickets and their unassigned ones, then those in no team", async () => {
    const response = await get("/api/tickets/queues", admin);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<TeamQueues>().openByTeam).toEqual([
      { teamId: ids.apps, open: 0, unassigned: 0 },
      { teamId: ids.network, open: 2, unassigned: 1 },
      { teamId: ids.zeta, open: 0, unassigned: 0 },
      { teamId: null, open: 1, unassigned: 1 },
    ]);
  });

  it("gives technicians none: their counts stay within what they may see", async () => {
    const response = await get("/api/tickets/queues", technician);
    expect(response.statusCode).toBe(200);
    expect(response.json<TeamQueues>().openByTeam).toBeNull();
  });
});
