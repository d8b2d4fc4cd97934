import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import DemoUserManagementPage from "./demo-user-management.tsx";

function setup() {
  // The demo must never call the server; an unexpected call would show up here.
  const server = stubFetch({});
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<DemoUserManagementPage />, { path: "/demo/user-management" });
  return { user: userEvent.setup(), calls: server.calls };
}

const rows = () => screen.getAllByRole("row").filter((row) => within(row).queryAllByRole("cell").length > 1);
const rowOf = (name: string) => {
  const row = rows().find((candidate) => within(candidate).queryByText(name, { selector: "td" }));
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};
const count = (label: string) => screen.getByText(label, { selector: "dt" }).nextElementSibling;
const footer = () => screen.getByText(/^Showing \d+ of \d+ users$/);

async function openAddDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole("button", { name: "Add User" }));
  return screen.getByRole("dialog", { name: "Add User" });
}

describe("DemoUserManagementPage", () => {
  it("shows the ten sample users with counts, capitalised roles and the demo banner", () => {
    setup();
    expect(screen.getByText("Demo: sample data, nothing is saved")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "User Management" })).toHaveAttribute(
      "href",
      "/admin/user-management",
    );
    expect(rows()).toHaveLength(10);
    expect(count("Total")).toHaveTextContent("10");
    expect(count("Active")).toHaveTextContent("8");
    expect(count("Technicians")).toHaveTextContent("3");
    expect(count("Admins")).toHaveTextContent("2");
    expect(footer()).toHaveTextContent("Showing 10 of 10 users");
    const alice = rowOf("Alice Johnson");
    expect(within(alice).getByText("Admin")).toBeInTheDocument();
    expect(within(alice).getByText("alice.johnson@example.com")).toBeInTheDocument();
    expect(within(alice).getByText("IT")).toBeInTheDocument();
    expect(within(alice).getByText("Active")).toBeInTheDocument();
    // No default password is shown until a user is added or reset.
    expect(screen.queryByText("Demo@1234")).not.toBeInTheDocument();
  });

  it("refuses an invalid email, shows the error and adds nothing", async () => {
    const { user, calls } = setup();
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText("Full Name"), "Nina Novak");
    await user.type(within(dialog).getByLabelText("Email"), "nina.example.com");
    await user.click(within(dialog).getByRole("button", { name: "Add User" }));

    expect(await within(dialog).findByText("Enter a valid e-mail address")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("dialog")).toBeInTheDocument();
    expect(rows()).toHaveLength(10);
    expect(count("Total")).toHaveTextContent("10");
    expect(calls).toEqual([]);
  });

  it("requires every field of the modal", async () => {
    const { user } = setup();
    const dialog = await openAddDialog(user);
    await user.clear(within(dialog).getByLabelText("Department"));
    await user.click(within(dialog).getByRole("button", { name: "Add User" }));

    expect(await within(dialog).findByText("Name is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Enter a valid e-mail address")).toBeInTheDocument();
    expect(within(dialog).getByText("Department is required")).toBeInTheDocument();
    expect(rows()).toHaveLength(10);
  });

  it("adds a valid user as a new row and shows the demo default password", async () => {
    const { user, calls } = setup();
    const dialog = await openAddDialog(user);
    await waitFor(() => expect(within(dialog).getByLabelText("Full Name")).toHaveFocus());
    await user.type(within(dialog).getByLabelText("Full Name"), "Nina Novak");
    await user.type(within(dialog).getByLabelText("Email"), "nina.novak@example.com");
    await user.selectOptions(within(dialog).getByLabelText("Role"), "Technician");
    await user.clear(within(dialog).getByLabelText("Department"));
    await user.type(within(dialog).getByLabelText("Department"), "Logistics");
    await user.click(within(dialog).getByRole("button", { name: "Add User" }));

    expect(screen.queryByRole("dialog", { name: "Add User" })).not.toBeInTheDocument();
    const nina = rowOf("Nina Novak");
    expect(within(nina).getByText("nina.novak@example.com")).toBeInTheDocument();
    expect(within(nina).getByText("Technician")).toBeInTheDocument();
    expect(within(nina).getByText("Logistics")).toBeInTheDocument();
    expect(within(nina).getByText("Active")).toBeInTheDocument();
    expect(count("Total")).toHaveTextContent("11");
    expect(count("Technicians")).toHaveTextContent("4");
    expect(footer()).toHaveTextContent("Showing 11 of 11 users");

    const notice = screen.getByRole("dialog", { name: "User added" });
    expect(notice).toHaveTextContent("Nina Novak was added with the demo password Demo@1234");
    expect(notice).toHaveTextContent("The real app never does: it e-mails an invitation");
    await user.click(within(notice).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    // Focus goes back to the button that opened the modal (the dialog returns it as it unmounts).
    await waitFor(() => expect(screen.getByRole("button", { name: "Add User" })).toHaveFocus());
    expect(calls).toEqual([]);
  });

  it("refuses an email another user already has", async () => {
    const { user } = setup();
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText("Full Name"), "Alice Again");
    await user.type(within(dialog).getByLabelText("Email"), "ALICE.johnson@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Add User" }));
    expect(await within(dialog).findByText("Another user already has this email")).toBeInTheDocument();
    expect(rows()).toHaveLength(10);
  });

  it("edits a user's row from the modal, which starts with their details", async () => {
    const { user } = setup();
    await user.click(within(rowOf("Carla Gomez")).getByRole("button", { name: "Edit Carla Gomez" }));
    const dialog = screen.getByRole("dialog", { name: "Edit User" });
    expect(within(dialog).getByLabelText("Full Name")).toHaveValue("Carla Gomez");
    expect(within(dialog).getByLabelText("Email")).toHaveValue("carla.gomez@example.com");
    expect(within(dialog).getByLabelText("Role")).toHaveValue("user");
    expect(within(dialog).getByLabelText("Department")).toHaveValue("Finance");
    expect(within(dialog).getByLabelText("Status")).toHaveValue("Active");

    await user.clear(within(dialog).getByLabelText("Full Name"));
    await user.type(within(dialog).getByLabelText("Full Name"), "Carla Gomez-Ruiz");
    await user.selectOptions(within(dialog).getByLabelText("Role"), "Admin");
    await user.clear(within(dialog).getByLabelText("Department"));
    await user.type(within(dialog).getByLabelText("Department"), "Legal");
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const carla = rowOf("Carla Gomez-Ruiz");
    expect(within(carla).getByText("Admin")).toBeInTheDocument();
    expect(within(carla).getByText("Legal")).toBeInTheDocument();
    expect(screen.queryByText("Carla Gomez", { exact: true })).not.toBeInTheDocument();
    expect(count("Admins")).toHaveTextContent("3");
    expect(count("Total")).toHaveTextContent("10");
    // Saving an edit sets no password.
    expect(screen.queryByText("Demo@1234")).not.toBeInTheDocument();
    await waitFor(() =>
      expect(within(carla).getByRole("button", { name: "Edit Carla Gomez-Ruiz" })).toHaveFocus(),
    );
  });

  it("keeps the row unchanged when the modal is closed with Escape", async () => {
    const { user } = setup();
    const edit = within(rowOf("Hugo Martin")).getByRole("button", { name: "Edit Hugo Martin" });
    await user.click(edit);
    const dialog = screen.getByRole("dialog", { name: "Edit User" });
    expect(dialog).toHaveAttribute("aria-modal", "true");
    await user.clear(within(dialog).getByLabelText("Full Name"));
    await user.type(within(dialog).getByLabelText("Full Name"), "Someone Else");
    await user.keyboard("{Escape}");

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(rowOf("Hugo Martin")).toBeInTheDocument();
    await waitFor(() => expect(edit).toHaveFocus());
  });

  it("deactivates and reactivates a user, updating the Active count", async () => {
    const { user } = setup();
    const row = rowOf("Brian Smith");
    await user.click(within(row).getByRole("button", { name: "Deactivate Brian Smith" }));
    expect(within(rowOf("Brian Smith")).getByText("Inactive")).toBeInTheDocument();
    expect(count("Active")).toHaveTextContent("7");

    await user.click(within(rowOf("Brian Smith")).getByRole("button", { name: "Activate Brian Smith" }));
    expect(within(rowOf("Brian Smith")).getByText("Active")).toBeInTheDocument();
    expect(count("Active")).toHaveTextContent("8");
  });

  it("searches name, email and department, filters by role, and counts what is shown", async () => {
    const { user } = setup();
    const search = screen.getByLabelText("Search users");

    await user.type(search, "FINANCE");
    expect(rows().map((row) => within(row).getAllByRole("cell")[0]?.textContent)).toEqual([
      "Full NameCarla Gomez",
      "Full NameJames O'Connor",
    ]);
    expect(footer()).toHaveTextContent("Showing 2 of 10 users");

    await user.clear(search);
    await user.type(search, "emma.wilson@");
    expect(rows()).toHaveLength(1);
    expect(rowOf("Emma Wilson")).toBeInTheDocument();

    await user.clear(search);
    await user.type(search, "son");
    expect(footer()).toHaveTextContent("Showing 2 of 10 users"); // Alice Johnson, Emma Wilson

    await user.selectOptions(screen.getByLabelText("Filter by role"), "Technician");
    expect(rows()).toHaveLength(1);
    expect(rowOf("Emma Wilson")).toBeInTheDocument();
    expect(footer()).toHaveTextContent("Showing 1 of 10 users");

    await user.clear(search);
    expect(footer()).toHaveTextContent("Showing 3 of 10 users");
    expect(
      within(screen.getByLabelText("Filter by role"))
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["All Roles", "User", "Technician", "Admin"]);

    await user.type(search, "nobody at all");
    expect(screen.getByText("No users match your search.")).toBeInTheDocument();
    expect(footer()).toHaveTextContent("Showing 0 of 10 users");
    // The counts describe everyone, not what the search shows.
    expect(count("Total")).toHaveTextContent("10");
  });

  it("resets a password by showing the demo default password, with the real app's way beside it", async () => {
    const { user, calls } = setup();
    const reset = within(rowOf("Farid Khan")).getByRole("button", { name: "Reset password of Farid Khan" });
    await user.click(reset);
    const notice = screen.getByRole("dialog", { name: "Password reset" });
    expect(notice).toHaveTextContent("Farid Khan's password was reset to the demo password Demo@1234");
    expect(notice).toHaveTextContent("each person chooses their own password");
    await waitFor(() => expect(within(notice).getByRole("button", { name: "Done" })).toHaveFocus());

    await user.keyboard("{Escape}");
    expect(screen.queryByText("Demo@1234")).not.toBeInTheDocument();
    await waitFor(() => expect(reset).toHaveFocus());
    expect(calls).toEqual([]);
  });
});
