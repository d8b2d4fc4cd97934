import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Actor } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { TicketTeamControl } from "./ticket-team-control.tsx";

const technician: Actor = { id: "tech-1", role: "technician" };
const teams = [
  { id: "team_network01", name: "Network" },
  { id: "team_desk00001", name: "Service desk" },
].map((team) => ({
  ...team,
  description: "",
  leadId: null,
  leadName: null,
  members: [],
  memberCount: 0,
  isDefault: false,
  assignment: "off" as const,
  createdAt: "2030-01-07T09:00:00.000Z",
  updatedAt: "2030-01-07T09:00:00.000Z",
}));

function setup(ticket: Ticket, actor: Actor = technician, answer?: { status: number; body: unknown }) {
  const onChanged = vi.fn();
  const onRefused = vi.fn();
  const server = stubFetch({
    "GET /api/teams": { body: { items: teams } },
    [`PUT /api/tickets/${ticket.ticketId}/team`]: (request) => {
      if (answer) return answer;
      const { teamId } = request.body as { teamId: string | null };
      return {
        body: { ...ticket, teamId, teamName: teams.find((team) => team.id === teamId)?.name ?? null },
      };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(
    <TicketTeamControl actor={actor} ticket={ticket} onChanged={onChanged} onRefused={onRefused} />,
  );
  return { server, onChanged, onRefused, user: userEvent.setup() };
}

describe("TicketTeamControl", () => {
  it("moves the ticket to the team chosen, with Move shown only once another team is chosen", async () => {
    const ticket = makeTicket({ teamId: "team_network01", teamName: "Network" });
    const { server, onChanged, user } = setup(ticket);
    const select = screen.getByLabelText("Team");
    expect(select).toHaveValue("team_network01");
    await screen.findByRole("option", { name: "Service desk" });
    expect(screen.queryByRole("button", { name: "Move" })).not.toBeInTheDocument();
    await user.selectOptions(select, "team_desk00001");
    await user.click(screen.getByRole("button", { name: "Move" }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(onChanged.mock.calls[0]![0]).toMatchObject({ teamId: "team_desk00001", teamName: "Service desk" });
    expect(server.calls.at(-1)?.body).toEqual({ teamId: "team_desk00001" });
    expect(await screen.findByText("Ticket moved to team Service desk")).toBeInTheDocument();
  });

  it("takes it out of its team with No team, and hands a refusal to the page", async () => {
    const ticket = makeTicket({ teamId: "team_network01", teamName: "Network" });
    const { onRefused, user } = setup(ticket, technician, {
      status: 409,
      body: { code: "conflict", message: "This ticket is closed; its team can no longer change." },
    });
    await screen.findByRole("option", { name: "Service desk" });
    await user.selectOptions(screen.getByLabelText("Team"), "");
    await user.click(screen.getByRole("button", { name: "Move" }));
    await vi.waitFor(() => expect(onRefused).toHaveBeenCalledOnce());
    expect(
      await screen.findByText("This ticket is closed; its team can no longer change."),
    ).toBeInTheDocument();
  });

  it("shows only the team's name to staff who may not move it (a Closed ticket)", () => {
    setup(makeTicket({ status: "Closed", teamId: "team_network01", teamName: "Network" }));
    expect(screen.getByText("Network")).toBeInTheDocument();
    expect(screen.queryByLabelText("Team")).not.toBeInTheDocument();
  });
});
