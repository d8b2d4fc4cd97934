import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe, makeTicket } from "../../../test/fixtures.ts";
import { renderWithApp, stubFetch } from "../../../test/render.tsx";
import { TicketList } from "./ticket-list.tsx";

describe("TicketList", () => {
  it("shows each ticket's id, title, status, priority, category and assignee, linking to the ticket", async () => {
    const tickets = [
      makeTicket({
        ticketId: "TKT0M5AAAAAA0000001A",
        title: "Laptop will not boot",
        status: "In Progress",
        priority: "High",
        category: "Software",
        assignedTo: "tech-1",
        assignedToName: "Grace Hopper",
      }),
      makeTicket({ ticketId: "TKT0M5AAAAAA0000002B", title: "Printer jams" }),
    ];
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "GET /api/me": { body: makeMe() },
        "GET /api/tickets": { body: { items: tickets, nextCursor: null } },
      }).fetchStub,
    );
    renderWithApp(<TicketList filters={{ scope: "visible" }} />);

    const first = await screen.findByRole("link", { name: /Laptop will not boot/ });
    expect(first).toHaveAttribute("href", "/tickets/TKT0M5AAAAAA0000001A");
    for (const text of ["TKT0M5AAAAAA0000001A", "In Progress", "High priority", "Software", "Grace Hopper"]) {
      expect(within(first).getByText(text)).toBeInTheDocument();
    }
    const second = screen.getByRole("link", { name: /Printer jams/ });
    expect(within(second).getByText("Unassigned")).toBeInTheDocument();
    expect(within(second).getByText("Open")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });

  it("asks for the chosen scope and loads the next page with the cursor", async () => {
    const server = stubFetch({
      "GET /api/tickets": ({ url }) =>
        url.includes("cursor=c1")
          ? {
              body: {
                items: [makeTicket({ ticketId: "TKT0M5AAAAAA0000002B", title: "Older ticket" })],
                nextCursor: null,
              },
            }
          : { body: { items: [makeTicket({ title: "Newer ticket" })], nextCursor: "c1" } },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<TicketList filters={{ scope: "unassigned" }} />);

    await screen.findByText("Newer ticket");
    expect(server.calls[0]?.url).toBe("/api/tickets?scope=unassigned");
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("Older ticket")).toBeInTheDocument();
    expect(server.calls[1]?.url).toBe("/api/tickets?scope=unassigned&cursor=c1");
    expect(screen.getByText("Newer ticket")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });

  it("shows the empty state it is given", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({ "GET /api/tickets": { body: { items: [], nextCursor: null } } }).fetchStub,
    );
    renderWithApp(<TicketList filters={{ scope: "visible" }} emptyState={<p>No tickets yet</p>} />);
    expect(await screen.findByText("No tickets yet")).toBeInTheDocument();
  });

  it("announces a failed load", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({ "GET /api/tickets": { status: 500, body: { code: "internal", message: "Boom" } } })
        .fetchStub,
    );
    renderWithApp(<TicketList filters={{ scope: "visible" }} />);
    expect(await screen.findByText("Failed to load tickets. Please try again.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("uses the screen's own wording for a failed load (technician dashboard)", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({ "GET /api/tickets": { status: 500, body: { code: "internal", message: "Boom" } } })
        .fetchStub,
    );
    renderWithApp(
      <TicketList
        filters={{ scope: "visible" }}
        loadErrorMessage="Error loading tickets. Please refresh the page."
      />,
    );
    expect(await screen.findByText("Error loading tickets. Please refresh the page.")).toBeInTheDocument();
  });
});
