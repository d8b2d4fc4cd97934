import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch, waitForActor } from "#client/test/render.tsx";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { Role } from "#shared/users/roles.ts";
import { TicketActions } from "./ticket-actions.tsx";
import { TicketHoldBadge, TicketHoldNotice } from "./ticket-hold-badge.tsx";

// Decision 070: staff put an In Progress ticket on hold with a comment for the requester and, optionally, a
// day it lifts by itself; the badge and notice say it waits, to the requester that it waits on them.

const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });
const admin = makeMe({ id: "admin-1", name: "Ada Admin", role: "admin" });
const creator = makeMe({ id: "user-1", role: "user" });
const meAs: Record<Role, ReturnType<typeof makeMe>> = { technician, admin, user: creator };
const url = "/api/tickets/TKT0M5ABCDEF1234567/hold";

const working = makeTicket({ status: "In Progress", assignedTo: "tech-1", assignedToName: "Theo Tech" });
const held: Ticket = {
  ...working,
  onHoldSince: "2025-11-21T10:00:00.000Z",
  holdUntil: "2025-11-25T00:00:00.000Z",
};

function setup(role: Role, ticket: Ticket, routes: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({ "GET /api/me": { body: meAs[role] }, ...routes });
  vi.stubGlobal("fetch", server.fetchStub);
  const onOutcome = vi.fn();
  renderWithApp(
    <>
      <TicketHoldBadge ticket={ticket} />
      <TicketHoldNotice ticket={ticket} />
      <TicketActions ticket={ticket} onOutcome={onOutcome} />
    </>,
    { showActor: true },
  );
  return { server, onOutcome, user: userEvent.setup() };
}

/** The day after tomorrow in the browser's calendar, as a date input holds it, and its start as an instant. */
function dayAfterTomorrow() {
  const now = new Date();
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 2);
  const value = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
  return { value, iso: day.toISOString() };
}

describe("putting a ticket on hold", () => {
  it("asks for the comment the requester reads, and sends it with the day chosen", async () => {
    const { server, user, onOutcome } = setup("technician", working, {
      [`PUT ${url}`]: (request) => ({
        body: { ...held, holdUntil: (request.body as { until: string }).until },
      }),
    });
    await user.click(await screen.findByRole("button", { name: "Put on hold" }));
    const dialog = screen.getByRole("dialog", { name: "Put on hold" });
    expect(dialog).toHaveTextContent(
      "The requester reads your comment. Their reply takes the ticket off hold.",
    );

    // Nothing is sent without a comment; the field says why.
    await user.click(within(dialog).getByRole("button", { name: "Put on hold" }));
    expect(await within(dialog).findByText("A comment for the requester is required")).toBeInTheDocument();
    expect(server.calls.some((call) => call.method === "PUT")).toBe(false);

    const { value, iso } = dayAfterTomorrow();
    await user.type(within(dialog).getByLabelText("Comment for the requester"), "  Which printer is it?  ");
    await user.type(within(dialog).getByLabelText("Lift the hold on (optional)"), value);
    await user.click(within(dialog).getByRole("button", { name: "Put on hold" }));
    expect(await screen.findByText("Ticket put on hold")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT")).toEqual([
      expect.objectContaining({ url, body: { comment: "Which printer is it?", until: iso } }),
    ]);
    expect(onOutcome).toHaveBeenCalledWith(null);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("refuses a day in the past before sending, and shows the server's refusal in the dialog", async () => {
    const { server, user } = setup("admin", working, {
      [`PUT ${url}`]: {
        status: 422,
        body: { code: "rule_violation", message: "Only a ticket In Progress can be put on hold." },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Put on hold" }));
    const dialog = screen.getByRole("dialog", { name: "Put on hold" });
    await user.type(within(dialog).getByLabelText("Comment for the requester"), "Which printer?");
    await user.type(within(dialog).getByLabelText("Lift the hold on (optional)"), "2020-01-01");
    await user.click(within(dialog).getByRole("button", { name: "Put on hold" }));
    expect(await within(dialog).findByText("Choose a day from tomorrow on.")).toBeInTheDocument();
    expect(server.calls.some((call) => call.method === "PUT")).toBe(false);

    await user.clear(within(dialog).getByLabelText("Lift the hold on (optional)"));
    await user.click(within(dialog).getByRole("button", { name: "Put on hold" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "Only a ticket In Progress can be put on hold.",
    );
  });

  it.each([
    ["the requester", "user", working],
    ["a technician, on an Open ticket", "technician", makeTicket({ status: "Open" })],
    ["an admin, on a Resolved ticket", "admin", makeTicket({ status: "Resolved", assignedTo: "tech-1" })],
  ] as const)("is not offered to %s", async (_who, role, ticket) => {
    setup(role, ticket);
    await waitForActor(meAs[role]);
    expect(screen.queryByRole("button", { name: "Put on hold" })).not.toBeInTheDocument();
  });
});

describe("a ticket on hold", () => {
  it("shows staff it is on hold until its date, and takes it off hold", async () => {
    const { server, user } = setup("technician", held, {
      [`DELETE ${url}`]: { body: { ...held, onHoldSince: null, holdUntil: null } },
    });
    await waitForActor(technician);
    expect(screen.getByText("On hold", { selector: "span" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("On hold, waiting for the requester");
    expect(screen.queryByRole("button", { name: "Put on hold" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Take off hold" }));
    expect(await screen.findByText("Taken off hold")).toBeInTheDocument();
    expect(server.calls.at(-1)).toMatchObject({ method: "DELETE", url });
  });

  it("lets staff change or remove the day it lifts", async () => {
    const { server, user } = setup("admin", held, {
      [`PATCH ${url}`]: (request) => ({ body: { ...held, ...(request.body as object) } }),
    });
    await user.click(await screen.findByRole("button", { name: "Change date" }));
    const dialog = screen.getByRole("dialog", { name: "Date to lift the hold" });
    await user.click(within(dialog).getByRole("button", { name: "Remove date" }));
    expect(await screen.findByText("Date to lift the hold removed")).toBeInTheDocument();
    expect(server.calls.at(-1)).toMatchObject({ method: "PATCH", body: { until: null } });
  });

  it("tells the requester it waits for their reply", async () => {
    setup("user", held);
    await waitForActor(creator);
    expect(screen.getByText("Waiting for your reply", { selector: "span" })).toBeInTheDocument();
    const notice = screen.getByRole("status");
    expect(notice).toHaveTextContent("Waiting for your reply");
    expect(notice).toHaveTextContent("Theo Tech needs an answer from you to go on.");
    expect(screen.queryByRole("button", { name: "Take off hold" })).not.toBeInTheDocument();
  });

  it("shows no badge nor notice on a ticket that is not on hold", async () => {
    setup("user", working);
    await waitForActor(creator);
    expect(screen.queryByText("Waiting for your reply")).not.toBeInTheDocument();
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });
});
