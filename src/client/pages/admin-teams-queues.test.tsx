import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Team } from "#shared/teams/team.schemas.ts";
import AdminTeamsPage from "./admin-teams.tsx";

// Decision 073 on /admin/teams: a team's automatic assignment, and who of its members is away.

const network: Team = {
  id: "team_network01",
  name: "Network",
  description: "",
  leadId: null,
  leadName: null,
  members: [
    { id: "tech-1", name: "Theo", isActiveTechnician: true, isAway: true },
    { id: "tech-2", name: "Tara", isActiveTechnician: true, isAway: false },
  ],
  memberCount: 2,
  isDefault: false,
  assignment: "round_robin",
  createdAt: "2030-01-07T09:00:00.000Z",
  updatedAt: "2030-01-07T09:00:00.000Z",
};

function setup(teams: Team[] = [network]) {
  const server = stubFetch({
    "GET /api/teams": () => ({ body: { items: teams } }),
    "GET /api/technicians": {
      body: [
        { id: "tech-1", name: "Theo" },
        { id: "tech-2", name: "Tara" },
      ],
    },
    "GET /api/departments": { body: { departments: ["General"] } },
    "GET /api/custom-fields": { body: { items: [] } },
    "GET /api/routing": { body: { rules: [], defaultTeamId: null } },
    "POST /api/teams": (request) => ({
      status: 201,
      body: {
        ...network,
        id: "team_desk0001",
        name: (request.body as { name: string }).name,
        assignment: "off",
      },
    }),
    [`PUT /api/teams/${network.id}`]: { body: network },
    "PUT /api/teams/team_desk0001/assignment": (request) => ({
      body: { teamId: "team_desk0001", ...(request.body as object) },
    }),
    [`PUT /api/teams/${network.id}/assignment`]: (request) => ({
      body: { teamId: network.id, ...(request.body as object) },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<AdminTeamsPage />, { path: "/admin/teams" });
  const assignmentCalls = () => server.calls.filter((call) => call.url.endsWith("/assignment"));
  return { assignmentCalls, user: userEvent.setup() };
}

describe("/admin/teams: queues", () => {
  it("says which members are away and how the team assigns its tickets", async () => {
    setup();
    const members = await screen.findByRole("list", { name: "Members of Network" });
    const [theo, tara] = within(members).getAllByRole("listitem");
    expect(theo).toHaveTextContent("TheoAway");
    expect(tara).toHaveTextContent(/^Tara$/);
    expect(screen.getByText(/Assignment: Round robin/)).toBeInTheDocument();
  });

  it("offers Off, Round robin and Fewest open tickets, and sends a changed mode on save", async () => {
    const { assignmentCalls, user } = setup();
    const edit = await screen.findByRole("button", { name: "Edit Network" });
    await vi.waitFor(() => expect(edit).toBeEnabled());
    await user.click(edit);
    const dialog = screen.getByRole("dialog", { name: "Edit team" });
    const mode = within(dialog).getByLabelText("Automatic assignment");
    expect(mode).toHaveValue("round_robin");
    expect(
      within(mode)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Off", "Round robin", "Fewest open tickets"]);
    await user.selectOptions(mode, "least_open");
    await user.click(within(dialog).getByRole("button", { name: "Save team" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(assignmentCalls().map((call) => [call.method, call.url, call.body])).toEqual([
      ["PUT", `/api/teams/${network.id}/assignment`, { assignment: "least_open" }],
    ]);
  });

  it("sends no mode when it did not change, and a new team's after it is made", async () => {
    const { assignmentCalls, user } = setup([network]);
    const edit = await screen.findByRole("button", { name: "Edit Network" });
    await vi.waitFor(() => expect(edit).toBeEnabled());
    await user.click(edit);
    await user.click(screen.getByRole("button", { name: "Save team" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(assignmentCalls()).toEqual([]);

    await user.click(screen.getByRole("button", { name: "New team" }));
    const dialog = screen.getByRole("dialog", { name: "New team" });
    expect(within(dialog).getByLabelText("Automatic assignment")).toHaveValue("off");
    await user.type(within(dialog).getByLabelText("Name"), "Service desk");
    await user.selectOptions(within(dialog).getByLabelText("Automatic assignment"), "round_robin");
    await user.click(within(dialog).getByRole("button", { name: "Add team" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(assignmentCalls().map((call) => [call.url, call.body])).toEqual([
      ["/api/teams/team_desk0001/assignment", { assignment: "round_robin" }],
    ]);
  });
});
