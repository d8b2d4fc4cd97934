import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithApp } from "#client/test/render.tsx";
import TestNotificationsPage from "./test-notifications.tsx";

const tones: { type: string; frequency: number; gain: number; seconds: number }[] = [];

/** Records the tones the page asks Web Audio for (the app keeps one context, so one fake per file). */
class FakeAudioContext {
  state = "running";
  currentTime = 0;
  destination = {};
  resume = () => Promise.resolve();
  createGain() {
    return { gain: { value: 1 }, connect: (node: unknown) => node };
  }
  createOscillator() {
    const gains: { gain: { value: number } }[] = [];
    const oscillator = {
      type: "sine",
      frequency: { value: 440 },
      connect: (node: { gain: { value: number } }) => {
        gains.push(node);
        return node;
      },
      start: () => {},
      stop: (at?: number) => {
        if (at !== undefined)
          tones.push({
            type: oscillator.type,
            frequency: oscillator.frequency.value,
            gain: gains[0]?.gain.value ?? 1,
            seconds: at,
          });
      },
    };
    return oscillator;
  }
}

beforeAll(() => {
  // Set up (and kept) before the first test, since the app creates its AudioContext once.
  vi.stubGlobal("AudioContext", FakeAudioContext);
});
beforeEach(() => {
  tones.length = 0;
  vi.stubGlobal("AudioContext", FakeAudioContext);
});

describe("TestNotificationsPage", () => {
  it("plays the test beep: 200 ms, 800 Hz sine, gain 0.1", async () => {
    renderWithApp(<TestNotificationsPage />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Play test beep" }));
    expect(tones).toEqual([{ type: "sine", frequency: 800, gain: 0.1, seconds: 0.2 }]);
  });

  it("plays the user alert: a 200 ms square beep and New notification received", async () => {
    renderWithApp(<TestNotificationsPage />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Play user alert" }));
    expect(tones).toMatchObject([{ type: "square", seconds: 0.2 }]);
    expect(await screen.findByText("New notification received")).toBeInTheDocument();
  });

  it("plays the technician alert with its red toast, and falls back to a beep of at most 2 s when the sound cannot play", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let attempts = 0;
      vi.stubGlobal(
        "Audio",
        class {
          loop = false;
          volume = 0;
          play() {
            attempts++;
            return Promise.reject(new DOMException("blocked", "NotAllowedError"));
          }
          pause() {}
        },
      );
      renderWithApp(<TestNotificationsPage />);
      await userEvent
        .setup({ advanceTimers: vi.advanceTimersByTime })
        .click(screen.getByRole("button", { name: "Play technician alert" }));
      expect(
        await screen.findByText("NEW TICKET CREATED - 15 second alert for technician"),
      ).toBeInTheDocument();
      await vi.waitFor(() => expect(attempts).toBe(1));
      expect(tones).toHaveLength(0);
      // One retry after 1 s, then the fallback beep.
      await vi.advanceTimersByTimeAsync(1_000);
      expect(attempts).toBe(2);
      await vi.waitFor(() => expect(tones).toHaveLength(1));
      expect(tones[0]!.seconds).toBeLessThanOrEqual(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
