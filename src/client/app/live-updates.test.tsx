import { useQuery } from "@tanstack/react-query";
import { act, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NotificationBell } from "#client/features/notifications/components/notification-bell.tsx";
import { forgetPresence, useOthersOnTicket } from "#client/features/presence/presence-store.ts";
import { ticketQuery } from "#client/features/tickets/ticket.api.ts";
import { getLiveStream, useLiveStream } from "#client/lib/live-stream-store.ts";
import { FakeEventSource } from "#client/test/fake-event-source.ts";
import { makeMe, makeNotification, makeTicket } from "#client/test/fixtures.ts";
import { notificationRoutes } from "#client/test/notification-routes.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Notification } from "#shared/notifications/notification.schemas.ts";
import { LiveUpdates } from "./live-updates.tsx";

/** Records what the technician alert sound does instead of playing it. */
class FakeAudio {
  static played: FakeAudio[] = [];
  loop = false;
  volume = 0.5;
  isPaused = true;
  constructor(readonly src: string) {}
  play() {
    this.isPaused = false;
    FakeAudio.played.push(this);
    return Promise.resolve();
  }
  pause() {
    this.isPaused = true;
  }
}

function OpenTicket({ ticketId }: { ticketId: string }) {
  const { data } = useQuery(ticketQuery(ticketId));
  return <p>Ticket {data?.title}</p>;
}

function Presence() {
  const people = useOthersOnTicket("TKT1", "me-1");
  return <p data-testid="presence">{people.map((person) => `${person.name} ${person.state}`).join(", ")}</p>;
}

function StreamState() {
  const { state, lastEventId, reconnects } = useLiveStream();
  return <p data-testid="stream">{`${state} ${lastEventId ?? "-"} ${reconnects}`}</p>;
}

function setup({
  role = "user" as "user" | "technician",
  notifications = [] as Notification[],
  soundsMuted = false,
  firstTicketRead = Promise.resolve(),
} = {}) {
  const server = notificationRoutes(notifications);
  let ticketReads = 0;
  const stub = stubFetch({
    ...server.routes,
    "GET /api/me": { body: makeMe({ id: "me-1", role }) },
    "GET /api/me/notification-settings": { body: { emailTypes: [], soundsMuted } },
    "GET /api/tickets/TKT1": () => {
      ticketReads++;
      return { body: makeTicket({ ticketId: "TKT1", title: `read ${ticketReads}` }) };
    },
  });
  let ticketCalls = 0;
  // The first read of the ticket is answered only once `firstTicketRead` settles (a slow answer).
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const answer = stub.fetchStub(input, init);
    if (String(input).startsWith("/api/tickets/TKT1") && ++ticketCalls === 1) await firstTicketRead;
    return answer;
  });
  const result = renderWithApp(
    <>
      <LiveUpdates />
      <NotificationBell userId="me-1" />
      <OpenTicket ticketId="TKT1" />
      <StreamState />
      <Presence />
    </>,
  );
  const listCalls = () => stub.calls.filter((call) => call.url.startsWith("/api/notifications?")).length;
  const ticketReadsStarted = () => stub.calls.filter((call) => call.url === "/api/tickets/TKT1").length;
  return { ...result, server, calls: stub.calls, listCalls, ticketReadsStarted };
}

const streamOpened = () => vi.waitFor(() => FakeEventSource.latest());

