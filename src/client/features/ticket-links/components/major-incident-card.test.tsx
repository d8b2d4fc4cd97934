import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { TicketIncident } from "#shared/major-incidents/major-incident.schemas.ts";
import type { Actor } from "#shared/permissions.ts";
import { IncidentBanner } from "./incident-banner.tsx";
import { MajorIncidentCard, typedTicketIds } from "./major-incident-card.tsx";

const technician: Actor = { id: "tech-1", role: "technician" };
const ticket = makeTicket({ ticketId: "TKT0M5ABCDEF1234567", status: "In Progress", assignedTo: "tech-1" });
const one = "TKT0M5ABCDEF7654321";
const two = "TKT0M5ABCDEF7654322";
const headline = "VPN unavailable — we are working on it";
const declared: TicketIncident = {
  incident: {
    headline,
    declaredAt: "2026-11-30T09:00:00.000Z",
    affected: [{ ticketId: one, title: "No VPN from home", status: "Open" }],
  },
  affectedBy: null,
};

function setup(answer: TicketIncident, routes: Parameters<typeof stubFetch>[0] = {}, actor = technician) {
  const server = stubFetch({
    [`GET /api/tickets/${ticket.ticketId}/major-incident`]: { body: answer },
    ...routes,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(
    <MajorIncidentCard
      actor={actor}
      ticket={ticket}
      renderStatus={(status) => <span>status {status}</span>}
    />,
  );
  return { server, user: userEvent.setup() };
}

describe("MajorIncidentCard", () => {
  it("declares an ordinary ticket a major incident with a headline, refusing an empty one", async () => {
    const { server, user } = setup(
      { incident: null, affectedBy: null },
      { [`PUT /api/tickets/${ticket.ticketId}/major-incident`]: { body: declared } },
    );
    await user.click(await screen.findByRole("button", { name: "Declare major incident" }));
    await user.click(screen.getByRole("button", { name: "Declare major incident" }));
    expect(screen.getByLabelText("Headline")).toHaveAttribute("aria-invalid", "true");
    await user.type(screen.getByLabelText("Headline"), headline);
    await user.click(screen.getByRole("button", { name: "Declare major incident" }));
    await vi.waitFor(() => expect(server.calls.some((call) => call.method === "PUT")).toBe(true));
    expect(await screen.findByText("Declared a major incident")).toBeInTheDocument();
  });

  it("shows the headline and the affected tickets, adds several at once and posts an update", async () => {
    const { server, user } = setup(declared, {
      [`POST /api/tickets/${ticket.ticketId}/incident/affected`]: {
        body: {
          linked: [two],
          refused: [{ ticketId: one, message: `${one} is already affected by this major incident.` }],
        },
      },
      [`POST /api/tickets/${ticket.ticketId}/incident/updates`]: {
        status: 201,
        body: {
          update: {
            id: "UPD1",
            body: "Replacing the gateway.",
            authorName: "Ada",
            createdAt: "2026-11-30T09:10:00.000Z",
          },
          postedOn: 2,
        },
      },
    });
    expect(await screen.findByText(headline)).toBeInTheDocument();
    const list = screen.getByRole("list", { name: "Affected tickets" });
    expect(list).toHaveTextContent("No VPN from home");
    expect(list).toHaveTextContent("status Open");
    await user.type(screen.getByLabelText("Add affected tickets"), `${one} ${two.toLowerCase()}`);
    await user.click(screen.getByRole("button", { name: "Add affected tickets" }));
    expect(await screen.findByText(`${one} is already affected by this major incident.`)).toBeInTheDocument();
    const post = server.calls.find((call) => call.method === "POST");
    expect(post?.body).toEqual({ ticketIds: [one, two] });
    await user.type(screen.getByLabelText("Post update"), "Replacing the gateway.");
    await user.click(screen.getByRole("button", { name: "Post update" }));
    expect(
      await screen.findByText("Update posted on the incident and 2 affected tickets"),
    ).toBeInTheDocument();
  });

  it("shows nothing to staff who may not run it on a ticket a major incident affects", async () => {
    setup({ incident: null, affectedBy: { ticketId: one, headline, status: "Open" } });
    await vi.waitFor(() =>
      expect(screen.queryByRole("button", { name: "Declare major incident" })).toBeNull(),
    );
  });
});

describe("IncidentBanner", () => {
  it("tells whoever may see an affected ticket the incident's headline and status, linked to its public page", async () => {
    const server = stubFetch({
      [`GET /api/tickets/${ticket.ticketId}/major-incident`]: {
        body: { incident: null, affectedBy: { ticketId: one, headline, status: "In Progress" } },
      },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<IncidentBanner ticketId={ticket.ticketId} />);
    const banner = await screen.findByRole("region", { name: "Major incident" });
    expect(banner).toHaveTextContent(`Affected by a major incident: ${headline} — In Progress`);
    expect(screen.getByRole("link", { name: headline })).toHaveAttribute("href", `/known-issues/${one}`);
  });
});

describe("typedTicketIds", () => {
  it("reads several ids, or one, and nothing from title words", () => {
    expect(typedTicketIds(`${one}, ${two.toLowerCase()}`)).toEqual([one, two]);
    expect(typedTicketIds(` ${one} `)).toEqual([one]);
    expect(typedTicketIds("vpn down")).toEqual([]);
  });
});
