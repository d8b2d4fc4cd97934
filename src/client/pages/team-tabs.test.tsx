import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { emptySummary, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { TeamQueues } from "#shared/teams/team-queues.schemas.ts";
import type { Role } from "#shared/users/roles.ts";
import TechnicianHomePage from "./technician-home.tsx";
import TicketsPage from "./tickets.tsx";

// Decision 073: the team tabs beside the spec's, and the Team filter, in the browser.

const network = { id: "team_network01", name: "Network", isMember: true };
const desk = { id: "team_desk00001", name: "Service desk", isMember: false };
const inATeam: TeamQueues = {
  teams: [network, desk],
  mine: { unassigned: { count: 3, capped: false }, all: { count: 10000, capped: true } },
  openByTeam: null,
};
const inNoTeam: TeamQueues = { teams: [{ ...desk }], mine: null, openByTeam: null };
const noTeams: TeamQueues = { teams: [], mine: null, openByTeam: null };

function setup({ path, queues, role = "technician" }: { path: string; queues: TeamQueues; role?: Role }) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ id: "tech-1", name: "Theo Tech", role }) },
    "GET /api/tickets/summary": { body: emptySummary },
    "GET /api/tickets/queues": { body: queues },
    "GET /api/tickets": ({ url }) => {
      const params = new URL(url, "http://localhost").searchParams;
      const team = params.get("team");
      return {
        body: {
          items: [makeTicket({ title: `Scope ${params.get("scope")}${team ? ` of ${team}` : ""}` })],
          nextCursor: null,
        },
      };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const { router } = renderWithApp(<p>Elsewhere</p>, {
    path,
    routes: { "/technician-home": <TechnicianHomePage />, "/tickets": <TicketsPage /> },
  });
  const listCalls = () =>
    server.calls.map((call) => call.url).filter((url) => url.startsWith("/api/tickets?"));
  return { router, listCalls, user: userEvent.setup() };
}

const tabNames = () => screen.getAllByRole("tab").map((tab) => tab.textContent);

describe("the team tabs on the technician home", () => {
  it("follow the spec's tabs, each with its count, for a member of a team", async () => {
    setup({ path: "/technician-home", queues: inATeam });
    expect(await screen.findByRole("tab", { name: /My team's unassigned/ })).toBeInTheDocument();
    expect(tabNames()).toEqual([
      "All Tickets",
      "My Tickets",
      "Unassigned",
      "My team's unassigned 3",
      "My team's 10,000+",
    ]);
  });

  it.each([
    ["someone in no team", inNoTeam],
    ["an install without teams", noTeams],
  ])("are not there for %s: the tabs are the spec's", async (_, queues) => {
    const { listCalls } = setup({ path: "/technician-home", queues });
    expect(await screen.findByText("Scope visible")).toBeInTheDocument();
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(0));
    expect(tabNames()).toEqual(["All Tickets", "My Tickets", "Unassigned"]);
  });

  it("keep the tab in the address: a chosen one is put there, a reload opens it", async () => {
    const { router, user } = setup({ path: "/technician-home?sort=priority&dir=desc", queues: inATeam });
    await user.click(await screen.findByRole("tab", { name: /My team's unassigned/ }));
    expect(await screen.findByText("Scope team_unassigned")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?sort=priority&dir=desc&tab=team_unassigned");
    expect(screen.getByRole("tab", { name: /My team's unassigned/ })).toHaveAttribute(
      "aria-selected",
      "true",
    );

    await user.click(screen.getByRole("tab", { name: /^My team's \d/ }));
    expect(await screen.findByText("Scope team")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?sort=priority&dir=desc&tab=team");
  });

  it("opens a team tab from the address", async () => {
    setup({ path: "/technician-home?tab=team", queues: inATeam });
    expect(await screen.findByText("Scope team")).toBeInTheDocument();
    expect(await screen.findByRole("tab", { name: /^My team's \d/ })).toHaveAttribute(
      "aria-selected",
      "true",
    );
  });

  it("turns a team tab's address into All Tickets for someone in no team", async () => {
    const { listCalls } = setup({ path: "/technician-home?tab=team_unassigned", queues: inNoTeam });
    expect(await screen.findByText("Scope visible")).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "All Tickets" })).toHaveAttribute("aria-selected", "true");
    expect(tabNames()).toEqual(["All Tickets", "My Tickets", "Unassigned"]);
    expect(listCalls()).toEqual(["/api/tickets?scope=team_unassigned", "/api/tickets?scope=visible"]);
  });
});

describe("/tickets for staff", () => {
  it("offers All Tickets and the team tabs to a member of a team, in the address", async () => {
    const { router, user } = setup({ path: "/tickets", queues: inATeam });
    expect(await screen.findByRole("tab", { name: /My team's unassigned/ })).toBeInTheDocument();
    expect(tabNames()).toEqual(["All Tickets", "My team's unassigned 3", "My team's 10,000+"]);
    await user.click(screen.getByRole("tab", { name: /My team's unassigned/ }));
    expect(await screen.findByText("Scope team_unassigned")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?tab=team_unassigned");
  });

  it("has no tabs for someone in no team, and no Team filter without teams", async () => {
    setup({ path: "/tickets", queues: noTeams });
    expect(await screen.findByText("Scope visible")).toBeInTheDocument();
    expect(screen.queryByRole("tablist")).not.toBeInTheDocument();
    expect(screen.queryByLabelText("Team")).not.toBeInTheDocument();
  });

  it("narrows by team with the Team filter, kept in the address, for an administrator", async () => {
    const { router, listCalls, user } = setup({ path: "/tickets", queues: inNoTeam, role: "admin" });
    const filter = await screen.findByLabelText("Team");
    expect(screen.queryByRole("tablist")).not.toBeInTheDocument();
    expect(
      within(filter)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["All", "Service desk"]);
    await user.selectOptions(filter, "Service desk");
    expect(await screen.findByText(`Scope visible of ${desk.id}`)).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?team=${desk.id}`);
    expect(listCalls()).toContain(`/api/tickets?scope=visible&team=${desk.id}`);
  });

  it("reads the Team filter from the address, and Clear takes it off", async () => {
    const { router, user } = setup({ path: `/tickets?team=${network.id}`, queues: inATeam });
    expect(await screen.findByText(`Scope visible of ${network.id}`)).toBeInTheDocument();
    expect(await screen.findByLabelText("Team")).toHaveValue(network.id);
    await user.click(screen.getByRole("button", { name: "Clear" }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });
});
