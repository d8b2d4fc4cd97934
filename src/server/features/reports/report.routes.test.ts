import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSettings, ticketFeedback, type UserRow } from "#server/db/schema/index.ts";
import { insertTicket, insertUser, signedInAs } from "#server/test/factories.ts";
import { registeredRoutes } from "#server/test/route-table.ts";
import { createTestApp, request, type TestApp } from "#server/test/test-app.ts";
import type {
  ResponseTimesReport,
  SatisfactionReport,
  TicketBreakdownReport,
  TicketVolumeReport,
  WorkloadReport,
} from "#shared/reports/report.schemas.ts";
import { defaultBusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";

let t: TestApp;
type Person = { user: UserRow; cookie: string };
let user: Person;
let technician: Person;
let admin: Person;
let techOne: UserRow;
let techTwo: UserRow;

const at = (iso: string) => new Date(iso);
const hour = 3600;
const day = 24 * hour;

/**
 * A week of known tickets (UTC, Monday 2 to Sunday 8 March 2026), and some around it:
 *   A opened Mon 10:00, answered after 1 h, Resolved Tue 10:00 by techOne, rated 5 "Great"
 *   B opened Mon 11:00, answered after 2 h, resolved Wed 11:00 by techTwo then Closed, rated 3
 *   C opened Tue 09:00, answered after 4 h, In Progress with techOne
 *   H opened Wed 10:00, answered after 10 min, Resolved Wed 16:00 by techOne, rated 4 "Fine"
 *   D opened Thu 09:00, Open, unassigned
 *   E opened in February, In Progress with techTwo
 *   F opened in February, Closed without a resolution on Friday 6 March (its last activity)
 *   G opened Monday 9 March (after the week), Open, unassigned
 */
async function seedWeek() {
  const db = t.database.db;
  const createdBy = user.user.id;
  const a = await insertTicket(db, {
    createdBy,
    createdAt: at("2026-03-02T10:00:00Z"),
    firstRespondedAt: at("2026-03-02T11:00:00Z"),
    resolvedAt: at("2026-03-03T10:00:00Z"),
    updatedAt: at("2026-03-03T12:00:00Z"),
    status: "Resolved",
    assignedTo: techOne.id,
    resolvedBy: techOne.id,
    category: "Hardware",
    priority: "High",
    department: "IT",
  });
  const b = await insertTicket(db, {
    createdBy,
    createdAt: at("2026-03-02T11:00:00Z"),
    firstRespondedAt: at("2026-03-02T13:00:00Z"),
    resolvedAt: at("2026-03-04T11:00:00Z"),
    updatedAt: at("2026-03-05T09:00:00Z"),
    status: "Closed",
    assignedTo: techTwo.id,
    resolvedBy: techTwo.id,
    category: "Software",
    priority: "Low",
    department: "HR",
  });
  await insertTicket(db, {
    createdBy,
    createdAt: at("2026-03-03T09:00:00Z"),
    firstRespondedAt: at("2026-03-03T13:00:00Z"),
    status: "In Progress",
    assignedTo: techOne.id,
    category: "Network",
    priority: "Medium",
    department: "IT",
  });
  const h = await insertTicket(db, {
    createdBy,
    createdAt: at("2026-03-04T10:00:00Z"),
    firstRespondedAt: at("2026-03-04T10:10:00Z"),
    resolvedAt: at("2026-03-04T16:00:00Z"),
    status: "Resolved",
    assignedTo: techOne.id,
    resolvedBy: techOne.id,
    category: "Hardware",
    priority: "Low",
    department: "IT",
  });
  await insertTicket(db, {
    createdBy,
    createdAt: at("2026-03-05T09:00:00Z"),
    category: "Hardware",
    priority: "Low",
    department: "IT",
  });
  await insertTicket(db, {
    createdBy,
    createdAt: at("2026-02-20T09:00:00Z"),
    status: "In Progress",
    assignedTo: techTwo.id,
  });
  await insertTicket(db, {
    createdBy,
    createdAt: at("2026-02-20T10:00:00Z"),
    updatedAt: at("2026-03-06T08:00:00Z"),
    status: "Closed",
  });
  await insertTicket(db, { createdBy, createdAt: at("2026-03-09T09:00:00Z") });
  await db.insert(ticketFeedback).values([
    {
      ticketId: a.id,
      rating: 5,
      comment: "Great",
      submittedBy: createdBy,
      submittedAt: at("2026-03-03T12:00:00Z"),
    },
    {
      ticketId: b.id,
      rating: 3,
      comment: "",
      submittedBy: createdBy,
      submittedAt: at("2026-03-04T12:00:00Z"),
    },
    {
      ticketId: h.id,
      rating: 4,
      comment: "Fine",
      submittedBy: createdBy,
      submittedAt: at("2026-03-05T08:00:00Z"),
    },
  ]);
}

beforeAll(async () => {
  t = await createTestApp();
  user = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
  admin = await signedInAs(t.app, t.database.db, "admin");
  techOne = await insertUser(t.database.db, { role: "technician", name: "Tess One" });
  techTwo = await insertUser(t.database.db, { role: "technician", name: "Theo Two" });
  await seedWeek();
});
afterAll(() => t.close());

const week = "from=2026-03-02&to=2026-03-08";
const get = async <T>(url: string, person: Person = technician) => {
  const response = await request(t.app, { method: "GET", url, cookie: person.cookie });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
};

const reportRoutes = () =>
  registeredRoutes(t.app).filter((route) => route.url.startsWith("/api/reports") && route.method === "GET");

describe("who may see reports", () => {
  it("lists the report routes it checks", () => {
    expect(reportRoutes().map((route) => route.url)).toEqual(
      expect.arrayContaining([
        "/api/reports/ticket-volume",
        "/api/reports/ticket-breakdown",
        "/api/reports/response-times",
        "/api/reports/satisfaction",
        "/api/reports/workload",
      ]),
    );
  });

  it("refuses anonymous people (401) and users (403) on every route, even with a bad range", async () => {
    for (const route of reportRoutes()) {
      for (const query of [week, "from=nonsense"]) {
        for (const [who, cookie, status] of [
          ["anonymous", undefined, 401],
          ["user", user.cookie, 403],
        ] as const) {
          const response = await request(t.app, { method: "GET", url: `${route.url}?${query}`, cookie });
          expect(response.statusCode, `${who} ${route.url}?${query}: ${response.body}`).toBe(status);
          expect(response.json()).toMatchObject({ code: status === 401 ? "unauthenticated" : "forbidden" });
        }
      }
    }
  });

  it("answers technicians and administrators on every route", async () => {
    for (const route of reportRoutes()) {
      for (const person of [technician, admin]) {
        const response = await request(t.app, {
          method: "GET",
          url: `${route.url}?${week}`,
          cookie: person.cookie,
        });
        expect(response.statusCode, `${route.url}: ${response.body}`).toBe(200);
      }
    }
  });

  it("refuses a bad range with a 400 that says what is wrong", async () => {
    const cases: Array<[string, RegExp]> = [
      ["", /From is required/],
      ["from=2026-03-02", /To is required/],
      ["from=2026-02-30&to=2026-03-08", /From is not a calendar date/],
      ["from=03/02/2026&to=2026-03-08", /From must be a date like/],
      ["from=2026-03-08&to=2026-03-02", /From must be on or before To/],
      ["from=2025-01-01&to=2026-01-02", /at most 366 days/],
      [`${week}&group=month`, /Group must be day or week/],
    ];
    for (const [query, message] of cases) {
      const response = await request(t.app, {
        method: "GET",
        url: `/api/reports/ticket-volume?${query}`,
        cookie: technician.cookie,
      });
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
      expect(response.json().message, query).toMatch(message);
    }
  });
});

describe("tickets opened, resolved and the backlog", () => {
  it("counts each day of the range in the business time zone, zeros included", async () => {
    const report = await get<TicketVolumeReport>(`/api/reports/ticket-volume?${week}`);
    expect(report.range).toEqual({ from: "2026-03-02", to: "2026-03-08", group: "day", timeZone: "UTC" });
    expect(report.buckets).toEqual([
      { start: "2026-03-02", opened: 2, resolved: 0, backlog: 4 },
      { start: "2026-03-03", opened: 1, resolved: 1, backlog: 4 },
      { start: "2026-03-04", opened: 1, resolved: 2, backlog: 3 },
      { start: "2026-03-05", opened: 1, resolved: 0, backlog: 4 },
      { start: "2026-03-06", opened: 0, resolved: 1, backlog: 3 },
      { start: "2026-03-07", opened: 0, resolved: 0, backlog: 3 },
      { start: "2026-03-08", opened: 0, resolved: 0, backlog: 3 },
    ]);
  });

  it("groups by ISO week (Monday first)", async () => {
    const report = await get<TicketVolumeReport>(`/api/reports/ticket-volume?${week}&group=week`);
    expect(report.buckets).toEqual([{ start: "2026-03-02", opened: 5, resolved: 4, backlog: 3 }]);
  });

  it("counts days in the business calendar's time zone", async () => {
    // 22:30 UTC on 31 March is 00:30 on 1 April in Berlin (summer time).
    await insertTicket(t.database.db, { createdBy: user.user.id, createdAt: at("2026-03-31T22:30:00Z") });
    const url = "/api/reports/ticket-volume?from=2026-04-01&to=2026-04-01";
    expect((await get<TicketVolumeReport>(url)).buckets[0]).toMatchObject({ opened: 0 });
    const saved = await request(t.app, {
      method: "PUT",
      url: "/api/admin/settings/business-calendar",
      cookie: admin.cookie,
      payload: { ...defaultBusinessCalendar, timeZone: "Europe/Berlin" },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const report = await get<TicketVolumeReport>(url);
      expect(report.range.timeZone).toBe("Europe/Berlin");
      expect(report.buckets).toEqual([
        { start: "2026-04-01", opened: 1, resolved: 0, backlog: expect.any(Number) },
      ]);
    } finally {
      await t.database.db.delete(appSettings);
    }
  });
});

describe("breakdown and times", () => {
  it("counts the tickets opened in the range by category, priority and department", async () => {
    const report = await get<TicketBreakdownReport>(`/api/reports/ticket-breakdown?${week}`);
    expect(report.byCategory).toEqual([
      { key: "Hardware", count: 3 },
      { key: "Software", count: 1 },
      { key: "Network", count: 1 },
      { key: "Other", count: 0 },
    ]);
    expect(report.byPriority).toEqual([
      { key: "Low", count: 3 },
      { key: "Medium", count: 1 },
      { key: "High", count: 1 },
    ]);
    expect(report.byDepartment).toEqual([
      { key: "IT", count: 4 },
      { key: "HR", count: 1 },
    ]);
  });

  it("gives the median and 90th percentile of first-response and resolution times", async () => {
    const report = await get<ResponseTimesReport>(`/api/reports/response-times?${week}`);
    // First responses 10 min, 1 h, 2 h, 4 h; resolutions 6 h, 1 day, 2 days (continuous percentiles).
    expect(report.firstResponse).toEqual({ count: 4, medianSeconds: 1.5 * hour, p90Seconds: 12_240 });
    expect(report.resolution).toEqual({ count: 3, medianSeconds: day, p90Seconds: 155_520 });
  });

  it("answers empty figures for a range with no tickets", async () => {
    const empty = "from=2020-01-01&to=2020-01-03";
    const times = await get<ResponseTimesReport>(`/api/reports/response-times?${empty}`);
    expect(times.firstResponse).toEqual({ count: 0, medianSeconds: null, p90Seconds: null });
    const satisfaction = await get<SatisfactionReport>(`/api/reports/satisfaction?${empty}`, admin);
    expect(satisfaction).toMatchObject({ count: 0, average: null, recentComments: [], perTechnician: [] });
  });
});

describe("satisfaction", () => {
  it("gives everyone on staff the average, the distribution and the latest comments", async () => {
    const report = await get<SatisfactionReport>(`/api/reports/satisfaction?${week}`);
    expect(report).toMatchObject({
      count: 3,
      average: 4,
      distribution: [
        { rating: 1, count: 0 },
        { rating: 2, count: 0 },
        { rating: 3, count: 1 },
        { rating: 4, count: 1 },
        { rating: 5, count: 1 },
      ],
      recentComments: [
        { rating: 4, comment: "Fine", submittedAt: "2026-03-05T08:00:00.000Z" },
        { rating: 5, comment: "Great", submittedAt: "2026-03-03T12:00:00.000Z" },
      ],
    });
  });

  it("rates each technician for administrators only", async () => {
    const forAdmin = await get<SatisfactionReport>(`/api/reports/satisfaction?${week}`, admin);
    expect(forAdmin.perTechnician).toEqual([
      { technicianId: techOne.id, name: "Tess One", count: 2, average: 4.5 },
      { technicianId: techTwo.id, name: "Theo Two", count: 1, average: 3 },
    ]);

    const response = await request(t.app, {
      method: "GET",
      url: `/api/reports/satisfaction?${week}`,
      cookie: technician.cookie,
    });
    expect(response.json<SatisfactionReport>().perTechnician).toBeNull();
    // Nothing in a technician's answer names or points at a colleague.
    for (const secret of [techOne.id, techTwo.id, "Tess One", "Theo Two", user.user.id, user.user.name])
      expect(response.body).not.toContain(secret);
  });
});

describe("workload", () => {
  it("counts each technician's Open and In Progress tickets now, and the unassigned ones", async () => {
    const report = await get<WorkloadReport>("/api/reports/workload");
    expect(report.rows).toEqual(
      expect.arrayContaining([
        { technicianId: techOne.id, name: "Tess One", open: 0, inProgress: 1 },
        { technicianId: techTwo.id, name: "Theo Two", open: 0, inProgress: 1 },
        { technicianId: technician.user.id, name: technician.user.name, open: 0, inProgress: 0 },
      ]),
    );
    // D, G and the ticket of the time-zone test wait in the queue.
    expect(report.unassigned).toBe(3);
  });
});
