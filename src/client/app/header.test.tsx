import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { Header } from "./header.tsx";

// Signed out, /api/me answers 200 null (no console error).
const signedOut = { body: null };

describe("Header", () => {
  it("offers Sign In and sends every entry to /sign-in when nobody is signed in", async () => {
    vi.stubGlobal("fetch", stubFetch({ "GET /api/me": signedOut }).fetchStub);
    renderWithApp(<Header />);
    expect(await screen.findByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/sign-in");
    expect(screen.queryByRole("link", { name: "Profile" })).not.toBeInTheDocument();
    for (const name of ["Helpdesk", "Dashboard", "Tickets", "Knowledge Base", "Notifications"]) {
      expect(screen.getByRole("link", { name })).toHaveAttribute("href", "/sign-in");
    }
  });

  it("offers Profile and the real destinations when signed in", async () => {
    vi.stubGlobal("fetch", stubFetch({ "GET /api/me": { body: makeMe({ role: "technician" }) } }).fetchStub);
    renderWithApp(<Header />);
    expect(await screen.findByRole("link", { name: "Profile" })).toHaveAttribute("href", "/profile");
    expect(screen.queryByRole("link", { name: "Sign In" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Helpdesk" })).toHaveAttribute("href", "/technician-home");
    expect(screen.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/technician-home");
    expect(screen.getByRole("link", { name: "Tickets" })).toHaveAttribute("href", "/tickets");
    expect(screen.getByRole("link", { name: "Knowledge Base" })).toHaveAttribute("href", "/Knowledge-base");
    expect(screen.getByRole("link", { name: "Notifications" })).toHaveAttribute("href", "/notifications");
  });

  it("says Away on the Profile link while a technician is marked away (decision 073)", async () => {
    const away = makeMe({ role: "technician", awaySince: "2030-01-07T09:00:00.000Z" });
    vi.stubGlobal("fetch", stubFetch({ "GET /api/me": { body: away } }).fetchStub);
    renderWithApp(<Header />);
    expect(await screen.findByRole("link", { name: "Profile Away" })).toHaveAttribute("href", "/profile");
  });

  it("opens the notifications dropdown from the bell, with the unread count on it", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "GET /api/me": { body: makeMe() },
        "GET /api/notifications/counts": { body: { all: 3, unread: 2, read: 1 } },
        "GET /api/notifications": { body: { items: [], nextCursor: null } },
      }).fetchStub,
    );
    const user = userEvent.setup();
    renderWithApp(<Header />);
    await user.click(await screen.findByRole("button", { name: "Open notifications (2 unread)" }));
    expect(screen.getByRole("heading", { name: "Notifications" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "View all notifications" })).toHaveAttribute(
      "href",
      "/notifications",
    );
  });

  it("sends a signed-out visitor's bell to /sign-in", async () => {
    vi.stubGlobal("fetch", stubFetch({ "GET /api/me": signedOut }).fetchStub);
    const user = userEvent.setup();
    const { router } = renderWithApp(<Header />);
    await screen.findByRole("link", { name: "Sign In" });
    await user.click(screen.getByRole("button", { name: "Open notifications" }));
    expect(router.state.location.pathname).toBe("/sign-in");
  });

  it("shows the entries in a menu on small screens", async () => {
    vi.stubGlobal("fetch", stubFetch({ "GET /api/me": { body: makeMe() } }).fetchStub);
    const user = userEvent.setup();
    renderWithApp(<Header />);
    await screen.findByRole("link", { name: "Profile" });
    const toggle = screen.getByRole("button", { name: "Toggle menu" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("navigation", { name: "Mobile" })).not.toBeInTheDocument();

    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const menu = screen.getByRole("navigation", { name: "Mobile" });
    expect(menu).toHaveTextContent("DashboardTicketsKnowledge BaseNotificationsProfile");

    await user.click(within(menu).getByRole("link", { name: "Tickets" }));
    expect(screen.queryByRole("navigation", { name: "Mobile" })).not.toBeInTheDocument();
  });
});
