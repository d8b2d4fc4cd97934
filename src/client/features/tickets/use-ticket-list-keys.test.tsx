import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { TicketList } from "./components/ticket-list.tsx";

const tickets = [
  makeTicket({ ticketId: "TKT0M5AAAAAA0000001A", title: "First ticket" }),
  makeTicket({ ticketId: "TKT0M5AAAAAA0000002B", title: "Second ticket" }),
  makeTicket({ ticketId: "TKT0M5AAAAAA0000003C", title: "Third ticket" }),
];

// The selection is remembered per list for the whole tab, so each test uses a list of its own.
function setup(path: string) {
  vi.stubGlobal(
    "fetch",
    stubFetch({ "GET /api/tickets": { body: { items: tickets, nextCursor: null } } }).fetchStub,
  );
  const view = renderWithApp(<TicketList filters={{ scope: "visible" }} />, {
    path,
    routes: { "/tickets/:ticketId": <p>Ticket page</p> },
  });
  return { router: view.router, user: userEvent.setup() };
}

const row = (title: string) => screen.getByRole("link", { name: new RegExp(title) });
/** Focus moves in an effect after the selection changes: wait for it rather than expect it in the same tick. */
const expectFocused = (title: string) => waitFor(() => expect(row(title)).toHaveFocus());

describe("the ticket list by keyboard", () => {
  it("moves a focused selection with j and k, staying within the list", async () => {
    const { user } = setup("/tickets?q=one");
    await screen.findByText("First ticket");
    await user.keyboard("j");
    await expectFocused("First ticket");
    await user.keyboard("jjj");
    await expectFocused("Third ticket");
    await user.keyboard("k");
    await expectFocused("Second ticket");
  });

  it("moves with ↓ and ↑ once focus is in the list", async () => {
    const { user } = setup("/tickets?q=two");
    await screen.findByText("First ticket");
    await user.keyboard("j{ArrowDown}{ArrowDown}{ArrowUp}");
    await expectFocused("Second ticket");
  });

  it("opens the selected ticket with o, asking the ticket page to focus its title", async () => {
    const { router, user } = setup("/tickets?q=three");
    await screen.findByText("First ticket");
    await user.keyboard("jjo");
    expect(await screen.findByText("Ticket page")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/tickets/TKT0M5AAAAAA0000002B");
    expect(router.state.location.state).toEqual({ focusTitle: true });
  });

  it("selects the same row again when the person comes back by keyboard", async () => {
    const first = setup("/tickets?status=Open");
    await screen.findByText("First ticket");
    await first.user.keyboard("jjj");
    first.router.navigate("/tickets/TKT0M5AAAAAA0000003C");
    await screen.findByText("Ticket page");
    first.router.navigate("/tickets?status=Open", { state: { fromKeyboard: true } });
    await screen.findByText("Third ticket");
    await expectFocused("Third ticket");
  });
});
