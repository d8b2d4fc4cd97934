import { useQuery } from "@tanstack/react-query";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { notificationCountsQuery } from "#client/features/notifications/notification.api.ts";
import { makeNotification } from "#client/test/fixtures.ts";
import { notificationRoutes } from "#client/test/notification-routes.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { NotificationBell } from "./notification-bell.tsx";

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const unreadComment = makeNotification({
  notificationId: "2",
  message: "Theo commented on ticket TKT1: On my way",
  ticketId: "TKT1",
  timestamp: new Date().toISOString(),
});
const readStatus = makeNotification({
  notificationId: "1",
  type: "ticket_status",
  message: "Theo changed the status of ticket TKT1 from Open to In Progress",
  ticketId: "TKT1",
  read: true,
  timestamp: minutesAgo(5),
});

function setup(items = [unreadComment, readStatus], extra: Parameters<typeof stubFetch>[0] = {}) {
  const server = notificationRoutes(items);
  const stub = stubFetch({ ...server.routes, ...server.markReadRoute("2"), ...extra });
  vi.stubGlobal("fetch", stub.fetchStub);
  const result = renderWithApp(
    <>
      <NotificationBell userId="user-1" />
      <CountsShown />
    </>,
    {
      routes: { "/notifications": <p>All notifications page</p>, "/tickets/:id": <p>Ticket page</p> },
    },
  );
  return { ...result, calls: stub.calls, user: userEvent.setup() };
}

/**
 * Says when the counts have answered. A bell with nothing unread looks the same before its counts arrive,
 * so a test of "no badge" waits for this first; the bell reads the same query and renders in the same commit.
 */
function CountsShown() {
  const { data } = useQuery(notificationCountsQuery());
  return data ? <p>Counts shown</p> : null;
}

describe("NotificationBell", () => {
  it("shows the unread count on its badge", async () => {
    setup();
    expect(await screen.findByRole("button", { name: "Open notifications (1 unread)" })).toBeInTheDocument();
    expect(screen.getByTestId("notification-badge")).toHaveTextContent("1");
  });

  it("has no badge when everything is read", async () => {
    setup([readStatus]);
    await screen.findByText("Counts shown");
    expect(screen.getByRole("button", { name: "Open notifications" })).toBeInTheDocument();
    expect(screen.queryByTestId("notification-badge")).not.toBeInTheDocument();
  });

  it("says Loading notifications... until the list arrives", async () => {
    const { user } = setup([], {
      "GET /api/notifications": () => new Promise(() => {}) as never,
    });
    await user.click(screen.getByRole("button", { name: /Open notifications/ }));
    expect(screen.getByRole("heading", { name: "Notifications" })).toBeInTheDocument();
    expect(screen.getByText("Loading notifications...")).toBeInTheDocument();
  });

  it("says No notifications when there are none", async () => {
    const { user } = setup([]);
    await user.click(screen.getByRole("button", { name: /Open notifications/ }));
    expect(await screen.findByText("No notifications")).toBeInTheDocument();
  });

  it("lists messages with their time, highlights unread ones and offers Mark as read only on them", async () => {
    const { user } = setup();
    await user.click(await screen.findByRole("button", { name: /Open notifications/ }));
    const panel = screen.getByRole("region", { name: "Notifications" });
    const items = await within(panel).findAllByRole("listitem");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Theo commented on ticket TKT1: On my way");
    expect(items[0]).toHaveTextContent("Just now");
    expect(items[0]).toHaveAttribute("data-unread", "true");
    expect(within(items[0]!).getByRole("button", { name: "Mark as read" })).toBeInTheDocument();
    expect(items[1]).toHaveTextContent("5 min ago");
    expect(items[1]).not.toHaveAttribute("data-unread");
    expect(within(items[1]!).queryByRole("button", { name: "Mark as read" })).not.toBeInTheDocument();
  });

  it("marks one as read, says so, and the badge goes", async () => {
    const { user, calls } = setup();
    await user.click(await screen.findByRole("button", { name: "Open notifications (1 unread)" }));
    await user.click(await screen.findByRole("button", { name: "Mark as read" }));
    expect(await screen.findByText("Notification marked as read")).toBeInTheDocument();
    expect(calls.some((call) => call.method === "POST" && call.url === "/api/notifications/2/read")).toBe(
      true,
    );
    expect(await screen.findByRole("button", { name: "Open notifications" })).toBeInTheDocument();
    expect(screen.queryByTestId("notification-badge")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Mark as read" })).not.toBeInTheDocument();
  });

  it("says so when marking as read fails", async () => {
    const { user } = setup([unreadComment], {
      "POST /api/notifications/2/read": { status: 500, body: { code: "internal", message: "boom" } },
    });
    await user.click(await screen.findByRole("button", { name: /Open notifications/ }));
    await user.click(await screen.findByRole("button", { name: "Mark as read" }));
    expect(await screen.findByText("Failed to mark notification as read")).toBeInTheDocument();
  });

  it("shows the spec's text and a toast when the list cannot load", async () => {
    const { user } = setup([], {
      "GET /api/notifications": { status: 503, body: { code: "unavailable", message: "Database down" } },
    });
    await user.click(await screen.findByRole("button", { name: /Open notifications/ }));
    expect(await screen.findByText("Service temporarily unavailable. Please try again.")).toBeInTheDocument();
    expect(await screen.findByText("Failed to fetch notifications")).toBeInTheDocument();
  });

  it("closes on Escape and gives focus back to the bell", async () => {
    const { user } = setup();
    const bell = await screen.findByRole("button", { name: /Open notifications/ });
    await user.click(bell);
    expect(bell).toHaveAttribute("aria-expanded", "true");
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("region", { name: "Notifications" })).not.toBeInTheDocument();
    expect(bell).toHaveAttribute("aria-expanded", "false");
    expect(bell).toHaveFocus();
  });

  it("opens a notification's ticket", async () => {
    const { user, router } = setup();
    await user.click(await screen.findByRole("button", { name: /Open notifications/ }));
    await user.click(await screen.findByRole("link", { name: /Theo commented on ticket TKT1/ }));
    expect(router.state.location.pathname).toBe("/tickets/TKT1");
  });

  it("leads to /notifications through View all notifications", async () => {
    const { user, router } = setup();
    await user.click(await screen.findByRole("button", { name: /Open notifications/ }));
    await user.click(screen.getByRole("link", { name: "View all notifications" }));
    expect(router.state.location.pathname).toBe("/notifications");
  });

  it("asks for desktop notifications only when the person clicks Enable desktop notifications", async () => {
    const requestPermission = vi.fn(async () => "granted" as const);
    vi.stubGlobal("Notification", { permission: "default", requestPermission });
    localStorage.clear();
    const { user } = setup();
    await user.click(await screen.findByRole("button", { name: /Open notifications/ }));
    expect(requestPermission).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Enable desktop notifications" }));
    expect(requestPermission).toHaveBeenCalledOnce();
    expect(localStorage.getItem("helpdesk:desktop-notifications:user-1")).toBe("true");
    expect(screen.queryByRole("button", { name: "Enable desktop notifications" })).not.toBeInTheDocument();
  });
});
