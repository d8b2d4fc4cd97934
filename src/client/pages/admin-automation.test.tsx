import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { AutomationRule } from "#shared/automation/automation-rule.schemas.ts";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";
import AdminAutomationPage from "./admin-automation.tsx";

const network = { id: "team_network01", name: "Network" };
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
const rule = (id: string, overrides: Partial<AutomationRule>): AutomationRule => ({
  id,
  name: "A rule",
  position: 0,
  enabled: false,
  trigger: "created",
  conditions: [],
  actions: { priority: "High" },
  createdAt: "2030-01-07T09:00:00.000Z",
  updatedAt: "2030-01-07T09:00:00.000Z",
  ...overrides,
});
const vpnRule = rule("ar_0000000000000001", {
  name: "VPN to Network",
  conditions: [
    { field: "words", in: "title", value: ["vpn"] },
    { field: "status", op: "is", value: "Open" },
  ],
  actions: { teamId: network.id, priority: "High", addTags: ["vpn"] },
});
const nightRule = rule("ar_0000000000000002", {
  name: "Nudge the quiet ones",
  trigger: "time",
  enabled: true,
  conditions: [{ field: "elapsed", since: "updated", hours: 8, business: true }],
  actions: { note: "Still waiting?" },
});

type Answer = { status?: number; body?: unknown };

