import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";
import type { Routing, RoutingRule } from "#shared/teams/routing-rule.schemas.ts";
import type { Team } from "#shared/teams/team.schemas.ts";
import AdminTeamsPage from "./admin-teams.tsx";

const network: Team = {
  id: "team_network01",
  name: "Network",
  description: "Wi-Fi and VPN",
  leadId: "tech-1",
  leadName: "Theo",
  members: [
    { id: "tech-1", name: "Theo", isActiveTechnician: true, isAway: false },
    { id: "tech-9", name: "Ivy", isActiveTechnician: false, isAway: false },
  ],
  memberCount: 2,
  isDefault: false,
  assignment: "off",
  createdAt: "2030-01-07T09:00:00.000Z",
  updatedAt: "2030-01-07T09:00:00.000Z",
};
const device: CustomField = {
  id: "cf_device0001",
  label: "Device",
  type: "single_choice",
  category: null,
  required: false,
  helpText: "",
  options: [
    { value: "laptop", label: "Laptop" },
    { value: "printer", label: "Printer" },
  ],
  position: 0,
  retired: false,
};
const rule = (id: string, overrides: Partial<RoutingRule>): RoutingRule => ({
  id,
  position: 0,
  category: null,
  department: null,
  customField: null,
  titleWords: [],
  teamId: network.id,
  teamName: "Network",
  ...overrides,
});

