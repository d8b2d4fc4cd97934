import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stubFetch } from "#client/test/render.tsx";
import { presenceHeartbeatMs, typingIdleMs } from "#shared/presence/presence.schemas.ts";
import { forgetPresence } from "./presence-store.ts";
import { useTicketPresence } from "./use-ticket-presence.ts";

const ticketId = "TKT0M5ABCDEF1234567";
const path = `/api/tickets/${ticketId}/presence`;

function setup(answer: { status?: number; body?: unknown } = { body: { ticketId, people: [] } }) {
  const server = stubFetch({ [`PUT ${path}`]: answer, [`DELETE ${path}`]: { status: 204 } });
  vi.stubGlobal("fetch", server.fetchStub);
  const hook = renderHook(({ isEnabled }) => useTicketPresence(ticketId, isEnabled), {
    initialProps: { isEnabled: true },
  });
  const states = () =>
    server.calls.map((call) =>
      call.method === "PUT" ? (call.body as { state: string }).state : call.method,
    );
  return { hook, states };
}

/** Lets the timers run and the requests they started be answered. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  forgetPresence(ticketId);
});

describe("useTicketPresence", () => {
  it("says viewing at once and every heartbeat, typing while the draft is touched, viewing after a pause", async () => {
    const { hook, states } = setup();
    await pass(0);
    expect(states()).toEqual(["viewing"]);
    await pass(presenceHeartbeatMs);
    expect(states()).toEqual(["viewing", "viewing"]);

    act(() => hook.result.current.reportDraft("S"));
    act(() => hook.result.current.reportDraft("Sw"));
    await pass(typingIdleMs - 1);
    act(() => hook.result.current.reportDraft("Swa"));
    await pass(typingIdleMs - 1);
    // One request as typing starts, not one a keystroke; the heartbeat meanwhile says typing too.
    expect(states()).toEqual(["viewing", "viewing", "typing", "typing"]);
    await pass(1);
    expect(states()).toEqual(["viewing", "viewing", "typing", "typing", "viewing"]);

    hook.unmount();
    await pass(0);
    expect(states().at(-1)).toBe("DELETE");
    await pass(presenceHeartbeatMs * 3);
    expect(states()).toHaveLength(6);
  });

  it("stops telling once the server refuses (the ticket is no longer theirs to see)", async () => {
    const { hook, states } = setup({ status: 404, body: { code: "not_found", message: "Ticket not found" } });
    await pass(presenceHeartbeatMs * 3);
    expect(states()).toEqual(["viewing"]);
    hook.unmount();
    await pass(0);
    expect(states()).toEqual(["viewing"]);
  });

  it("tells nothing when not enabled (a requester, a ticket not loaded)", async () => {
    const { states } = setup();
    await pass(0);
    expect(states()).toEqual(["viewing"]);
    const other = renderHook(() => useTicketPresence("TKT0M5ABCDEF7654321", false));
    await pass(presenceHeartbeatMs);
    other.unmount();
    expect(states().filter((s) => s !== "viewing")).toEqual([]);
  });
});
