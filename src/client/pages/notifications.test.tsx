import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeNotification } from "#client/test/fixtures.ts";
import { notificationRoutes } from "#client/test/notification-routes.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import NotificationsPage from "./notifications.tsx";

const items = [
  makeNotification({ notificationId: "3", message: "New comment on TKT3", ticketId: "TKT3" }),
  makeNotification({ notificationId: "2", message: "New comment on TKT2", ticketId: "TKT2" }),
  makeNotification({ notificationId: "1", message: "TKT1 was resolved", ticketId: "TKT1", read: true }),
];

function setup(extra: Parameters<typeof stubFetch>[0] = {}) {
  const server = notificationRoutes(items);
  const stub = stubFetch({ ...server.routes, ...extra });
  vi.stubGlobal("fetch", stub.fetchStub);
  const result = renderWithApp(<NotificationsPage />, {
    path: "/notifications",
    routes: { "/tickets/:id": <p>Ticket page</p> },
  });
  return { ...result, calls: stub.calls, user: userEvent.setup() };
}

const panel = () => screen.getByRole("tabpanel");

describe("NotificationsPage", () => {
  it("shows the tabs All, Unread and Read with their counts", async () => {
    setup();
    expect(await screen.findByRole("tab", { name: "All (3)" })).toHaveAttribute("aria-selected", "true");
    // The counts may arrive after the list: wait for each.
    expect(await screen.findByRole("tab", { name: "Unread (2)" })).toBeInTheDocument();
    expect(await screen.findByRole("tab", { name: "Read (1)" })).toBeInTheDocument();
    expect(await within(panel()).findAllByRole("listitem")).toHaveLength(3);
  });

  it("lists only unread or only read notifications on their tabs", async () => {
    const { user, router } = setup();
    await user.click(await screen.findByRole("tab", { name: "Unread (2)" }));
    expect(router.state.location.search).toBe("?filter=unread");
    await within(panel()).findByText("New comment on TKT3");
    expect(within(panel()).getAllByRole("listitem")).toHaveLength(2);
    expect(within(panel()).queryByText("TKT1 was resolved")).not.toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Read (1)" }));
    expect(await within(panel()).findByText("TKT1 was resolved")).toBeInTheDocument();
    expect(within(panel()).getAllByRole("listitem")).toHaveLength(1);
  });

  it("marks everything read with Mark All as Read, says so and updates the counts", async () => {
    const { user, calls } = setup();
    await user.click(await screen.findByRole("button", { name: "Mark All as Read" }));
    expect(await screen.findByText("All notifications marked as read")).toBeInTheDocument();
    expect(calls.filter((call) => call.url === "/api/notifications/read-all")).toHaveLength(1);
    expect(await screen.findByRole("tab", { name: "Unread (0)" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Read (3)" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Mark All as Read" })).toBeDisabled();
    expect(within(panel()).queryByRole("button", { name: "Mark as read" })).not.toBeInTheDocument();
  });

  it("says Error updating notifications when Mark All as Read fails", async () => {
    const { user } = setup({
      "POST /api/notifications/read-all": { status: 500, body: { code: "internal", message: "boom" } },
    });
    await user.click(await screen.findByRole("button", { name: "Mark All as Read" }));
    expect(await screen.findByText("Error updating notifications")).toBeInTheDocument();
  });

  it("opens the ticket of a notification", async () => {
    const { user, router } = setup();
    await user.click(await screen.findByRole("link", { name: /New comment on TKT2/ }));
    expect(router.state.location.pathname).toBe("/tickets/TKT2");
  });

  it.each([
    [403, "forbidden", "No", "Permission denied. Please check your authentication."],
    [503, "unavailable", "Down", "Service temporarily unavailable. Please try again."],
    [500, "internal", "Disk full", "Disk full"],
  ])("shows the spec's text for a list that fails with %s", async (status, code, message, text) => {
    setup({ "GET /api/notifications": { status, body: { code, message } } });
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(await screen.findByText("Failed to fetch notifications")).toBeInTheDocument();
  });

  it("retries a network failure twice, 2 s × attempt apart, then says Network connection error", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const server = notificationRoutes(items);
      const stub = stubFetch(server.routes);
      let listAttempts = 0;
      vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input).startsWith("/api/notifications?")) {
          listAttempts++;
          throw new TypeError("Failed to fetch");
        }
        return stub.fetchStub(input, init);
      });
      renderWithApp(<NotificationsPage />, { path: "/notifications" });
      await vi.waitFor(() => expect(listAttempts).toBe(1));
      await vi.advanceTimersByTimeAsync(2_000);
      expect(listAttempts).toBe(2);
      await vi.advanceTimersByTimeAsync(4_000);
      expect(listAttempts).toBe(3);
      expect(
        await screen.findByText("Network connection error. Please check your internet connection."),
      ).toBeInTheDocument();
      expect(listAttempts).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
