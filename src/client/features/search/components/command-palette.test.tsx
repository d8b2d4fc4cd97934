import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { activateLocale } from "#client/lib/i18n.ts";
import { makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { SearchResults } from "#shared/search/search.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import CommandPalette from "./command-palette.tsx";

const printer = makeTicket({ ticketId: "TKT0M5AAAAAA0000001A", title: "Printer jams", status: "Open" });
const vpn = makeTicket({ ticketId: "TKT0M5AAAAAA0000002B", title: "VPN drops", status: "In Progress" });
const results: SearchResults = {
  tickets: [printer, vpn],
  people: [{ id: "tech-2", name: "Grace Hopper", role: "technician" }],
};

function setup(me: Me, answer: SearchResults = results) {
  const server = stubFetch({ "GET /api/me": { body: me }, "GET /api/search": { body: answer } });
  vi.stubGlobal("fetch", server.fetchStub);
  const onClose = vi.fn();
  const view = renderWithApp(<CommandPalette onClose={onClose} />, {
    routes: {
      "/tickets/:ticketId": <p>Ticket page</p>,
      "/admin/user-management": <p>User management</p>,
    },
  });
  return { server, onClose, router: view.router, user: userEvent.setup() };
}

const searchCalls = (calls: { url: string }[]) => calls.filter((call) => call.url.startsWith("/api/search"));

describe("CommandPalette", () => {
  it("speaks German: counts with plurals and ticket statuses in the active language", async () => {
    await activateLocale("de");
    try {
      const { user } = setup(makeMe({ role: "technician" }));
      const box = screen.getByRole("combobox", { name: "Tickets und Personen suchen" });
      await user.type(box, "printer");
      expect(await screen.findByRole("option", { name: /VPN drops.*In Bearbeitung/ })).toBeInTheDocument();
      expect(screen.getByRole("status")).toHaveTextContent("2 Tickets, 1 Person");
    } finally {
      await activateLocale("en");
    }
  });

  it("is a combobox with focus, asking the server once the person pauses typing", async () => {
    const { server, user } = setup(makeMe({ role: "technician" }));
    const box = screen.getByRole("combobox", { name: "Search tickets and people" });
    expect(box).toHaveFocus();
    await user.type(box, "printer");
    expect(await screen.findByRole("option", { name: /Printer jams/ })).toBeInTheDocument();
    expect(searchCalls(server.calls).map((call) => call.url)).toEqual(["/api/search?q=printer"]);
    expect(box).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("status")).toHaveTextContent("2 tickets, 1 person");
  });

  it("moves through the results with ↑/↓ and opens the active ticket with Enter", async () => {
    const { onClose, router, user } = setup(makeMe({ role: "technician" }));
    const box = screen.getByRole("combobox");
    await user.type(box, "jams");
    const first = await screen.findByRole("option", { name: /Printer jams/ });
    expect(first).toHaveAttribute("aria-selected", "true");
    expect(box).toHaveAttribute("aria-activedescendant", first.id);
    await user.keyboard("{ArrowDown}");
    const second = screen.getByRole("option", { name: /VPN drops/ });
    expect(second).toHaveAttribute("aria-selected", "true");
    expect(box).toHaveAttribute("aria-activedescendant", second.id);
    await user.keyboard("{ArrowDown}{ArrowUp}{ArrowUp}{ArrowUp}{Enter}");
    expect(onClose).toHaveBeenCalled();
    expect(router.state.location.pathname).toBe("/tickets/TKT0M5AAAAAA0000002B");
    expect(router.state.location.state).toEqual({ focusTitle: true });
  });

  it("opens a ticket typed as a whole id at once, with or without a hyphen after TKT", async () => {
    const { router, user } = setup(makeMe({ role: "technician" }), { tickets: [], people: [] });
    await user.type(screen.getByRole("combobox"), "tkt-0m5aaaaaa0000001a{Enter}");
    expect(router.state.location.pathname).toBe("/tickets/TKT0M5AAAAAA0000001A");
  });

  it("offers an administrator people, who open in user management", async () => {
    const { router, user } = setup(makeMe({ role: "admin" }));
    await user.type(screen.getByRole("combobox"), "grace");
    await user.click(await screen.findByRole("option", { name: /Grace Hopper/ }));
    expect(router.state.location.pathname).toBe("/admin/user-management");
    expect(router.state.location.search).toBe("?q=Grace+Hopper");
  });

  it("shows a technician people's names and roles, but not as choices", async () => {
    const { user } = setup(makeMe({ role: "technician" }));
    await user.type(screen.getByRole("combobox"), "grace");
    await screen.findByRole("option", { name: /Printer jams/ });
    expect(screen.queryByRole("option", { name: /Grace Hopper/ })).not.toBeInTheDocument();
    const people = screen.getByRole("region", { name: "People" });
    expect(people).toHaveTextContent("Grace Hopper");
    expect(people).toHaveTextContent("Technician");
  });

  it("says when nothing matches", async () => {
    const { user } = setup(makeMe(), { tickets: [], people: [] });
    await user.type(screen.getByRole("combobox"), "nothing here");
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Nothing found."));
    expect(screen.queryByRole("option")).not.toBeInTheDocument();
  });

  it("closes with Escape", async () => {
    const { onClose, user } = setup(makeMe());
    await user.keyboard("{Escape}");
    expect(onClose).toHaveBeenCalled();
  });
});
