import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeManagedUser, makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Role } from "#shared/users/roles.ts";
import AdminUserManagementPage from "./admin-user-management.tsx";

const me = makeMe({ id: "admin-1", role: "admin", name: "Ada Admin", email: "ada@corp.test" });
const tess = makeManagedUser({ id: "u-tess", name: "Tess Tech", role: "technician", department: "IT" });
const ida = makeManagedUser({
  id: "u-ida",
  name: "Ida Inactive",
  email: "ida@corp.test",
  status: "Inactive",
});
const self = makeManagedUser({ id: "admin-1", name: "Ada Admin", email: "ada@corp.test", role: "admin" });

function setup(role: Role = "admin", overrides: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({
    "GET /api/me": { body: { ...me, role } },
    "GET /api/admin/users/summary": { body: { total: 3, active: 2, users: 1, technicians: 1, admins: 1 } },
    "GET /api/admin/users": { body: { items: [tess, ida, self], matching: 3, nextCursor: null } },
    "PATCH /api/admin/users/u-tess": ({ body }) => ({ body: { ...tess, ...(body as object) } }),
    "PUT /api/admin/users/u-tess/status": ({ body }) => ({ body: { ...tess, ...(body as object) } }),
    "PUT /api/admin/users/u-ida/status": ({ body }) => ({ body: { ...ida, ...(body as object) } }),
    "POST /api/admin/users/u-tess/password-reset": { body: { message: "Reset email was sent successfully" } },
    "POST /api/admin/users": ({ body }) => ({ status: 201, body: makeManagedUser(body as object) }),
    "GET /api/admin/users/u-tess/history": {
      body: {
        items: [
          {
            id: "c2",
            action: "role_from_sign_in",
            actorId: null,
            actorName: null,
            changes: [{ field: "role", from: "technician", to: "user" }],
            at: "2025-11-22T08:00:00.000Z",
          },
          {
            id: "c1",
            action: "edited",
            actorId: "admin-1",
            actorName: "Ada Admin",
            changes: [{ field: "role", from: "user", to: "technician" }],
            at: "2025-11-21T10:00:00.000Z",
          },
        ],
        nextCursor: null,
      },
    },
    ...overrides,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<AdminUserManagementPage />, { path: "/admin/user-management" });
  return { server, user: userEvent.setup() };
}

const rowOf = async (name: string) => screen.findByRole("row", { name: new RegExp(name) });

describe("AdminUserManagementPage", () => {
  it("shows non-admins an access-denied state, no controls, and never asks for the users", async () => {
    for (const role of ["user", "technician"] as const) {
      const { server } = setup(role);
      expect(await screen.findByRole("heading", { name: "Access denied" })).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Add user" })).not.toBeInTheDocument();
      expect(screen.queryByRole("link", { name: "Export CSV" })).not.toBeInTheDocument();
      expect(screen.queryByRole("table")).not.toBeInTheDocument();
      expect(server.calls.some((call) => call.url.startsWith("/api/admin/"))).toBe(false);
      document.body.innerHTML = "";
    }
  });

  it("shows the counts, the table with capitalised roles, and the footer", async () => {
    setup();
    const counts = await screen.findByRole("region", { name: "User counts" });
    await waitFor(() => expect(within(counts).getByText("Total").nextElementSibling).toHaveTextContent("3"));
    expect(within(counts).getByText("Active").nextElementSibling).toHaveTextContent("2");
    expect(within(counts).getByText("Technicians").nextElementSibling).toHaveTextContent("1");
    expect(within(counts).getByText("Admins").nextElementSibling).toHaveTextContent("1");
    const table = await screen.findByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Full Name", "Email", "Role", "Department", "Status", "Actions"]);
    const row = await rowOf("Tess Tech");
    expect(within(row).getByText("Technician")).toBeInTheDocument();
    expect(within(row).getByText("Active", { selector: "span.rounded-full" })).toBeInTheDocument();
    expect(within(await rowOf("Ida Inactive")).getByRole("button", { name: "Activate" })).toBeEnabled();
    expect(screen.getByText("Showing 3 of 3 users")).toBeInTheDocument();
  });

  it("searches and filters on the server", async () => {
    const { server, user } = setup();
    await rowOf("Tess Tech");
    await user.type(screen.getByLabelText("Search users"), "finance");
    await user.selectOptions(screen.getByLabelText("Role"), "Technician");
    expect(screen.getByLabelText("Role")).toHaveTextContent("All RolesUserTechnicianAdmin");
    await waitFor(() =>
      expect(server.calls.map((call) => call.url)).toContain("/api/admin/users?q=finance&role=technician"),
    );
    // The download follows the same search and filter.
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/admin/users/export.csv?q=finance&role=technician",
    );
  });

  it("edits a person in a labelled, keyboard-usable dialog and returns focus to Edit", async () => {
    const { server, user } = setup();
    const edit = within(await rowOf("Tess Tech")).getByRole("button", { name: "Edit" });
    await user.click(edit);
    const dialog = screen.getByRole("dialog", { name: "Edit user" });
    expect(within(dialog).getByLabelText("Full Name")).toHaveFocus();
    expect(within(dialog).getByLabelText("Full Name")).toHaveValue("Tess Tech");

    await user.clear(within(dialog).getByLabelText("Full Name"));
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    expect(await within(dialog).findByText("Name is required")).toBeInTheDocument();
    expect(server.calls.some((call) => call.method === "PATCH")).toBe(false);

    await user.type(within(dialog).getByLabelText("Full Name"), "Tess Lead");
    await user.selectOptions(within(dialog).getByLabelText("Role"), "Admin");
    await user.clear(within(dialog).getByLabelText("Department"));
    await user.type(within(dialog).getByLabelText("Department"), "Operations");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(server.calls.find((call) => call.method === "PATCH")?.body).toEqual({
      name: "Tess Lead",
      role: "admin",
      department: "Operations",
      status: "Active",
    });
    expect(await screen.findByText("User updated successfully")).toBeInTheDocument();
    expect(edit).toHaveFocus();
  });

  it("keeps Tab inside a dialog and closes it with Escape", async () => {
    const { user } = setup();
    const edit = within(await rowOf("Tess Tech")).getByRole("button", { name: "Edit" });
    await user.click(edit);
    const dialog = screen.getByRole("dialog", { name: "Edit user" });
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(edit).toHaveFocus();
  });

  it("deactivates after a confirmation, activates at once, and never offers to deactivate oneself", async () => {
    const { server, user } = setup();
    expect(within(await rowOf("Ada Admin")).getByRole("button", { name: "Deactivate" })).toBeDisabled();
    await user.click(within(await rowOf("Tess Tech")).getByRole("button", { name: "Deactivate" }));
    const confirm = screen.getByRole("dialog", { name: "Deactivate Tess Tech?" });
    await user.click(within(confirm).getByRole("button", { name: "Deactivate" }));
    expect(await screen.findByText("Tess Tech was deactivated")).toBeInTheDocument();
    await user.click(within(await rowOf("Ida Inactive")).getByRole("button", { name: "Activate" }));
    expect(await screen.findByText("Ida Inactive was activated")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT").map((call) => [call.url, call.body])).toEqual(
      [
        ["/api/admin/users/u-tess/status", { status: "Inactive" }],
        ["/api/admin/users/u-ida/status", { status: "Active" }],
      ],
    );
  });

  it("says the server's reason when a change is refused", async () => {
    const { user } = setup("admin", {
      "PUT /api/admin/users/u-tess/status": {
        status: 422,
        body: {
          code: "rule_violation",
          message: "The last active administrator can be neither deactivated nor demoted.",
        },
      },
    });
    await user.click(within(await rowOf("Tess Tech")).getByRole("button", { name: "Deactivate" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Deactivate" }));
    expect(
      await screen.findByText("The last active administrator can be neither deactivated nor demoted."),
    ).toBeInTheDocument();
  });

  it("sends a reset e-mail with the spec's message", async () => {
    const { user } = setup();
    await user.click(within(await rowOf("Tess Tech")).getByRole("button", { name: "Reset password" }));
    expect(await screen.findByText("Reset email was sent successfully")).toBeInTheDocument();
  });

  it("invites a person by e-mail, requiring a valid address", async () => {
    const { server, user } = setup();
    await user.click(await screen.findByRole("button", { name: "Add user" }));
    const dialog = screen.getByRole("dialog", { name: "Add user" });
    await user.type(within(dialog).getByLabelText("Full Name"), "Nina New");
    await user.type(within(dialog).getByLabelText("Email"), "not-an-address");
    await user.click(within(dialog).getByRole("button", { name: "Send invitation" }));
    expect(await within(dialog).findByText("Enter a valid e-mail address")).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText("Email"));
    await user.type(within(dialog).getByLabelText("Email"), "nina@corp.test");
    await user.selectOptions(within(dialog).getByLabelText("Role"), "Technician");
    await user.click(within(dialog).getByRole("button", { name: "Send invitation" }));
    expect(await screen.findByText("Invitation sent to nina@corp.test")).toBeInTheDocument();
    expect(
      server.calls.find((call) => call.method === "POST" && call.url === "/api/admin/users")?.body,
    ).toEqual({
      name: "Nina New",
      email: "nina@corp.test",
      role: "technician",
      department: "General",
    });
  });

  it("offers the departments admins keep in the add and edit dialogs, and still takes any other", async () => {
    const { server, user } = setup("admin", {
      "GET /api/departments": { body: { departments: ["General", "Finance", "IT"] } },
    });
    const offered = async (field: HTMLElement) => {
      await waitFor(() => expect(field).toHaveAttribute("list"));
      const list = document.getElementById(field.getAttribute("list")!)!;
      return [...list.querySelectorAll("option")].map((option) => option.value);
    };
    await user.click(await screen.findByRole("button", { name: "Add user" }));
    const invite = screen.getByRole("dialog", { name: "Add user" });
    expect(await offered(within(invite).getByLabelText("Department"))).toEqual(["General", "Finance", "IT"]);
    await user.click(within(invite).getByRole("button", { name: "Cancel" }));

    await user.click(within(await rowOf("Tess Tech")).getByRole("button", { name: "Edit" }));
    const edit = screen.getByRole("dialog", { name: "Edit user" });
    const department = within(edit).getByLabelText("Department");
    expect(await offered(department)).toEqual(["General", "Finance", "IT"]);
    await user.clear(department);
    await user.type(department, "Night shift");
    await user.click(within(edit).getByRole("button", { name: "Save changes" }));
    await waitFor(() =>
      expect(server.calls.find((call) => call.method === "PATCH")?.body).toMatchObject({
        department: "Night shift",
      }),
    );
  });

  it("shows a person's history: who, when, and from → to", async () => {
    const { user } = setup();
    await user.click(within(await rowOf("Tess Tech")).getByRole("button", { name: "History" }));
    const dialog = screen.getByRole("dialog", { name: "History of Tess Tech" });
    expect(await within(dialog).findByText("Edited")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("Ada Admin");
    expect(dialog).toHaveTextContent("Role: user → technician");
    // A role the identity provider's groups changed at a sign-in (decision 082) names no admin.
    const fromSignIn = within(dialog).getByText("Role given by single sign-on").closest("li")!;
    expect(fromSignIn).toHaveTextContent("The identity provider, at sign-in");
    expect(fromSignIn).toHaveTextContent("Role: technician → user");
  });

  it('says "Error loading users." when the list fails', async () => {
    setup("admin", { "GET /api/admin/users": { status: 500, body: { code: "internal", message: "boom" } } });
    expect(await screen.findByText("Error loading users.")).toBeInTheDocument();
  });
});
