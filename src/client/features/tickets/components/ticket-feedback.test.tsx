import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeActivity, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch, waitForActor } from "#client/test/render.tsx";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { Feedback } from "#shared/tickets/ticket-activity.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import { TicketFeedback } from "./ticket-feedback.tsx";

const creator = makeMe({ id: "user-1", role: "user" });
const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });
const resolved = makeTicket({ status: "Resolved", assignedTo: "tech-1", assignedToName: "Theo Tech" });
const activityPath = "GET /api/tickets/TKT0M5ABCDEF1234567/activity";
const feedbackPath = "PUT /api/tickets/TKT0M5ABCDEF1234567/feedback";

const savedFeedback = (overrides: Partial<Feedback> = {}): Feedback => ({
  rating: 5,
  comment: "",
  submittedBy: "user-1",
  submittedAt: "2025-11-21T09:00:00.000Z",
  ...overrides,
});

function setup(me: Me, ticket: Ticket, { feedback = null as Feedback | null, answer = {} as object } = {}) {
  let stored = feedback;
  const server = stubFetch({
    "GET /api/me": { body: me },
    [activityPath]: () => ({ body: makeActivity({ feedback: stored }) }),
    [feedbackPath]: () => {
      const reply = { status: 200, body: savedFeedback() as unknown, ...answer };
      if (reply.status === 200) stored = reply.body as Feedback;
      return reply;
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<TicketFeedback ticket={ticket} />, { showActor: true });
  const puts = () => server.calls.filter((call) => call.method === "PUT");
  return { user: userEvent.setup(), puts, server };
}

describe("TicketFeedback", () => {
  it("offers the creator of a Resolved ticket a rating from 1 to 5, 5 (Very Satisfied) to start with", async () => {
    setup(creator, resolved);
    const section = await screen.findByRole("region", { name: "Rate & Feedback" });
    const rating = within(section).getByRole("group", { name: "Rating" });
    const options = within(rating).getAllByRole("radio");
    expect(options.map((option) => option.getAttribute("value"))).toEqual(["1", "2", "3", "4", "5"]);
    expect(options.map((option) => (option as HTMLInputElement).labels?.[0]?.textContent)).toEqual([
      "Very Dissatisfied",
      "Dissatisfied",
      "Neutral",
      "Satisfied",
      "Very Satisfied",
    ]);
    expect(within(rating).getByRole("radio", { name: "Very Satisfied" })).toBeChecked();
    expect(within(section).getByLabelText("Feedback comment")).toHaveValue("");
    expect(within(section).getByRole("button", { name: "Submit Feedback" })).toBeEnabled();
  });

  it("sends the default rating with no comment, thanks the creator and shows what was given", async () => {
    const { user, puts } = setup(creator, resolved);
    await user.click(await screen.findByRole("button", { name: "Submit Feedback" }));
    expect(await screen.findByText("Thank you for your feedback!")).toBeInTheDocument();
    expect(puts()).toEqual([
      {
        method: "PUT",
        url: "/api/tickets/TKT0M5ABCDEF1234567/feedback",
        body: { rating: 5, comment: "" },
      },
    ]);
    expect(await screen.findByRole("img", { name: "5 out of 5 stars" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Change feedback" })).toBeInTheDocument();
  });

  it("sends the chosen rating and comment", async () => {
    const { user, puts } = setup(creator, resolved, {
      answer: { body: savedFeedback({ rating: 3, comment: "Took a while" }) },
    });
    await user.click(await screen.findByRole("radio", { name: "Neutral" }));
    await user.type(screen.getByLabelText("Feedback comment"), "Took a while");
    await user.click(screen.getByRole("button", { name: "Submit Feedback" }));
    expect(await screen.findByText("Thank you for your feedback!")).toBeInTheDocument();
    expect(puts()[0]?.body).toEqual({ rating: 3, comment: "Took a while" });
  });

  it("says so when the feedback is refused", async () => {
    const { user } = setup(creator, resolved, {
      answer: { status: 409, body: { code: "conflict", message: "This ticket is no longer Resolved." } },
    });
    await user.click(await screen.findByRole("button", { name: "Submit Feedback" }));
    expect(await screen.findByText("Failed to submit feedback")).toBeInTheDocument();
    const section = screen.getByRole("region", { name: "Rate & Feedback" });
    expect(within(section).getByRole("alert")).toHaveTextContent("This ticket is no longer Resolved.");
  });

  it.each([
    ["a technician", technician, resolved],
    ["another user", makeMe({ id: "user-2", role: "user" }), resolved],
    ["the creator of an In Progress ticket", creator, makeTicket({ status: "In Progress" })],
    ["the creator of a Closed ticket", creator, makeTicket({ status: "Closed" })],
  ] as const)("offers no feedback form to %s", async (_who, me, ticket) => {
    setup(me, ticket);
    await waitForActor(me);
    expect(screen.queryByRole("region", { name: "Rate & Feedback" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Submit Feedback" })).not.toBeInTheDocument();
  });

  it("shows given feedback, stars and label, to everyone who can see the ticket", async () => {
    setup(technician, makeTicket({ status: "Closed" }), {
      feedback: savedFeedback({ rating: 4, comment: "Quick fix, thanks" }),
    });
    const section = await screen.findByRole("region", { name: "Feedback" });
    expect(within(section).getByRole("img", { name: "4 out of 5 stars" })).toBeInTheDocument();
    expect(within(section).getByText("Satisfied")).toBeInTheDocument();
    expect(within(section).getByText("Quick fix, thanks")).toBeInTheDocument();
    expect(within(section).getByText(/Given by Ada Lovelace/)).toBeInTheDocument();
    expect(within(section).queryByRole("button")).not.toBeInTheDocument();
  });
});
