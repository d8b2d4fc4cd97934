import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { updateLiveStream } from "#client/lib/live-stream-store.ts";
import { makeMe, makeNotification } from "#client/test/fixtures.ts";
import { notificationRoutes } from "#client/test/notification-routes.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import DebugNotificationsPage from "./debug-notifications.tsx";

function setup() {
  const server = notificationRoutes([]);
  const stub = stubFetch({
    ...server.routes,
    "GET /api/me": { body: makeMe({ id: "me-1" }) },
    "POST /api/notifications": ({ body }) => {
      const input = body as { uid: string; message: string; type: "test" };
      // The server's validation, as the contract words it.
      if (!input.message.trim())
        return { status: 400, body: { code: "validation_failed", message: "message: Message is required" } };
      if (!input.uid.trim())
        return { status: 400, body: { code: "validation_failed", message: "uid: User ID is required" } };
      const created = makeNotification({ notificationId: "21", ...input });
      server.items.unshift(created);
      return { status: 201, body: created };
    },
  });
  vi.stubGlobal("fetch", stub.fetchStub);
  renderWithApp(<DebugNotificationsPage />, { path: "/debug-notifications" });
  return { calls: stub.calls, user: userEvent.setup() };
}

describe("DebugNotificationsPage", () => {
  it("creates a test notification for the signed-in person and lists it", async () => {
    const { calls, user } = setup();
    const message = await screen.findByLabelText("Message");
    await user.clear(message);
    await user.type(message, "Hello from the debug page");
    await user.click(screen.getByRole("button", { name: "Create notification" }));
    expect(await screen.findByText("Created notification 21.")).toBeInTheDocument();
    expect(calls.find((call) => call.method === "POST")?.body).toEqual({
      uid: "me-1",
      message: "Hello from the debug page",
      type: "test",
    });
    expect(await screen.findByRole("listitem")).toHaveTextContent("Hello from the debug page");
  });

  it("shows the server's Message is required", async () => {
    const { user } = setup();
    await user.clear(await screen.findByLabelText("Message"));
    await user.click(screen.getByRole("button", { name: "Create notification" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Message is required");
  });

  it("shows the server's User ID is required", async () => {
    const { user } = setup();
    await user.clear(await screen.findByLabelText("User ID"));
    await user.click(screen.getByRole("button", { name: "Create notification" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("User ID is required");
  });

  it("shows the live stream's state, last event id and reconnects", async () => {
    setup();
    updateLiveStream({ state: "open", lastEventId: "42", reconnects: 3 });
    const stream = await screen.findByLabelText("Live stream");
    expect(within(stream).getByText("Open")).toBeInTheDocument();
    expect(within(stream).getByText("42")).toBeInTheDocument();
    expect(within(stream).getByText("3")).toBeInTheDocument();
  });
});
