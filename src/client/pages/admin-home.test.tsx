import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { emptySummary, makeMe, makeTicket } from "../test/fixtures.ts";
import { renderWithApp, stubFetch } from "../test/render.tsx";
import AdminHomePage from "./admin-home.tsx";

function setup(path = "/admin-home") {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin", name: "Ada Admin" }) },
    "GET /api/tickets/summary": {
      body: { ...emptySummary, total: 9, open: 4, inProgress: 2, resolved: 2, closed: 1 },
    },
    "GET /api/tickets": ({ url }) => ({
      body: {
        items: [makeTicket({ title: url.includes("status=Open") ? "Open one" : "Any one" })],
        nextCursor: null,
      },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const { router } = renderWithApp(<p>Elsewhere</p>, { path, routes: { "/admin-home": <AdminHomePage /> } });
  return { router, server, user: userEvent.setup() };
}

describe("AdminHomePage", () => {
  it("has the tabs Overview, All Tickets and User Management, Overview first", async () => {
    setup();
    const tabs = await screen.findAllByRole("tab");
    expect(tabs.map((tab) => tab.textContent)).toEqual(["Overview", "All Tickets", "User Management"]);
    expect(screen.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");
  });

  it("shows the ticket counts and says the user counts come with user management", async () => {
    setup();
    expect(await screen.findByText("9")).toBeInTheDocument();
    for (const [label, value] of [
      ["Total Tickets", "9"],
      ["Open", "4"],
      ["In Progress", "2"],
      ["Resolved", "2"],
      ["Closed", "1"],
    ]) {
      expect(screen.getByText(label!).nextElementSibling).toHaveTextContent(value!);
    }
    expect(screen.getByText("User counts arrive with user management")).toBeInTheDocument();
  });

  it("lists all tickets and filters them by All, Open, In Progress and Resolved", async () => {
    const { router, server, user } = setup();
    await user.click(await screen.findByRole("tab", { name: "All Tickets" }));
    expect(await screen.findByText("Any one")).toBeInTheDocument();
    const filters = screen.getByRole("tablist", { name: "Filter by status" });
    expect(filters).toHaveTextContent("AllOpenIn ProgressResolved");

    await user.click(screen.getByRole("tab", { name: "Open" }));
    expect(await screen.findByText("Open one")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?tab=tickets&status=Open");
    expect(server.calls.map((call) => call.url)).toContain("/api/tickets?scope=visible&status=Open");
  });

  it("points to user management from its tab", async () => {
    const { user } = setup("/admin-home?tab=tickets");
    await user.click(await screen.findByRole("tab", { name: "User Management" }));
    expect(screen.getByRole("link", { name: "Open User Management" })).toHaveAttribute(
      "href",
      "/admin/user-management",
    );
  });
});
