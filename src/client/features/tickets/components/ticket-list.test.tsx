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
    // The list also asks who is signed in (staff get checkboxes); only the ticket calls matter here.
    const ticketCalls = () => server.calls.filter((call) => call.url.startsWith("/api/tickets"));
    expect(ticketCalls()[0]?.url).toBe("/api/tickets?scope=unassigned");
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("Older ticket")).toBeInTheDocument();
    expect(ticketCalls()[1]?.url).toBe("/api/tickets?scope=unassigned&cursor=c1");
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

describe("TicketList bulk actions", () => {
  const tickets = [
    makeTicket({ ticketId: "TKT0M5AAAAAA0000001A", title: "Laptop will not boot" }),
    makeTicket({ ticketId: "TKT0M5AAAAAA0000002B", title: "Printer jams", status: "Closed" }),
  ];

  it("gives users no checkboxes", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "GET /api/me": { body: makeMe({ role: "user" }) },
        "GET /api/tickets": { body: { items: tickets, nextCursor: null } },
      }).fetchStub,
    );
    renderWithApp(<TicketList filters={{ scope: "visible" }} />);
    await screen.findByRole("link", { name: /Printer jams/ });
    expect(screen.queryByRole("checkbox")).not.toBeInTheDocument();
  });

  it("lets staff select all, apply one status, and says what changed and why the rest did not", async () => {
    const server = stubFetch({
      "GET /api/me": { body: makeMe({ id: "tech-1", role: "technician" }) },
      "GET /api/technicians": { body: [] },
      "GET /api/tickets": { body: { items: tickets, nextCursor: null } },
      "POST /api/tickets/bulk": {
        body: {
          changed: ["TKT0M5AAAAAA0000001A"],
          refused: [
            {
              ticketId: "TKT0M5AAAAAA0000002B",
              message: "This ticket is closed; its status can no longer change.",
            },
          ],
        },
      },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<TicketList filters={{ scope: "visible" }} />);

    await user.click(await screen.findByRole("checkbox", { name: "Select all" }));
    expect(screen.getByRole("checkbox", { name: /Select TKT0M5AAAAAA0000001A/ })).toBeChecked();
    expect(screen.getByText("2 selected")).toBeInTheDocument();
    await user.selectOptions(
      screen.getByLabelText("Action for the selected tickets"),
      "Set status: Resolved",
    );
    await user.click(screen.getByRole("button", { name: "Apply" }));

    const outcome = await screen.findByRole("status");
    expect(outcome).toHaveTextContent("1 ticket changed; 1 not:");
    expect(outcome).toHaveTextContent(
      "TKT0M5AAAAAA0000002B: This ticket is closed; its status can no longer change.",
    );
    expect(server.calls.find((call) => call.url === "/api/tickets/bulk")?.body).toEqual({
      ticketIds: ["TKT0M5AAAAAA0000001A", "TKT0M5AAAAAA0000002B"],
      action: { kind: "status", status: "Resolved" },
    });
    expect(screen.getByText("0 selected")).toBeInTheDocument();
  });
});
