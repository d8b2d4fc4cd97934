import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Actor } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { TicketTagControl } from "./ticket-tag-control.tsx";

const technician: Actor = { id: "tech-1", role: "technician" };

function setup(
  ticket: Ticket,
  {
    actor = technician,
    fixed = false,
    answer,
  }: { actor?: Actor; fixed?: boolean; answer?: { status: number; body: unknown } } = {},
) {
  const onChanged = vi.fn();
  const onRefused = vi.fn();
  const server = stubFetch({
    "GET /api/tags": {
      body: {
        fixed,
        items: [
          { tag: "vpn", count: 12 },
          { tag: "printer", count: 4 },
        ],
      },
    },
    [`PATCH /api/tickets/${ticket.ticketId}/tags`]: (request) => {
      if (answer) return answer;
      const { add = [], remove = [] } = request.body as { add?: string[]; remove?: string[] };
      const tags = [...(ticket.tags ?? []).filter((tag) => !remove.includes(tag)), ...add].sort();
      return { body: { ...ticket, tags } };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(
    <TicketTagControl actor={actor} ticket={ticket} onChanged={onChanged} onRefused={onRefused} />,
  );
  return { server, onChanged, onRefused, user: userEvent.setup() };
}

describe("TicketTagControl", () => {
  it("adds a typed tag in its normal form, with the tags in use suggested", async () => {
    const ticket = makeTicket({ tags: ["printer"] });
    const { server, onChanged, user } = setup(ticket);
    const field = screen.getByLabelText("Add a tag");
    // The suggestions leave out the ticket's own tags.
    await vi.waitFor(() => expect(document.querySelectorAll("datalist option")).toHaveLength(1));
    expect(document.querySelector("datalist option")).toHaveAttribute("value", "vpn");
    await user.type(field, "  New   Starter ");
    await user.click(screen.getByRole("button", { name: "Add" }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(server.calls.find((call) => call.method === "PATCH")?.body).toEqual({ add: ["new starter"] });
    expect(onChanged.mock.calls[0]![0]).toMatchObject({ tags: ["new starter", "printer"] });
    expect(await screen.findByText("Tag added")).toBeInTheDocument();
    expect(field).toHaveValue("");
  });

  it("removes a tag with its own button", async () => {
    const ticket = makeTicket({ tags: ["printer", "vpn"] });
    const { server, onChanged, user } = setup(ticket);
    await user.click(screen.getByRole("button", { name: "Remove tag vpn" }));
    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledOnce());
    expect(server.calls.find((call) => call.method === "PATCH")?.body).toEqual({ remove: ["vpn"] });
    expect(onChanged.mock.calls[0]![0]).toMatchObject({ tags: ["printer"] });
  });

  it("checks a tag before sending it, and shows the server's refusal of one outside the fixed list", async () => {
    const ticket = makeTicket({ tags: [] });
    const refusal =
      "The tag “laptop” is not in the list of allowed tags. Choose one of the listed tags, or ask an administrator to add it.";
    const { server, onRefused, user } = setup(ticket, {
      fixed: true,
      answer: { status: 422, body: { code: "rule_violation", message: refusal } },
    });
    expect(
      await screen.findByText("Only the tags an administrator listed can be added."),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText("Add a tag"), "x".repeat(41));
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(screen.getByText("A tag must be at most 40 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Add a tag")).toHaveAttribute("aria-invalid", "true");
    expect(server.calls.filter((call) => call.method === "PATCH")).toEqual([]);

    await user.clear(screen.getByLabelText("Add a tag"));
    await user.type(screen.getByLabelText("Add a tag"), "laptop");
    await user.click(screen.getByRole("button", { name: "Add" }));
    await vi.waitFor(() => expect(onRefused).toHaveBeenCalledOnce());
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });

  it("shows the tags without controls where they may not change (a Closed ticket)", () => {
    const { server } = setup(makeTicket({ status: "Closed", tags: ["vpn"] }));
    expect(screen.getByText("vpn")).toBeInTheDocument();
    expect(screen.queryByLabelText("Add a tag")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Remove tag vpn" })).not.toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });
});
