import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Actor } from "#shared/permissions.ts";
import type { TicketLink } from "#shared/ticket-links/ticket-link.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { MergedBanner } from "./merged-banner.tsx";
import { TicketLinksPanel } from "./ticket-links-panel.tsx";

const technician: Actor = { id: "tech-1", role: "technician" };
const ticket = makeTicket({ ticketId: "TKT0M5ABCDEF1234567", status: "In Progress", assignedTo: "tech-1" });
const otherId = "TKT0M5ABCDEF7654321";
const parentLink: TicketLink = {
  linkId: "LNK1",
  ticketId: otherId,
  title: "Wi-Fi down on floor 3",
  status: "Open",
  relation: "parent",
  createdAt: "2025-11-20T09:30:00.000Z",
};

function setup(shown: Ticket, routes: Parameters<typeof stubFetch>[0] = {}, actor = technician) {
  const onChanged = vi.fn();
  const onRefused = vi.fn();
  const server = stubFetch({
    [`GET /api/tickets/${shown.ticketId}/links`]: { body: { items: [parentLink] } },
    ...routes,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(
    <TicketLinksPanel
      actor={actor}
      ticket={shown}
      renderStatus={(status) => <span>status {status}</span>}
      onChanged={onChanged}
      onRefused={onRefused}
    />,
  );
  return { server, onChanged, onRefused, user: userEvent.setup() };
}

describe("TicketLinksPanel", () => {
  it("lists each link with what the other ticket is and its status, and removes one", async () => {
    const { server, user } = setup(ticket, {
      [`DELETE /api/tickets/${ticket.ticketId}/links/LNK1`]: { status: 204 },
    });
    const list = await screen.findByRole("list", { name: "Linked tickets" });
    expect(list).toHaveTextContent("Parent");
    expect(list).toHaveTextContent("Wi-Fi down on floor 3");
    expect(list).toHaveTextContent("status Open");
    expect(screen.getByRole("link", { name: `${otherId} Wi-Fi down on floor 3` })).toHaveAttribute(
      "href",
      `/tickets/${otherId}`,
    );
    await user.click(screen.getByRole("button", { name: `Remove the link to ${otherId}` }));
    await vi.waitFor(() => expect(server.calls.some((call) => call.method === "DELETE")).toBe(true));
    expect(await screen.findByText(`Link to ${otherId} removed`)).toBeInTheDocument();
  });

  it("links a ticket typed by its id, as the chosen relation, and refuses words that are no id", async () => {
    const { server, user } = setup(ticket, {
      [`POST /api/tickets/${ticket.ticketId}/links`]: {
        status: 201,
        body: { ...parentLink, relation: "duplicate_of" },
      },
    });
    await screen.findByRole("list", { name: "Linked tickets" });
    await user.selectOptions(screen.getByLabelText("Link another ticket: this ticket is"), "duplicate_of");
    const field = screen.getByLabelText("Ticket to link");
    await user.click(screen.getByRole("button", { name: "Add link" }));
    expect(
      screen.getByText("Type a ticket id (TKT…), or pick a ticket from the suggestions"),
    ).toBeInTheDocument();
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(server.calls.filter((call) => call.method === "POST")).toEqual([]);
    await user.type(field, otherId.toLowerCase());
    await user.click(screen.getByRole("button", { name: "Add link" }));
    await vi.waitFor(() => expect(server.calls.some((call) => call.method === "POST")).toBe(true));
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
      ticketId: otherId,
      kind: "duplicate_of",
    });
    expect(await screen.findByText(`Linked to ${otherId}`)).toBeInTheDocument();
  });

  it("shows the server's refusal of a second link between the same tickets", async () => {
    const refusal = `${ticket.ticketId} and ${otherId} are already linked (parent); remove that link to link them another way.`;
    const { user } = setup(ticket, {
      [`POST /api/tickets/${ticket.ticketId}/links`]: {
        status: 409,
        body: { code: "conflict", message: refusal },
      },
    });
    await screen.findByRole("list", { name: "Linked tickets" });
    await user.type(screen.getByLabelText("Ticket to link"), otherId);
    await user.click(screen.getByRole("button", { name: "Add link" }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });

  it("says what a merge moves and who is told before it is confirmed, then merges", async () => {
    const target = makeTicket({ ticketId: otherId, title: "Wi-Fi down on floor 3", createdBy: "user-2" });
    const merged = { ...ticket, status: "Closed" as const, mergedIntoId: otherId };
    const { server, onChanged, user } = setup(ticket, {
      [`GET /api/tickets/${otherId}`]: { body: target },
      [`POST /api/tickets/${ticket.ticketId}/merge`]: {
        body: { ticket: merged, moved: { comments: 2, attachments: 1, followers: 0 } },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Merge into…" }));
    const dialog = await screen.findByRole("dialog", {
      name: `Merge ${ticket.ticketId} into another ticket`,
    });
    expect(screen.getByRole("button", { name: "Merge" })).toBeDisabled();
    await user.type(screen.getByLabelText("Merge into"), otherId);
    expect(
      await screen.findByText(
        `The comments, internal notes and files of ${ticket.ticketId} move to ${otherId}, where they keep their times.`,
      ),
    ).toBeInTheDocument();
    expect(dialog).toHaveTextContent("was raised by someone else");
    await user.click(screen.getByRole("button", { name: `Merge into ${otherId}` }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({ targetId: otherId });
    expect(onChanged.mock.calls[0]![0]).toMatchObject({ status: "Closed", mergedIntoId: otherId });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("refuses in the dialog a merge into the ticket itself or into a Closed ticket", async () => {
    const closed = makeTicket({ ticketId: otherId, status: "Closed" });
    const { user } = setup(ticket, { [`GET /api/tickets/${otherId}`]: { body: closed } });
    await user.click(await screen.findByRole("button", { name: "Merge into…" }));
    const field = screen.getByLabelText("Merge into");
    await user.type(field, ticket.ticketId);
    expect(screen.getByText("A ticket cannot be merged into itself.")).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, otherId);
    expect(
      await screen.findByText(`${otherId} is closed; merge into a ticket that is not closed.`),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: `Merge into ${otherId}` })).toBeDisabled();
  });

  it("offers no changes on a Closed ticket to a technician", async () => {
    setup(makeTicket({ status: "Closed", assignedTo: "tech-1" }), {});
    await screen.findByRole("list", { name: "Linked tickets" });
    expect(screen.queryByLabelText("Ticket to link")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Merge into…" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: `Remove the link to ${otherId}` })).not.toBeInTheDocument();
  });
});

describe("MergedBanner", () => {
  it("links to the ticket it was merged into when the reader may open it", async () => {
    const server = stubFetch({
      [`GET /api/tickets/${otherId}`]: { body: makeTicket({ ticketId: otherId, title: "Wi-Fi" }) },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<MergedBanner ticket={makeTicket({ status: "Closed", mergedIntoId: otherId })} />);
    expect(await screen.findByRole("link", { name: `${otherId} · Wi-Fi` })).toHaveAttribute(
      "href",
      `/tickets/${otherId}`,
    );
  });

  it("names the ticket by its number only when the reader may not open it", async () => {
    const server = stubFetch({});
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<MergedBanner ticket={makeTicket({ status: "Closed", mergedIntoId: otherId })} />);
    expect(await screen.findByText(/The team continues the conversation on that ticket/)).toBeInTheDocument();
    expect(screen.getByText(otherId)).toBeInTheDocument();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
  });
});
