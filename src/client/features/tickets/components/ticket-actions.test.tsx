import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch, waitForActor } from "#client/test/render.tsx";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { Role } from "#shared/users/roles.ts";
import { TicketActions } from "./ticket-actions.tsx";

const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });
const admin = makeMe({ id: "admin-1", name: "Ada Admin", role: "admin" });
const creator = makeMe({ id: "user-1", role: "user" });
const meAs: Record<Role, ReturnType<typeof makeMe>> = { technician, admin, user: creator };

function setup(role: Role, ticket: Ticket, routes: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({ "GET /api/me": { body: meAs[role] }, ...routes });
  vi.stubGlobal("fetch", server.fetchStub);
  const onOutcome = vi.fn();
  renderWithApp(<TicketActions ticket={ticket} onOutcome={onOutcome} />, { showActor: true });
  return { server, onOutcome, user: userEvent.setup() };
}

const statusButtons = () =>
  within(screen.getByRole("group", { name: "Change status" }))
    .getAllByRole("button")
    .map((button) => button.textContent);

const mine = { assignedTo: "tech-1", assignedToName: "Theo Tech" };

describe("TicketActions", () => {
  it.each([
    ["technician", "Open", makeTicket({ status: "Open" }), ["In Progress", "Resolved", "Closed"]],
    ["technician", "In Progress", makeTicket({ status: "In Progress", ...mine }), ["Resolved", "Closed"]],
    ["technician", "Resolved", makeTicket({ status: "Resolved", ...mine }), ["In Progress", "Closed"]],
    ["admin", "Open", makeTicket({ status: "Open" }), ["Resolved", "Closed"]],
    ["admin", "unassigned Resolved", makeTicket({ status: "Resolved" }), ["Closed"]],
    ["admin", "In Progress", makeTicket({ status: "In Progress", ...mine }), ["Resolved", "Closed"]],
    ["admin", "Resolved", makeTicket({ status: "Resolved", ...mine }), ["In Progress", "Closed"]],
  ] as const)(
    "offers a %s on a %s ticket the statuses it may move to",
    async (role, _status, ticket, expected) => {
      setup(role, ticket);
      await screen.findByRole("group", { name: "Change status" });
      expect(statusButtons()).toEqual(expected);
    },
  );

  it.each(["technician", "admin"] as const)(
    "offers a %s no status button once the ticket is Closed",
    async (role) => {
      setup(role, makeTicket({ status: "Closed", ...mine }));
      expect(
        await screen.findByText("This ticket is closed; its status can no longer change."),
      ).toBeInTheDocument();
      expect(screen.queryByRole("group", { name: "Change status" })).not.toBeInTheDocument();
      expect(screen.queryByRole("button")).not.toBeInTheDocument();
    },
  );

  it.each(["Open", "In Progress", "Resolved"] as const)(
    "offers the user who raised a %s ticket no status button and no Assign to Me",
    async (status) => {
      setup("user", makeTicket({ status }));
      await waitForActor(creator);
      expect(screen.queryByRole("group", { name: "Change status" })).not.toBeInTheDocument();
      expect(screen.queryByRole("button")).not.toBeInTheDocument();
    },
  );

  it("offers Assign to Me to a technician on an Open, unassigned ticket", async () => {
    setup("technician", makeTicket({ status: "Open", assignedTo: null }));
    expect(await screen.findByRole("button", { name: "Assign to Me" })).toBeEnabled();
  });

  it.each([
    ["technician", "a ticket already theirs", makeTicket({ status: "In Progress", ...mine })],
    ["technician", "an unassigned Resolved ticket", makeTicket({ status: "Resolved", assignedTo: null })],
    ["admin", "an Open, unassigned ticket", makeTicket({ status: "Open", assignedTo: null })],
    ["user", "an Open, unassigned ticket", makeTicket({ status: "Open", assignedTo: null })],
  ] as const)("does not offer Assign to Me to a %s on %s", async (role, _case, ticket) => {
    setup(role, ticket);
    await waitForActor(meAs[role]);
    expect(screen.queryByRole("button", { name: "Assign to Me" })).not.toBeInTheDocument();
  });

  it("offers a technician In Progress on an unassigned Resolved ticket, which makes it theirs", async () => {
    const ticket = makeTicket({ status: "Resolved", assignedTo: null });
    const { server, user } = setup("technician", ticket, {
      "PATCH /api/tickets/TKT0M5ABCDEF1234567/status": {
        body: { ...ticket, status: "In Progress", ...mine },
      },
    });
    await user.click(await screen.findByRole("button", { name: "In Progress" }));
    expect(await screen.findByText("Ticket status updated to In Progress")).toBeInTheDocument();
    expect(server.calls.at(-1)).toMatchObject({ method: "PATCH", body: { status: "In Progress" } });
  });

  it("changes the status and announces the new one", async () => {
    const ticket = makeTicket({ status: "In Progress", ...mine });
    const { server, user, onOutcome } = setup("technician", ticket, {
      "PATCH /api/tickets/TKT0M5ABCDEF1234567/status": { body: { ...ticket, status: "Resolved" } },
    });
    await user.click(await screen.findByRole("button", { name: "Resolved" }));
    expect(await screen.findByText("Ticket status updated to Resolved")).toBeInTheDocument();
    expect(server.calls.at(-1)).toMatchObject({ method: "PATCH", body: { status: "Resolved" } });
    expect(onOutcome).toHaveBeenCalledWith(null);
  });

  it("assigns the ticket to the technician and announces it", async () => {
    const ticket = makeTicket({ status: "Open" });
    const { server, user } = setup("technician", ticket, {
      "POST /api/tickets/TKT0M5ABCDEF1234567/assign": {
        body: { ...ticket, status: "In Progress", ...mine },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Assign to Me" }));
    expect(await screen.findByText("Ticket assigned successfully")).toBeInTheDocument();
    expect(server.calls.at(-1)).toMatchObject({
      method: "POST",
      url: "/api/tickets/TKT0M5ABCDEF1234567/assign",
    });
  });

  it("passes on the server's reason when the status change is refused", async () => {
    const { user, onOutcome } = setup("admin", makeTicket({ status: "Resolved", ...mine }), {
      "PATCH /api/tickets/TKT0M5ABCDEF1234567/status": {
        status: 409,
        body: { code: "conflict", message: "This ticket was closed while you were changing it." },
      },
    });
    await user.click(await screen.findByRole("button", { name: "In Progress" }));
    expect(await screen.findByText("Failed to update ticket status")).toBeInTheDocument();
    expect(onOutcome).toHaveBeenCalledWith("This ticket was closed while you were changing it.");
  });
});
