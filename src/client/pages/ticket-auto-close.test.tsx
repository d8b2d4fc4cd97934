import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { formatDateTime } from "#client/lib/format.ts";
import { makeActivity, makeEvent, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import TicketPage from "./ticket.tsx";

// Decision 021: while a ticket is Resolved, its creator is told when it closes by itself.

const ticketId = "TKT0M5ABCDEF1234567";
const creator = makeMe({ id: "user-1", name: "Ada Lovelace", role: "user" });
const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });
const closesAt = "2025-11-27T09:30:00.000Z";

function setup(me: Me, ticket: Ticket, activity = makeActivity()) {
  const server = stubFetch({
    "GET /api/me": { body: me },
    [`GET /api/tickets/${ticketId}`]: { body: ticket },
    [`GET /api/tickets/${ticketId}/activity`]: { body: activity },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<p>Elsewhere</p>, {
    path: `/tickets/${ticketId}`,
    routes: { "/tickets/:ticketId": <TicketPage /> },
  });
}

const resolved = makeTicket({
  ticketId,
  status: "Resolved",
  assignedTo: "tech-1",
  assignedToName: "Theo Tech",
  autoCloseAt: closesAt,
});

describe("the auto-close notice", () => {
  it("tells the creator the date and how to keep the ticket open, beside Rate & Feedback", async () => {
    setup(creator, resolved);
    const notice = await screen.findByText(/This ticket will close automatically on/);
    expect(notice).toHaveTextContent(
      `This ticket will close automatically on ${formatDateTime(closesAt)} unless you reply or rate it.`,
    );
    expect(screen.getByRole("heading", { name: "Rate & Feedback" })).toBeInTheDocument();
  });

  it("shows staff the date too", async () => {
    setup(technician, resolved);
    expect(await screen.findByText(/Closes automatically on/)).toHaveTextContent(
      `Closes automatically on ${formatDateTime(closesAt)} unless the creator replies or rates it.`,
    );
  });

  it("says nothing when the ticket will not close by itself (auto-close off, or not Resolved)", async () => {
    setup(creator, makeTicket({ ticketId, status: "Resolved", autoCloseAt: null }));
    expect(await screen.findByRole("heading", { name: "Rate & Feedback" })).toBeInTheDocument();
    expect(screen.queryByText(/close automatically/i)).not.toBeInTheDocument();
  });

  it("shows the automatic close in the timeline as nobody's act, with the days it waited", async () => {
    setup(
      creator,
      makeTicket({ ticketId, status: "Closed" }),
      makeActivity({
        events: [
          makeEvent({ id: "e1", type: "created" }),
          makeEvent({
            id: "e2",
            type: "auto_closed",
            actorId: null,
            actorName: null,
            fromStatus: "Resolved",
            toStatus: "Closed",
            idleDays: 7,
          }),
        ],
      }),
    );
    const entry = await screen.findByText(/Closed automatically after 7 days without activity/);
    expect(entry.closest("p")).toHaveTextContent(
      "Closed automatically after 7 days without activity·Resolved → Closed",
    );
    expect(entry.closest("p")).not.toHaveTextContent("Someone");
  });
});
