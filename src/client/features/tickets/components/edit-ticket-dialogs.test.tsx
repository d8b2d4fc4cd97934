import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch, waitForActor } from "#client/test/render.tsx";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { TicketEditButtons } from "./edit-ticket-dialogs.tsx";

function setup(me: ReturnType<typeof makeMe>, ticket: Ticket, routes: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({ "GET /api/me": { body: me }, ...routes });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<TicketEditButtons ticket={ticket} />, { showActor: true });
  return { server, user: userEvent.setup() };
}

const technician = makeMe({ id: "tech-1", role: "technician" });

describe("TicketEditButtons", () => {
  it("lets staff correct the details and sends only what changed", async () => {
    const ticket = makeTicket({ createdBy: "user-1", status: "Open", priority: "Low" });
    const { server, user } = setup(technician, ticket, {
      [`PATCH /api/tickets/${ticket.ticketId}`]: { body: { ...ticket, priority: "High" } },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    expect(screen.queryByRole("button", { name: "Edit description" })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText("Priority"), "High");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(server.calls.find((call) => call.method === "PATCH")?.body).toEqual({ priority: "High" });
  });

  it("shows the create form's rules: an empty title is refused before sending", async () => {
    const ticket = makeTicket({ status: "Open" });
    const { server, user } = setup(technician, ticket);
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    await user.clear(screen.getByLabelText("Title"));
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Title is required")).toBeInTheDocument();
    expect(server.calls.some((call) => call.method === "PATCH")).toBe(false);
  });

  it("offers the creator Edit description only while the ticket is Open", async () => {
    const creator = makeMe({ id: "user-1", role: "user" });
    setup(creator, makeTicket({ createdBy: "user-1", status: "Open" }));
    expect(await screen.findByRole("button", { name: "Edit description" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Edit" })).not.toBeInTheDocument();
  });

  it("offers the creator nothing once the ticket is In Progress", async () => {
    const creator = makeMe({ id: "user-1", role: "user" });
    setup(creator, makeTicket({ createdBy: "user-1", status: "In Progress" }));
    await waitForActor(creator);
    expect(screen.queryByRole("button", { name: /Edit/ })).not.toBeInTheDocument();
  });
});