beforeEach(() => {
  FakeEventSource.instances = [];
  FakeAudio.played = [];
  localStorage.clear();
  vi.stubGlobal("EventSource", FakeEventSource);
  vi.stubGlobal("Audio", FakeAudio);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("LiveUpdates", () => {
  it("opens one stream for the signed-in person", async () => {
    setup();
    const source = await streamOpened();
    expect(source.url).toBe("/api/notifications/stream");
    expect(FakeEventSource.instances).toHaveLength(1);
    act(() => source.open());
    expect(screen.getByTestId("stream")).toHaveTextContent("open - 0");
  });

  it("shows a new notification on the badge and says New notification received to a user", async () => {
    const { server } = setup();
    const source = await streamOpened();
    act(() => source.open());
    await screen.findByText("Ticket read 1");
    const notification = makeNotification({ notificationId: "7", ticketId: "TKT1", uid: "me-1" });
    server.items.push(notification);
    act(() => source.emit("notification", notification, "7"));

    expect(await screen.findByRole("button", { name: "Open notifications (1 unread)" })).toBeInTheDocument();
    expect(await screen.findByText("New notification received")).toBeInTheDocument();
    // The ticket it is about is read again, so an open ticket page shows the change.
    expect(await screen.findByText("Ticket read 2")).toBeInTheDocument();
    expect(getLiveStream().lastEventId).toBe("7");
    expect(FakeAudio.played).toHaveLength(0);
  });

  it("raises the red technician alert with its sound for a new ticket, and Silence stops it", async () => {
    setup({ role: "technician" });
    const source = await streamOpened();
    act(() => source.open());
    act(() =>
      source.emit(
        "notification",
        makeNotification({ notificationId: "8", type: "new_ticket", message: "NEW TICKET CREATED: Printer" }),
        "8",
      ),
    );
    expect(
      await screen.findByText("NEW TICKET CREATED - 15 second alert for technician"),
    ).toBeInTheDocument();
    expect(FakeAudio.played).toHaveLength(1);
    const [sound] = FakeAudio.played;
    expect(sound).toMatchObject({ src: "/sounds/technician-alert.wav", loop: true, volume: 1 });
    screen.getByRole("button", { name: "Silence" }).click();
    expect(sound!.isPaused).toBe(true);
  });

  it("says NEW COMMENT ON TICKET to a technician for a comment", async () => {
    setup({ role: "technician" });
    const source = await streamOpened();
    act(() => source.emit("notification", makeNotification({ notificationId: "9", type: "ticket_comment" })));
    expect(
      await screen.findByText("NEW COMMENT ON TICKET - 15 second alert for technician"),
    ).toBeInTheDocument();
  });

  it("shows the toast but plays nothing when the person muted sounds", async () => {
    setup({ role: "technician", soundsMuted: true });
    const source = await streamOpened();
    // The saved setting reaches this browser's copy first.
    await vi.waitFor(() => expect(localStorage.getItem("helpdesk:sounds-muted:me-1")).toBe("true"));
    act(() =>
      source.emit(
        "notification",
        makeNotification({ notificationId: "10", type: "new_ticket", message: "NEW TICKET CREATED: Mouse" }),
      ),
    );
    expect(
      await screen.findByText("NEW TICKET CREATED - 15 second alert for technician"),
    ).toBeInTheDocument();
    expect(FakeAudio.played).toHaveLength(0);
  });

  it("does not alert for an old notification or twice for the same text", async () => {
    setup();
    const source = await streamOpened();
    const old = new Date(Date.now() - 60_000).toISOString();
    act(() => source.emit("notification", makeNotification({ notificationId: "1", timestamp: old })));
    act(() => {
      source.emit("notification", makeNotification({ notificationId: "2" }));
      source.emit("notification", makeNotification({ notificationId: "3" }));
    });
    expect(await screen.findAllByText("New notification received")).toHaveLength(1);
  });

  it("reads a ticket again when the stream says it changed", async () => {
    setup();
    const source = await streamOpened();
    await screen.findByText("Ticket read 1");
    act(() => source.emit("ticket", { ticketId: "TKT1" }));
    expect(await screen.findByText("Ticket read 2")).toBeInTheDocument();
  });

  it("hands who is on a ticket (a presence frame) to the page that shows it, and reads nothing for it", async () => {
    const { calls } = setup({ role: "technician" });
    const source = await streamOpened();
    await screen.findByText("Ticket read 1");
    const before = calls.length;
    const people = [{ userId: "admin-1", name: "Ada Admin", state: "typing" as const }];
    act(() => source.emit("presence", { ticketId: "TKT1", people }));
    expect(screen.getByTestId("presence")).toHaveTextContent("Ada Admin typing");
    expect(calls).toHaveLength(before);
    forgetPresence("TKT1");
  });

  it("reads a ticket again when it changed while its first read was still on its way", async () => {
    let answerFirstRead = () => {};
    const { ticketReadsStarted } = setup({
      firstTicketRead: new Promise<void>((resolve) => {
        answerFirstRead = resolve;
      }),
    });
    const source = await streamOpened();
    // The first read left before the change (its answer is "read 1"); the change is pushed before it returns.
    await vi.waitFor(() => expect(ticketReadsStarted()).toBe(1));
    act(() => source.emit("ticket", { ticketId: "TKT1" }));
    answerFirstRead();
    expect(await screen.findByText("Ticket read 2")).toBeInTheDocument();
  });

  it("polls the notifications every 2 s while the stream is down, and stops when it is back", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { listCalls } = setup();
    const source = await streamOpened();
    act(() => source.open());
    await act(() => vi.advanceTimersByTimeAsync(100));
    const before = listCalls();

    act(() => source.fail());
    expect(screen.getByTestId("stream")).toHaveTextContent("polling");
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(listCalls()).toBeGreaterThan(before);
    const afterOne = listCalls();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(listCalls()).toBeGreaterThan(afterOne);

    act(() => source.open());
    expect(screen.getByTestId("stream")).toHaveTextContent("open - 1");
    await act(() => vi.advanceTimersByTimeAsync(100));
    const whenBack = listCalls();
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    expect(listCalls()).toBe(whenBack);
  });

  it("alerts for a new notification found while polling", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { server } = setup();
    const source = await streamOpened();
    act(() => source.fail());
    server.items.push(makeNotification({ notificationId: "11", uid: "me-1" }));
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(await screen.findByText("New notification received")).toBeInTheDocument();
  });

  it("opens a new stream, from the last event id, after the server refused one", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup();
    const first = await streamOpened();
    act(() => first.emit("notification", makeNotification({ notificationId: "41" }), "41"));
    act(() => first.fail({ isFinal: true }));
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(FakeEventSource.latest().url).toBe("/api/notifications/stream?lastEventId=41");
  });

  it("opens a new stream from the position ready named when no notification came", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup();
    const first = await streamOpened();
    act(() => first.emit("ready", { lastEventId: "57" }, "57"));
    act(() => first.fail({ isFinal: true }));
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(FakeEventSource.latest().url).toBe("/api/notifications/stream?lastEventId=57");
  });

  it("closes the stream when the person signs out", async () => {
    const { queryClient } = setup();
    const source = await streamOpened();
    act(() => queryClient.setQueryData(["me"], null));
    await vi.waitFor(() => expect(source.readyState).toBe(FakeEventSource.CLOSED));
    expect(screen.getByTestId("stream")).toHaveTextContent("idle");
  });

  it("says Error loading user role when the account cannot be loaded", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({ "GET /api/me": { status: 500, body: { code: "internal", message: "boom" } } }).fetchStub,
    );
    renderWithApp(<LiveUpdates />);
    expect(await screen.findByText("Error loading user role")).toBeInTheDocument();
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it("shows a desktop notification when the tab is in the background and the person opted in", async () => {
    const shown: { title: string; body?: string }[] = [];
    class FakeNotification {
      static permission = "granted";
      onclick: (() => void) | null = null;
      constructor(title: string, options: { body?: string }) {
        shown.push({ title, body: options.body });
      }
      close() {}
    }
    vi.stubGlobal("Notification", FakeNotification);
    localStorage.setItem("helpdesk:desktop-notifications:me-1", "true");
    vi.spyOn(document, "hidden", "get").mockReturnValue(true);
    setup();
    const source = await streamOpened();
    act(() => source.emit("notification", makeNotification({ notificationId: "5", message: "Hello there" })));
    await vi.waitFor(() => expect(shown).toEqual([{ title: "Helpdesk", body: "Hello there" }]));
    vi.restoreAllMocks();
  });
});
