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
const technicians = [
  { id: "tech-2", name: "Tara Tech" },
  { id: "tech-1", name: "Theo Tech" },
];
const theirs = makeTicket({ status: "In Progress", assignedTo: "tech-1", assignedToName: "Theo Tech" });

function setup(role: Role, ticket: Ticket, routes: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({
    "GET /api/me": { body: meAs[role] },
    "GET /api/technicians": { body: technicians },
    ...routes,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const onOutcome = vi.fn();
  renderWithApp(<TicketActions ticket={ticket} onOutcome={onOutcome} />, { showActor: true });
  return { server, onOutcome, user: userEvent.setup() };
}

const choices = async () =>
  within(await screen.findByLabelText("Assign to…"))
    .getAllByRole("option")
    .map((option) => option.textContent);

describe("Assign to…", () => {
  it("offers an admin the queue and every other active technician, and sends the choice", async () => {
    const ticket = theirs;
    const { server, onOutcome, user } = setup("admin", ticket, {
      "PUT /api/tickets/TKT0M5ABCDEF1234567/assignee": ({ body }) => ({
        body: { ...ticket, assignedTo: "tech-2", assignedToName: "Tara Tech", ...(body as object) },
      }),
    });
    // The first render of the file waits for the technicians' answer; 5 s, as findBy… (test/setup.ts).
    await vi.waitFor(
      async () => expect(await choices()).toEqual(["Choose…", "Unassigned (queue)", "Tara Tech"]),
      { timeout: 5_000 },
    );
    // Nothing is sent until someone is chosen.
    expect(screen.getByRole("button", { name: "Assign" })).toBeDisabled();
    await user.selectOptions(screen.getByLabelText("Assign to…"), "Tara Tech");
    await user.click(screen.getByRole("button", { name: "Assign" }));
    await vi.waitFor(() => expect(onOutcome).toHaveBeenCalledWith(null));
    expect(server.calls.find((call) => call.method === "PUT")?.body).toEqual({ assigneeId: "tech-2" });
  });

  it("offers a technician only the other technicians for their own ticket", async () => {
    setup("technician", theirs);
    await vi.waitFor(async () => expect(await choices()).toEqual(["Choose…", "Tara Tech"]));
  });

  // Each case waits for what that person is shown instead, so the control had its chance to appear.
  it.each([
    ["technician", "an unassigned ticket", makeTicket({ status: "Open", assignedTo: null }), "Assign to Me"],
    [
      "admin",
      "a Closed ticket",
      makeTicket({ status: "Closed", assignedTo: "tech-1" }),
      "This ticket is closed",
    ],
  ] as const)("is not offered to a %s on %s", async (role, _case, ticket, shown) => {
    const { server } = setup(role, ticket);
    await screen.findByText(new RegExp(shown));
    expect(screen.queryByLabelText("Assign to…")).not.toBeInTheDocument();
    expect(server.calls.map((call) => call.url)).not.toContain("/api/technicians");
  });

  it("is not offered to the user who raised the ticket", async () => {
    const { server } = setup("user", theirs);
    await waitForActor(creator);
    expect(screen.queryByLabelText("Assign to…")).not.toBeInTheDocument();
    expect(server.calls.map((call) => call.url)).not.toContain("/api/technicians");
  });

  it("shows the server's refusal when another admin reassigned first", async () => {
    const { onOutcome, user } = setup("admin", theirs, {
      "PUT /api/tickets/TKT0M5ABCDEF1234567/assignee": {
        status: 409,
        body: { code: "conflict", message: "This ticket was just assigned to Tara Tech." },
      },
    });
    await vi.waitFor(async () => expect(await choices()).toContain("Tara Tech"));
    await user.selectOptions(screen.getByLabelText("Assign to…"), "Tara Tech");
    await user.click(screen.getByRole("button", { name: "Assign" }));
    await vi.waitFor(() =>
      expect(onOutcome).toHaveBeenCalledWith("This ticket was just assigned to Tara Tech."),
    );
  });
});
