import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Role } from "#shared/users/roles.ts";
import TicketsPage from "./tickets.tsx";

function setup({ path = "/tickets", role = "user" as Role } = {}) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role }) },
    "GET /api/tickets": ({ url }) => ({
      body: {
        items: url.includes("q=nothing") ? [] : [makeTicket({ title: "Printer jams" })],
        nextCursor: null,
      },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const { router } = renderWithApp(<p>Elsewhere</p>, { path, routes: { "/tickets": <TicketsPage /> } });
  const listCalls = () =>
    server.calls.map((call) => call.url).filter((url) => url.startsWith("/api/tickets?"));
  return { router, listCalls, user: userEvent.setup() };
}

describe("TicketsPage", () => {
  it.each([
    ["admin", "All Tickets"],
    ["technician", "Available & Assigned Tickets"],
  ] as const)("titles the list for a %s %j, with no create button", async (role, title) => {
    setup({ role });
    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Create New Ticket" })).not.toBeInTheDocument();
  });

  it("titles the list My Tickets for a user and offers the create button", async () => {
    setup({ role: "user" });
    expect(await screen.findByRole("button", { name: "Create New Ticket" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "My Tickets" })).toBeInTheDocument();
  });

  it("offers a search box and Status, Priority and Category filters, each starting at All", async () => {
    setup();
    expect(await screen.findByLabelText("Search tickets")).toHaveValue("");
    for (const [label, options] of [
      ["Status", ["All", "Open", "In Progress", "Resolved", "Closed"]],
      ["Priority", ["All", "Low", "Medium", "High"]],
      ["Category", ["All", "Hardware", "Software", "Network", "Other"]],
    ] as const) {
      const select = screen.getByLabelText(label);
      expect(select).toHaveValue("");
      expect(
        within(select)
          .getAllByRole("option")
          .map((option) => option.textContent),
      ).toEqual(options);
    }
  });

  it("reads the filters from the URL and asks the server for them", async () => {
    const { listCalls } = setup({ path: "/tickets?status=Resolved&priority=High&category=Network&q=vpn" });
    expect(await screen.findByText("Printer jams")).toBeInTheDocument();
    expect(screen.getByLabelText("Search tickets")).toHaveValue("vpn");
    expect(screen.getByLabelText("Status")).toHaveValue("Resolved");
    expect(screen.getByLabelText("Priority")).toHaveValue("High");
    expect(screen.getByLabelText("Category")).toHaveValue("Network");
    expect(listCalls()).toEqual([
      "/api/tickets?scope=visible&status=Resolved&priority=High&category=Network&q=vpn",
    ]);
  });

  it("puts a chosen filter in the URL and lists again", async () => {
    const { router, listCalls, user } = setup();
    await screen.findByText("Printer jams");
    await user.selectOptions(screen.getByLabelText("Priority"), "High");
    await vi.waitFor(() => expect(listCalls()).toContain("/api/tickets?scope=visible&priority=High"));
    expect(router.state.location.search).toBe("?priority=High");

    await user.selectOptions(screen.getByLabelText("Priority"), "All");
    expect(router.state.location.search).toBe("");
  });

  it("searches once the person stops typing, and says when nothing matches", async () => {
    const { router, listCalls, user } = setup();
    await screen.findByText("Printer jams");
    await user.type(screen.getByLabelText("Search tickets"), "nothing");
    expect(await screen.findByText("No tickets match")).toBeInTheDocument();
    expect(router.state.location.search).toBe("?q=nothing");
    // One request for the whole word, not one per keystroke.
    expect(listCalls()).toEqual(["/api/tickets?scope=visible", "/api/tickets?scope=visible&q=nothing"]);

    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(await screen.findByText("Printer jams")).toBeInTheDocument();
    expect(screen.getByLabelText("Search tickets")).toHaveValue("");
    expect(router.state.location.search).toBe("");
  });

  it("offers an Export CSV download of the list as filtered", async () => {
    const { user } = setup();
    await screen.findByText("Printer jams");
    const link = screen.getByRole("link", { name: "Export CSV" });
    expect(link).toHaveAttribute("href", "/api/tickets/export.csv?scope=visible");
    expect(link).toHaveAttribute("download");
    await user.selectOptions(screen.getByLabelText("Priority"), "High");
    expect(screen.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/tickets/export.csv?scope=visible&priority=High",
    );
  });

  it("folds the filters behind a Filters button that says how many are on and whether it is open", async () => {
    const { user } = setup({
      path: "/tickets?status=Open&priority=High&due=overdue&q=vpn",
      role: "technician",
    });
    await screen.findByText("Printer jams");
    // The search is not one of them: it stays out of the fold.
    const toggle = screen.getByRole("button", { name: "Filters (3)" });
    expect(screen.getByLabelText("Due")).toHaveValue("overdue");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    const panels = (toggle.getAttribute("aria-controls") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id));
    expect(panels[0]).toContainElement(screen.getByLabelText("Status"));
    expect(panels[0]).not.toContainElement(screen.getByLabelText("Search tickets"));

    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    await user.selectOptions(screen.getByLabelText("Category"), "Network");
    expect(screen.getByRole("button", { name: "Filters (4)" })).toBe(toggle);
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  it("names the Filters button without a count when none is on", async () => {
    setup({ path: "/tickets?q=vpn" });
    await screen.findByText("Printer jams");
    expect(screen.getByRole("button", { name: "Filters" })).toHaveAttribute("aria-expanded", "false");
  });

  it("ignores filter values it does not know", async () => {
    const { listCalls } = setup({ path: "/tickets?status=Lost&priority=Urgent" });
    await screen.findByText("Printer jams");
    expect(screen.getByLabelText("Status")).toHaveValue("");
    expect(listCalls()).toEqual(["/api/tickets?scope=visible"]);
  });
});

describe("TicketsPage order and count", () => {
  it("sorts by priority, High first, keeping the filters, with the order in the address", async () => {
    const { router, listCalls, user } = setup({ path: "/tickets?status=Open" });
    await screen.findByText("Printer jams");
    const sort = screen.getByLabelText("Sort by");
    expect(sort).toHaveValue("created.desc");
    expect(screen.getByText("Newest first.")).toBeInTheDocument();

    await user.selectOptions(sort, "Priority: High to Low");
    await vi.waitFor(() =>
      expect(listCalls()).toContain("/api/tickets?scope=visible&status=Open&sort=priority&dir=desc"),
    );
    expect(router.state.location.search).toBe("?status=Open&sort=priority&dir=desc");
    expect(screen.getByText("Priority: High to Low.")).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText("Sort by"), "Status: Closed to Open");
    expect(router.state.location.search).toBe("?status=Open&sort=status&dir=desc");
    await user.selectOptions(screen.getByLabelText("Sort by"), "Newest first");
    expect(router.state.location.search).toBe("?status=Open");
  });

  it("reads the order from the address; only staff are offered the due-time order", async () => {
    const { listCalls } = setup({ path: "/tickets?sort=updated&dir=asc", role: "user" });
    await screen.findByText("Printer jams");
    expect(screen.getByLabelText("Sort by")).toHaveValue("updated.asc");
    expect(listCalls()).toEqual(["/api/tickets?scope=visible&sort=updated&dir=asc"]);
    const options = within(screen.getByLabelText("Sort by"))
      .getAllByRole("option")
      .map((option) => option.textContent);
    expect(options).toEqual([
      "Newest first",
      "Oldest first",
      "Recently updated",
      "Least recently updated",
      "Priority: High to Low",
      "Priority: Low to High",
      "Status: Open to Closed",
      "Status: Closed to Open",
    ]);
  });

  it("gives a technician the due-time order from the address", async () => {
    const { listCalls } = setup({ path: "/tickets?sort=due", role: "technician" });
    await screen.findByText("Printer jams");
    await vi.waitFor(() => expect(screen.getByLabelText("Sort by")).toHaveValue("due.asc"));
    expect(listCalls().at(-1)).toBe("/api/tickets?scope=visible&sort=due");
  });
});
