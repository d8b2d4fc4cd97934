import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { emptySummary, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import TechnicianHomePage from "./technician-home.tsx";

function setup(path: string) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" }) },
    "GET /api/tickets/summary": { body: emptySummary },
    "GET /api/tickets": ({ url }) => ({
      body: {
        items: [makeTicket({ title: `Scope ${new URL(url, "http://localhost").searchParams.get("scope")}` })],
        nextCursor: null,
      },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const { router } = renderWithApp(<TechnicianHomePage />, { path });
  return { router, server, user: userEvent.setup() };
}

const selectedTab = () => screen.getAllByRole("tab").find((tab) => tab.ariaSelected === "true")?.textContent;

describe("TechnicianHomePage", () => {
  it("opens the tab the address names: a reload or a shared link of ?tab=mine shows My Tickets", async () => {
    const { server } = setup("/technician-home?tab=mine");
    expect(await screen.findByText("Scope mine")).toBeInTheDocument();
    expect(selectedTab()).toBe("My Tickets");
    expect(server.calls.map((call) => call.url)).not.toContain("/api/tickets?scope=visible");
  });

  it("puts the chosen tab in the address, keeping the order, and All Tickets is the address without it", async () => {
    const { router, user } = setup("/technician-home?sort=priority&dir=desc");
    expect(await screen.findByText("Scope visible")).toBeInTheDocument();
    expect(selectedTab()).toBe("All Tickets");

    await user.click(screen.getByRole("tab", { name: "Unassigned" }));
    expect(await screen.findByText("Scope unassigned")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?sort=priority&dir=desc&tab=unassigned");

    await user.click(screen.getByRole("tab", { name: "All Tickets" }));
    await waitFor(() => expect(router.state.location.search).toBe("?sort=priority&dir=desc"));
    expect(selectedTab()).toBe("All Tickets");
  });

  it("shows All Tickets for a tab it does not know", async () => {
    setup("/technician-home?tab=everything");
    expect(await screen.findByText("Scope visible")).toBeInTheDocument();
    expect(selectedTab()).toBe("All Tickets");
  });
});
