import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { AutoCloseSettingsPanel } from "./auto-close-settings.tsx";

const url = "/api/admin/settings/auto-close";

function setup() {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin" }) },
    [`GET ${url}`]: { body: { value: { enabled: true, days: 7 }, updatedAt: null, updatedByName: null } },
    [`PUT ${url}`]: (request) => ({
      body: { value: request.body, updatedAt: "2025-11-20T09:30:00.000Z", updatedByName: "Ada" },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<AutoCloseSettingsPanel />);
  return { server, user: userEvent.setup() };
}

describe("Admin settings › Auto-close", () => {
  it("shows the stored setting, saves a change and says so", async () => {
    const { server, user } = setup();
    const days = await screen.findByLabelText("Days without activity");
    expect(days).toHaveValue(7);
    const toggle = screen.getByRole("switch", { name: "Close resolved tickets automatically" });
    expect(toggle).toHaveAttribute("aria-checked", "true");

    await user.clear(days);
    await user.type(days, "3");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT")).toEqual([
      expect.objectContaining({ body: { enabled: true, days: 3 } }),
    ]);

    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-checked", "false");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await vi.waitFor(() =>
      expect(server.calls.filter((call) => call.method === "PUT").at(-1)?.body).toEqual({
        enabled: false,
        days: 3,
      }),
    );
  });

  it("shows a wrong number of days at the field and sends nothing", async () => {
    const { server, user } = setup();
    const days = await screen.findByLabelText("Days without activity");
    await user.clear(days);
    await user.type(days, "0");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Days must be a whole number from 1 to 365")).toBeInTheDocument();
    expect(days).toHaveAttribute("aria-invalid", "true");
    expect(server.calls.some((call) => call.method === "PUT")).toBe(false);
  });
});
