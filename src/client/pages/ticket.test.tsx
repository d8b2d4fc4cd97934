import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeActivity, makeEvent, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Me } from "#shared/users/user.schemas.ts";
import TicketPage from "./ticket.tsx";

const ticketId = "TKT0M5ABCDEF1234567";
const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });
const admin = makeMe({ id: "admin-1", name: "Ada Admin", role: "admin" });

function setup(me: Me, routes: Parameters<typeof stubFetch>[0]) {
  const server = stubFetch({
    "GET /api/me": { body: me },
    [`GET /api/tickets/${ticketId}/activity`]: { body: makeActivity() },
    ...routes,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<p>Elsewhere</p>, {
    path: `/tickets/${ticketId}`,
    routes: { "/tickets/:ticketId": <TicketPage /> },
  });
  return { server, user: userEvent.setup() };
}

describe("TicketPage", () => {
  it("shows every field, both names, the times, the comments and the timeline", async () => {
    const ticket = makeTicket({
      status: "Resolved",
      priority: "High",
      category: "Network",
      department: "Finance",
      floor: "3",
      officeNumber: "301",
      assignedTo: "tech-1",
      assignedToName: "Theo Tech",
    });
    setup(admin, {
      [`GET /api/tickets/${ticketId}`]: { body: ticket },
      [`GET /api/tickets/${ticketId}/activity`]: {
        body: makeActivity({
          comments: [
            {
              commentId: "CMT1",
              ticketId,
              authorId: "tech-1",
              authorName: "Theo Tech",
              message: "Swapped the cable.",
              isInternal: false,
              timestamp: "2025-11-20T11:00:00.000Z",
              attachments: [],
            },
          ],
          events: [
            makeEvent({ id: "e1", type: "created" }),
            makeEvent({
              id: "e2",
              type: "assigned",
              actorId: "tech-1",
              actorName: "Theo Tech",
              fromStatus: "Open",
              toStatus: "In Progress",
            }),
            makeEvent({ id: "e3", type: "commented", actorName: "Theo Tech", message: "Swapped the cable." }),
            makeEvent({
              id: "e4",
              type: "status_changed",
              actorName: "Theo Tech",
              fromStatus: "In Progress",
              toStatus: "Resolved",
            }),
          ],
        }),
      },
    });

    expect(await screen.findByRole("heading", { level: 1, name: ticket.title })).toBeInTheDocument();
    expect(screen.getByText(ticket.description)).toBeInTheDocument();
    const details = screen.getByRole("heading", { name: "Details" }).parentElement!;
    for (const [label, value] of [
      ["Status", "Resolved"],
      ["Priority", "High priority"],
      ["Category", "Network"],
      ["Department", "Finance"],
      ["Floor", "3"],
      ["Office Number", "301"],
      ["Created by", "Ada Lovelace"],
      ["Assigned to", "Theo Tech"],
    ]) {
      expect(within(details).getByText(label!).nextElementSibling).toHaveTextContent(value!);
    }
    expect(within(details).getByText("Created").nextElementSibling?.querySelector("time")).toHaveAttribute(
      "datetime",
      ticket.createdAt,
    );

    const comments = screen.getByRole("region", { name: /Comments/ });
    expect(await within(comments).findByText("Swapped the cable.")).toBeInTheDocument();
    expect(within(comments).getByText("Theo Tech")).toBeInTheDocument();

    const timeline = await screen.findByRole("list", { name: "Ticket activity" });
    const items = within(timeline).getAllByRole("listitem");
    expect(items.map((item) => item.querySelector("p")?.textContent)).toEqual([
      "Ada Lovelace·created the ticket",
      "Theo Tech·assigned it to themself·Open → In Progress",
      "Theo Tech·commented",
      "Theo Tech·In Progress → Resolved",
    ]);
  });

  it("shows the escalation job's warning and breach on the timeline without a person, as what happened to the target", async () => {
    setup(technician, {
      [`GET /api/tickets/${ticketId}`]: { body: makeTicket({ status: "Open" }) },
      [`GET /api/tickets/${ticketId}/activity`]: {
        body: makeActivity({
          events: [
            makeEvent({ id: "e1", type: "created" }),
            makeEvent({
              id: "e2",
              type: "sla_warning",
              actorId: null,
              actorName: null,
              slaTarget: "first_response",
              dueAt: "2025-11-20T10:30:00.000Z",
              at: "2025-11-20T10:18:00.000Z",
            }),
            makeEvent({
              id: "e3",
              type: "sla_breached",
              actorId: null,
              actorName: null,
              slaTarget: "first_response",
              dueAt: "2025-11-20T10:30:00.000Z",
              at: "2025-11-20T10:30:00.000Z",
            }),
          ],
        }),
      },
    });

    const timeline = await screen.findByRole("list", { name: "Ticket activity" });
    const items = within(timeline).getAllByRole("listitem");
    expect(items.map((item) => item.querySelector("p")?.textContent)).toEqual([
      "Ada Lovelace·created the ticket",
      "First response due in 12m",
      "First response target missed",
    ]);
  });

  it("shows staff an internal note distinctly, with the Internal note toggle; a user gets no toggle", async () => {
    const ticket = makeTicket({ status: "In Progress", assignedTo: "tech-1", assignedToName: "Theo Tech" });
    const note = {
      commentId: "CMT2",
      ticketId,
      authorId: "tech-1",
      authorName: "Theo Tech",
      message: "Vendor case 4711 opened.",
      isInternal: true,
      timestamp: "2025-11-20T11:00:00.000Z",
      attachments: [],
    };
    setup(technician, {
      [`GET /api/tickets/${ticketId}`]: { body: ticket },
      [`GET /api/tickets/${ticketId}/activity`]: {
        body: makeActivity({
          comments: [note],
          events: [
            makeEvent({ id: "e1", type: "internal_note", actorName: "Theo Tech", message: note.message }),
          ],
        }),
      },
    });
    const comments = await screen.findByRole("region", { name: /Comments/ });
    const item = (await within(comments).findByText("Vendor case 4711 opened.")).closest("article")!;
    expect(within(item).getByText("Internal note — not visible to the requester")).toBeInTheDocument();
    expect(item).toHaveClass("bg-amber-50");
    expect(within(comments).getByRole("checkbox", { name: "Internal note" })).toBeInTheDocument();
    const timeline = await screen.findByRole("list", { name: "Ticket activity" });
    expect(within(timeline).getByText("added an internal note")).toBeInTheDocument();
  });

  it("offers a user no Internal note toggle on their ticket", async () => {
    const ticket = makeTicket({ createdBy: "user-1" });
    setup(makeMe(), { [`GET /api/tickets/${ticketId}`]: { body: ticket } });
    const comments = await screen.findByRole("region", { name: /Comments/ });
    expect(await within(comments).findByLabelText("Add a comment")).toBeInTheDocument();
    expect(within(comments).queryByRole("checkbox", { name: "Internal note" })).not.toBeInTheDocument();
  });

  it("assigns the ticket to the technician and shows them as its assignee", async () => {
    const ticket = makeTicket({ status: "Open" });
    const { user } = setup(technician, {
      [`GET /api/tickets/${ticketId}`]: { body: ticket },
      [`POST /api/tickets/${ticketId}/assign`]: {
        body: { ...ticket, status: "In Progress", assignedTo: "tech-1", assignedToName: "Theo Tech" },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Assign to Me" }));
    // The button goes away with the ticket's new state; the toast must come all the same.
    expect(await screen.findByText("Ticket assigned successfully")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Assign to Me" })).not.toBeInTheDocument();
    const details = screen.getByRole("heading", { name: "Details" }).parentElement!;
    expect(within(details).getByText("Assigned to").nextElementSibling).toHaveTextContent("Theo Tech");
    expect(within(details).getByText("Status").nextElementSibling).toHaveTextContent("In Progress");
  });

  it("closes the ticket, announces it and offers no status button afterwards", async () => {
    const ticket = makeTicket({ status: "Resolved", assignedTo: "tech-1", assignedToName: "Theo Tech" });
    const { server, user } = setup(admin, {
      [`GET /api/tickets/${ticketId}`]: { body: ticket },
      [`PATCH /api/tickets/${ticketId}/status`]: { body: { ...ticket, status: "Closed" } },
    });
    await user.click(await screen.findByRole("button", { name: "Closed" }));
    expect(await screen.findByText("Ticket status updated to Closed")).toBeInTheDocument();
    expect(screen.queryByRole("group", { name: "Change status" })).not.toBeInTheDocument();
    expect(server.calls.find((call) => call.method === "PATCH")?.body).toEqual({ status: "Closed" });
  });

  it("tells the technician who lost the Assign to Me race, and reads the ticket again", async () => {
    let isTaken = false;
    const { server, user } = setup(technician, {
      [`GET /api/tickets/${ticketId}`]: () =>
        isTaken
          ? { status: 404, body: { code: "not_found", message: `Ticket ${ticketId} not found` } }
          : { body: makeTicket({ status: "Open" }) },
      [`POST /api/tickets/${ticketId}/assign`]: () => {
        isTaken = true;
        return {
          status: 409,
          body: { code: "conflict", message: "This ticket was just assigned to someone else." },
        };
      },
    });

    await user.click(await screen.findByRole("button", { name: "Assign to Me" }));
    expect(await screen.findByText("Failed to assign ticket")).toBeInTheDocument();
    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "This ticket was just assigned to someone else.",
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Assign to Me" })).not.toBeInTheDocument();
    expect(server.calls.filter((call) => call.url === `/api/tickets/${ticketId}`)).toHaveLength(2);
  });

  it("says another technician took the ticket when the server no longer shows it (404) after Assign to Me", async () => {
    let isTaken = false;
    const { user } = setup(technician, {
      [`GET /api/tickets/${ticketId}`]: () =>
        isTaken
          ? { status: 404, body: { code: "not_found", message: `Ticket ${ticketId} not found` } }
          : { body: makeTicket({ status: "Open" }) },
      [`POST /api/tickets/${ticketId}/assign`]: () => {
        isTaken = true;
        return { status: 404, body: { code: "not_found", message: `Ticket ${ticketId} not found` } };
      },
    });

    await user.click(await screen.findByRole("button", { name: "Assign to Me" }));
    expect(
      await screen.findByRole("heading", {
        level: 1,
        name: "This ticket was just assigned to another technician.",
      }),
    ).toBeInTheDocument();
  });

  it("shows the winner when the ticket is still visible after a refused change", async () => {
    let isClosed = false;
    const ticket = makeTicket({ status: "Resolved", assignedTo: "tech-1", assignedToName: "Theo Tech" });
    const { user } = setup(admin, {
      [`GET /api/tickets/${ticketId}`]: () => ({ body: isClosed ? { ...ticket, status: "Closed" } : ticket }),
      [`PATCH /api/tickets/${ticketId}/status`]: () => {
        isClosed = true;
        return {
          status: 409,
          body: { code: "conflict", message: "This ticket was closed while you were changing it." },
        };
      },
    });

    await user.click(await screen.findByRole("button", { name: "In Progress" }));
    expect(await screen.findByText("Failed to update ticket status")).toBeInTheDocument();
    expect(
      await screen.findByText("This ticket is closed; its status can no longer change."),
    ).toBeInTheDocument();
    const alert = screen
      .getAllByRole("alert")
      .find((element) => element.textContent === "This ticket was closed while you were changing it.");
    expect(alert).toBeDefined();
    expect(screen.queryByRole("group", { name: "Change status" })).not.toBeInTheDocument();
  });

  it("says a ticket the person may not see is not found", async () => {
    setup(makeMe(), {
      [`GET /api/tickets/${ticketId}`]: {
        status: 404,
        body: { code: "not_found", message: `Ticket ${ticketId} not found` },
      },
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Ticket not found" })).toBeInTheDocument();
  });
});