function setup({
  rules = [] as AutomationRule[],
  onSave = (): Answer | undefined => undefined,
  onTry = (): Answer => ({ body: { matched: 0, checked: 0, tickets: [] } }),
} = {}) {
  let list = rules;
  const saved = (request: { body: unknown }): Answer =>
    onSave() ?? { status: 201, body: rule("ar_0000000000000009", request.body as Partial<AutomationRule>) };
  const server = stubFetch({
    "GET /api/automation/rules": () => ({ body: { rules: list } }),
    "GET /api/teams": { body: { items: [{ ...network, members: [] }] } },
    "GET /api/technicians": { body: [{ id: "tech-1", name: "Theo" }] },
    "GET /api/staff": {
      body: [
        { id: "adm-1", name: "Ada", role: "admin" },
        { id: "tech-1", name: "Theo", role: "technician" },
      ],
    },
    "GET /api/departments": { body: { departments: ["Sales"] } },
    "GET /api/custom-fields": { body: { items: [device] } },
    "GET /api/canned-responses": {
      body: {
        items: [
          { id: "crs_shared", title: "We are on it", body: "…", scope: "shared" },
          { id: "crs_mine", title: "My own", body: "…", scope: "personal" },
        ],
      },
    },
    "POST /api/automation/rules": saved,
    "POST /api/automation/rules/try": onTry,
    "PUT /api/automation/rules/order": (request) => {
      const { ruleIds } = request.body as { ruleIds: string[] };
      list = ruleIds.map((id) => list.find((r) => r.id === id)!);
      return { body: { rules: list } };
    },
    "PUT /api/automation/rules/ar_0000000000000001/enabled": (request) => {
      list = list.map((r) =>
        r.id === vpnRule.id ? { ...r, enabled: (request.body as { enabled: boolean }).enabled } : r,
      );
      return { body: list.find((r) => r.id === vpnRule.id) };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<AdminAutomationPage />, { path: "/admin/automation" });
  return { server, user: userEvent.setup() };
}

async function openNewRule(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole("button", { name: "New rule" }));
  return screen.getByRole("region", { name: "New automation rule" });
}

describe("/admin/automation", () => {
  it("says what rules are for while there are none", async () => {
    setup();
    expect(await screen.findByText("No automation rules yet")).toBeInTheDocument();
    expect(screen.getByText(/A rule changes tickets for you/)).toBeInTheDocument();
  });

  it("lists the rules in their order, in words, switches one on and moves one up", async () => {
    const { server, user } = setup({ rules: [vpnRule, nightRule] });
    const list = await screen.findByRole("list", { name: "Automation rules" });
    const [first, second] = within(list).getAllByRole("listitem");
    expect(first).toHaveTextContent("Title has “vpn” · Status is Open");
    await vi.waitFor(() => expect(first).toHaveTextContent("Team: Network, Priority: High, add tag vpn"));
    expect(first).toHaveTextContent("When a ticket is created");
    expect(second).toHaveTextContent("On time");
    expect(second).toHaveTextContent("8 business hours since the last activity");
    expect(second).toHaveTextContent("internal note");
    expect(within(second!).getByRole("switch", { name: "Nudge the quiet ones" })).toBeChecked();

    const toggle = within(first!).getByRole("switch", { name: "VPN to Network" });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await vi.waitFor(() =>
      expect(server.calls.find((call) => call.url.endsWith("/enabled"))?.body).toEqual({ enabled: true }),
    );
    expect(await screen.findByText("“VPN to Network” is on")).toBeInTheDocument();
    await vi.waitFor(() => expect(toggle).toBeChecked());

    expect(within(first!).getByRole("button", { name: "Move VPN to Network up" })).toBeDisabled();
    await user.click(within(second!).getByRole("button", { name: "Move Nudge the quiet ones up" }));
    await vi.waitFor(() =>
      expect(server.calls.find((call) => call.url.endsWith("/order"))?.body).toEqual({
        ruleIds: [nightRule.id, vpnRule.id],
      }),
    );
    await vi.waitFor(() =>
      expect(
        within(screen.getByRole("list", { name: "Automation rules" })).getAllByRole("listitem")[0],
      ).toHaveTextContent("Nudge the quiet ones"),
    );
  });

  it("builds the body the server reads from words, a team, a custom field and the actions", async () => {
    const { server, user } = setup();
    const form = await openNewRule(user);
    await user.type(within(form).getByLabelText("Name"), "VPN to Network");

    await user.click(within(form).getByRole("button", { name: "Add condition" }));
    const words = within(form).getByRole("group", { name: "Condition 1" });
    await user.type(within(words).getByLabelText(/Words or phrases/), "vpn\ntunnel, wi-fi");
    await user.selectOptions(within(words).getByLabelText("Look in"), "title_or_description");

    await user.click(within(form).getByRole("button", { name: "Add condition" }));
    const team = within(form).getByRole("group", { name: "Condition 2" });
    await user.selectOptions(within(team).getByLabelText("Field"), "team");
    await user.selectOptions(within(team).getByLabelText("Comparison"), "is_not");
    await user.selectOptions(within(team).getByLabelText("Team"), "none");

    await user.click(within(form).getByRole("button", { name: "Add condition" }));
    const field = within(form).getByRole("group", { name: "Condition 3" });
    await user.selectOptions(within(field).getByLabelText("Field"), "custom_field");
    await user.selectOptions(within(field).getByLabelText("Value"), "laptop");

    // "Changed by" is offered only to rules run when a ticket changes.
    const fieldOptions = () =>
      within(within(field).getByLabelText("Field"))
        .getAllByRole("option")
        .map((option) => option.getAttribute("value"));
    expect(fieldOptions()).not.toContain("changed_by");
    expect(fieldOptions()).not.toContain("elapsed");

    await user.selectOptions(within(form).getByLabelText("Move to team"), network.id);
    await user.selectOptions(within(form).getByLabelText("Set priority"), "High");
    await user.selectOptions(within(form).getByLabelText("Assign to"), "none");
    await user.type(within(form).getByLabelText("Add tags"), "vpn, remote");
    await user.type(within(form).getByLabelText("Internal note (optional)"), "Known VPN outage?");
    // Only the shared canned responses are offered.
    const replies = within(form).getByLabelText("Reply to the requester with");
    expect(within(replies).queryByRole("option", { name: "My own" })).toBeNull();
    await user.selectOptions(replies, "crs_shared");
    // The notice: a team and a person, each a checkbox.
    await user.click(
      within(within(form).getByRole("group", { name: "Notify teams" })).getByLabelText("Network"),
    );
    await user.click(
      within(within(form).getByRole("group", { name: "Notify people" })).getByLabelText("Ada"),
    );

    await user.click(within(form).getByRole("button", { name: "Add rule" }));
    await vi.waitFor(() => expect(screen.queryByRole("region", { name: "New automation rule" })).toBeNull());
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "VPN to Network",
      trigger: "created",
      conditions: [
        { field: "words", in: "title_or_description", value: ["vpn", "tunnel", "wi-fi"] },
        { field: "team", op: "is_not", value: null },
        { field: "custom_field", fieldId: device.id, op: "is", value: "laptop" },
      ],
      actions: {
        teamId: network.id,
        priority: "High",
        assigneeId: null,
        addTags: ["vpn", "remote"],
        note: "Known VPN outage?",
        replyCannedResponseId: "crs_shared",
        notify: { userIds: ["adm-1"], teamIds: [network.id] },
      },
      enabled: false,
    });
  });

  it("gives a time rule a “time since” condition and sends its hours and clock", async () => {
    const { server, user } = setup();
    const form = await openNewRule(user);
    await user.type(within(form).getByLabelText("Name"), "Nudge");
    await user.selectOptions(within(form).getByLabelText("When it runs"), "time");
    const clock = within(form).getByRole("group", { name: "Condition 1" });
    expect(within(clock).getByLabelText("Field")).toHaveValue("elapsed");
    await user.selectOptions(within(clock).getByLabelText("Counted"), "on_hold");
    await user.type(within(clock).getByLabelText("Hours"), "24");
    await user.click(within(clock).getByLabelText("In business hours"));
    await user.selectOptions(within(form).getByLabelText("Set status"), "Closed");
    await user.click(within(form).getByLabelText(/On: the rule runs/));
    await user.click(within(form).getByRole("button", { name: "Add rule" }));
    await vi.waitFor(() =>
      expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
        name: "Nudge",
        trigger: "time",
        conditions: [{ field: "elapsed", since: "on_hold", hours: 24, business: false }],
        actions: { status: "Closed" },
        enabled: true,
      }),
    );
  });

  it("says what is missing before sending, and shows the server's refusals at their fields", async () => {
    let answer: Answer | undefined = {
      status: 409,
      body: { code: "conflict", message: "There is already a rule named “VPN”. Choose another name." },
    };
    const { server, user } = setup({ onSave: () => answer });
    const form = await openNewRule(user);
    await user.click(within(form).getByRole("button", { name: "Add rule" }));
    expect(await within(form).findByText("Name cannot be empty")).toBeInTheDocument();
    expect(within(form).getByText("A rule needs at least one action")).toBeInTheDocument();
    expect(within(form).getByRole("alert")).toHaveTextContent("The rule was not saved");
    expect(server.calls.filter((call) => call.method === "POST")).toHaveLength(0);

    await user.type(within(form).getByLabelText("Name"), "VPN");
    await user.selectOptions(within(form).getByLabelText("Set priority"), "High");
    await user.click(within(form).getByRole("button", { name: "Add condition" }));
    await user.click(within(form).getByRole("button", { name: "Add rule" }));
    // A words condition with no phrase is the shared schema's to refuse, at its row.
    expect(
      within(within(form).getByRole("group", { name: "Condition 1" })).getByText(
        "Give at least one word or phrase",
      ),
    ).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Remove condition 1" }));

    await user.click(within(form).getByRole("button", { name: "Add rule" }));
    expect(
      await within(form).findByText("There is already a rule named “VPN”. Choose another name."),
    ).toBeInTheDocument();

    answer = {
      status: 400,
      body: {
        code: "validation_failed",
        message: "Team: choose one of the teams",
        details: [{ path: ["actions", "teamId"], message: "Team: choose one of the teams" }],
      },
    };
    await user.selectOptions(within(form).getByLabelText("Move to team"), network.id);
    await user.click(within(form).getByRole("button", { name: "Add rule" }));
    expect(await within(form).findByText("Team: choose one of the teams")).toBeInTheDocument();
    expect(within(form).getByLabelText("Move to team")).toHaveAttribute("aria-invalid", "true");
  });

  it("tries the conditions as they are and shows the count and the first tickets, or why not", async () => {
    let answer: Answer = {
      body: {
        matched: 2,
        checked: 40,
        tickets: [
          { id: "TKT0001", title: "VPN down on floor 3", status: "Open" },
          { id: "TKT0002", title: "VPN slow", status: "In Progress" },
        ],
      },
    };
    const { server, user } = setup({ onTry: () => answer });
    const form = await openNewRule(user);
    await user.click(within(form).getByRole("button", { name: "Add condition" }));
    await user.type(within(form).getByLabelText(/Words or phrases/), "vpn");
    await user.click(within(form).getByRole("button", { name: "Try" }));
    expect(await within(form).findByText("Would match 2 of 40 open tickets")).toBeInTheDocument();
    expect(within(form).getByRole("link", { name: "VPN down on floor 3" })).toHaveAttribute(
      "href",
      "/tickets/TKT0001",
    );
    expect(server.calls.find((call) => call.url.endsWith("/try"))?.body).toEqual({
      trigger: "created",
      conditions: [{ field: "words", in: "title", value: ["vpn"] }],
    });

    answer = {
      status: 400,
      body: {
        code: "validation_failed",
        message: "A time-based rule needs a “time since” condition",
        details: [{ path: ["conditions"], message: "A time-based rule needs a “time since” condition" }],
      },
    };
    await user.click(within(form).getByRole("button", { name: "Try" }));
    expect(
      await within(form).findByText("A time-based rule needs a “time since” condition"),
    ).toBeInTheDocument();

    // A row's issue is named by the row, not by the path the server gives.
    answer = {
      status: 400,
      body: {
        code: "validation_failed",
        message: "conditions.0.value: Give at least one word or phrase",
        details: [{ path: ["conditions", 0, "value"], message: "Give at least one word or phrase" }],
      },
    };
    await user.click(within(form).getByRole("button", { name: "Try" }));
    expect(
      await within(form).findByText("Condition 1: Give at least one word or phrase"),
    ).toBeInTheDocument();
  });

  it("opens a saved rule with its conditions and actions in the form", async () => {
    const { user } = setup({ rules: [vpnRule] });
    await user.click(await screen.findByRole("button", { name: "Edit VPN to Network" }));
    const form = screen.getByRole("region", { name: "Edit automation rule" });
    expect(within(form).getByLabelText("Name")).toHaveValue("VPN to Network");
    const words = within(form).getByRole("group", { name: "Condition 1" });
    expect(within(words).getByLabelText(/Words or phrases/)).toHaveValue("vpn");
    const status = within(form).getByRole("group", { name: "Condition 2" });
    expect(within(status).getByLabelText("Status")).toHaveValue("Open");
    await vi.waitFor(() => expect(within(form).getByLabelText("Move to team")).toHaveValue(network.id));
    expect(within(form).getByLabelText("Add tags")).toHaveValue("vpn");
    await user.click(within(form).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("region", { name: "Edit automation rule" })).toBeNull();
  });
});
