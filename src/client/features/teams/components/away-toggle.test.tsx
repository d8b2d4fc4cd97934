import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import ProfilePage from "#client/pages/profile.tsx";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Role } from "#shared/users/roles.ts";

// Decision 073: a technician marks themselves away, and back, on their profile.

function setup(role: Role = "technician", awaySince: string | null = null) {
  let me = makeMe({ role, awaySince });
  const server = stubFetch({
    "GET /api/me": () => ({ body: me }),
    "GET /api/me/notification-settings": { status: 404, body: { code: "not_found", message: "none" } },
    "PUT /api/me/away": ({ body }) => {
      const { away } = body as { away: boolean };
      me = { ...me, awaySince: away ? "2030-01-07T09:00:00.000Z" : null };
      return { body: me };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<ProfilePage />, { path: "/profile" });
  const awayCalls = () => server.calls.filter((call) => call.url === "/api/me/away");
  return { awayCalls, user: userEvent.setup() };
}

describe("the away toggle", () => {
  it("marks a technician away and back, saying so", async () => {
    const { awayCalls, user } = setup();
    const toggle = await screen.findByRole("switch", { name: "Away" });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByText("You are marked away")).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole("switch", { name: "Away" })).toBeChecked());
    expect(screen.getByText(/Away since .*: your teams give you no new tickets/)).toBeInTheDocument();

    await user.click(screen.getByRole("switch", { name: "Away" }));
    expect(await screen.findByText("Welcome back")).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.getByRole("switch", { name: "Away" })).not.toBeChecked());
    expect(awayCalls().map((call) => call.body)).toEqual([{ away: true }, { away: false }]);
  });

  it("shows a technician who is away as away", async () => {
    setup("technician", "2030-01-07T09:00:00.000Z");
    expect(await screen.findByRole("switch", { name: "Away" })).toBeChecked();
  });

  it.each(["user", "admin"] as const)("is not offered to a %s", async (role) => {
    setup(role);
    expect(await screen.findByRole("heading", { name: "My Profile" })).toBeInTheDocument();
    expect(screen.queryByRole("switch", { name: "Away" })).not.toBeInTheDocument();
  });
});
