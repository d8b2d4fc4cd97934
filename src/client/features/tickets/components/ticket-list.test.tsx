import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { activateLocale } from "#client/lib/i18n.ts";
import { makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch, waitForActor } from "#client/test/render.tsx";
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
    for (const text of ["TKT0M5AAAAAA0000001A", "In Progress", "Software", "Grace Hopper"]) {
      expect(within(first).getByText(text)).toBeInTheDocument();
    }
    // "High" on a phone, "High priority" from the sm width up (and always for screen readers).
    expect(first).toHaveTextContent("High priority");
    const second = screen.getByRole("link", { name: /Printer jams/ });
    expect(within(second).getByText("Unassigned")).toBeInTheDocument();
    expect(within(second).getByText("Open")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });

  it("shows a ticket's tags as badges on the row when the answer carries them (staff, decision 071)", async () => {
    const tickets = [
      makeTicket({ ticketId: "TKT0M5AAAAAA0000001A", title: "VPN drops", tags: ["network", "vpn"] }),
      makeTicket({ ticketId: "TKT0M5AAAAAA0000002B", title: "Printer jams", tags: null }),
    ];
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "GET /api/me": { body: makeMe({ role: "technician" }) },
        "GET /api/tickets": { body: { items: tickets, nextCursor: null } },
      }).fetchStub,
    );
    renderWithApp(<TicketList filters={{ scope: "visible", tag: "vpn" }} />);
    const tagged = await screen.findByRole("link", { name: /VPN drops/ });
    expect(within(tagged).getByText("network")).toBeInTheDocument();
    expect(within(tagged).getByText("vpn")).toBeInTheDocument();
    expect(tagged).toHaveTextContent("Tags:");
    expect(screen.getByRole("link", { name: /Printer jams/ })).not.toHaveTextContent("Tags:");
  });

  it("names the priority in the reader's language", async () => {
    await activateLocale("de");
    try {
      const ticket = makeTicket({ title: "Drucker offline", priority: "High", category: "Hardware" });
      vi.stubGlobal(
        "fetch",
        stubFetch({
          "GET /api/me": { body: makeMe() },
          "GET /api/tickets": { body: { items: [ticket], nextCursor: null } },
        }).fetchStub,
      );
      renderWithApp(<TicketList filters={{ scope: "visible" }} />);
      const row = await screen.findByRole("link", { name: /Drucker offline/ });
      // "Hoch" on a phone, "Priorität Hoch" from the sm width up and for screen readers.
      expect(within(row).getByText("Hoch")).toHaveAttribute("aria-hidden", "true");
      expect(within(row).getByText("Priorität Hoch")).toBeInTheDocument();
      expect(row).not.toHaveTextContent(/High|priority/);
    } finally {
      await activateLocale("en");
    }
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

describe("TicketList rows, count and order", () => {
  it("shows who raised each ticket, their department and office, and how many tickets match", async () => {
    const tickets = [
      makeTicket({
        title: "VPN drops",
        createdByName: "Rita Requester",
        department: "Finance",
        floor: "3",
        officeNumber: "301",
      }),
    ];
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "GET /api/tickets": {
          body: { items: tickets, nextCursor: "c1", total: { count: 1234, capped: false } },
        },
      }).fetchStub,
    );
    renderWithApp(<TicketList filters={{ scope: "visible" }} />);
    const row = await screen.findByRole("link", { name: /VPN drops/ });
    expect(within(row).getByText("Rita Requester")).toBeInTheDocument();
    expect(within(row).getByText("Finance, floor 3, office 301")).toBeInTheDocument();
    expect(screen.getByText("1,234 tickets")).toBeInTheDocument();
    // No Sort control unless the page keeps an order.
    expect(screen.queryByLabelText("Sort by")).not.toBeInTheDocument();
  });

  it.each([
    [{ count: 1, capped: false }, "1 ticket"],
    [{ count: 0, capped: false }, "0 tickets"],
    [{ count: 10000, capped: true }, "10,000+ tickets"],
  ])("counts %j as %s", async (total, text) => {
    vi.stubGlobal(
      "fetch",
      stubFetch({ "GET /api/tickets": { body: { items: [makeTicket()], nextCursor: null, total } } })
        .fetchStub,
    );
    renderWithApp(<TicketList filters={{ scope: "visible" }} />);
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it("asks for the order it is given and reports a new choice", async () => {
    const server = stubFetch({
      "GET /api/tickets": {
        body: { items: [makeTicket()], nextCursor: null, total: { count: 1, capped: false } },
      },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    const onSortChange = vi.fn();
    const user = userEvent.setup();
    renderWithApp(
      <TicketList filters={{ scope: "mine", sort: "status", dir: "asc" }} onSortChange={onSortChange} />,
    );
    const sort = await screen.findByLabelText("Sort by");
    expect(sort).toHaveValue("status.asc");
    expect(server.calls.map((call) => call.url)).toContain("/api/tickets?scope=mine&sort=status&dir=asc");
    await user.selectOptions(sort, "Recently updated");
    expect(onSortChange).toHaveBeenCalledWith("updated.desc");
  });
});

describe("TicketList bulk actions", () => {
  const tickets = [
    makeTicket({ ticketId: "TKT0M5AAAAAA0000001A", title: "Laptop will not boot" }),
    makeTicket({ ticketId: "TKT0M5AAAAAA0000002B", title: "Printer jams", status: "Closed" }),
  ];

  it("gives users no checkboxes", async () => {
    const me = makeMe({ role: "user" });
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "GET /api/me": { body: me },
        "GET /api/tickets": { body: { items: tickets, nextCursor: null } },
      }).fetchStub,
    );
    renderWithApp(<TicketList filters={{ scope: "visible" }} />, { showActor: true });
    await screen.findByRole("link", { name: /Printer jams/ });
    await waitForActor(me);
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
  it("applies a macro to the selected tickets and says which were refused and why (decision 075)", async () => {
    const macroId = "mac_00000000-0000-4000-8000-000000000001";
    const server = stubFetch({
      "GET /api/me": { body: makeMe({ id: "tech-1", role: "technician" }) },
      "GET /api/technicians": { body: [] },
      "GET /api/macros": { body: { items: [{ id: macroId, title: "VPN known issue" }] } },
      "GET /api/tickets": { body: { items: tickets, nextCursor: null } },
      "POST /api/tickets/bulk/macro": {
        body: {
          changed: ["TKT0M5AAAAAA0000001A"],
          refused: [
            {
              ticketId: "TKT0M5AAAAAA0000002B",
              message: "Status: This ticket is closed; its status can no longer change.",
            },
          ],
        },
      },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<TicketList filters={{ scope: "visible" }} />);

    await user.click(await screen.findByRole("checkbox", { name: "Select all" }));
    await user.selectOptions(
      screen.getByLabelText("Action for the selected tickets"),
      await screen.findByRole("option", { name: "Apply macro: VPN known issue" }),
    );
    await user.click(screen.getByRole("button", { name: "Apply" }));

    const outcome = await screen.findByRole("status");
    expect(outcome).toHaveTextContent("1 ticket changed; 1 not:");
    expect(outcome).toHaveTextContent("TKT0M5AAAAAA0000002B: Status: This ticket is closed");
    expect(server.calls.find((call) => call.url === "/api/tickets/bulk/macro")?.body).toEqual({
      ticketIds: ["TKT0M5AAAAAA0000001A", "TKT0M5AAAAAA0000002B"],
      macroId,
    });
    expect(server.calls.some((call) => call.url === "/api/tickets/bulk")).toBe(false);
  });
});
