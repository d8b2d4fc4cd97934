import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { emptySummary, makeManagedUser, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { TeamQueues } from "#shared/teams/team-queues.schemas.ts";
import AdminHomePage from "./admin-home.tsx";

function setup(path = "/admin-home", overrides: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin", name: "Ada Admin" }) },
    "GET /api/tickets/summary": {
      body: { ...emptySummary, total: 9, open: 4, inProgress: 2, resolved: 2, closed: 1 },
    },
    "GET /api/admin/users/summary": {
      body: { total: 12, active: 11, users: 8, technicians: 3, admins: 1 },
    },
    "GET /api/admin/users": ({ url }) => ({
      body: url.includes("cursor=")
        ? {
            items: [makeManagedUser({ id: "u-2", name: "Second Page", email: "two@corp.test" })],
            matching: 2,
            nextCursor: null,
          }
        : {
            items: [makeManagedUser({ name: "Tess Tech", email: "tess@corp.test", role: "technician" })],
            matching: 2,
            nextCursor: "next",
          },
    }),
    ...overrides,
    "GET /api/tickets": ({ url }) => ({
      body: {
        items: [makeTicket({ title: url.includes("status=Open") ? "Open one" : "Any one" })],
        nextCursor: null,
      },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const { router } = renderWithApp(<p>Elsewhere</p>, { path, routes: { "/admin-home": <AdminHomePage /> } });
  return { router, server, user: userEvent.setup() };
}

describe("AdminHomePage", () => {
  it("has the tabs Overview, All Tickets and User Management, Overview first", async () => {
    setup();
    const tabs = await screen.findAllByRole("tab");
    expect(tabs.map((tab) => tab.textContent)).toEqual(["Overview", "All Tickets", "User Management"]);
    expect(screen.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");
  });

  it("shows the ticket counts and the user counts: total, regular users, technicians, admins", async () => {
    setup();
    expect(await screen.findByText("9")).toBeInTheDocument();
    for (const [label, value] of [
      ["Total Tickets", "9"],
      ["Open", "4"],
      ["In Progress", "2"],
      ["Resolved", "2"],
      ["Closed", "1"],
    ]) {
      expect(screen.getByText(label!).nextElementSibling).toHaveTextContent(value!);
    }
    const userCounts = screen.getByRole("region", { name: "User counts" });
    expect(await within(userCounts).findByText("12")).toBeInTheDocument();
    for (const [label, value] of [
      ["Total Users", "12"],
      ["Users", "8"],
      ["Technicians", "3"],
      ["Admins", "1"],
    ]) {
      expect(within(userCounts).getByText(label!).nextElementSibling).toHaveTextContent(value!);
    }
  });

  it("lists all tickets and filters them by All, Open, In Progress, Resolved and Closed", async () => {
    const { router, server, user } = setup();
    await user.click(await screen.findByRole("tab", { name: "All Tickets" }));
    expect(await screen.findByText("Any one")).toBeInTheDocument();
    const filters = screen.getByRole("tablist", { name: "Filter by status" });
    expect(
      within(filters)
        .getAllByRole("tab")
        .map((tab) => tab.textContent),
    ).toEqual(["All", "Open", "In Progress", "Resolved", "Closed"]);

    await user.click(screen.getByRole("tab", { name: "Open" }));
    expect(await screen.findByText("Open one")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?tab=tickets&status=Open");
    expect(server.calls.map((call) => call.url)).toContain("/api/tickets?scope=visible&status=Open");

    await user.click(screen.getByRole("tab", { name: "Closed" }));
    expect(router.state.location.search).toBe("?tab=tickets&status=Closed");
    await waitFor(() =>
      expect(server.calls.map((call) => call.url)).toContain("/api/tickets?scope=visible&status=Closed"),
    );
  });

  it("lists users with name, email, role and created date, a page at a time, and links to user management", async () => {
    const { user } = setup("/admin-home?tab=tickets");
    await user.click(await screen.findByRole("tab", { name: "User Management" }));
    expect(screen.getByRole("link", { name: "Open User Management" })).toHaveAttribute(
      "href",
      "/admin/user-management",
    );
    const table = await screen.findByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Name", "Email", "Role", "Created"]);
    const row = within(table).getByRole("row", { name: /Tess Tech/ });
    expect(row).toHaveTextContent("tess@corp.test");
    expect(row).toHaveTextContent("Technician");
    expect(within(row).getByText(/2025/)).toHaveAttribute("datetime", "2025-11-20T09:30:00.000Z");
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("Second Page")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });

  it('says "Error loading users." when the users cannot be loaded', async () => {
    const { user } = setup("/admin-home", {
      "GET /api/admin/users": { status: 500, body: { code: "internal", message: "boom" } },
    });
    await user.click(await screen.findByRole("tab", { name: "User Management" }));
    expect(await screen.findByText("Error loading users.")).toBeInTheDocument();
  });

  it("counts the open tickets by team on the Overview, each team's linking to its list", async () => {
    const queues: TeamQueues = {
      teams: [{ id: "team_network01", name: "Network", isMember: false }],
      mine: null,
      openByTeam: [
        { teamId: "team_network01", open: 5, unassigned: 2 },
        { teamId: null, open: 1, unassigned: 1 },
      ],
    };
    setup("/admin-home", { "GET /api/tickets/queues": { body: queues } });
    const section = await screen.findByRole("region", { name: "Open tickets by team" });
    expect(
      within(section)
        .getAllByRole("row")
        .map((row) => row.textContent),
    ).toEqual(["TeamOpen and in progressUnassigned", "Network52", "No team11"]);
    expect(within(section).getByRole("link", { name: "Network" })).toHaveAttribute(
      "href",
      "/tickets?team=team_network01",
    );
  });

  it("shows no counts by team without teams", async () => {
    setup("/admin-home", {
      "GET /api/tickets/queues": { body: { teams: [], mine: null, openByTeam: null } },
    });
    expect(await screen.findByRole("tab", { name: "Overview" })).toBeInTheDocument();
    await screen.findByRole("heading", { name: "Users" });
    expect(screen.queryByRole("region", { name: "Open tickets by team" })).not.toBeInTheDocument();
  });
});