function setup({ teams = [network], rules = [] as RoutingRule[] } = {}) {
  let routing: Routing = { rules, defaultTeamId: null };
  const server = stubFetch({
    "GET /api/teams": () => ({ body: { items: teams } }),
    "GET /api/technicians": {
      body: [
        { id: "tech-1", name: "Theo" },
        { id: "tech-2", name: "Tara" },
      ],
    },
    "GET /api/departments": { body: { departments: ["General", "Finance"] } },
    "GET /api/custom-fields": { body: { items: [device] } },
    "GET /api/routing": () => ({ body: routing }),
    "POST /api/teams": (request) => {
      const body = request.body as { name: string };
      if (body.name.toLowerCase() === "network") {
        return {
          status: 409,
          body: { code: "conflict", message: "There is already a team named “network”." },
        };
      }
      return { status: 201, body: { ...network, id: "team_desk0001", name: body.name } };
    },
    "POST /api/routing/rules": () => ({ status: 201, body: rule("rr_0000000000000003", {}) }),
    "PUT /api/routing/rules/order": (request) => {
      const { ruleIds } = request.body as { ruleIds: string[] };
      routing = { ...routing, rules: ruleIds.map((id) => routing.rules.find((r) => r.id === id)!) };
      return { body: routing };
    },
    "PUT /api/routing/default-team": (request) => {
      routing = { ...routing, defaultTeamId: (request.body as { teamId: string | null }).teamId };
      return { body: routing };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<AdminTeamsPage />, { path: "/admin/teams" });
  return { server, user: userEvent.setup() };
}

describe("/admin/teams", () => {
  it("lists each team with its member count, lead and members, an inactive one marked in the dialog", async () => {
    const { user } = setup();
    const list = await screen.findByRole("list", { name: "Teams" });
    expect(within(list).getByText("Network")).toBeInTheDocument();
    expect(within(list).getByText(/2 members/)).toBeInTheDocument();
    expect(within(list).getByText(/Lead: Theo/)).toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Edit Network" }));
    const dialog = screen.getByRole("dialog", { name: "Edit team" });
    expect(within(dialog).getByLabelText("Theo")).toBeChecked();
    expect(within(dialog).getByLabelText("Tara")).not.toBeChecked();
    expect(within(dialog).getByLabelText(/Ivy/)).toBeChecked();
    expect(within(dialog).getByText("inactive")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Lead")).toHaveValue("tech-1");
  });

  it("checks a new team's name, shows the server's refusal, and sends the members and lead chosen", async () => {
    const { server, user } = setup({ teams: [] });
    expect(await screen.findByText(/No teams yet/)).toBeInTheDocument();
    const add = await screen.findByRole("button", { name: "New team" });
    await vi.waitFor(() => expect(add).toBeEnabled());
    await user.click(add);
    const dialog = screen.getByRole("dialog", { name: "New team" });
    await user.click(within(dialog).getByRole("button", { name: "Add team" }));
    expect(await within(dialog).findByText("Name is required")).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText("Name"), "network");
    await user.click(within(dialog).getByRole("button", { name: "Add team" }));
    expect(await within(dialog).findByText("There is already a team named “network”.")).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText("Name"));
    await user.type(within(dialog).getByLabelText("Name"), "Service desk");
    await user.click(within(dialog).getByLabelText("Tara"));
    // The lead is chosen among the members ticked.
    expect(
      within(within(dialog).getByLabelText("Lead"))
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["No lead", "Tara"]);
    await user.selectOptions(within(dialog).getByLabelText("Lead"), "tech-2");
    await user.click(within(dialog).getByRole("button", { name: "Add team" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(server.calls.filter((call) => call.method === "POST").at(-1)?.body).toEqual({
      name: "Service desk",
      description: "",
      memberIds: ["tech-2"],
      leadId: "tech-2",
    });
  });

  it("asks a routing rule for a condition and a team, then sends the custom field's choice and the words", async () => {
    const { server, user } = setup();
    const add = await screen.findByRole("button", { name: "New rule" });
    await vi.waitFor(() => expect(add).toBeEnabled());
    await user.click(add);
    const dialog = screen.getByRole("dialog", { name: "New routing rule" });
    await user.click(within(dialog).getByRole("button", { name: "Add rule" }));
    expect(
      within(dialog).getByText(
        "A rule needs at least one condition: a category, a department, a custom field or words of the title.",
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText("Choose the team the rule sends tickets to.")).toBeInTheDocument();

    await user.selectOptions(within(dialog).getByLabelText("Custom field"), device.id);
    await user.selectOptions(within(dialog).getByLabelText("Device is"), "printer");
    await user.type(within(dialog).getByLabelText("Title contains any of"), "vpn, wi-fi ,");
    await user.selectOptions(within(dialog).getByLabelText("Team"), network.id);
    await user.click(within(dialog).getByRole("button", { name: "Add rule" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
      category: null,
      department: null,
      customField: { fieldId: device.id, value: "printer" },
      titleWords: ["vpn", "wi-fi"],
      teamId: network.id,
    });
  });

  it("lists the rules in order, in words, moves one up, and saves the default team", async () => {
    const { server, user } = setup({
      rules: [
        rule("rr_0000000000000001", { category: "Network", department: "Finance" }),
        rule("rr_0000000000000002", { titleWords: ["vpn", "wi-fi"] }),
      ],
    });
    const rules = await screen.findByRole("list", { name: "Routing rules" });
    const [first, second] = within(rules).getAllByRole("listitem");
    expect(first).toHaveTextContent("Category is Network · Department is Finance → Network");
    expect(second).toHaveTextContent("Title contains “vpn” or “wi-fi” → Network");
    expect(within(first!).getByRole("button", { name: "Move rule 1 up" })).toBeDisabled();
    await user.click(within(second!).getByRole("button", { name: "Move rule 2 up" }));
    await vi.waitFor(() =>
      expect(server.calls.find((call) => call.url.endsWith("/order"))?.body).toEqual({
        ruleIds: ["rr_0000000000000002", "rr_0000000000000001"],
      }),
    );
    await vi.waitFor(() =>
      expect(
        within(screen.getByRole("list", { name: "Routing rules" })).getAllByRole("listitem")[0],
      ).toHaveTextContent("Title contains"),
    );

    await user.selectOptions(screen.getByLabelText("When no rule matches"), network.id);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await vi.waitFor(() =>
      expect(server.calls.find((call) => call.url.endsWith("/default-team"))?.body).toEqual({
        teamId: network.id,
      }),
    );
  });
});
