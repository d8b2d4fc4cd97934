import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { rememberListSelection } from "#client/lib/list-memory.ts";
import { makeActivity, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { Comment } from "#shared/tickets/ticket-activity.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import TicketPage from "./ticket.tsx";

const ticketId = "TKT0M5ABCDEF1234567";
const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });
/** What a key did to the ticket: every change but the page saying it is there (presence, decision 072). */
const changesOf = (calls: { method: string; url: string }[]) =>
  calls.filter(
    (call) => call.method !== "GET" && !call.url.endsWith("/presence") && !call.url.includes("/presence?"),
  );

function setup(
  me: Me,
  ticket: Ticket,
  routes: Parameters<typeof stubFetch>[0] = {},
  { ticketArrives }: { ticketArrives?: Promise<void> } = {},
) {
  let current = ticket;
  const server = stubFetch({
    "GET /api/me": { body: me },
    [`GET /api/tickets/${ticketId}`]: () => ({ body: current }),
    [`GET /api/tickets/${ticketId}/activity`]: { body: makeActivity() },
    [`POST /api/tickets/${ticketId}/assign`]: () => {
      current = { ...current, assignedTo: me.id, assignedToName: me.name, status: "In Progress" };
      return { body: current };
    },
    [`PATCH /api/tickets/${ticketId}/status`]: ({ body }) => {
      current = { ...current, status: (body as { status: Ticket["status"] }).status };
      return { body: current };
    },
    ...routes,
  });
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) === `/api/tickets/${ticketId}`) await ticketArrives;
    return server.fetchStub(input, init);
  });
  const view = renderWithApp(<p>Elsewhere</p>, {
    path: `/tickets/${ticketId}`,
    routes: { "/tickets/:ticketId": <TicketPage />, "/technician-home": <p>The queue</p> },
  });
  return { server, router: view.router, user: userEvent.setup() };
}

const statusFocus = () => document.activeElement?.closest("[data-ticket-status]");

/** A slow connection: the ticket's answer is kept back until `arrive` is called. */
function slowTicket() {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  return { arrived, arrive };
}

describe("TicketPage by keyboard", () => {
  it("assigns with a, as Assign to Me does, and puts focus on the new status", async () => {
    const { server, user } = setup(technician, makeTicket());
    await screen.findByRole("button", { name: "Assign to Me" });
    await user.keyboard("a");
    expect(await screen.findByText("Ticket assigned successfully")).toBeInTheDocument();
    expect(server.calls.some((call) => call.method === "POST" && call.url.endsWith("/assign"))).toBe(true);
    await waitFor(() => expect(statusFocus()).toHaveTextContent("Status: In Progress"));
  });

  it("resolves with r and puts focus on the new status", async () => {
    const { server, user } = setup(
      technician,
      makeTicket({ status: "In Progress", assignedTo: "tech-1", assignedToName: "Theo Tech" }),
    );
    await screen.findByRole("button", { name: "Resolved" });
    await user.keyboard("r");
    expect(await screen.findByText("Ticket status updated to Resolved")).toBeInTheDocument();
    expect(server.calls.find((call) => call.method === "PATCH")?.body).toEqual({ status: "Resolved" });
    await waitFor(() => expect(statusFocus()).toHaveTextContent("Status: Resolved"));
  });

  it("does nothing with a or r for a user, whom the buttons are not offered to", async () => {
    const { server, user } = setup(makeMe(), makeTicket());
    await screen.findByRole("heading", { level: 1, name: "Printer on floor 2 jams" });
    await user.keyboard("ar");
    expect(changesOf(server.calls)).toEqual([]);
  });

  it("puts focus in the comment box with c, where letters are typed, not taken as shortcuts", async () => {
    const { server, user } = setup(
      technician,
      makeTicket({ status: "In Progress", assignedTo: "tech-1", assignedToName: "Theo Tech" }),
    );
    const box = await screen.findByLabelText("Add a comment");
    await user.keyboard("c");
    expect(box).toHaveFocus();
    await user.keyboard("ura");
    expect(box).toHaveValue("ura");
    expect(changesOf(server.calls)).toEqual([]);
  });

  it("sends a comment with Ctrl+Enter and moves focus to it, so the next shortcut works", async () => {
    let comments: Comment[] = [];
    const { user } = setup(
      technician,
      makeTicket({ status: "In Progress", assignedTo: "tech-1", assignedToName: "Theo Tech" }),
      {
        [`GET /api/tickets/${ticketId}/activity`]: () => ({ body: makeActivity({ comments }) }),
        [`POST /api/tickets/${ticketId}/comments`]: ({ body }) => {
          const comment: Comment = {
            commentId: "CMT1",
            ticketId,
            authorId: "tech-1",
            authorName: "Theo Tech",
            message: (body as { message: string }).message,
            isInternal: false,
            timestamp: "2025-11-20T10:00:00.000Z",
            attachments: [],
          };
          comments = [comment];
          return { status: 201, body: { ...comment, mentions: { notified: [], notNotified: [] } } };
        },
      },
    );
    const box = await screen.findByLabelText("Add a comment");
    await user.keyboard("c");
    await user.keyboard("Restarted it{Control>}{Enter}{/Control}");
    const posted = await screen.findByText("Restarted it");
    await waitFor(() => expect(posted.closest("li")).toHaveFocus());
    expect(box).toHaveValue("");
  });

  it("holds a pressed while the ticket loads and assigns once it is here", async () => {
    const slow = slowTicket();
    const { server, user } = setup(technician, makeTicket(), {}, { ticketArrives: slow.arrived });
    expect(await screen.findByText("Loading ticket")).toBeInTheDocument();
    await user.keyboard("a");
    expect(server.calls.filter((call) => call.method === "POST")).toEqual([]);

    slow.arrive();
    expect(await screen.findByText("Ticket assigned successfully")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "POST").map((call) => call.url)).toEqual([
      `/api/tickets/${ticketId}/assign`,
    ]);
    await waitFor(() => expect(statusFocus()).toHaveTextContent("Status: In Progress"));
  });

  it("drops a held r when the ticket turns out to be one it may not resolve", async () => {
    const slow = slowTicket();
    const { server, user } = setup(
      technician,
      makeTicket({ status: "Closed" }),
      {},
      { ticketArrives: slow.arrived },
    );
    await screen.findByText("Loading ticket");
    await user.keyboard("r");
    slow.arrive();
    await screen.findByRole("heading", { level: 1, name: "Printer on floor 2 jams" });
    // The page answers keys again (c), and the held r was dropped, not sent.
    await user.keyboard("c");
    expect(screen.getByLabelText("Add a comment")).toHaveFocus();
    expect(changesOf(server.calls)).toEqual([]);
  });

  it("goes back with u to the list the ticket was opened from", async () => {
    rememberListSelection("/technician-home", ticketId);
    const { router, user } = setup(technician, makeTicket());
    await screen.findByRole("heading", { level: 1 });
    await user.keyboard("u");
    expect(await screen.findByText("The queue")).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ fromKeyboard: true });
  });
});
