import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch, waitForActor } from "#client/test/render.tsx";
import type {
  ReportRange,
  ResponseTimesReport,
  SatisfactionReport,
  TeamReport,
  TicketBreakdownReport,
  TicketVolumeReport,
  WorkloadReport,
} from "#shared/reports/report.schemas.ts";
import type { Role } from "#shared/users/roles.ts";
import ReportsPage from "./reports.tsx";

const range: ReportRange = { from: "2026-03-02", to: "2026-03-04", group: "day", timeZone: "Europe/Berlin" };
const volume: TicketVolumeReport = {
  range,
  buckets: [
    { start: "2026-03-02", opened: 12, resolved: 3, backlog: 40 },
    { start: "2026-03-03", opened: 7, resolved: 9, backlog: 38 },
    { start: "2026-03-04", opened: 0, resolved: 5, backlog: 33 },
  ],
};
const breakdown: TicketBreakdownReport = {
  range,
  byCategory: [
    { key: "Hardware", count: 11 },
    { key: "Software", count: 8 },
    { key: "Network", count: 0 },
    { key: "Other", count: 0 },
  ],
  byPriority: [
    { key: "Low", count: 10 },
    { key: "Medium", count: 6 },
    { key: "High", count: 3 },
  ],
  byDepartment: [{ key: "=HYPERLINK(evil)", count: 19 }],
};
const times: ResponseTimesReport = {
  range,
  firstResponse: { count: 19, medianSeconds: 5400, p90Seconds: 12_240 },
  resolution: { count: 17, medianSeconds: 86_400, p90Seconds: 155_520 },
};
const satisfaction = (perTechnician: SatisfactionReport["perTechnician"]): SatisfactionReport => ({
  range,
  count: 3,
  average: 4,
  distribution: [
    { rating: 1, count: 0 },
    { rating: 2, count: 0 },
    { rating: 3, count: 1 },
    { rating: 4, count: 1 },
    { rating: 5, count: 1 },
  ],
  recentComments: [{ rating: 5, comment: "Quick and friendly", submittedAt: "2026-03-03T12:00:00.000Z" }],
  perTechnician,
});
const workload: WorkloadReport = {
  rows: [{ technicianId: "t1", name: "Tess Tech", open: 2, inProgress: 4 }],
  unassigned: 6,
};

const articleStats = {
  items: [
    {
      id: 7,
      slug: "connect-to-the-vpn-7",
      title: "Connect to the VPN",
      status: "published",
      visibility: "public",
      views: 40,
      helpfulYes: 9,
      helpfulNo: 2,
      suggestionOpens: 12,
      deflections: 5,
    },
  ],
};

const noTeam = {
  teamId: null,
  name: null,
  opened: 19,
  resolved: 17,
  open: 33,
  resolution: { count: 17, medianSeconds: 86_400, p90Seconds: 155_520 },
};
const withoutTeams: TeamReport = { range, rows: [noTeam] };
const withTeams: TeamReport = {
  range,
  rows: [
    {
      teamId: "team_network01",
      name: "Network",
      opened: 12,
      resolved: 9,
      open: 20,
      resolution: { count: 9, medianSeconds: 7200, p90Seconds: 36_000 },
    },
    {
      ...noTeam,
      opened: 7,
      resolved: 8,
      open: 13,
      resolution: { count: 0, medianSeconds: null, p90Seconds: null },
    },
  ],
};

