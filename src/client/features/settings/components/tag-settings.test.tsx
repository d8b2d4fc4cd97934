import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { TagSettingsPanel } from "./tag-settings.tsx";

const url = "/api/admin/settings/tags";

function setup() {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin" }) },
    [`GET ${url}`]: { body: { value: { fixed: false, allowed: [] }, updatedAt: null, updatedByName: null } },
    [`PUT ${url}`]: (request) => {
      const { fixed, allowed } = request.body as { fixed: boolean; allowed: string[] };
      return {
        body: {
          value: { fixed, allowed: [...new Set(allowed)] },
          updatedAt: "2025-11-20T09:30:00.000Z",
          updatedByName: "Ada",
        },
      };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<TagSettingsPanel />);
  return { server, user: userEvent.setup() };
}

describe("Admin settings › Tags (decision 071)", () => {
  it("turns the fixed list on with its tags, one a line, normalised before they are sent", async () => {
    const { server, user } = setup();
    const list = await screen.findByLabelText("Allowed tags, one a line");
    const toggle = screen.getByRole("switch", { name: "Allow only the listed tags" });
    expect(toggle).toHaveAttribute("aria-checked", "false");
    await user.click(toggle);
    await user.type(list, "VPN{enter}  Printer  {enter}{enter}vpn");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT")).toEqual([
      expect.objectContaining({ body: { fixed: true, allowed: ["vpn", "printer"] } }),
    ]);
    expect(list).toHaveValue("vpn\nprinter");
  });

  it("shows a tag that is too long at the field and sends nothing", async () => {
    const { server, user } = setup();
    const list = await screen.findByLabelText("Allowed tags, one a line");
    await user.type(list, "x".repeat(41));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("A tag must be at most 40 characters")).toBeInTheDocument();
    expect(server.calls.some((call) => call.method === "PUT")).toBe(false);
  });
});
