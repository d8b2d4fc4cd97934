import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { DepartmentsSettings } from "./departments-settings.tsx";

const url = "/api/admin/settings/departments";
const envelope = (departments: string[], updatedAt: string | null = null) => ({
  value: { departments },
  updatedAt,
  updatedByName: updatedAt ? "Ada Admin" : null,
});

function setup({
  stored = ["General", "IT"],
  answer,
}: {
  stored?: string[];
  answer?: (body: { departments: string[] }) => { status?: number; body?: unknown };
} = {}) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin" }) },
    [`GET ${url}`]: { body: envelope(stored) },
    [`PUT ${url}`]: (request) => {
      const body = request.body as { departments: string[] };
      return answer ? answer(body) : { body: envelope(body.departments, "2026-11-23T10:00:00.000Z") };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<DepartmentsSettings />);
  const saves = () => server.calls.filter((call) => call.method === "PUT").map((call) => call.body);
  return { user: userEvent.setup(), saves };
}

const names = () =>
  within(screen.getByRole("list", { name: "Departments" }))
    .getAllByRole("textbox")
    .map((input) => (input as HTMLInputElement).value);

describe("DepartmentsSettings", () => {
  it("adds, renames, reorders and removes departments, then saves the list in its order", async () => {
    const { user, saves } = setup({ stored: ["General", "IT", "Sales"] });
    await user.type(await screen.findByLabelText("New department"), "  Finance ");
    await user.click(screen.getByRole("button", { name: "Add department" }));
    expect(names()).toEqual(["General", "IT", "Sales", "Finance"]);

    await user.click(screen.getByRole("button", { name: "Move Finance up" }));
    await user.click(screen.getByRole("button", { name: "Remove Sales" }));
    const second = screen.getByLabelText("Department 2");
    await user.clear(second);
    await user.type(second, "Information Technology");
    expect(names()).toEqual(["General", "Information Technology", "Finance"]);

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(saves()).toEqual([{ departments: ["General", "Information Technology", "Finance"] }]);
  });

  it("keeps General: it can move but not be renamed or removed", async () => {
    setup();
    const general = await screen.findByDisplayValue("General");
    expect(general).toHaveAttribute("readonly");
    expect(screen.queryByRole("button", { name: "Remove General" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Move General down" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Remove IT" })).toBeInTheDocument();
  });

  it("does not add a department twice, whatever its case", async () => {
    const { user } = setup();
    await user.type(await screen.findByLabelText("New department"), "it");
    await user.click(screen.getByRole("button", { name: "Add department" }));
    expect(screen.getByLabelText("New department")).toHaveAccessibleDescription("it is already in the list");
    expect(names()).toEqual(["General", "IT"]);
  });

  it("checks the list before sending: a blank name is marked at its row", async () => {
    const { user, saves } = setup();
    await user.clear(await screen.findByLabelText("Department 2"));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByLabelText("Department 2")).toHaveAccessibleDescription("Department name is required");
    expect(saves()).toEqual([]);
  });

  it("shows the server's refusal at the department it names", async () => {
    const { user } = setup({
      answer: () => ({
        status: 400,
        body: {
          code: "validation_failed",
          message: "departments.1: Department name is taken by a retired department",
          details: [
            { path: ["departments", "1"], message: "Department name is taken by a retired department" },
          ],
        },
      }),
    });
    await screen.findByLabelText("Department 2");
    await user.click(screen.getByRole("button", { name: "Save" }));
    const row = screen.getByLabelText("Department 2");
    await vi.waitFor(() =>
      expect(row).toHaveAccessibleDescription("Department name is taken by a retired department"),
    );
    expect(row).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByText("Settings saved")).not.toBeInTheDocument();
  });
});
