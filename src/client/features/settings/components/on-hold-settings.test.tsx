import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { OnHoldSettingsPanel } from "./on-hold-settings.tsx";

const url = "/api/admin/settings/on-hold";

function setup() {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin" }) },
    [`GET ${url}`]: {
      body: { value: { autoResolve: false, businessDays: 5 }, updatedAt: null, updatedByName: null },
    },
    [`PUT ${url}`]: (request) => ({
      body: { value: request.body, updatedAt: "2025-11-20T09:30:00.000Z", updatedByName: "Ada" },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<OnHoldSettingsPanel />);
  return { server, user: userEvent.setup() };
}

describe("Admin settings › On hold (decision 070)", () => {
  it("shows auto-resolve off by default, turns it on with the business days and says so", async () => {
    const { server, user } = setup();
    const days = await screen.findByLabelText("Business days on hold");
    expect(days).toHaveValue(5);
    const toggle = screen.getByRole("switch", { name: "Resolve tickets on hold automatically" });
    expect(toggle).toHaveAttribute("aria-checked", "false");

    await user.click(toggle);
    await user.clear(days);
    await user.type(days, "3");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT")).toEqual([
      expect.objectContaining({ body: { autoResolve: true, businessDays: 3 } }),
    ]);
  });

  it("shows a wrong number of days at the field and sends nothing", async () => {
    const { server, user } = setup();
    const days = await screen.findByLabelText("Business days on hold");
    await user.clear(days);
    await user.type(days, "61");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Business days must be a whole number from 1 to 60")).toBeInTheDocument();
    expect(server.calls.some((call) => call.method === "PUT")).toBe(false);
  });
});
