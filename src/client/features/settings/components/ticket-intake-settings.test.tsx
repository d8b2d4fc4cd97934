import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { TicketIntakeSettingsPanel } from "./ticket-intake-settings.tsx";

const url = "/api/admin/settings/ticket-intake";

describe("Admin settings › Ticket intake (decision 079)", () => {
  it("shows inviting unknown requesters off by default, turns it on and says so", async () => {
    const server = stubFetch({
      "GET /api/me": { body: makeMe({ role: "admin" }) },
      [`GET ${url}`]: {
        body: { value: { inviteUnknownRequesters: false }, updatedAt: null, updatedByName: null },
      },
      [`PUT ${url}`]: (request) => ({
        body: { value: request.body, updatedAt: "2025-11-20T09:30:00.000Z", updatedByName: "Ada" },
      }),
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<TicketIntakeSettingsPanel />);
    const user = userEvent.setup();
    const toggle = await screen.findByRole("switch", { name: "Invite unknown requesters as new users" });
    expect(toggle).toHaveAttribute("aria-checked", "false");

    await user.click(toggle);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT")).toEqual([
      expect.objectContaining({ body: { inviteUnknownRequesters: true } }),
    ]);
  });
});
