import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetPresence, receivePresence } from "#client/features/presence/presence-store.ts";
import { makeActivity, makeEvent, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { PresentPerson } from "#shared/presence/presence.schemas.ts";
import type { Comment } from "#shared/tickets/ticket-activity.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import TicketPage from "./ticket.tsx";

// Decision 072 on the ticket page: who else is on it, and a reply written while it changed.

const ticketId = "TKT0M5ABCDEF1234567";
const theo = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });
const requester = makeMe({ id: "user-1", name: "Ada Lovelace", role: "user" });
const ticket = makeTicket({
  createdBy: "user-1",
  assignedTo: "tech-1",
  assignedToName: "Theo Tech",
  status: "In Progress",
});
const presencePath = `/api/tickets/${ticketId}/presence`;
const ada: PresentPerson = { userId: "admin-1", name: "Ada Admin", state: "viewing" };
const self: PresentPerson = { userId: "tech-1", name: "Theo Tech", state: "viewing" };

afterEach(() => forgetPresence(ticketId));

function setup(me: Me, routes: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({
    "GET /api/me": { body: me },
    [`GET /api/tickets/${ticketId}`]: { body: ticket },
    [`GET /api/tickets/${ticketId}/activity`]: {
      body: makeActivity({ events: [makeEvent({ id: "EVT1" })] }),
    },
    [`PUT ${presencePath}`]: (request) => ({
      body: { ticketId, people: [ada, { ...self, state: (request.body as { state: string }).state }] },
    }),
    [`DELETE ${presencePath}`]: { status: 204 },
    ...routes,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<p>Elsewhere</p>, {
    path: `/tickets/${ticketId}`,
    routes: { "/tickets/:ticketId": <TicketPage />, "/tickets": <p>The list</p> },
  });
  const presenceCalls = () => server.calls.filter((call) => call.url.startsWith(presencePath));
  return { server, presenceCalls, user: userEvent.setup() };
}

describe("who else is on the ticket", () => {
  it("tells the server the technician is viewing, and shows who else is, politely announced", async () => {
    const { presenceCalls } = setup(theo);
    const bar = await screen.findByRole("region", { name: "Also on this ticket" });
    expect(
      within(bar)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["AAAda Admin is viewing"]);
    const [first] = presenceCalls();
    expect(first).toMatchObject({
      method: "PUT",
      body: { state: "viewing", pageId: expect.stringMatching(/^[0-9a-f]{24}$/) },
    });
    const announcer = screen
      .getAllByRole("status")
      .find((node) => node.textContent === "Ada Admin is viewing this ticket");
    expect(announcer).toBeDefined();

    // A frame from the live stream: Ada starts typing, and Ben comes.
    act(() =>
      receivePresence({
        ticketId,
        people: [{ ...ada, state: "typing" }, self, { userId: "tech-2", name: "Ben Tech", state: "viewing" }],
      }),
    );
    expect(
      within(bar)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["AAAda Admin is typing a reply…", "BTBen Tech is viewing"]);
    expect(announcer!.textContent).toBe("Ada Admin is typing a reply. Ben Tech is viewing this ticket");

    // Ada stops typing and leaves: the chips say it; the live region says nothing more.
    act(() => receivePresence({ ticketId, people: [self] }));
    expect(screen.queryByRole("region", { name: "Also on this ticket" })).not.toBeInTheDocument();
    expect(announcer!.textContent).toBe("Ada Admin is typing a reply. Ben Tech is viewing this ticket");
  });

  it("says typing while a reply is being written, and that the page left when it closes", async () => {
    const { presenceCalls, user } = setup(theo);
    await screen.findByRole("region", { name: "Also on this ticket" });
    await user.type(screen.getByLabelText(/Add a comment/), "Swapping the toner");
    await vi.waitFor(() =>
      expect(presenceCalls().map((call) => (call.body as { state?: string })?.state)).toContain("typing"),
    );
    // One request when typing starts, not one a keystroke.
    expect(
      presenceCalls().filter((call) => (call.body as { state?: string })?.state === "typing"),
    ).toHaveLength(1);
    await user.clear(screen.getByLabelText(/Add a comment/));
    await vi.waitFor(() => expect(presenceCalls().at(-1)?.body).toMatchObject({ state: "viewing" }));

    await user.click(screen.getByRole("link", { name: "Back to tickets" }));
    await screen.findByText("The list");
    const pageId = (presenceCalls()[0]!.body as { pageId: string }).pageId;
    expect(presenceCalls().at(-1)).toMatchObject({
      method: "DELETE",
      url: `${presencePath}?pageId=${pageId}`,
    });
  });

  it("neither shows nor tells presence to the requester", async () => {
    const { presenceCalls } = setup(requester);
    expect(await screen.findByRole("heading", { level: 1, name: ticket.title })).toBeInTheDocument();
    act(() => receivePresence({ ticketId, people: [ada] }));
    expect(screen.queryByRole("region", { name: "Also on this ticket" })).not.toBeInTheDocument();
    expect(presenceCalls()).toEqual([]);
  });
});

describe("a reply written while the ticket changed", () => {
  const adaComment: Comment = {
    commentId: "CMT2",
    ticketId,
    authorId: "admin-1",
    authorName: "Ada Admin",
    message: "I already replaced the toner.",
    isInternal: false,
    timestamp: "2025-11-20T10:00:00.000Z",
    attachments: [],
  };

  it("keeps the draft, marks what changed New, and sends anyway once looked at", async () => {
    let hasChanged = false;
    const posts: unknown[] = [];
    const { user } = setup(theo, {
      [`GET /api/tickets/${ticketId}/activity`]: () => ({
        body: makeActivity({
          comments: hasChanged ? [adaComment] : [],
          events: [
            makeEvent({ id: "EVT1" }),
            ...(hasChanged
              ? [
                  makeEvent({
                    id: "EVT2",
                    type: "commented",
                    actorId: "admin-1",
                    actorName: "Ada Admin",
                    message: adaComment.message,
                    at: adaComment.timestamp,
                  }),
                ]
              : []),
          ],
        }),
      }),
      [`POST /api/tickets/${ticketId}/comments`]: (request) => {
        posts.push(request.body);
        if (posts.length === 1) {
          hasChanged = true;
          return {
            status: 409,
            body: {
              code: "conflict",
              message: "This ticket changed while you were writing. Look at what changed, then send again.",
              details: { reason: "ticket_changed_since_seen", latestEventId: "EVT2" },
            },
          };
        }
        return {
          status: 201,
          body: {
            ...adaComment,
            commentId: "CMT3",
            authorId: "tech-1",
            authorName: "Theo Tech",
            message: "Swapping the toner",
            mentions: { notified: [], notNotified: [] },
          },
        };
      },
    });
    await screen.findByRole("list", { name: "Ticket activity" });
    const box = screen.getByLabelText(/Add a comment/);
    await user.type(box, "Swapping the toner");
    await user.click(screen.getByRole("button", { name: "Add Comment" }));

    const prompt = await screen.findByRole("alert");
    expect(prompt).toHaveTextContent(
      "This ticket changed while you were writing. Look at what changed (marked New), then send again. Your reply is kept.",
    );
    expect(posts[0]).toEqual({ message: "Swapping the toner", seenEventId: "EVT1" });
    expect(box).toHaveValue("Swapping the toner");
    expect(screen.queryByText("Failed to add comment")).not.toBeInTheDocument();
    // The timeline and the conversation show Ada's comment, marked New.
    const timeline = screen.getByRole("list", { name: "Ticket activity" });
    await vi.waitFor(() => expect(within(timeline).getAllByRole("listitem")).toHaveLength(2));
    expect(within(within(timeline).getAllByRole("listitem")[1]!).getByText("New")).toBeInTheDocument();
    const adaItem = screen
      .getByText("I already replaced the toner.", { selector: "article p" })
      .closest("li")!;
    expect(within(adaItem).getByText("New")).toBeInTheDocument();

    await user.click(within(prompt).getByRole("button", { name: "Show what changed" }));
    expect(document.activeElement).toHaveAttribute("data-changed-while-writing");

    await user.click(within(prompt).getByRole("button", { name: "Send anyway" }));
    expect(await screen.findByText("Comment added successfully")).toBeInTheDocument();
    expect(posts[1]).toEqual({ message: "Swapping the toner", seenEventId: "EVT2" });
    expect(box).toHaveValue("");
    await vi.waitFor(() => expect(screen.queryByText("New")).not.toBeInTheDocument());
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
