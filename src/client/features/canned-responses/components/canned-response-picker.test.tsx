import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import TicketPage from "#client/pages/ticket.tsx";
import { makeActivity, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { CannedResponse } from "#shared/canned-responses/canned-response.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";

const ticket = makeTicket({ title: "VPN drops", createdByName: "Uma Lopez" });
const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });

const response = (overrides: Partial<CannedResponse>): CannedResponse => ({
  id: "crs_1",
  title: "Reboot",
  body: "Hi {{creator.firstName}}, please restart.",
  scope: "personal",
  ownerId: "tech-1",
  ownerName: "Theo Tech",
  createdAt: "2025-11-20T09:30:00.000Z",
  updatedAt: "2025-11-20T09:30:00.000Z",
  ...overrides,
});

function setup(me: Me) {
  const server = stubFetch({
    "GET /api/me": { body: me },
    [`GET /api/tickets/${ticket.ticketId}`]: { body: ticket },
    [`GET /api/tickets/${ticket.ticketId}/activity`]: { body: makeActivity() },
    "GET /api/canned-responses": {
      body: {
        // Sorted by title, as the server sends them.
        items: [
          response({
            id: "crs_2",
            title: "Closing",
            body: "{{ticket.id}} ({{ticket.title}}) is fixed. {{agent.name}}",
            scope: "shared",
          }),
          response({}),
        ],
      },
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<p>Elsewhere</p>, {
    path: `/tickets/${ticket.ticketId}`,
    routes: { "/tickets/:ticketId": <TicketPage /> },
  });
  return userEvent.setup();
}

describe("CannedResponsePicker", () => {
  it("opens with Ctrl+/ in the comment box, filters, moves with the arrows and inserts the filled text at the cursor", async () => {
    const user = setup(technician);
    const box = await screen.findByLabelText("Add a comment");
    await user.type(box, "Hello. ");
    await user.keyboard("{Control>}/{/Control}");
    const search = await screen.findByRole("combobox", { name: "Search canned responses" });
    expect(search).toHaveFocus();
    // The picker's own list: the page has other options too (the ticket's Team select, for staff).
    const list = await screen.findByRole("listbox");
    expect(await within(list).findAllByRole("option")).toHaveLength(2);

    await user.keyboard("fixed");
    expect(within(list).getAllByRole("option")).toHaveLength(1);
    expect(screen.getByRole("option", { name: /Closing/ })).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{Enter}");

    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    expect(box).toHaveFocus();
    expect(box).toHaveValue(`Hello. ${ticket.ticketId} (VPN drops) is fixed. Theo Tech`);
  });

  it("moves through the list with the arrow keys, and Escape closes it and returns to the comment box", async () => {
    const user = setup(technician);
    await user.click(await screen.findByRole("button", { name: /Insert response/ }));
    await screen.findAllByRole("option");
    expect(screen.getByRole("option", { name: /Closing/ })).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("option", { name: /Reboot/ })).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("option", { name: /Closing/ })).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowUp}{Enter}");
    expect(screen.getByLabelText("Add a comment")).toHaveValue("Hi Uma, please restart.");

    const toggle = screen.getByRole("button", { name: /Insert response/ });
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await user.click(toggle);
    expect(screen.queryByRole("combobox", { name: "Search canned responses" })).not.toBeInTheDocument();

    await user.click(toggle);
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("combobox", { name: "Search canned responses" })).not.toBeInTheDocument();
    expect(screen.getByLabelText("Add a comment")).toHaveFocus();
  });

  it("is not offered to a user", async () => {
    setup(makeMe({ id: "user-1", role: "user" }));
    await screen.findByLabelText("Add a comment");
    expect(screen.queryByRole("button", { name: /Insert response/ })).not.toBeInTheDocument();
  });
});