function setup(
  role: Role,
  path = "/reports?range=custom&from=2026-03-02&to=2026-03-04",
  teams: TeamReport = withoutTeams,
) {
  const me = makeMe({ role });
  const server = stubFetch({
    "GET /api/me": { body: me },
    "GET /api/reports/ticket-volume": { body: volume },
    "GET /api/reports/ticket-breakdown": { body: breakdown },
    "GET /api/reports/response-times": { body: times },
    "GET /api/reports/satisfaction": {
      body: satisfaction(
        role === "admin" ? [{ technicianId: "t1", name: "Tess Tech", count: 3, average: 4 }] : null,
      ),
    },
    "GET /api/reports/workload": { body: workload },
    "GET /api/reports/teams": { body: teams },
    "GET /api/articles/stats": { body: articleStats },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<ReportsPage />, { path, showActor: true });
  return { me, server, user: userEvent.setup() };
}

const card = (name: string) => screen.getByRole("region", { name });

describe("ReportsPage", () => {
  it("asks every report for the range in the address and says which time zone counts the days", async () => {
    const { server } = setup("technician");
    expect(await screen.findByText(/2026-03-02 to 2026-03-04 \(Europe\/Berlin\)/)).toBeInTheDocument();
    const asked = server.calls.map((call) => call.url).filter((url) => url.includes("/api/reports/"));
    expect(asked).toEqual(
      expect.arrayContaining([
        "/api/reports/ticket-volume?from=2026-03-02&to=2026-03-04&group=day",
        "/api/reports/satisfaction?from=2026-03-02&to=2026-03-04&group=day",
        "/api/reports/workload",
      ]),
    );
  });

  it("shows each chart's figures in a captioned table when Table view is pressed", async () => {
    const { user } = setup("technician");
    await screen.findAllByRole("button", { name: "Table view" });
    const flow = card("Tickets opened and resolved");
    await user.click(within(flow).getByRole("button", { name: "Table view" }));
    expect(within(flow).getByRole("button", { name: "Table view" })).toHaveAttribute("aria-pressed", "true");
    const table = within(flow).getByRole("table", { name: "Tickets opened and resolved" });
    const rows = within(table)
      .getAllByRole("row")
      .map((row) => row.textContent);
    expect(rows).toEqual(["DayOpenedResolved", "Mar 2123", "Mar 379", "Mar 405"]);

    const timesCard = card("Response times");
    expect(within(timesCard).getByText("1 h 30 min")).toBeInTheDocument();
    await user.click(within(timesCard).getByRole("button", { name: "Table view" }));
    const timesRows = within(within(timesCard).getByRole("table")).getAllByRole("row");
    expect(timesRows.map((row) => row.textContent)).toEqual([
      "MeasureMedian90th percentile",
      "First response1 h 30 min3 h 24 min",
      "Resolution1 d1 d 19 h",
    ]);
  });

  it("shows satisfaction and the latest comments, per technician only to administrators", async () => {
    const { me } = setup("technician");
    const overall = await screen.findByRole("region", { name: "Satisfaction" });
    expect(await within(overall).findByText("4.00 / 5")).toBeInTheDocument();
    expect(within(overall).getByText("“Quick and friendly”")).toBeInTheDocument();
    await waitForActor(me);
    expect(screen.queryByRole("region", { name: "Satisfaction per technician" })).not.toBeInTheDocument();
  });

  it("gives administrators the satisfaction of each technician", async () => {
    const { user } = setup("admin");
    const perPerson = await screen.findByRole("region", { name: "Satisfaction per technician" });
    await user.click(await within(perPerson).findByRole("button", { name: "Table view" }));
    expect(
      within(within(perPerson).getByRole("table"))
        .getAllByRole("row")
        .map((row) => row.textContent),
    ).toEqual(["TechnicianAverage ratingRatings", "Tess Tech43"]);
  });

  it("shows each help article's views, votes and deflections beside the ticket figures", async () => {
    setup("technician");
    const articles = await screen.findByRole("region", { name: "Help articles" });
    const row = await within(articles).findByRole("row", { name: /Connect to the VPN/ });
    expect(
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["40", "9", "2", "12", "5"]);
  });

  it("says so when a range has no data", async () => {
    const server = stubFetch({
      "GET /api/me": { body: makeMe({ role: "technician" }) },
      "GET /api/reports/ticket-volume": {
        body: { range, buckets: volume.buckets.map((b) => ({ ...b, opened: 0, resolved: 0 })) },
      },
      "GET /api/reports/ticket-breakdown": { body: breakdown },
      "GET /api/reports/response-times": { body: times },
      "GET /api/reports/satisfaction": {
        body: { ...satisfaction(null), count: 0, average: null, distribution: [] },
      },
      "GET /api/reports/workload": { body: workload },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<ReportsPage />, { path: "/reports" });
    const flow = await screen.findByRole("region", { name: "Tickets opened and resolved" });
    expect(
      await within(flow).findByText("No ticket was opened or resolved in this range."),
    ).toBeInTheDocument();
    expect(within(flow).queryByRole("button", { name: "Download CSV" })).not.toBeInTheDocument();
  });

  it("breaks the range down by team, with the tickets in no team, once there is a team", async () => {
    const { server } = setup("technician", undefined, withTeams);
    const table = await screen.findByRole("table", { name: "Tickets by team" });
    expect(
      within(table)
        .getAllByRole("row")
        .map((row) => row.textContent),
    ).toEqual([
      "TeamOpenedResolvedOpen nowResolution, medianResolution, 90th percentile",
      "Network129202 h10 h",
      "No team7813––",
    ]);
    expect(server.calls.map((call) => call.url)).toContain(
      "/api/reports/teams?from=2026-03-02&to=2026-03-04&group=day",
    );
  });

  it("shows no team breakdown without teams", async () => {
    setup("admin");
    expect(await screen.findByText(/2026-03-02 to 2026-03-04/)).toBeInTheDocument();
    await screen.findAllByRole("button", { name: "Table view" });
    expect(screen.queryByRole("heading", { name: "By team" })).not.toBeInTheDocument();
  });
});
